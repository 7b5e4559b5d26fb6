"""Tests for pymoo_fs.analysis.fronts: hold-out re-scoring and pooled fronts of runs."""

import numpy as np
import pytest

from pymoo_fs.analysis import average_front, best_front, rescore_front


class FakeProblem:
    """Stands in for a pymoo_fs problem: error = 1 - first feature used, ratio = |S| / D."""

    def __init__(self):
        self.calls = []

    def holdout_objectives(self, masks, X_test=None, y_test=None):
        self.calls.append((masks, X_test, y_test))
        masks = np.asarray(masks, dtype=bool)
        error = np.where(masks[:, 0], 0.1, 0.4)
        return np.column_stack([error, masks.sum(axis=1) / masks.shape[1]])


# --- rescore_front --------------------------------------------------------------------------


def test_rescore_front_returns_problem_objectives_in_mask_order():
    problem = FakeProblem()
    masks = np.array([[True, False, False, False], [False, True, True, False],
                      [True, True, True, True]])
    F = rescore_front(problem, masks)
    np.testing.assert_allclose(F, [[0.1, 0.25], [0.4, 0.5], [0.1, 1.0]])
    assert F.dtype == np.float64
    assert problem.calls[0][1] is None and problem.calls[0][2] is None


def test_rescore_front_passes_test_data_and_converts_integer_masks():
    problem = FakeProblem()
    X_test, y_test = np.zeros((5, 3)), np.arange(5)
    F = rescore_front(problem, [[1, 0, 1]], X_test=X_test, y_test=y_test)
    np.testing.assert_allclose(F, [[0.1, 2 / 3]])
    masks, X_seen, y_seen = problem.calls[0]
    assert masks.dtype == bool
    assert X_seen is X_test and y_seen is y_test


def test_rescore_front_rejects_bad_problem_and_masks():
    with pytest.raises(TypeError, match="problem must have a holdout_objectives"):
        rescore_front(object(), np.ones((2, 3), dtype=bool))
    with pytest.raises(ValueError, match="masks must be 2-D"):
        rescore_front(FakeProblem(), np.ones(3, dtype=bool))
    with pytest.raises(ValueError, match="masks must be boolean"):
        rescore_front(FakeProblem(), np.array([[0.5, 1.0]]))


def test_rescore_front_rejects_wrong_output_shape():
    class Broken:
        def holdout_objectives(self, masks, X_test=None, y_test=None):
            return np.zeros(len(masks))

    with pytest.raises(ValueError, match=r"returned shape \(2,\), expected \(2, n_obj\)"):
        rescore_front(Broken(), np.ones((2, 3), dtype=bool))


# --- average_front / best_front -------------------------------------------------------------

# three runs on D = 10 features; column 0 error, column 1 ratio
RUNS = [
    np.array([[0.30, 0.1], [0.20, 0.2], [0.10, 0.4]]),
    np.array([[0.40, 0.1], [0.15, 0.3], [0.12, 0.4]]),
    np.array([[0.20, 0.1], [0.05, 0.6]]),
]


def test_average_front_by_hand():
    A = average_front(RUNS)
    expected = np.array([
        [(0.30 + 0.40 + 0.20) / 3, 0.1],
        [0.20, 0.2],
        [0.15, 0.3],
        [(0.10 + 0.12) / 2, 0.4],
        [0.05, 0.6],
    ])
    np.testing.assert_allclose(A, expected, atol=1e-12)


def test_average_front_counts_repeated_members_and_merges_rounding_noise():
    # the same (error, ratio) from two runs counts twice; 0.1 + 0.2 and 0.3 are one size
    runs = [np.array([[0.2, 0.1 + 0.2]]), np.array([[0.2, 0.3]]), np.array([[0.5, 0.3]])]
    A = average_front(runs)
    assert A.shape == (1, 2)
    assert A[0, 0] == pytest.approx(0.3)
    assert A[0, 1] == pytest.approx(0.3)


def test_average_front_may_keep_dominated_rows():
    runs = [np.array([[0.1, 0.1]]), np.array([[0.3, 0.2]])]
    np.testing.assert_allclose(average_front(runs), [[0.1, 0.1], [0.3, 0.2]])


def test_best_front_by_hand():
    B = best_front(RUNS)
    # (0.30,0.1),(0.40,0.1) dominated by (0.20,0.1); (0.20,0.2) dominated by (0.20,0.1);
    # (0.12,0.4) by (0.10,0.4); (0.15,0.3) survives (nothing with ratio <= 0.3 has error <= 0.15)
    expected = np.array([[0.05, 0.6], [0.10, 0.4], [0.15, 0.3], [0.20, 0.1]])
    np.testing.assert_array_equal(B, expected)


def test_best_front_removes_duplicates_across_runs():
    B = best_front([RUNS[0], RUNS[0].copy()])
    np.testing.assert_array_equal(B, [[0.1, 0.4], [0.2, 0.2], [0.3, 0.1]])


def test_pooled_fronts_of_empty_runs_are_empty():
    runs = [np.empty((0, 2)), np.empty((0, 2))]
    assert average_front(runs).shape == (0, 2)
    assert best_front(runs).shape == (0, 2)


@pytest.mark.parametrize("func", [average_front, best_front])
def test_pooled_fronts_reject_bad_input(func):
    with pytest.raises(ValueError, match="F_list must hold at least one front"):
        func([])
    with pytest.raises(ValueError, match=r"F_list\[1\] must have 2 objective columns"):
        func([RUNS[0], np.zeros((2, 3))])
    with pytest.raises(ValueError, match=r"F_list\[0\] must be 2-D"):
        func([np.zeros(2)])
