"""Pareto dominance, the non-dominated union and crowding truncation (minimisation throughout).

The ground floor of every multi-objective part of the package: the algorithms' archives
(:mod:`pymoo_fs.algorithms.archive`), the indicators and fronts of :mod:`pymoo_fs.analysis`
and the selector all filter fronts with these functions, so a front means the same thing
everywhere. Non-dominated sorting and crowding distances are pymoo's
(:class:`pymoo.util.nds.non_dominated_sorting.NonDominatedSorting`,
:func:`pymoo.operators.survival.rank_and_crowding.metrics.calc_crowding_distance`); this module
adds the rules on top of them (deduplication, one-by-one truncation). Nothing here imports from
the rest of :mod:`pymoo_fs`, so every layer may use it.

**Objective values are compared on a grid.** The same subset size and the same number of
mistakes can reach the front as two floats a few units in the last place apart (an error rate
is a mean of fold accuracies, summed in different orders by different code paths: 10 features
at error 0.13793103448275867 and 11 features at 0.13793103448275856). Every comparison here
therefore looks at :func:`on_grid` values, the objectives rounded to 40 significant bits
(about 12 significant decimal digits): values that differ only by rounding compare equal, and
because every value is mapped to one grid point before it is compared, equality stays an
equivalence and dominance stays transitive (a tolerance would not). The values returned and
stored are never rounded: a front keeps the first member found of each grid point.

Shapes: ``F`` (n, m) objective vectors, one row per solution, every objective minimised.
"""

import numpy as np
from pymoo.operators.survival.rank_and_crowding.metrics import calc_crowding_distance
from pymoo.util.nds.non_dominated_sorting import NonDominatedSorting

__all__ = ["GRID_BITS", "crowding_distance", "dominated_rows", "dominates",
           "nondominated_union", "on_grid", "same", "truncate_by_crowding"]

#: significant bits kept by :func:`on_grid` (2**-40 is about 9.1e-13 relative)
GRID_BITS = 40


def on_grid(F):
    """Objective values rounded to :data:`GRID_BITS` significant bits: what comparisons see.

    Parameters
    ----------
    F : array_like of float
        Objective values, any shape.

    Returns
    -------
    G : ndarray of float64, the shape of ``F``
        Each finite non-zero value rounded to the nearest float with :data:`GRID_BITS`
        significant bits (its binary mantissa rounded, half to even: exact arithmetic, no
        overflow or underflow); zeros, infinities and NaN unchanged.

    Notes
    -----
    Two error rates of the same subset size computed from the same mistakes by different
    summation orders differ by a few units in the last place (about 1e-16 relative) and land
    on one grid point; two genuinely different error rates of a cross-validation differ by
    at least one mistake over all folds (1e-5 relative even for 10,000 samples) and stay
    apart. A value a few units in the last place from a point halfway between two grid points
    could in principle round apart from its twin; an error rate with fold sizes below a few
    thousand samples is farther from every such point than its rounding errors reach.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import on_grid
    >>> a, b = 0.13793103448275867, 0.13793103448275856  # 4/29 along two code paths
    >>> bool(a == b), bool(on_grid(a) == on_grid(b))
    (False, True)
    """
    mantissa, exponent = np.frexp(np.asarray(F, dtype=np.float64))
    return np.ldexp(np.round(mantissa * 2.0 ** GRID_BITS) / 2.0 ** GRID_BITS, exponent)


def same(A, B):
    """Row-wise equality of objective vectors on the grid of :func:`on_grid`.

    Parameters
    ----------
    A, B : ndarray of float64, shape (n, m)
        Objective vectors compared row by row (broadcastable to a common shape).

    Returns
    -------
    equal : ndarray of bool, shape (n,)
        ``A[i]`` and ``B[i]`` round to the same grid point in every objective.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import same
    >>> same(np.array([[0.13793103448275867, 10.0]]), np.array([[0.13793103448275856, 10.0]]))
    array([ True])
    """
    return np.all(on_grid(A) == on_grid(B), axis=1)


def dominates(A, B):
    """Row-wise Pareto dominance (minimisation): ``A[i]`` dominates ``B[i]``.

    Parameters
    ----------
    A, B : ndarray of float64, shape (n, m)
        Objective vectors compared row by row (broadcastable to a common shape).

    Returns
    -------
    dominated : ndarray of bool, shape (n,)
        ``A[i]`` is no worse than ``B[i]`` in every objective and better in at least one,
        comparing :func:`on_grid` values (values that differ only by rounding are equal).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import dominates
    >>> dominates(np.array([[0.1, 0.2], [0.1, 0.2]]), np.array([[0.1, 0.3], [0.1, 0.2]]))
    array([ True, False])
    >>> dominates(np.array([[0.13793103448275856, 11.0]]),
    ...           np.array([[0.13793103448275867, 10.0]]))  # equal errors: 10 features win
    array([False])
    """
    A, B = on_grid(A), on_grid(B)
    return np.all(A <= B, axis=1) & np.any(A < B, axis=1)


