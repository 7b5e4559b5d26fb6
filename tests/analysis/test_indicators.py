"""Tests for pymoo_fs.analysis.indicators: values by hand and cross-checks against pymoo."""

import math

import numpy as np
import pytest
from pymoo.indicators.hv import HV
from pymoo.util.nds.non_dominated_sorting import NonDominatedSorting

from pymoo_fs.analysis import hypervolume, igd, nondominated, reference_front

THREE = np.array([[0.2, 0.6], [0.4, 0.3], [0.7, 0.1]])


def _pymoo_nondominated_set(F):
    """Distinct rows of pymoo's first non-dominated front, as a set of tuples."""
    idx = NonDominatedSorting().do(F, only_non_dominated_front=True)
    return {tuple(row) for row in F[idx]}


# --- nondominated ---------------------------------------------------------------------------


def test_nondominated_removes_dominated_and_duplicates_and_sorts():
    F = np.array([[0.4, 0.3], [0.2, 0.6], [0.5, 0.5], [0.2, 0.6], [0.7, 0.1], [0.4, 0.3]])
    N, idx = nondominated(F, return_index=True)
    np.testing.assert_array_equal(N, THREE)
    np.testing.assert_array_equal(idx, [1, 0, 4])  # first occurrences
    np.testing.assert_array_equal(F[idx], N)


def test_nondominated_keeps_weakly_dominated_out():
    # (0.2, 0.7) is weakly dominated by (0.2, 0.6): same error, more features
    N = nondominated([[0.2, 0.7], [0.2, 0.6]])
    np.testing.assert_array_equal(N, [[0.2, 0.6]])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_nondominated_matches_pymoo_non_dominated_sorting(seed):
    rng = np.random.default_rng(seed)
    # a coarse grid so that duplicates and ties occur
    F = rng.integers(0, 12, size=(300, 2)) / 12.0
    N, idx = nondominated(F, return_index=True)
    assert {tuple(r) for r in N} == _pymoo_nondominated_set(F)
    assert len({tuple(r) for r in N}) == len(N)  # duplicates removed
    np.testing.assert_array_equal(F[idx], N)
    for i, row in zip(idx, N):  # each index is the first occurrence of its row
        assert i == np.flatnonzero(np.all(F == row, axis=1))[0]
    # sorted by the first objective; on a 2-D front the second then decreases strictly
    assert np.all(np.diff(N[:, 0]) > 0)
    assert np.all(np.diff(N[:, 1]) < 0)


def test_nondominated_continuous_random_data_three_objectives():
    rng = np.random.default_rng(7)
    F = rng.random((200, 3))
    F = np.vstack([F, F[:20]])  # exact duplicates
    N = nondominated(F)
    assert {tuple(r) for r in N} == _pymoo_nondominated_set(F)
    assert len(N) == len({tuple(r) for r in N})
    np.testing.assert_array_equal(N, N[np.lexsort(N.T[::-1])])


def test_nondominated_empty_input_gives_empty_output():
    N = nondominated(np.empty((0, 2)))
    assert N.shape == (0, 2)
    N, idx = nondominated(np.empty((0, 3)), return_index=True)
    assert N.shape == (0, 3) and idx.shape == (0,)


@pytest.mark.parametrize(
    "F, match",
    [
        (np.array([0.1, 0.2]), "F must be 2-D"),
        (np.array([[0.1, np.nan]]), "F must contain only finite"),
        (np.empty((3, 0)), "F must have at least one objective"),
        ([["a", "b"]], "F must be a numeric array"),
    ],
)
def test_nondominated_rejects_bad_input(F, match):
    with pytest.raises(ValueError, match=match):
        nondominated(F)


# --- reference_front ------------------------------------------------------------------------


def test_reference_front_is_nondominated_union():
    rng = np.random.default_rng(3)
    fronts = [rng.integers(0, 10, size=(n, 2)) / 10.0 for n in (15, 30, 0, 8)]
    fronts[2] = np.empty((0, 2))
    R = reference_front(fronts)
    union = np.concatenate(fronts)
    assert {tuple(r) for r in R} == _pymoo_nondominated_set(union)
    np.testing.assert_array_equal(R, nondominated(union))


def test_reference_front_rejects_empty_sequence_and_mixed_objectives():
    with pytest.raises(ValueError, match="fronts must hold at least one front"):
        reference_front([])
    with pytest.raises(ValueError, match=r"fronts\[1\] must have 2 objective columns"):
        reference_front([THREE, np.zeros((2, 3))])


# --- hypervolume ----------------------------------------------------------------------------


