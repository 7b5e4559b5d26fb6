"""Pareto archives for the multi-objective swarms: merging, crowding truncation, leaders.

Non-dominated sorting and crowding distances come from pymoo; this module only adds the
archive rules of the papers (deduplication, one-by-one truncation, binary tournaments).
"""

import numpy as np
from pymoo.operators.survival.rank_and_crowding.metrics import calc_crowding_distance
from pymoo.util.nds.non_dominated_sorting import NonDominatedSorting


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
    The NSGA-II crowding distance (pymoo) is recomputed after each removal; among equal smallest
    distances the first member goes (CMDPSOFS-II text; jMetal ``CrowdingDistanceArchive``).
    """
    keep = np.arange(F.shape[0])
    while keep.size > capacity:
        cd = calc_crowding_distance(F[keep])
        keep = np.delete(keep, np.argmin(cd))
    return keep


def crowding_tournament(F, n, random_state):
    """Leaders by binary tournament on crowding distance.

    Parameters
    ----------
    F : ndarray of float64, shape (n_archive, m)
        Objective vectors of the leader set.
    n : int
        Number of leaders to draw (one per particle).
    random_state : numpy.random.Generator
        Draws the two contestants of each tournament, with replacement.

    Returns
    -------
    idx : ndarray of int64, shape (n,)
        Index of each particle's leader: the contestant with the larger crowding distance (less
        crowded region); a tie goes to the first contestant (jMetal OMOPSO).
    """
    a = random_state.integers(0, F.shape[0], size=n)
    b = random_state.integers(0, F.shape[0], size=n)
    cd = calc_crowding_distance(F)
    return np.where(cd[b] > cd[a], b, a)


def dominates(A, B):
    """Row-wise Pareto dominance (minimisation): ``A[i]`` dominates ``B[i]``.

    Parameters
    ----------
    A, B : ndarray of float64, shape (n, m)

    Returns
    -------
    ndarray of bool, shape (n,)
    """
    return np.all(A <= B, axis=1) & np.any(A < B, axis=1)
