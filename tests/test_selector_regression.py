"""SwarmFeatureSelector on regression targets: scikit-learn's checks, Pipeline, GridSearchCV,
and the known relevant features of a synthetic set."""

import numpy as np
import pytest
from sklearn.datasets import load_diabetes
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, KFold
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from pymoo_fs.datasets.synthetic import make_relevant_regression
from pymoo_fs.selector import SwarmFeatureSelector

SMALL = dict(cv=2, n_gen=2, pop_size=4, random_state=0)


@parametrize_with_checks(
    [SwarmFeatureSelector(KNeighborsRegressor(), **SMALL),
     SwarmFeatureSelector(Ridge(), objective="weighted", **SMALL)],
    expected_failed_checks=lambda estimator: {})
def test_scikit_learn_common_checks_regressors(estimator, check):
    check(estimator)


def test_regression_mode_by_scoring_and_the_error_scale():
    X, y = load_diabetes(return_X_y=True)
    sel = SwarmFeatureSelector(scoring="neg_mean_squared_error", n_gen=3, pop_size=6, cv=3,
                               random_state=0).fit(X, y)
    assert isinstance(sel.estimator_, KNeighborsRegressor)
    err = sel.pareto_front_["error"]
    assert ((err >= 0) & (err <= 1)).all()
    assert 0 < sel.all_features_error_ < 1
    assert not hasattr(sel, "classes_")
    assert np.isfinite(sel.score(X, y))


def test_pipeline_with_grid_search_finds_the_relevant_features():
    data = make_relevant_regression(n_samples=150, n_features=12, n_relevant=3, random_state=0)
    X, y = data.X, data.y
    pipe = make_pipeline(SwarmFeatureSelector(KNeighborsRegressor(), algorithm="NSGA-II",
                                              n_gen=12, pop_size=16, cv=3, random_state=0),
                         KNeighborsRegressor())
    grid = GridSearchCV(pipe, {"kneighborsregressor__n_neighbors": [3, 7]},
                        cv=KFold(2, shuffle=True, random_state=0)).fit(X, y)
    chosen = np.flatnonzero(grid.best_estimator_[0].support_)
    assert set(data.relevant) <= set(chosen.tolist())
    assert chosen.size <= data.relevant.size + 2
    # the selection helps: better than KNN on every feature, on the same outer folds
    plain = GridSearchCV(KNeighborsRegressor(), {"n_neighbors": [3, 7]},
                         cv=KFold(2, shuffle=True, random_state=0)).fit(X, y)
    assert grid.best_score_ > plain.best_score_ + 0.1


def test_regressor_with_a_score_without_normalised_error_is_refused():
    X, y = load_diabetes(return_X_y=True)
    with pytest.raises(ValueError, match="normalised error"):
        SwarmFeatureSelector(Ridge(), scoring="neg_root_mean_squared_error",
                             **SMALL).fit(X, y)
