"""Pareto archives: non-dominated union, crowding truncation, leader tournaments, dominance."""

import numpy as np
import pytest
from pymoo.operators.survival.rank_and_crowding.metrics import calc_crowding_distance
from pymoo.util.nds.non_dominated_sorting import NonDominatedSorting

from pymoo_fs.algorithms import archive


def _line(x):
    """Points on the front f2 = 1 - f1: crowding distance of an interior point = gap of f1."""
    x = np.asarray(x, dtype=float)
    return np.column_stack([x, 1.0 - x])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("discrete", [False, True])
def test_nondominated_union_agrees_with_pymoo_sorting(seed, discrete):
    rng = np.random.default_rng(seed)
    F = rng.integers(0, 6, (80, 2)).astype(float) if discrete else rng.random((80, 3))
    keep = archive.nondominated_union(F)
    assert keep.dtype == np.int64
    assert np.all(np.diff(keep) > 0)
    front = NonDominatedSorting().do(F, only_non_dominated_front=True)
    # same set of vectors, each distinct vector once, and the first occurrence of each
    assert {tuple(f) for f in F[keep]} == {tuple(f) for f in F[front]}
    assert len({tuple(f) for f in F[keep]}) == keep.size
    for i in keep:
        assert i == np.flatnonzero(np.all(F == F[i], axis=1))[0]


def test_nondominated_union_keeps_first_of_identical_vectors():
    F = np.array([[1.0, 2.0], [0.0, 3.0], [1.0, 2.0], [2.0, 1.0], [0.0, 3.0], [3.0, 3.0]])
    np.testing.assert_array_equal(archive.nondominated_union(F), [0, 1, 3])


def test_nondominated_union_existing_member_is_not_replaced_by_equal_newcomer():
    members = np.array([[0.2, 0.5], [0.4, 0.1]])
    candidates = np.array([[0.4, 0.1], [0.1, 0.9], [0.5, 0.5]])  # equal, new, dominated
    keep = archive.nondominated_union(np.vstack([members, candidates]))
    np.testing.assert_array_equal(keep, [0, 1, 3])


def test_nondominated_union_empty_and_uncapped():
    assert archive.nondominated_union(np.zeros((0, 2))).shape == (0,)
    F = _line(np.linspace(0, 1, 12))
    np.testing.assert_array_equal(archive.nondominated_union(F), np.arange(12))
    np.testing.assert_array_equal(archive.nondominated_union(F, capacity=12), np.arange(12))


def test_truncate_by_crowding_removes_smallest_distance_first():
    # crowding distances of the interior points: 0.25 (x=.2), 0.10 (x=.25), 0.75 (x=.3)
    F = _line([0.0, 0.2, 0.25, 0.3, 1.0])
    np.testing.assert_array_equal(archive.truncate_by_crowding(F, 4), [0, 1, 3, 4])


def test_truncate_by_crowding_recomputes_after_each_removal():
    # x:         0    0.2   0.3   0.32  0.4   0.7   0.78  0.85  1
    # distance: inf   0.30  0.12  0.10  0.38  0.38  0.15  0.22  inf
    # Removing the two smallest at once would drop 0.32 and 0.3. One at a time: 0.32 goes,
    # then 0.3's distance becomes 0.4 - 0.2 = 0.2 > 0.15, so 0.78 goes next.
    F = _line([0.0, 0.2, 0.3, 0.32, 0.4, 0.7, 0.78, 0.85, 1.0])
    np.testing.assert_allclose(calc_crowding_distance(F)[1:-1],
                               [0.30, 0.12, 0.10, 0.38, 0.38, 0.15, 0.22])
    keep = archive.truncate_by_crowding(F, 7)
    np.testing.assert_array_equal(keep, [0, 1, 2, 4, 5, 7, 8])
    np.testing.assert_array_equal(archive.nondominated_union(F, capacity=7), keep)
    np.testing.assert_array_equal(archive.truncate_by_crowding(F, 8), [0, 1, 2, 4, 5, 6, 7, 8])


def test_truncate_by_crowding_tie_removes_first_and_keeps_extremes():
    F = _line(np.linspace(0.0, 1.0, 5))  # evenly spaced: the interior ties at 0.5
    np.testing.assert_array_equal(archive.truncate_by_crowding(F, 4), [0, 2, 3, 4])
    keep = archive.truncate_by_crowding(_line(np.random.default_rng(0).random(20)), 2)
    assert keep.size == 2


def test_crowding_tournament_picks_less_crowded_ties_to_first():
    F = _line([0.0, 0.1, 0.2, 0.6, 1.0])
    cd = calc_crowding_distance(F)  # inf, 0.2, 0.5, 0.8, inf
    n = 200
    idx = archive.crowding_tournament(F, n, np.random.default_rng(42))
    draws = np.random.default_rng(42)
    a = draws.integers(0, 5, size=n)
    b = draws.integers(0, 5, size=n)
    for i in range(n):
        if cd[b[i]] > cd[a[i]]:
            assert idx[i] == b[i]
        else:  # a wins on larger distance and on ties (both extremes are inf)
            assert idx[i] == a[i]
    # the draws include both kinds of contest
    assert np.any(cd[b] > cd[a]) and np.any((cd[a] == cd[b]) & (a != b))
    ties = (cd[a] == np.inf) & (cd[b] == np.inf) & (a != b)
    np.testing.assert_array_equal(idx[ties], a[ties])


def test_crowding_tournament_single_leader():
    idx = archive.crowding_tournament(np.array([[0.3, 0.4]]), 7, np.random.default_rng(0))
    np.testing.assert_array_equal(idx, np.zeros(7))


def test_dominates_rowwise():
    A = np.array([[0.1, 0.2], [0.1, 0.2], [0.1, 0.2], [0.3, 0.1], [0.0, 0.0]])
    B = np.array([[0.2, 0.3], [0.1, 0.3], [0.1, 0.2], [0.2, 0.2], [0.0, 0.1]])
    np.testing.assert_array_equal(archive.dominates(A, B), [True, True, False, False, True])
    np.testing.assert_array_equal(archive.dominates(B, A), [False, False, False, False, False])
