"""Hold-out re-scoring of fronts and the pooled average/best fronts of several runs.

A front here is an (n, 2) float array of (classification error rate, selection ratio) rows,
both minimised and in [0, 1]; its rows come from boolean feature masks of shape (n, D).
"""

import numpy as np

from pymoo_fs.analysis.indicators import _as_front, nondominated

__all__ = ["rescore_front", "average_front", "best_front"]

# Selection ratios closer than this are the same subset size (|S| / D differs by at least 1 / D).
_RATIO_ATOL = 1e-9


def rescore_front(problem, masks, X_test=None, y_test=None):
    """Objectives of feature masks on the hold-out test set.

    Algorithms build their fronts on training data (inner cross-validation); this re-scores
    the same masks with the classifier fitted on the whole training set and tested on the
    hold-out set. The test front may contain dominated points.

    Parameters
    ----------
    problem : object
        Anything with a method ``holdout_objectives(masks, X_test=None, y_test=None)``
        returning an array of shape (n, n_obj), such as the problems of
        :mod:`pymoo_fs.problems`.
    masks : array_like of bool, shape (n, D)
        Feature masks, one row per solution (``True``: feature selected). Integer 0/1 arrays
        are accepted and converted to bool.
    X_test : array_like of float, shape (n_test, D), optional
        Test features, passed on to ``problem.holdout_objectives``; ``None`` lets the problem
        use the test set it holds.
    y_test : array_like, shape (n_test,), optional
        Test labels, passed on likewise.

    Returns
    -------
    F_test : ndarray of float64, shape (n, n_obj)
        Test objectives, row ``i`` for ``masks[i]``, in the order of ``masks`` (not filtered,
        not sorted).

    Raises
    ------
    TypeError
        If ``problem`` has no callable ``holdout_objectives``.
    ValueError
        If ``masks`` is not 2-D or holds values other than 0/1, or the problem returns an
        array that is not 2-D with one row per mask.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.analysis import rescore_front
    >>> class Ratio:
    ...     def holdout_objectives(self, masks, X_test=None, y_test=None):
    ...         return np.column_stack([np.zeros(len(masks)), masks.mean(axis=1)])
    >>> rescore_front(Ratio(), np.array([[True, False], [True, True]]))
    array([[0. , 0.5],
           [0. , 1. ]])
    """
    method = getattr(problem, "holdout_objectives", None)
    if not callable(method):
        raise TypeError(
            f"problem must have a holdout_objectives(masks, X_test, y_test) method, "
            f"got {type(problem).__name__}"
        )
    masks = np.asarray(masks)
    if masks.ndim != 2:
        raise ValueError(f"masks must be 2-D of shape (n, D), got shape {masks.shape}")
    if masks.dtype != bool:
        if not np.all(np.isin(masks, (0, 1))):
            raise ValueError("masks must be boolean (or hold only 0 and 1)")
        masks = masks.astype(bool)
    F = np.asarray(method(masks, X_test=X_test, y_test=y_test), dtype=float)
    if F.ndim != 2 or F.shape[0] != masks.shape[0]:
        raise ValueError(
            f"problem.holdout_objectives returned shape {F.shape}, expected "
            f"({masks.shape[0]}, n_obj)"
        )
    return F


def _pool(F_list):
    """Concatenate a sequence of (n_i, 2) fronts into one (sum n_i, 2) float array."""
    F_list = list(F_list)
    if len(F_list) == 0:
        raise ValueError("F_list must hold at least one front, got an empty sequence")
    parts = [_as_front(F, f"F_list[{i}]", n_obj=2) for i, F in enumerate(F_list)]
    return np.concatenate(parts, axis=0)


def average_front(F_list):
    """Average front of several runs: mean error per subset size over the pooled fronts.

    Parameters
    ----------
    F_list : sequence of array_like of float, each of shape (n_i, 2)
        The fronts of the runs, columns (classification error rate, selection ratio). Empty
        fronts are allowed.

    Returns
    -------
    A : ndarray of float64, shape (k, 2)
        One row per distinct selection ratio in the union of the fronts, sorted by ratio
        ascending: column 0 is the mean error of all union members with that ratio, column 1
        the ratio. ``k == 0`` when every front is empty. ``A`` may contain dominated rows.

    Raises
    ------
    ValueError
        If ``F_list`` is empty, or a front is not of shape (n_i, 2) or holds NaN or inf.

    Notes
    -----
    Every member of the union counts, duplicates included: a subset size found by several
    runs weighs each run's error equally. Ratios within 1e-9 of each other are one subset
    size (two sizes differ by at least 1/D).

    References
    ----------
    B. H. Nguyen, B. Xue, I. Liu, P. Andreae and M. Zhang, "New mechanism for archive
    maintenance in PSO-based multi-objective feature selection", Soft Computing 20,
    3927-3946 (2016), doi:10.1007/s00500-016-2128-8, section "Results and discussion".

    Examples
    --------
    >>> from pymoo_fs.analysis import average_front
    >>> run1 = [[0.20, 0.1], [0.10, 0.3]]
    >>> run2 = [[0.30, 0.1], [0.05, 0.5]]
    >>> average_front([run1, run2])
    array([[0.25, 0.1 ],
           [0.1 , 0.3 ],
           [0.05, 0.5 ]])
    """
    U = _pool(F_list)
    if len(U) == 0:
        return np.empty((0, 2), dtype=float)
    U = U[np.argsort(U[:, 1], kind="stable")]
    # a new group starts wherever the sorted ratio jumps by more than the tolerance
    starts = np.flatnonzero(np.concatenate(([True], np.diff(U[:, 1]) > _RATIO_ATOL)))
    counts = np.diff(np.append(starts, len(U)))
    mean_error = np.add.reduceat(U[:, 0], starts) / counts
    ratio = U[starts, 1]
    return np.column_stack([mean_error, ratio])


def best_front(F_list):
    """Best front of several runs: the non-dominated members of the pooled fronts.

    Parameters
    ----------
    F_list : sequence of array_like of float, each of shape (n_i, 2)
        The fronts of the runs, columns (classification error rate, selection ratio). Empty
        fronts are allowed.

    Returns
    -------
    B : ndarray of float64, shape (k, 2)
        The non-dominated rows of the union, each distinct vector once, sorted by error
        ascending (hence ratio descending), as :func:`~pymoo_fs.analysis.nondominated`
        returns them. ``k == 0`` when every front is empty.

    Raises
    ------
    ValueError
        If ``F_list`` is empty, or a front is not of shape (n_i, 2) or holds NaN or inf.

    References
    ----------
    B. H. Nguyen, B. Xue, I. Liu, P. Andreae and M. Zhang, "New mechanism for archive
    maintenance in PSO-based multi-objective feature selection", Soft Computing 20,
    3927-3946 (2016), doi:10.1007/s00500-016-2128-8, section "Results and discussion".

    Examples
    --------
    >>> from pymoo_fs.analysis import best_front
    >>> run1 = [[0.20, 0.1], [0.10, 0.3]]
    >>> run2 = [[0.30, 0.1], [0.05, 0.5]]
    >>> best_front([run1, run2])
    array([[0.05, 0.5 ],
           [0.1 , 0.3 ],
           [0.2 , 0.1 ]])
    """
    return nondominated(_pool(F_list))