def dominated_rows(F):
    """Which rows of a set another row dominates (on the grid of :func:`on_grid`).

    Parameters
    ----------
    F : ndarray of float64, shape (n, m)
        Objective vectors, every objective minimised.

    Returns
    -------
    dominated : ndarray of bool, shape (n,)
        ``True`` where some row of ``F`` dominates the row (:func:`dominates`). Rows equal on
        the grid do not dominate each other, so duplicates are all kept (unlike
        :func:`nondominated_union`).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import dominated_rows
    >>> dominated_rows(np.array([[0.13793103448275867, 10], [0.13793103448275856, 11],
    ...                          [0.1, 30], [0.1, 30], [0.2, 40]]))
    array([False,  True, False, False,  True])
    """
    G = on_grid(np.asarray(F, dtype=np.float64))
    if G.shape[0] == 0:
        return np.zeros(0, dtype=bool)
    better_or_equal = np.all(G[:, None, :] <= G[None, :, :], axis=2)
    better = np.any(G[:, None, :] < G[None, :, :], axis=2)
    return np.any(better_or_equal & better, axis=0)


def crowding_distance(F):
    """NSGA-II crowding distance of each member of a set (pymoo's arithmetic).

    Parameters
    ----------
    F : ndarray of float64, shape (n, m)
        Objective vectors of a non-dominated set.

    Returns
    -------
    cd : ndarray of float64, shape (n,)
        pymoo's ``calc_crowding_distance(F)``: per objective, the gap between a member's two
        neighbours divided by that objective's range, averaged over the objectives; ``inf`` at
        the extremes (and for every member of a set of two or fewer). Larger means less
        crowded.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import crowding_distance
    >>> crowding_distance(np.array([[0.0, 1.0], [0.25, 0.75], [1.0, 0.0]]))
    array([inf,  1., inf])
    """
    return calc_crowding_distance(F)


def nondominated_union(F, capacity=None):
    """Indices of the archive built from ``F`` in order: non-dominated, unique, capped.

    Parameters
    ----------
    F : ndarray of float64, shape (n, m)
        Objective vectors, existing archive members first, then candidates.
    capacity : int, optional
        Maximum archive size; when exceeded, members are removed by
        :func:`truncate_by_crowding`. Default: no cap.

    Returns
    -------
    keep : ndarray of int64, shape (n_keep,)
        Increasing indices into ``F`` of the members kept.

    Notes
    -----
    Dominance and equality are decided on :func:`on_grid` values, so a member that is
    dominated only up to rounding (same size, same mistakes, an error a few units in the last
    place lower) does not survive beside the member that dominates it on the grid. Among
    members with equal objective vectors (on the grid) only the first is kept, so an existing
    member is never replaced by a newcomer equal to it (jMetal's non-dominated archive rule).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import nondominated_union
    >>> F = np.array([[0.2, 0.5], [0.3, 0.6], [0.1, 0.9], [0.2, 0.5]])
    >>> nondominated_union(F)  # row 1 is dominated, row 3 repeats row 0
    array([0, 2])
    >>> nondominated_union(np.array([[0.13793103448275867, 10.0],
    ...                              [0.13793103448275856, 11.0]]))  # same error on the grid
    array([0])
    """
    if F.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    G = on_grid(F)
    front = np.sort(NonDominatedSorting().do(G, only_non_dominated_front=True))
    _, first = np.unique(G[front], axis=0, return_index=True)
    keep = front[np.sort(first)]
    if capacity is not None and keep.size > capacity:
        keep = keep[truncate_by_crowding(F[keep], capacity)]
    return keep.astype(np.int64)


def truncate_by_crowding(F, capacity):
    """Remove the most crowded member, one at a time, until ``capacity`` remain.

    Parameters
    ----------
    F : ndarray of float64, shape (n, m)
        A non-dominated set without duplicate vectors.
    capacity : int
        Number of members to keep.

    Returns
    -------
    keep : ndarray of int64, shape (min(n, capacity),)
        Increasing indices of the survivors.

    Notes
    -----
    The NSGA-II crowding distance (:func:`crowding_distance`, pymoo's) is recomputed after each
    removal; among equal smallest distances the first member goes (CMDPSOFS-II text; jMetal
    ``CrowdingDistanceArchive``).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import truncate_by_crowding
    >>> F = np.array([[0.0, 1.0], [0.1, 0.9], [0.15, 0.85], [1.0, 0.0]])
    >>> truncate_by_crowding(F, 3)
    array([0, 2, 3])
    """
    keep = np.arange(F.shape[0])
    while keep.size > capacity:
        cd = crowding_distance(F[keep])
        keep = np.delete(keep, np.argmin(cd))
    return keep
