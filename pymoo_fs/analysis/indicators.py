"""Non-dominated filtering, hypervolume and IGD of feature-selection fronts.

Every function takes objective vectors ``F`` of shape (n, n_obj), all objectives minimised (for
bi-objective feature selection: classification error rate and selection ratio, both in [0, 1]).
The arithmetic is pymoo's: :class:`pymoo.util.nds.non_dominated_sorting.NonDominatedSorting`,
:class:`pymoo.indicators.hv.HV` and :class:`pymoo.indicators.igd.IGD`; this module only fixes the
conventions (duplicates, ordering, empty fronts, input checks).
"""

import numpy as np
from pymoo.indicators.hv import HV
from pymoo.indicators.igd import IGD

from pymoo_fs.pareto import nondominated_union

__all__ = ["nondominated", "reference_front", "hypervolume", "igd"]


def _as_front(F, name, n_obj=None):
    """Return ``F`` as a finite float array of shape (n, n_obj), or raise ``ValueError``.

    Parameters
    ----------
    F : array_like, shape (n, n_obj)
        Objective vectors.
    name : str
        Argument name used in error messages.
    n_obj : int or None, default None
        Required number of columns; ``None`` accepts any number >= 1.
    """
    try:
        F = np.asarray(F, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric array of shape (n, n_obj); {exc}") from exc
    if F.ndim != 2:
        raise ValueError(f"{name} must be 2-D of shape (n, n_obj), got shape {F.shape}")
    if F.shape[1] < 1:
        raise ValueError(f"{name} must have at least one objective column, got shape {F.shape}")
    if n_obj is not None and F.shape[1] != n_obj:
        raise ValueError(
            f"{name} must have {n_obj} objective columns, got shape {F.shape}"
        )
    if not np.all(np.isfinite(F)):
        raise ValueError(f"{name} must contain only finite values (no NaN or inf)")
    return F


def nondominated(F, return_index=False):
    """Non-dominated rows of a set of objective vectors, each distinct vector once.

    Parameters
    ----------
    F : array_like of float, shape (n, n_obj)
        Objective vectors, every objective minimised.
    return_index : bool, default False
        Also return the row indices into ``F`` of the rows kept.

    Returns
    -------
    N : ndarray of float64, shape (k, n_obj)
        The rows of ``F`` that no other row dominates (Pareto dominance: no worse in every
        objective, strictly better in at least one, on :func:`pymoo_fs.pareto.on_grid`
        values). Rows with equal objective vectors are kept once (their first occurrence in
        ``F``). Rows are sorted lexicographically: by the
        first objective ascending, ties by the second, and so on; for a bi-objective front
        this is ascending first objective and descending second. An empty ``F`` of shape
        (0, n_obj) gives an empty (0, n_obj) array.
    index : ndarray of int64, shape (k,)
        Only when ``return_index`` is true: ``N == F[index]``.

    Raises
    ------
    ValueError
        If ``F`` is not 2-D, has no column, or holds NaN or inf.

    Notes
    -----
    The filter is the archives' own, :func:`pymoo_fs.pareto.nondominated_union` (pymoo's
    fast non-dominated sort on objectives compared on the grid of
    :func:`pymoo_fs.pareto.on_grid`, first occurrence of each distinct vector kept), so the
    hypervolume and IGD of a front never count a point dominated only up to rounding; this
    function validates the input and sorts the result.

    References
    ----------
    J. Blank and K. Deb, "pymoo: Multi-Objective Optimization in Python", IEEE Access 8,
    89497-89509 (2020), doi:10.1109/ACCESS.2020.2990567.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.analysis import nondominated
    >>> F = np.array([[0.4, 0.3], [0.2, 0.6], [0.5, 0.5], [0.2, 0.6]])
    >>> nondominated(F)
    array([[0.2, 0.6],
           [0.4, 0.3]])
    >>> nondominated(F, return_index=True)[1]
    array([1, 0])
    """
    F = _as_front(F, "F")
    if len(F) == 0:
        empty = np.empty((0, F.shape[1]), dtype=float)
        return (empty, np.empty(0, dtype=np.int64)) if return_index else empty
    keep = nondominated_union(F)
    keep = keep[np.lexsort(F[keep].T[::-1])]
    if return_index:
        return F[keep], keep
    return F[keep]


def reference_front(fronts):
    """Non-dominated union of several fronts, the reference set for IGD.

    Parameters
    ----------
    fronts : sequence of array_like, each of shape (n_i, n_obj)
        Fronts to pool (for example the final fronts of every algorithm and run being
        compared). All must have the same number of objectives; empty fronts are allowed.

    Returns
    -------
    R : ndarray of float64, shape (k, n_obj)
        The non-dominated rows of the union, each distinct vector once, in the order of
        :func:`nondominated`.

    Raises
    ------
    ValueError
        If ``fronts`` is empty, or a front is not 2-D, holds NaN or inf, or has a different
        number of objectives from the first.

    See Also
    --------
    igd : uses this set as its reference.

    Examples
    --------
    >>> from pymoo_fs.analysis import reference_front
    >>> reference_front([[[0.2, 0.6], [0.5, 0.4]], [[0.3, 0.3]]])
    array([[0.2, 0.6],
           [0.3, 0.3]])
    """
    fronts = list(fronts)
    if len(fronts) == 0:
        raise ValueError("fronts must hold at least one front, got an empty sequence")
    first = _as_front(fronts[0], "fronts[0]")
    parts = [first]
    for i, F in enumerate(fronts[1:], start=1):
        parts.append(_as_front(F, f"fronts[{i}]", n_obj=first.shape[1]))
    return nondominated(np.concatenate(parts, axis=0))


def hypervolume(F, ref_point=(1.0, 1.0)):
    """Hypervolume (HV) of a front: the volume it dominates, bounded by a reference point.

    Higher is better.

    Parameters
    ----------
    F : array_like of float, shape (n, n_obj)
        Objective vectors, every objective minimised. Dominated and duplicate rows are removed
        first (:func:`nondominated`); they would not change the value anyway.
    ref_point : array_like of float, shape (n_obj,), default (1.0, 1.0)
        Reference point, no better than any point of interest. The default is the worst
        corner of the bi-objective feature-selection space (error rate 1, all features
        selected). No normalisation is applied.

    Returns
    -------
    hv : float
        Lebesgue measure of the union of the boxes ``[f, ref_point]`` over the rows ``f`` of
        ``F``. A row not strictly better than ``ref_point`` in every objective contributes
        nothing; an empty ``F`` gives 0.0.

    Raises
    ------
    ValueError
        If ``F`` is not 2-D or holds NaN or inf, or ``ref_point`` is not a finite vector with
        one entry per column of ``F``.

    Notes
    -----
    Computed by :class:`pymoo.indicators.hv.HV` (which calls ``moocore``) with
    ``ref_point`` as given.

    References
    ----------
    E. Zitzler and L. Thiele, "Multiobjective evolutionary algorithms: a comparative case
    study and the strength Pareto approach", IEEE Transactions on Evolutionary Computation
    3(4), 257-271 (1999), doi:10.1109/4235.797969.

    J. Blank and K. Deb, "pymoo: Multi-Objective Optimization in Python", IEEE Access 8,
    89497-89509 (2020), doi:10.1109/ACCESS.2020.2990567.

    Examples
    --------
    >>> from pymoo_fs.analysis import hypervolume
    >>> round(hypervolume([[0.2, 0.6], [0.4, 0.3], [0.7, 0.1]]), 10)
    0.56
    """
    F = _as_front(F, "F")
    ref = np.asarray(ref_point, dtype=float)
    if ref.shape != (F.shape[1],):
        raise ValueError(
            f"ref_point must have shape ({F.shape[1]},) to match F, got shape {ref.shape}"
        )
    if not np.all(np.isfinite(ref)):
        raise ValueError(f"ref_point must be finite, got {ref_point!r}")
    N = nondominated(F)
    # points not strictly inside the reference box add no volume; drop them explicitly
    N = N[np.all(N < ref, axis=1)]
    if len(N) == 0:
        return 0.0
    return float(HV(ref_point=ref)(N))


def igd(F, reference):
    """Inverted generational distance (IGD) of a front to a reference set.

    Lower is better.

    Parameters
    ----------
    F : array_like of float, shape (n, n_obj)
        Objective vectors, every objective minimised; only the non-dominated subset is used
        (:func:`nondominated`). Must not be empty.
    reference : array_like of float, shape (k, n_obj)
        Reference set, used as given; usually :func:`reference_front` of all fronts being
        compared. Must not be empty.

    Returns
    -------
    value : float
        Mean, over the rows ``r`` of ``reference``, of the Euclidean distance from ``r`` to its
        nearest non-dominated row of ``F``. No normalisation is applied.

    Raises
    ------
    ValueError
        If ``F`` or ``reference`` is not 2-D, is empty or holds NaN or inf, or their numbers of
        objectives differ.

    Notes
    -----
    Computed by :class:`pymoo.indicators.igd.IGD` (which calls ``moocore``).

    References
    ----------
    C. A. Coello Coello and M. Reyes Sierra, "A study of the parallelization of a
    coevolutionary multi-objective evolutionary algorithm", MICAI 2004, Lecture Notes in
    Computer Science 2972, 688-697 (2004), doi:10.1007/978-3-540-24694-7_71.

    J. Blank and K. Deb, "pymoo: Multi-Objective Optimization in Python", IEEE Access 8,
    89497-89509 (2020), doi:10.1109/ACCESS.2020.2990567.

    Examples
    --------
    >>> from pymoo_fs.analysis import igd
    >>> round(igd([[0.0, 1.0]], reference=[[0.0, 1.0], [1.0, 0.0]]), 6)
    0.707107
    """
    F = _as_front(F, "F")
    if len(F) == 0:
        raise ValueError("F must hold at least one point, got an empty front")
    R = _as_front(reference, "reference")
    if len(R) == 0:
        raise ValueError("reference must hold at least one point, got an empty set")
    if R.shape[1] != F.shape[1]:
        raise ValueError(
            f"reference must have {F.shape[1]} objective columns like F, got shape {R.shape}"
        )
    return float(IGD(R)(nondominated(F)))
