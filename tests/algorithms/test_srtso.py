"""SRTSO: seed 002's target size search, its range narrowing, stopping rule and budget."""

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import SRTSO
from pymoo_fs.algorithms.soo.srtso import TargetSizeSearch
from pymoo_fs.evaluation import Evaluator
from pymoo_fs.problems import WeightedFeatureSelection


class SizeEvaluator(Evaluator):
    """A stand-in evaluator whose score depends only on the subset size: best at ``best``.

    ``score = 0.9 - |n - best| / 100`` (a plateau of width 0 around ``best``), counting masks.
    """

    def __init__(self, n_features, best):
        self.n_features = n_features
        self.best = best
        self.n_evaluations = 0

    def score(self, masks):
        masks = np.atleast_2d(masks)
        self.n_evaluations += masks.shape[0]
        return 0.9 - np.abs(masks.sum(axis=1) - self.best) / 100.0


def _masks(sizes, d):
    out = np.zeros((len(sizes), d), dtype=bool)
    for i, n in enumerate(sizes):
        out[i, :n] = True
    return out


# ------------------------------------------------------------------ the search by hand
def test_range_narrows_around_the_smallest_size_within_the_tolerance():
    search = TargetSizeSearch(100, max_iterations=2, n_sizes=3, n_subsets=2, range_ratio=0.3,
                              tolerance=0.01)
    assert search.range_ == (1, 100)
    # iteration 1: best of each size 10: 0.25, 40: 0.20, 70: 0.195 -> top 0.195;
    # within 0.01: 40 and 70 -> bestSize 40; half width R d / 1 = 30 -> [10, 70]
    T = search.record(_masks([10, 10, 40, 40, 70, 70], 100),
                      [0.30, 0.25, 0.20, 0.21, 0.195, 0.30])
    assert T == 40 and search.range_ == (10, 70) and not search.done
    assert search.best_fitness_ == {10: 0.25, 40: 0.20, 70: 0.195}
    assert search.best_masks_[40].sum() == 40
    # iteration 2: 20: 0.19, 35: 0.20, 50: 0.18 -> top 0.18; within 0.01: 20 (0.19), 50
    # -> bestSize 20; half width R d / 2 = 15 -> [5, 35]; I = 2 iterations: done
    T = search.record(_masks([20, 35, 50], 100), [0.19, 0.20, 0.18])
    assert T == 20 and search.range_ == (5, 35) and search.done
    assert [entry["best_size"] for entry in search.log_] == [40, 20]
    assert search.log_[0]["range"] == (1, 100) and search.log_[1]["range"] == (10, 70)


def test_a_size_drawn_again_keeps_its_best_score():
    search = TargetSizeSearch(10, max_iterations=3, n_sizes=1, n_subsets=2, tolerance=0.0)
    search.record(_masks([4, 4], 10), [0.3, 0.2])
    search.record(_masks([4, 4], 10), [0.5, 0.4])
    assert search.best_fitness_ == {4: 0.2}


def test_range_is_clipped_to_one_and_d():
    search = TargetSizeSearch(10, max_iterations=3, n_sizes=1, n_subsets=1, range_ratio=1.0)
    search.record(_masks([2], 10), [0.1])  # half width 10: [-8, 12] -> [1, 10]
    assert search.range_ == (1, 10)


def test_search_stops_when_the_best_size_does_not_change():
    search = TargetSizeSearch(50, max_iterations=5, n_sizes=2, n_subsets=1, tolerance=0.0)
    search.record(_masks([10, 30], 50), [0.2, 0.1])
    assert search.best_size_ == 30 and not search.done
    search.record(_masks([25, 35], 50), [0.15, 0.12])  # 30 still best: stop before I = 5
    assert search.best_size_ == 30 and search.done and search.iteration_ == 2
    with pytest.raises(RuntimeError, match="done"):
        search.propose(np.random.default_rng(0))


def test_proposals_have_exact_sizes_drawn_within_the_range():
    search = TargetSizeSearch(30, max_iterations=3, n_sizes=8, n_subsets=4, range_ratio=0.2)
    search.record(_masks([12], 30), [0.1])  # range [6, 18]
    rs = np.random.default_rng(3)
    masks = search.propose(rs)
    sizes = masks.sum(axis=1)
    assert masks.shape == (32, 30) and search.range_ == (6, 18)
    assert sizes.min() >= 6 and sizes.max() <= 18
    assert np.all(sizes.reshape(8, 4) == sizes.reshape(8, 4)[:, :1])  # s rows per size
    assert len({m.tobytes() for m in masks}) > 8  # the subsets of one size differ


