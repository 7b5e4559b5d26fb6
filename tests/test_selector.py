"""SwarmFeatureSelector: scikit-learn's common checks, pipelines and searches, the front and its
choice rules, honest budgets and counts, reproducibility, delegation, pandas, errors."""

import numpy as np
import pandas as pd
import pytest
from pymoo.optimize import minimize
from pymoo.termination.collection import TerminationCollection
from pymoo.termination.max_eval import MaximumFunctionCallTermination
from pymoo.termination.max_gen import MaximumGenerationTermination
from sklearn.base import clone
from sklearn.cluster import KMeans
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import MinMaxScaler
from sklearn.tree import DecisionTreeClassifier
from sklearn.utils.estimator_checks import parametrize_with_checks

from pymoo_fs.algorithms import CMDPSOFS, ISRPSO
from pymoo_fs.analysis import choose_from_front, hypervolume
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import make_evaluator
from pymoo_fs.problems import BiObjectiveFeatureSelection
from pymoo_fs.seeds import run_seed
from pymoo_fs.selector import DEFAULT_ALGORITHMS, SwarmFeatureSelector

#: a small budget: scikit-learn's checks fit dozens of times
SMALL = dict(cv=2, n_gen=2, pop_size=4, random_state=0)


@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return data.X, data.y


@pytest.fixture(scope="module")
def fitted(sonar):
    X, y = sonar
    return SwarmFeatureSelector(algorithm="CMDPSOFS", n_gen=8, pop_size=12,
                                random_state=3).fit(X, y)


# ---------------------------------------------------------------------- scikit-learn's checks
def _expected_failures(estimator):
    """No check is expected to fail. The only one skipped, check_array_api_input, is skipped by
    scikit-learn itself ("SCIPY_ARRAY_API is not set: not checking array_api input"): the
    selector does not claim array-API support."""
    return {}


@parametrize_with_checks(
    [SwarmFeatureSelector(**SMALL),
     SwarmFeatureSelector(DecisionTreeClassifier(random_state=0), objective="weighted",
                          **SMALL)],
    expected_failed_checks=_expected_failures)
def test_scikit_learn_common_checks(estimator, check):
    check(estimator)


# ---------------------------------------------------------------------- clone, Pipeline, search
def test_clone_copies_parameters_not_fitted_state(fitted):
    copy = clone(fitted)
    assert copy.get_params() == fitted.get_params()
    assert not hasattr(copy, "support_")
    algorithm = CMDPSOFS(pop_size=6)
    copy = clone(SwarmFeatureSelector(algorithm=algorithm))
    assert copy.algorithm is not algorithm and isinstance(copy.algorithm, CMDPSOFS)


def test_grid_search_over_a_selector_parameter_in_a_pipeline(sonar):
    X, y = sonar
    pipe = Pipeline([("scale", MinMaxScaler()),
                     ("select", SwarmFeatureSelector(n_gen=3, pop_size=8, random_state=0)),
                     ("knn", KNeighborsClassifier())])
    outer = StratifiedKFold(3, shuffle=True, random_state=0)
    search = GridSearchCV(pipe, {"select__select": ["knee", "min_error"]}, cv=outer).fit(X, y)
    assert search.best_params_["select__select"] in ("knee", "min_error")
    for i, params in enumerate(search.cv_results_["params"]):
        expected = cross_val_score(clone(pipe).set_params(**params), X, y, cv=outer)
        assert search.cv_results_["mean_test_score"][i] == pytest.approx(expected.mean(),
                                                                          abs=1e-12)
    best = search.best_estimator_.named_steps["select"]
    assert best.transform(X).shape == (X.shape[0], best.support_.sum())


# ---------------------------------------------------------------------- reproducibility
def test_same_random_state_same_support_and_front(sonar):
    X, y = sonar
    a = SwarmFeatureSelector(n_gen=4, pop_size=8, random_state=11).fit(X, y)
    b = SwarmFeatureSelector(n_gen=4, pop_size=8, random_state=11).fit(X, y)
    c = SwarmFeatureSelector(n_gen=4, pop_size=8, random_state=12).fit(X, y)
    np.testing.assert_array_equal(a.support_, b.support_)
    np.testing.assert_array_equal(a.pareto_masks_, b.pareto_masks_)
    np.testing.assert_array_equal(a.pareto_front_["error"], b.pareto_front_["error"])
    # the seed reaches the search: another seed finds another front
    assert not np.array_equal(a.pareto_masks_, c.pareto_masks_)


