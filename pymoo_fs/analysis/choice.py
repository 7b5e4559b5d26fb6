"""Choosing one feature subset from a front of (error, number of features).

A bi-objective search returns a front of subsets, each trading classification error against
size; a pipeline needs one. :func:`choose_from_front` states the rules
:class:`~pymoo_fs.selector.SwarmFeatureSelector` offers (``select=``), each a pure function of
the front's two columns, so that each can be worked out by hand.
"""

import numbers

import numpy as np

from pymoo_fs._validation import check_int, check_real
from pymoo_fs.pareto import on_grid

__all__ = ["SELECTION_RULES", "choose_from_front", "knee_index"]

#: the named rules of :func:`choose_from_front` (an int feature budget is the fourth rule)
SELECTION_RULES = ("knee", "min_error", "within_tol")


def choose_from_front(error, n_features, rule="knee", tol=0.01):
    """Index of the subset a rule picks from a front.

    Parameters
    ----------
    error : array-like of float, shape (n,)
        Inner-CV classification error of each subset, in [0, 1].
    n_features : array-like of int, shape (n,)
        Number of features of each subset, at least 1.
    rule : {"knee", "min_error", "within_tol"} or int, default="knee"
        How to pick (ties are broken in the order given, then by the first index):

        ``"knee"``
            The knee of the front, :func:`knee_index`: the subset farthest below the straight
            line joining the front's two extremes, in coordinates normalised to the front's
            ranges. Ties: lower error, then fewer features.
        ``"min_error"``
            The lowest error. Ties: fewer features; errors are compared on the grid of
            :func:`pymoo_fs.pareto.on_grid` (40 significant bits), as everywhere a front is
            built, so cross-validated means of the same number of mistakes that differ in
            their last bits tie.
        ``"within_tol"``
            The fewest features among the subsets whose error is at most
            ``min(error) + tol``, compared on the grid of :func:`pymoo_fs.pareto.on_grid` (so
            that an error exactly ``tol`` above the best is not lost to rounding). Ties: lower
            error.
        int ``k >= 1``
            A feature budget: the lowest error among the subsets with at most ``k`` features.
            Ties (on the grid): fewer features. Raises ``ValueError`` when every subset has
            more than ``k``.
    tol : float, default=0.01
        Absolute error tolerance of ``"within_tol"`` (0.01 is one percentage point of error),
        ``>= 0``; unused by the other rules.

    Returns
    -------
    index : int
        Row of the chosen subset in ``error`` / ``n_features``.

    Raises
    ------
    ValueError
        If the arrays are empty, of different lengths, not 1-D, hold non-finite errors or
        sizes below 1; if ``rule`` is unknown, ``tol`` negative; or if no subset fits an int
        budget (the message gives the smallest size on the front).

    Notes
    -----
    The rules are defined on any set of points; on a non-dominated front (each size at most
    once, error falling as size grows) ``"min_error"`` is the largest subset, ``"within_tol"``
    with ``tol=0`` equals ``"min_error"``, and a budget ``k`` gives the largest subset with at
    most ``k`` features.

    Examples
    --------
    >>> from pymoo_fs.analysis import choose_from_front
    >>> error = [0.30, 0.20, 0.12, 0.11, 0.10]
    >>> n_features = [1, 2, 4, 8, 16]
    >>> [choose_from_front(error, n_features, rule)
    ...  for rule in ("knee", "min_error", "within_tol", 5)]
    [2, 4, 3, 2]
    """
    error, n_features = _check_front(error, n_features)
    if isinstance(rule, str):
        if rule == "knee":
            return knee_index(error, n_features)
        if rule in ("min_error", "within_tol"):
            tol = 0.0 if rule == "min_error" else check_real("tol", tol, low=0.0)
            near = np.flatnonzero(on_grid(error) <= on_grid(error.min() + tol))
            return int(near[np.lexsort((error[near], n_features[near]))[0]])
    elif isinstance(rule, numbers.Integral) and not isinstance(rule, (bool, np.bool_)):
        k = check_int("select", rule, low=1)
        fits = np.flatnonzero(n_features <= k)
        if fits.size == 0:
            raise ValueError(f"no subset on the front has at most select={k} features; the "
                             f"smallest has {int(n_features.min())}")
        return int(fits[np.lexsort((n_features[fits], on_grid(error[fits])))[0]])
    raise ValueError(f"rule must be one of {SELECTION_RULES} or an int feature budget >= 1, "
                     f"got {rule!r}")


def knee_index(error, n_features):
    """Index of the knee of a front: the point farthest below the line between its extremes.

    Parameters
    ----------
    error : array-like of float, shape (n,)
        Error of each subset.
    n_features : array-like of int, shape (n,)
        Size of each subset.

    Returns
    -------
    index : int
        ``argmin(e + s)`` with ``e = (error - min error) / (max error - min error)`` and
        ``s = (n_features - min size) / (max size - min size)`` (a zero range gives 0); ties go
        to the lower error, then the fewer features, then the first index.

    Raises
    ------
    ValueError
        As :func:`choose_from_front`.

    Notes
    -----
    On a non-dominated front the extremes are the smallest subset (largest error), at
    normalised ``(s, e) = (0, 1)``, and the lowest-error subset, at ``(1, 0)``; the line
    through them is ``s + e = 1``, and the perpendicular distance of a point below it is
    ``(1 - s - e) / sqrt(2)``. The knee maximises that distance (Das 1999), which is the
    Kneedle rule of Satopää et al. (2011) for a decreasing curve. A front of one or two points
    has no interior point: all distances are equal and the lower error wins.

    References
    ----------
    I. Das, "On characterizing the 'knee' of the Pareto curve based on Normal-Boundary
    Intersection", Structural Optimization 18:107-115, 1999.
    V. Satopää, J. Albrecht, D. Irwin, B. Raghavan, "Finding a 'Kneedle' in a haystack:
    detecting knee points in system behavior", ICDCS Workshops 2011, pp. 166-171,
    doi:10.1109/ICDCSW.2011.20.

    Examples
    --------
    >>> from pymoo_fs.analysis import knee_index
    >>> knee_index([0.40, 0.15, 0.12, 0.10], [1, 3, 10, 30])
    1
    """
    error, n_features = _check_front(error, n_features)
    distance = _normalised(error) + _normalised(n_features.astype(np.float64))
    return int(np.lexsort((n_features, error, distance))[0])


def _normalised(v):
    span = v.max() - v.min()
    return np.zeros_like(v) if span == 0 else (v - v.min()) / span


def _check_front(error, n_features):
    error = np.asarray(error, dtype=np.float64)
    n_features = np.asarray(n_features)
    if error.ndim != 1 or n_features.ndim != 1 or error.shape != n_features.shape:
        raise ValueError(f"error and n_features must be 1-D arrays of one length, got shapes "
                         f"{error.shape} and {n_features.shape}")
    if error.size == 0:
        raise ValueError("the front is empty: no subset to choose from")
    if not np.all(np.isfinite(error)):
        raise ValueError("error must hold finite values")
    if not np.issubdtype(n_features.dtype, np.integer) or n_features.min() < 1:
        raise ValueError(f"n_features must hold ints >= 1, got {n_features!r}")
    return error, n_features.astype(np.int64)