def test_hypervolume_three_points_by_hand():
    # union of rectangles up to (1, 1): 0.8*0.4 + 0.6*0.3 + 0.3*0.2 = 0.32 + 0.18 + 0.06
    assert hypervolume(THREE) == pytest.approx(0.56, abs=1e-12)
    assert hypervolume(THREE, ref_point=(1.0, 1.0)) == pytest.approx(0.56, abs=1e-12)


def test_hypervolume_other_reference_point_by_hand():
    # ref (2, 1): widths grow by 1 -> 1.8*0.4 + 1.6*0.3 + 1.3*0.2 = 0.72 + 0.48 + 0.26
    assert hypervolume(THREE, ref_point=[2.0, 1.0]) == pytest.approx(1.46, abs=1e-12)


def test_hypervolume_ignores_dominated_and_duplicate_points():
    F = np.vstack([THREE, THREE[::-1], [[0.5, 0.5], [0.9, 0.9], [0.4, 0.3]]])
    assert hypervolume(F) == pytest.approx(0.56, abs=1e-12)


def test_hypervolume_points_outside_reference_box_contribute_nothing():
    outside = [[1.2, 0.0], [0.0, 1.0], [1.0, 0.05], [0.5, 3.0]]
    assert hypervolume(np.vstack([THREE, outside])) == pytest.approx(0.56, abs=1e-12)
    assert hypervolume(outside) == 0.0
    # a point inside adds exactly its own rectangle: (1 - 0.9) * (0.1 - 0.05)
    assert hypervolume(np.vstack([THREE, [[0.9, 0.05]]])) == pytest.approx(0.565, abs=1e-12)


def test_hypervolume_empty_front_is_zero():
    assert hypervolume(np.empty((0, 2))) == 0.0


def test_hypervolume_matches_pymoo_on_random_front():
    rng = np.random.default_rng(11)
    F = rng.integers(0, 20, size=(100, 2)) / 20.0
    expected = HV(ref_point=np.array([1.0, 1.0]))(F)
    assert hypervolume(F) == pytest.approx(expected, rel=1e-12)


def test_hypervolume_rejects_bad_reference_point():
    with pytest.raises(ValueError, match=r"ref_point must have shape \(2,\)"):
        hypervolume(THREE, ref_point=(1.0, 1.0, 1.0))
    with pytest.raises(ValueError, match="ref_point must be finite"):
        hypervolume(THREE, ref_point=(1.0, np.inf))


# --- igd ------------------------------------------------------------------------------------


def test_igd_by_hand():
    F = np.array([[0.1, 0.9], [0.6, 0.3]])
    R = np.array([[0.0, 1.0], [0.5, 0.4], [1.0, 0.0]])
    # nearest distances: (0,1)->(0.1,0.9), (0.5,0.4)->(0.6,0.3), (1,0)->(0.6,0.3)
    expected = (math.sqrt(0.02) + math.sqrt(0.02) + math.sqrt(0.16 + 0.09)) / 3
    assert igd(F, R) == pytest.approx(expected, abs=1e-12)


def test_igd_uses_only_nondominated_part_of_front():
    F = np.array([[0.1, 0.9], [0.6, 0.3], [0.05, 0.95], [0.95, 0.05]])
    R = np.array([[0.0, 1.0], [0.5, 0.4], [1.0, 0.0]])
    # dominated rows that would lie closer to the reference must not be used
    F_dominated = np.vstack([F[:2], [[0.2, 1.0], [1.0, 0.35]]])
    assert igd(F_dominated, R) == pytest.approx(igd(F[:2], R), abs=1e-12)
    assert igd(F, R) < igd(F[:2], R)


def test_igd_of_reference_itself_is_zero():
    R = reference_front([THREE, [[0.3, 0.5]]])
    assert igd(R, R) == 0.0


def test_igd_of_dominated_set_is_larger_than_of_reference():
    rng = np.random.default_rng(5)
    R = THREE
    worse = R + rng.uniform(0.01, 0.1, size=R.shape)  # every point dominated
    assert igd(worse, R) > igd(R, R)


def test_igd_rejects_empty_and_mismatched_input():
    with pytest.raises(ValueError, match="F must hold at least one point"):
        igd(np.empty((0, 2)), THREE)
    with pytest.raises(ValueError, match="reference must hold at least one point"):
        igd(THREE, np.empty((0, 2)))
    with pytest.raises(ValueError, match="reference must have 2 objective columns"):
        igd(THREE, np.zeros((2, 3)))
    with pytest.raises(ValueError, match="reference must be 2-D"):
        igd(THREE, np.zeros(2))