def test_random_state_instances_and_none(sonar):
    X, y = sonar
    small = dict(n_gen=2, pop_size=6)
    a = SwarmFeatureSelector(random_state=np.random.RandomState(4), **small).fit(X, y)
    b = SwarmFeatureSelector(random_state=np.random.RandomState(4), **small).fit(X, y)
    np.testing.assert_array_equal(a.pareto_masks_, b.pareto_masks_)
    assert SwarmFeatureSelector(random_state=None, **small).fit(X, y).support_.any()


def test_front_is_cmdpsofs_archive_with_documented_seeds(sonar):
    X, y = sonar
    seed, D = 5, X.shape[1]
    sel = SwarmFeatureSelector(algorithm="CMDPSOFS", n_gen=5, pop_size=10, cv=4,
                               random_state=seed).fit(X, y)
    folds = StratifiedKFold(4, shuffle=True, random_state=run_seed(seed, "cv"))
    problem = BiObjectiveFeatureSelection.from_data(X, y, cv=folds)
    res = minimize(problem, CMDPSOFS(pop_size=10), ("n_gen", 5), seed=run_seed(seed, "search"))
    order = np.lexsort((res.F[:, 0], res.F[:, 1]))
    np.testing.assert_array_equal(sel.pareto_masks_, res.X[order])
    np.testing.assert_array_equal(sel.pareto_front_["error"], res.F[order, 0])
    np.testing.assert_array_equal(sel.pareto_front_["n_features"] / D, res.F[order, 1])


def test_default_is_isrpso_and_its_front_covers_the_archive(sonar):
    X, y = sonar
    seed, D = 5, X.shape[1]
    sel = SwarmFeatureSelector(n_gen=12, pop_size=10, cv=4, random_state=seed).fit(X, y)
    assert sel.algorithm_name_ == "ISRPSO"
    folds = StratifiedKFold(4, shuffle=True, random_state=run_seed(seed, "cv"))
    problem = BiObjectiveFeatureSelection.from_data(X, y, cv=folds)
    # max_evals="auto": the default algorithm gets n_gen * pop_size evaluations
    budget = TerminationCollection(MaximumGenerationTermination(12),
                                   MaximumFunctionCallTermination(120))
    res = minimize(problem, ISRPSO(pop_size=10), budget, seed=run_seed(seed, "search"))
    assert sel.n_evaluations_ == res.algorithm.evaluator.n_eval
    assert res.algorithm.ls_log_  # the local search ran, within the budget
    front = np.column_stack([sel.pareto_front_["error"], sel.pareto_front_["n_features"] / D])
    for f in res.F:  # every archive member is on the selector's front or dominated by it
        assert np.any(np.all(front <= f, axis=1))


def test_the_default_algorithm_has_a_bounded_budget(sonar):
    """Issue 24, defect 6: ISRPSO's local search is not bounded by n_gen; the default is."""
    X, y = sonar
    default = SwarmFeatureSelector(n_gen=12, pop_size=10, random_state=0).fit(X, y)
    assert default.history_["n_evaluations"][-2] < 120 <= default.n_evaluations_
    assert default.n_evaluations_ < 120 + 10 * X.shape[1]  # at most one more generation
    named = SwarmFeatureSelector(algorithm="ISRPSO", n_gen=12, pop_size=10,
                                 random_state=0).fit(X, y)
    assert named.n_evaluations_ > 2 * 120  # by name: n_gen alone, the local search on top
    bounded = clone(named).set_params(max_evals=120).fit(X, y)
    assert bounded.n_evaluations_ == default.n_evaluations_
    np.testing.assert_array_equal(bounded.pareto_masks_, default.pareto_masks_)
    unbounded = clone(default).set_params(max_evals=None).fit(X, y)
    assert unbounded.n_evaluations_ == named.n_evaluations_


def test_n_jobs_none_means_one_job(sonar, monkeypatch):
    import pymoo_fs.selector as module

    X, y = sonar
    seen = []

    def spy(X, y, estimator=None, **options):
        seen.append(options["n_jobs"])
        return make_evaluator(X, y, estimator, **options)

    monkeypatch.setattr(module, "make_evaluator", spy)
    for n_jobs in (None, 2, -1):
        SwarmFeatureSelector(algorithm="CMDPSOFS", n_gen=2, pop_size=6, n_jobs=n_jobs,
                             random_state=0).fit(X, y)
    assert seen == [1, 2, -1]


