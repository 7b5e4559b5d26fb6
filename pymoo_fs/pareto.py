"""Pareto dominance, the non-dominated union and crowding truncation (minimisation throughout).

The ground floor of every multi-objective part of the package: the algorithms' archives
(:mod:`pymoo_fs.algorithms.archive`), the indicators and fronts of :mod:`pymoo_fs.analysis`
and the selector all filter fronts with these functions, so a front means the same thing
everywhere. Non-dominated sorting and crowding distances are pymoo's
(:class:`pymoo.util.nds.non_dominated_sorting.NonDominatedSorting`,
:func:`pymoo.operators.survival.rank_and_crowding.metrics.calc_crowding_distance`); this module
adds the rules on top of them (deduplication, one-by-one truncation). Nothing here imports from
the rest of :mod:`pymoo_fs`, so every layer may use it.

Shapes: ``F`` (n, m) objective vectors, one row per solution, every objective minimised.
"""

import numpy as np
from pymoo.operators.survival.rank_and_crowding.metrics import calc_crowding_distance
from pymoo.util.nds.non_dominated_sorting import NonDominatedSorting

__all__ = ["crowding_distance", "dominates", "nondominated_union", "truncate_by_crowding"]


def dominates(A, B):
    """Row-wise Pareto dominance (minimisation): ``A[i]`` dominates ``B[i]``.

    Parameters
    ----------
    A, B : ndarray of float64, shape (n, m)
        Objective vectors compared row by row (broadcastable to a common shape).

    Returns
    -------
    dominated : ndarray of bool, shape (n,)
        ``A[i]`` is no worse than ``B[i]`` in every objective and better in at least one.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import dominates
    >>> dominates(np.array([[0.1, 0.2], [0.1, 0.2]]), np.array([[0.1, 0.3], [0.1, 0.2]]))
    array([ True, False])
    """
    return np.all(A <= B, axis=1) & np.any(A < B, axis=1)


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
    Among members with identical objective vectors only the first is kept, so an existing
    member is never replaced by a newcomer equal to it (jMetal's non-dominated archive rule).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.pareto import nondominated_union
    >>> F = np.array([[0.2, 0.5], [0.3, 0.6], [0.1, 0.9], [0.2, 0.5]])
    >>> nondominated_union(F)  # row 1 is dominated, row 3 repeats row 0
    array([0, 2])
    """
    if F.shape[0] == 0:
        return np.zeros(0, dtype=np.int64)
    front = np.sort(NonDominatedSorting().do(F, only_non_dominated_front=True))
    _, first = np.unique(F[front], axis=0, return_index=True)
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
