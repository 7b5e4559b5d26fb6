"""The feature-selection problems on a regression target: the normalised, clipped error."""

import numpy as np
import pytest
from pymoo.optimize import minimize
from sklearn.datasets import load_diabetes
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsRegressor

from pymoo_fs.algorithms.moo.isrpso import ISRPSO
from pymoo_fs.algorithms.moo.mopso import MOPSO
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection


@pytest.fixture(scope="module")
def diabetes():
    return load_diabetes(return_X_y=True)


def test_bi_objective_error_is_mse_over_the_training_variance(diabetes):
    X, y = diabetes
    p = BiObjectiveFeatureSelection.from_data(X[:300], y[:300], cv=5,
                                              scoring="neg_mean_squared_error",
                                              X_test=X[300:], y_test=y[300:])
    assert p.target_type == "regression"
    masks = np.zeros((3, 10), dtype=bool)
    masks[0, [2, 8]] = True
    masks[1, 1] = True  # sex alone: about as good as the mean, worse on some folds
    masks[2] = True
    F = p.evaluate(masks)
    mse = np.array([-cross_val_score(KNeighborsRegressor(), X[:300][:, m], y[:300],
                                     cv=p.evaluator.folds,
                                     scoring="neg_mean_squared_error").mean() for m in masks])
    np.testing.assert_allclose(F[:, 0], np.clip(mse / np.var(y[:300]), 0, 1), rtol=1e-12)
    np.testing.assert_array_equal(F[:, 1], masks.sum(axis=1) / 10)
    assert (F[:, 0] <= 1).all() and F[0, 0] < 0.7
    H = p.holdout_objectives(masks[:1])
    pred = KNeighborsRegressor().fit(X[:300][:, masks[0]], y[:300]).predict(
        X[300:][:, masks[0]])
    assert H[0, 0] == pytest.approx(np.mean((y[300:] - pred) ** 2) / np.var(y[:300]))
    # flips through the incremental path give the same objectives as evaluate
    Ff = p.evaluate_flips(masks[0], [0, 2, 5])
    flipped = np.repeat(masks[:1], 3, axis=0)
    flipped[np.arange(3), [0, 2, 5]] ^= True
    p.clear_cache()
    np.testing.assert_array_equal(Ff, p.evaluate(flipped))


def test_weighted_problem_and_worse_than_the_mean_clipped(diabetes):
    X, y = diabetes
    p = WeightedFeatureSelection.from_data(X, y, KNeighborsRegressor(1), alpha=0.8, cv=3)
    mask = np.zeros(10, dtype=bool)
    mask[1] = True  # 1-NN on the binary sex feature: far worse than the mean
    raw = p.evaluator.score(mask)[0]
    assert -raw / np.var(y) > 1
    np.testing.assert_allclose(p.evaluate(mask[None, :])[0, 0], 0.8 * 1.0 + 0.2 * 0.1)


def test_custom_regression_scorer_refused_by_the_problems(diabetes):
    from sklearn.linear_model import Ridge

    X, y = diabetes
    with pytest.raises(ValueError, match="normalised error"):
        BiObjectiveFeatureSelection.from_data(X, y, Ridge(), cv=3,
                                              scoring="neg_root_mean_squared_error")


@pytest.mark.parametrize("algorithm", [MOPSO, ISRPSO])
def test_multi_objective_algorithms_run_on_a_regression_target(diabetes, algorithm):
    X, y = diabetes
    p = BiObjectiveFeatureSelection.from_data(X, y, cv=3, scoring="neg_mean_squared_error")
    res = minimize(p, algorithm(pop_size=8), ("n_gen", 3), seed=1)
    F = np.atleast_2d(res.F)
    assert F.shape[1] == 2 and ((F >= 0) & (F <= 1)).all()
    again = minimize(BiObjectiveFeatureSelection.from_data(
        X, y, cv=3, scoring="neg_mean_squared_error"), algorithm(pop_size=8), ("n_gen", 3),
        seed=1)
    np.testing.assert_array_equal(F, np.atleast_2d(again.F))


def test_relevance_of_a_regression_target_ranks_the_relevant_features_first():
    from pymoo_fs.datasets import make_relevant_regression
    from pymoo_fs.problems.feature_selection import target_bins

    data = make_relevant_regression(n_samples=300, n_features=15, n_relevant=3, random_state=2)
    codes = target_bins(data.y)
    assert codes.min() == 0 and codes.max() == 4
    assert np.all(np.bincount(codes) == 60)  # equal frequency, distinct continuous values
    p = WeightedFeatureSelection.from_data(data.X, data.y, cv=3,
                                           scoring="neg_mean_squared_error")
    for measure in ("mdl", "equal_frequency", "mutual_info"):
        top = p.symmetric_uncertainty(measure).ranking()[:3]
        assert set(top.tolist()) == set(data.relevant.tolist()), measure


@pytest.mark.parametrize("name", ["VLPSO", "HFS-C-P", "AMSO"])
def test_ranking_swarms_run_on_a_regression_target(diabetes, name):
    from pymoo_fs.algorithms.registry import make_algorithm

    X, y = diabetes
    p = WeightedFeatureSelection.from_data(X, y, cv=3, scoring="neg_mean_squared_error")
    res = minimize(p, make_algorithm(name, pop_size=6), ("n_eval", 30), seed=0)
    assert 0 <= float(np.min(res.F)) <= 1
