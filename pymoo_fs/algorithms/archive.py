"""Pareto archives for the multi-objective swarms: merging, leaders, the PAES grid.

Dominance, the non-dominated union and crowding truncation are the ground floor's
(:mod:`pymoo_fs.pareto`); this module adds the archive rules of the papers (merging positions
with members, binary tournaments for leaders, PAES's adaptive grid). :func:`dominates`,
:func:`nondominated_union` and :func:`truncate_by_crowding` are re-exported here from
:mod:`pymoo_fs.pareto` for code that imports them from this module.

References
----------
H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
doi:10.1007/s00500-016-2128-8.
"""

import numpy as np
from pymoo.core.population import Population

from pymoo_fs.pareto import (crowding_distance, dominates, nondominated_union, same,
                             truncate_by_crowding)

__all__ = ["crowding_tournament", "distance_tournament", "dominates", "grid_archive_add",
           "grid_cells", "merge_archive", "nondominated_union", "refuses",
           "truncate_by_crowding"]


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
    cd = crowding_distance(F)
    return np.where(cd[b] > cd[a], b, a)


def distance_tournament(F, F_particles, random_state):
    """Leaders by binary tournament on the distance to each particle in objective space.

    Parameters
    ----------
    F : ndarray of float64, shape (n_archive, m)
        Objective vectors of the archive members.
    F_particles : ndarray of float64, shape (n, m)
        Objective vectors of the particles (their current positions).
    random_state : numpy.random.Generator
        Draws the two contestants of each tournament (uniformly, with replacement: first all
        first contestants, then all second ones), then one tie-break coin per particle (always
        drawn, used only on equal distances).

    Returns
    -------
    idx : ndarray of int64, shape (n,)
        Index of each particle's leader: the contestant whose objective vector is nearer
        (Euclidean) to the particle's; equal distances are settled by the coin (Nguyen et al. 2016:
        "the closest solution (to the particle) in the objective space is chosen as the
        gbest"; Euclidean distance and the coin are [A]).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.archive import distance_tournament
    >>> F = np.array([[0.1, 0.9], [0.5, 0.5], [0.9, 0.1]])
    >>> particles = np.array([[0.85, 0.2], [0.2, 0.8]])
    >>> distance_tournament(F, particles, np.random.default_rng(0))
    array([2, 0])
    """
    n = F_particles.shape[0]
    a = random_state.integers(0, F.shape[0], size=n)
    b = random_state.integers(0, F.shape[0], size=n)
    coin = random_state.random(n) < 0.5
    da = np.linalg.norm(F[a] - F_particles, axis=1)
    db = np.linalg.norm(F[b] - F_particles, axis=1)
    return np.where(db < da, b, np.where(da < db, a, np.where(coin, b, a))).astype(np.int64)


def merge_archive(positions, members, new_positions, new_members, capacity=None,
                  objectives=None):
    """The non-dominated union of an archive and newcomers, positions kept alongside.

    Parameters
    ----------
    positions : ndarray of float64, shape (n, D)
        The archive's positions, in the swarm's encoding (leaders for the velocity update).
    members : pymoo.core.population.Population
        The archive's individuals (masks ``X``, objectives ``F``), row for row.
    new_positions : ndarray of float64, shape (k, D)
    new_members : pymoo.core.population.Population
        The newcomers, row for row.
    capacity : int, optional
        Maximum size; overflow is truncated by :func:`~pymoo_fs.pareto.truncate_by_crowding`.
    objectives : callable, optional
        ``objectives(population) -> (n, m)`` values compared instead of ``F`` (an algorithm's
        feasibility-first values on a constrained problem,
        :meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm._objectives`).

    Returns
    -------
    positions, members
        The archive after :func:`~pymoo_fs.pareto.nondominated_union` (existing members first,
        so a newcomer equal in objectives to a member is not taken).
    """
    merged = Population.merge(members, new_members)
    keep = nondominated_union(merged.get("F") if objectives is None else objectives(merged),
                              capacity)
    return np.vstack([positions, new_positions])[keep], merged[keep]