def test_a_limit_cuts_the_iteration_and_ends_the_search():
    search = TargetSizeSearch(20, n_sizes=5, n_subsets=3)
    masks = search.propose(np.random.default_rng(0), limit=7)
    assert masks.shape == (7, 20) and search.truncated_
    search.record(masks, np.arange(7.0))
    assert search.done and search.iteration_ == 1


@pytest.mark.parametrize("name, value, match", [
    ("n_features", 0, "n_features"), ("max_iterations", 0, "max_iterations"),
    ("n_sizes", -1, "n_sizes"), ("n_subsets", 1.5, "n_subsets"),
    ("range_ratio", 0.0, "range_ratio"), ("range_ratio", 1.5, "range_ratio"),
    ("tolerance", -0.1, "tolerance")])
def test_invalid_search_parameters_are_refused(name, value, match):
    kwargs = dict(n_features=10)
    kwargs[name] = value
    with pytest.raises(ValueError, match=match):
        TargetSizeSearch(**kwargs)


# ------------------------------------------------------------------ SRTSO as an algorithm
def test_srtso_finds_the_known_best_size_and_counts_its_evaluations():
    problem = WeightedFeatureSelection(SizeEvaluator(60, best=17), alpha=1.0)
    res = minimize(problem, SRTSO(n_sizes=30, n_subsets=2, tolerance=0.0), seed=0)
    alg = res.algorithm
    evaluated = sum(entry["evaluated"] for entry in alg.search_.log_)
    assert alg.exhausted_ and alg.search_.iteration_ <= 2
    assert alg.evaluator.n_eval == evaluated == problem.evaluator.n_evaluations
    assert evaluated == 60 * alg.search_.iteration_
    # every size scores by its distance to 17: the best size seen is the one nearest 17
    seen = np.array(sorted(alg.search_.best_fitness_))
    assert alg.target_size_ == seen[np.argmin(np.abs(seen - 17))]
    assert abs(alg.target_size_ - 17) <= 2
    assert int(res.X.sum()) == alg.target_size_
    np.testing.assert_allclose(res.F, 1 - (0.9 - abs(alg.target_size_ - 17) / 100))
    assert sorted(res.pop.get("X").sum(axis=1).tolist()) == seen.tolist()


def test_srtso_tolerance_picks_a_smaller_size():
    problem = WeightedFeatureSelection(SizeEvaluator(60, best=40), alpha=1.0)
    tight = minimize(problem, SRTSO(n_subsets=1, tolerance=0.0), seed=2).algorithm
    loose = minimize(problem, SRTSO(n_subsets=1, tolerance=0.1), seed=2).algorithm
    assert loose.search_.log_[0]["best_size"] < tight.search_.log_[0]["best_size"]
    assert loose.search_.log_[0]["best_size"] >= 30  # 10 sizes' worth of 0.01 below 40


def test_srtso_respects_an_evaluation_budget():
    problem = WeightedFeatureSelection(SizeEvaluator(60, best=17), alpha=1.0)
    res = minimize(problem, SRTSO(), ("n_eval", 450), seed=1)
    alg = res.algorithm
    assert alg.evaluator.n_eval == 450 and alg.search_.truncated_
    assert [e["evaluated"] for e in alg.search_.log_] == [300, 150]


def test_srtso_same_seed_same_result_other_seed_other_draws():
    problem = WeightedFeatureSelection(SizeEvaluator(60, best=17), alpha=1.0)
    a, b, c = (minimize(problem, SRTSO(n_sizes=10, n_subsets=2), seed=s).algorithm
               for s in (5, 5, 6))
    assert a.search_.log_[0]["sizes"].tolist() == b.search_.log_[0]["sizes"].tolist()
    np.testing.assert_array_equal(a.pop.get("X"), b.pop.get("X"))
    assert a.search_.log_[0]["sizes"].tolist() != c.search_.log_[0]["sizes"].tolist()


def test_srtso_by_accuracy_alone():
    problem = WeightedFeatureSelection(SizeEvaluator(40, best=9), alpha=0.5)
    alg = minimize(problem, SRTSO(n_subsets=1, fitness="accuracy", tolerance=0.0),
                   seed=0).algorithm
    seen = np.array(sorted(alg.search_.best_fitness_))
    assert alg.target_size_ == seen[np.argmin(np.abs(seen - 9))]


def test_srtso_errors():
    with pytest.raises(ValueError, match="n_sizes"):
        SRTSO(n_sizes=0)
    with pytest.raises(ValueError, match="fitness"):
        SRTSO(fitness="size")
    with pytest.raises(TypeError, match="'pop_size'"):
        SRTSO(pop_size=10)