def test_the_front_is_a_table_with_the_masks_beside_it(fitted):
    table = pd.DataFrame(fitted.pareto_front_)
    n_front = len(fitted.pareto_front_["error"])
    assert list(table.columns) == ["n_features", "error", "chosen"]
    assert table.shape == (n_front, 3) and table["chosen"].sum() == 1
    assert table["n_features"].dtype == np.int64 and table["error"].dtype == np.float64
    assert fitted.pareto_masks_.shape == (n_front, fitted.n_features_in_)
    assert table.loc[table["chosen"], "n_features"].item() == fitted.support_.sum()


# ---------------------------------------------------------------------- the front and its choice
def test_front_is_nondominated_sorted_and_consistent(fitted):
    front = fitted.pareto_front_
    err, size = front["error"], front["n_features"]
    masks = fitted.pareto_masks_
    np.testing.assert_array_equal(masks.sum(axis=1), size)
    assert np.all(np.diff(size) > 0) and np.all(np.diff(err) < 0)  # a strict staircase
    assert masks.dtype == bool and size.min() >= 1
    np.testing.assert_array_equal(fitted.support_, masks[fitted.chosen_index_])
    np.testing.assert_array_equal(front["chosen"], np.arange(len(err)) == fitted.chosen_index_)
    assert fitted.get_support(indices=True).tolist() == np.flatnonzero(fitted.support_).tolist()


@pytest.mark.parametrize("rule", ["knee", "min_error", "within_tol", "budget"])
def test_each_rule_picks_its_subset_from_the_same_front(sonar, fitted, rule):
    X, y = sonar
    if rule == "budget":  # a budget inside the front's range of sizes
        sizes = fitted.pareto_front_["n_features"]
        assert len(sizes) >= 2
        rule = int(sizes[-2])  # excludes only the largest: picks the second largest
    sel = clone(fitted).set_params(select=rule, tol=0.02).fit(X, y)
    front = sel.pareto_front_
    # the search does not depend on the rule: same front, chosen as documented
    np.testing.assert_array_equal(sel.pareto_masks_, fitted.pareto_masks_)
    assert sel.chosen_index_ == choose_from_front(front["error"], front["n_features"], rule,
                                                  tol=0.02)
    if rule == "min_error":
        assert sel.support_.sum() == front["n_features"].max()
    if isinstance(rule, int):
        assert sel.chosen_index_ == len(front["error"]) - 2


# hand-made front: sizes 1..16, errors falling
ERR = np.array([0.30, 0.20, 0.12, 0.11, 0.10])
SIZE = np.array([1, 2, 4, 8, 16])


def test_rules_on_a_hand_made_front():
    # knee: e = (err - .10) / .20 = [1, .5, .1, .05, 0]; s = (size - 1) / 15 =
    # [0, .067, .2, .467, 1]; e + s = [1, .567, .3, .517, 1] -> index 2
    assert choose_from_front(ERR, SIZE, "knee") == 2
    assert choose_from_front(ERR, SIZE, "min_error") == 4
    assert choose_from_front(ERR, SIZE, "within_tol", tol=0.01) == 3  # errors <= .11
    assert choose_from_front(ERR, SIZE, "within_tol", tol=0.02) == 2  # errors <= .12
    assert choose_from_front(ERR, SIZE, "within_tol", tol=0.0) == 4
    assert choose_from_front(ERR, SIZE, "within_tol", tol=1.0) == 0
    assert choose_from_front(ERR, SIZE, 5) == 2  # sizes <= 5: 1, 2, 4 -> lowest error
    assert choose_from_front(ERR, SIZE, 1) == 0
    assert choose_from_front(ERR, SIZE, 100) == 4