def grid_cells(F, lower, upper, bisections):
    """Cells of an adaptive grid that splits each objective's range into ``2**bisections``.

    Parameters
    ----------
    F : ndarray of float64, shape (n, m)
        Objective vectors.
    lower, upper : ndarray of float64, shape (m,)
        The grid's range in each objective (the archive's, in PAES).
    bisections : int
        Times each range is halved (``l`` of Knowles & Corne).

    Returns
    -------
    cells : ndarray of int64, shape (n,)
        ``sum_j c_j (2**l)**j`` with ``c_j = floor(2**l (F_j - lower_j) / (upper_j -
        lower_j))`` clipped to ``[0, 2**l - 1]`` (the upper edge belongs to the last cell, a
        point outside the range to the nearest edge cell); ``c_j = 0`` where the range is a
        single value.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.archive import grid_cells
    >>> F = np.array([[0.0, 1.0], [0.5, 0.5], [1.0, 0.0]])
    >>> grid_cells(F, F.min(axis=0), F.max(axis=0), 1)  # 2 x 2 cells
    array([2, 3, 1])
    """
    k = 2 ** bisections
    span = upper - lower
    with np.errstate(divide="ignore", invalid="ignore"):
        scaled = np.where(span > 0, (F - lower) / np.where(span > 0, span, 1.0) * k, 0.0)
    c = np.clip(np.floor(scaled), 0, k - 1).astype(np.int64)
    return c @ (k ** np.arange(F.shape[1], dtype=np.int64))


def grid_archive_add(F, f, capacity, bisections):
    """Offer one solution to a bounded archive kept by the PAES adaptive grid.

    Parameters
    ----------
    F : ndarray of float64, shape (n, m)
        The archive's objective vectors (non-dominated, in archive order).
    f : ndarray of float64, shape (m,)
        The newcomer's.
    capacity : int
        Archive size limit.
    bisections : int
        Grid depth (see :func:`grid_cells`).

    Returns
    -------
    keep : ndarray of int64
        Indices of the members that stay, in archive order.
    added : bool
        Whether the newcomer joins (after the kept members).

    Notes
    -----
    Knowles & Corne (2000), "archive" procedure: a newcomer that a member dominates, or whose
    objective vector equals a member's (jMetal's archives keep the first), is refused; the
    members it dominates leave; while the archive is not full it joins. A full archive takes
    it only if its grid cell holds fewer members than the most crowded cell, and then loses
    one member of a most crowded cell: the first, in archive order, among the members whose
    cell is most crowded (jMetal ``AdaptiveGridArchive.prune``). The grid spans the range of
    the archive and the newcomer in each objective (the adaptive grid is recomputed for every
    offer; its cell counts are counts of archive members).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.archive import grid_archive_add
    >>> F = np.array([[0.0, 1.0], [0.1, 0.9], [1.0, 0.0]])
    >>> grid_archive_add(F, np.array([0.5, 0.5]), capacity=3, bisections=1)  # full: 2 crowd
    (array([1, 2]), True)
    """
    F = np.asarray(F, dtype=float).reshape(-1, len(f))
    f = np.asarray(f, dtype=float)
    everyone = np.arange(F.shape[0])
    if refuses(F, f):
        return everyone, False
    keep = everyone[~dominates(np.broadcast_to(f, F.shape), F)]
    if keep.size < capacity:
        return keep, True
    pool = np.vstack([F[keep], f])
    cells = grid_cells(pool, pool.min(axis=0), pool.max(axis=0), bisections)
    counts = np.bincount(cells[:-1])
    own = counts[cells[-1]] if cells[-1] < counts.size else 0
    if own >= counts.max():
        return keep, False
    crowded = np.flatnonzero(counts[cells[:-1]] == counts.max())[0]
    return np.delete(keep, crowded), True


def refuses(F, f):
    """Whether an archive ``F`` (n, m) refuses ``f`` (m,): a member dominates or equals it
    (both on :func:`pymoo_fs.pareto.on_grid` values)."""
    if F.shape[0] == 0:
        return False
    return bool(np.any(dominates(F, f[None, :])) or np.any(same(F, f[None, :])))
