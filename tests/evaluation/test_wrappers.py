"""Evaluators over evaluators: the front recorder (the selector's archive) and its contract."""

import numpy as np
import pytest

from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import Evaluator, FrontRecorder, KNNEvaluator
from pymoo_fs.pareto import nondominated_union
from pymoo_fs.problems import BiObjectiveFeatureSelection, flip_masks


@pytest.fixture(scope="module")
def knn():
    data = load_dataset("sonar")
    return KNNEvaluator(data.X[:, :10], data.y, cv=3)


def test_front_recorder_forwards_and_archives_every_scored_subset(knn, rng):
    recorder = FrontRecorder(knn)
    assert isinstance(recorder, Evaluator) and recorder.n_features == 10
    masks = rng.random((12, 10)) < 0.5
    masks[:, 0] = True
    flips = [1, 4, 9]
    np.testing.assert_array_equal(recorder.score(masks), knn.score(masks))
    np.testing.assert_array_equal(recorder.score_flips(masks[0], flips),
                                  knn.score_flips(masks[0], flips))
    seen = np.vstack([masks, flip_masks(masks[0], flips)])
    F = np.column_stack([1 - knn.score(seen), seen.sum(axis=1)])
    keep = nondominated_union(F)
    np.testing.assert_array_equal(recorder.F, F[keep])
    np.testing.assert_array_equal(recorder.masks, seen[keep])
    assert (recorder.n_evaluations, recorder.n_cache_hits) == (knn.n_evaluations,
                                                               knn.n_cache_hits)
    X, y = recorder.training_data()
    assert X is knn.X and y is knn.y


def test_a_problem_on_a_recorder_keeps_the_incremental_flip_path(knn):
    problem = BiObjectiveFeatureSelection(FrontRecorder(knn))
    mask = np.zeros(10, dtype=bool)
    mask[[0, 3]] = True
    np.testing.assert_array_equal(problem.evaluate_flips(mask, [1, 2]),
                                  problem.evaluate(flip_masks(mask, [1, 2])))


def test_front_recorder_refuses_what_is_no_evaluator():
    with pytest.raises(TypeError, match="FrontRecorder wraps an Evaluator, got dict"):
        FrontRecorder({})