def test_rules_break_ties_as_documented():
    # two subsets with the lowest error: min_error takes the smaller
    assert choose_from_front([0.2, 0.1, 0.1], [1, 5, 3], "min_error") == 2
    # errors a few ulp apart (means of equal mistake counts over different folds) tie too
    low = float.fromhex("0x1.1a7b9611a7b94p-3")
    high = float.fromhex("0x1.1a7b9611a7b98p-3")
    assert choose_from_front([0.2, high, low], [1, 10, 11], "min_error") == 1
    assert choose_from_front([0.2, 0.1 + 1e-9, 0.1], [1, 10, 11], "min_error") == 2
    # within_tol: equal sizes inside the tolerance, the lower error wins
    assert choose_from_front([0.11, 0.105, 0.1], [3, 3, 9], "within_tol", tol=0.02) == 1
    # a budget: equal errors within it, the smaller wins
    assert choose_from_front([0.2, 0.2, 0.1], [4, 2, 9], 5) == 1
    # knee of two points: equal distances, the lower error wins; of one point: that point
    assert choose_from_front([0.3, 0.1], [1, 9], "knee") == 1
    assert choose_from_front([0.3], [7], "knee") == 0


def test_rule_errors_name_the_problem():
    with pytest.raises(ValueError, match="at most select=3 features; the smallest has 4"):
        choose_from_front([0.1, 0.2], [5, 4], 3)
    with pytest.raises(ValueError, match="rule must be one of"):
        choose_from_front(ERR, SIZE, "best")
    with pytest.raises(ValueError, match="tol must be"):
        choose_from_front(ERR, SIZE, "within_tol", tol=-0.1)
    with pytest.raises(ValueError, match="the front is empty"):
        choose_from_front([], [], "knee")
    with pytest.raises(ValueError, match="one length"):
        choose_from_front([0.1, 0.2], [1], "knee")
    with pytest.raises(ValueError, match="n_features must hold ints >= 1"):
        choose_from_front([0.1], [0], "knee")


def test_budget_larger_than_every_subset_warns_and_takes_the_smallest(sonar):
    X, y = sonar
    with pytest.warns(UserWarning, match="at most select=1 features.*smallest subset"):
        sel = SwarmFeatureSelector(n_gen=2, pop_size=6, select=1, random_state=0).fit(X, y)
    assert sel.pareto_front_["n_features"][0] > 1  # the warning's branch really ran
    assert sel.chosen_index_ == 0


# ---------------------------------------------------------------------- the estimates
def test_non_knn_estimator_matches_cross_val_score(sonar):
    X, y = sonar
    tree = DecisionTreeClassifier(random_state=0)
    folds = StratifiedKFold(3, shuffle=True, random_state=0)
    sel = SwarmFeatureSelector(tree, cv=folds, n_gen=2, pop_size=6, random_state=0).fit(X, y)
    front = sel.pareto_front_
    for mask, error in zip(sel.pareto_masks_, front["error"]):
        assert error == 1.0 - cross_val_score(tree, X[:, mask], y, cv=folds).mean()
    chosen = 1.0 - cross_val_score(tree, X[:, sel.support_], y, cv=folds).mean()
    assert front["error"][sel.chosen_index_] == chosen
    assert sel.all_features_error_ == 1.0 - cross_val_score(tree, X, y, cv=folds).mean()
    assert isinstance(sel.estimator_, DecisionTreeClassifier)
    assert sel.estimator_.n_features_in_ == sel.support_.sum()


def test_default_knn_matches_cross_val_score_on_seeded_folds(fitted, sonar):
    X, y = sonar
    folds = StratifiedKFold(5, shuffle=True, random_state=run_seed(3, "cv"))
    knn = KNeighborsClassifier(n_neighbors=5)
    chosen = 1.0 - cross_val_score(knn, X[:, fitted.support_], y, cv=folds).mean()
    assert fitted.pareto_front_["error"][fitted.chosen_index_] == chosen


# ---------------------------------------------------------------------- budgets and history
def test_generation_budget_counts_every_evaluation(fitted):
    assert fitted.n_evaluations_ == 8 * 12
    h = fitted.history_
    np.testing.assert_array_equal(h["n_gen"], np.arange(1, 9))
    np.testing.assert_array_equal(h["n_evaluations"], 12 * np.arange(1, 9))
    assert np.all(np.diff(h["best_error"]) <= 0) and np.all(np.diff(h["hypervolume"]) >= 0)
    front = fitted.pareto_front_
    assert h["best_error"][-1] == front["error"].min()
    assert h["n_features"][-1] == front["n_features"][np.argmin(front["error"])]
    F = np.column_stack([front["error"], front["n_features"] / fitted.n_features_in_])
    assert h["hypervolume"][-1] == hypervolume(F)
    assert 0 < fitted.all_features_error_ < 1


def test_evaluation_and_time_budgets(sonar):
    X, y = sonar
    sel = SwarmFeatureSelector(n_gen=None, max_evals=50, pop_size=8, random_state=0).fit(X, y)
    # whole generations of 8: stops at the first that reaches 50
    assert sel.n_evaluations_ == 56 and sel.history_["n_gen"][-1] == 7
    both = SwarmFeatureSelector(n_gen=3, max_evals=1000, pop_size=8, random_state=0).fit(X, y)
    assert both.n_evaluations_ == 24  # the first budget reached stops the search
    timed = SwarmFeatureSelector(n_gen=None, max_time=0.3, pop_size=8, random_state=0)
    assert timed.fit(X, y).n_evaluations_ >= 8


# ---------------------------------------------------------------------- algorithms, objectives
def test_weighted_objective_uses_the_single_objective_swarm(sonar):
    X, y = sonar
    sel = SwarmFeatureSelector(objective="weighted", alpha=0.8, n_gen=3, pop_size=6,
                               random_state=0).fit(X, y)
    assert sel.algorithm_name_ == DEFAULT_ALGORITHMS["weighted"] == "PSO"
    assert sel.n_evaluations_ == 18 and len(sel.pareto_front_["error"]) >= 1


def test_algorithm_instance_is_copied_and_left_unused(sonar):
    X, y = sonar
    algorithm = CMDPSOFS(pop_size=6, w=(0.1, 0.5))
    sel = SwarmFeatureSelector(algorithm=algorithm, n_gen=2, random_state=0).fit(X, y)
    assert sel.algorithm_name_ == "CMDPSOFS" and sel.n_evaluations_ == 12
    assert algorithm.problem is None and sel.algorithm is algorithm


def test_multi_objective_instance_refuses_the_weighted_objective(sonar):
    X, y = sonar
    sel = SwarmFeatureSelector(algorithm=CMDPSOFS(pop_size=4), objective="weighted")
    with pytest.raises(ValueError, match="CMDPSOFS is multi-objective; the problem has 1"):
        sel.fit(X, y)


def test_nsga2_by_name(sonar):
    X, y = sonar
    sel = SwarmFeatureSelector(algorithm="NSGA-II", n_gen=2, pop_size=6, random_state=0)
    assert sel.fit(X, y).algorithm_name_ == "NSGA-II"


def test_n_jobs_does_not_change_the_result(sonar, fitted):
    X, y = sonar
    one = clone(fitted).set_params(n_jobs=1).fit(X, y)
    two = clone(fitted).set_params(n_jobs=2).fit(X, y)
    np.testing.assert_array_equal(one.pareto_front_["error"], fitted.pareto_front_["error"])
    np.testing.assert_array_equal(two.support_, fitted.support_)


# ---------------------------------------------------------------------- delegation, labels
def test_predict_and_score_delegate_to_the_refitted_estimator(fitted, sonar):
    X, y = sonar
    Xs = X[:, fitted.support_]
    np.testing.assert_array_equal(fitted.predict(X), fitted.estimator_.predict(Xs))
    np.testing.assert_array_equal(fitted.predict_proba(X), fitted.estimator_.predict_proba(Xs))
    assert fitted.score(X, y) == fitted.estimator_.score(Xs, y)
    assert not hasattr(fitted, "decision_function")  # KNN has none
    np.testing.assert_array_equal(fitted.classes_, np.unique(y))


def test_decision_function_and_string_labels():
    rng = np.random.default_rng(0)
    X = rng.random((40, 5))
    y = np.where(X[:, 0] + 0.1 * rng.random(40) > 0.55, "rock", "mine")
    sel = SwarmFeatureSelector(LogisticRegression(), n_gen=2, pop_size=4, cv=3,
                               random_state=0).fit(X, y)
    assert sel.classes_.tolist() == ["mine", "rock"]
    assert set(sel.predict(X)) <= {"mine", "rock"}
    np.testing.assert_array_equal(sel.decision_function(X),
                                  sel.estimator_.decision_function(X[:, sel.support_]))


# ---------------------------------------------------------------------- pandas
def test_pandas_in_pandas_out(sonar):
    X, y = sonar
    names = [f"band_{i:02d}" for i in range(X.shape[1])]
    frame = pd.DataFrame(X, columns=names)
    sel = SwarmFeatureSelector(n_gen=2, pop_size=6, random_state=0).set_output(
        transform="pandas").fit(frame, y)
    assert sel.feature_names_in_.tolist() == names
    out = sel.transform(frame)
    assert isinstance(out, pd.DataFrame)
    kept = np.array(names)[sel.support_].tolist()
    assert out.columns.tolist() == kept == sel.get_feature_names_out().tolist()
    np.testing.assert_array_equal(out.to_numpy(), X[:, sel.support_])
    pipe = make_pipeline(clone(sel), KNeighborsClassifier()).set_output(transform="pandas")
    pipe.fit(frame, y)
    assert pipe[:-1].get_feature_names_out().tolist() == kept
    with pytest.raises(ValueError, match="feature names"):
        sel.transform(frame.rename(columns={names[0]: "other"}))


# ---------------------------------------------------------------------- verbose
def test_verbose_one_shows_a_progress_bar_and_two_pymoos_table(sonar, capsys):
    X, y = sonar
    SwarmFeatureSelector(n_gen=2, pop_size=4, verbose=1, random_state=0).fit(X, y)
    out = capsys.readouterr()
    assert "SwarmFeatureSelector: 100%" in out.err and "best_error" in out.err
    SwarmFeatureSelector(n_gen=2, pop_size=4, verbose=2, random_state=0).fit(X, y)
    out = capsys.readouterr()
    assert "n_gen" in out.out and "n_eval" in out.out
    SwarmFeatureSelector(n_gen=2, pop_size=4, random_state=0).fit(X, y)
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""


# ---------------------------------------------------------------------- errors
@pytest.mark.parametrize("params, match", [
    ({"objective": "both"}, "'objective' parameter .* must be a str among"),
    ({"alpha": 1.5}, "'alpha' parameter .* Got 1.5"),
    ({"select": "best"}, "'select' parameter"),
    ({"select": 0}, "'select' parameter"),
    ({"tol": -0.1}, "'tol' parameter"),
    ({"n_gen": 0}, "'n_gen' parameter"),
    ({"pop_size": 0}, "'pop_size' parameter"),
    ({"max_time": 0}, "'max_time' parameter"),
    ({"n_jobs": 0}, "'n_jobs' parameter"),
    ({"verbose": -1}, "'verbose' parameter"),
    ({"algorithm": "SGD"}, "unknown algorithm 'SGD'; known: "),  # the registry names it
    ({"cv": 1}, "'cv' parameter"),
    ({"scoring": "nope"}, "'scoring' parameter"),
    ({"estimator": "knn"}, "'estimator' parameter"),
    ({"n_gen": None}, "no budget: give at least one of n_gen, max_evals and max_time"),
    # a regressor is taken since the regression issue (tests/test_selector_regression.py);
    # a clusterer is neither
    ({"estimator": KMeans(n_clusters=2, n_init=1)},
     "estimator must be a scikit-learn classifier or regressor"),
    ({"algorithm": "PSO"}, "algorithm='PSO' does not suit objective='pareto'; use one of"),
    ({"algorithm": "CMDPSOFS", "objective": "weighted"}, "does not suit objective='weighted'"),
    ({"algorithm": CMDPSOFS(pop_size=4), "pop_size": 8}, "pop_size=8 applies to an algorithm"),
])
def test_invalid_parameters_raise_in_fit_naming_them(sonar, params, match):
    X, y = sonar
    sel = SwarmFeatureSelector(**params)  # __init__ only stores
    with pytest.raises(ValueError, match=match):
        sel.fit(X, y)


def test_used_algorithm_instance_and_single_class_are_refused(sonar):
    X, y = sonar
    used = CMDPSOFS(pop_size=4)
    minimize(BiObjectiveFeatureSelection.from_data(X, y, cv=3), used, ("n_gen", 1),
             copy_algorithm=False, seed=0)
    with pytest.raises(ValueError, match="already been run"):
        SwarmFeatureSelector(algorithm=used).fit(X, y)
    with pytest.raises(ValueError, match="at least 2 classes; y has 1 class"):
        SwarmFeatureSelector().fit(X, np.zeros(len(y)))
