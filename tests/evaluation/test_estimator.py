"""The estimator evaluator and the choice of path: equal to scikit-learn, same contract."""

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from pymoo_fs.datasets import holdout_split, load_dataset
from pymoo_fs.evaluation import EstimatorEvaluator, Evaluator, KNNEvaluator, make_evaluator
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection


@pytest.fixture(scope="module")
def sonar():
    split = holdout_split(load_dataset("sonar"), random_state=1)
    return split


@pytest.fixture(scope="module")
def masks():
    rng = np.random.default_rng(7)
    m = rng.random((5, 60)) < rng.choice([0.1, 0.5], size=(5, 1))
    m[:, 0] = True  # never empty
    return m


ESTIMATORS = [DecisionTreeClassifier(random_state=0), LogisticRegression(max_iter=500)]


@pytest.mark.parametrize("estimator", ESTIMATORS, ids=["tree", "logistic"])
@pytest.mark.parametrize("n_jobs", [None, 2])
def test_scores_equal_cross_val_score(sonar, masks, estimator, n_jobs):
    ev = EstimatorEvaluator(sonar.X_train, sonar.y_train, estimator, cv=5, n_jobs=n_jobs)
    expected = [cross_val_score(estimator, sonar.X_train[:, m], sonar.y_train, cv=ev.folds)
                .mean() for m in masks]
    np.testing.assert_array_equal(ev.score(masks), expected)
    assert isinstance(ev, Evaluator)


def test_balanced_accuracy_and_splitter_objects(sonar, masks):
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=4)
    est = LogisticRegression(max_iter=500)
    ev = EstimatorEvaluator(sonar.X_train, sonar.y_train, est, cv=cv,
                            scoring="balanced_accuracy")
    assert len(ev.folds) == 6
    for (tr, te), (tr2, te2) in zip(ev.folds, cv.split(sonar.X_train, sonar.y_train)):
        np.testing.assert_array_equal(tr, tr2)
        np.testing.assert_array_equal(te, te2)
    expected = [cross_val_score(est, sonar.X_train[:, m], sonar.y_train, cv=cv,
                                scoring="balanced_accuracy").mean() for m in masks[:2]]
    np.testing.assert_array_equal(ev.score(masks[:2]), expected)


def test_string_labels_reach_the_estimator_as_given(masks):
    data = load_dataset("sonar")
    labels = data.classes[data.y]  # "M" / "R"
    est = DecisionTreeClassifier(random_state=0)
    ev = EstimatorEvaluator(data.X, labels, est, cv=4)
    expected = cross_val_score(est, data.X[:, masks[0]], labels, cv=ev.folds).mean()
    assert ev.score(masks[0])[0] == expected


def test_cache_counters_flips_and_holdout(sonar, masks):
    est = DecisionTreeClassifier(random_state=0)
    ev = EstimatorEvaluator(sonar.X_train, sonar.y_train, est, cv=3)
    first = ev.score(masks)
    again = ev.score(np.vstack([masks[:2], masks[:2]]))
    np.testing.assert_array_equal(again, np.concatenate([first[:2], first[:2]]))
    assert (ev.n_evaluations, ev.n_cache_hits) == (5, 4)
    flips = ev.score_flips(masks[0], [1, 2, 3])
    flipped = np.repeat(masks[:1], 3, axis=0)
    flipped[np.arange(3), [1, 2, 3]] ^= True
    np.testing.assert_array_equal(flips, ev.score(flipped))
    held = ev.holdout_score(masks[:2], sonar.X_test, sonar.y_test)
    expected = [DecisionTreeClassifier(random_state=0).fit(sonar.X_train[:, m], sonar.y_train)
                .score(sonar.X_test[:, m], sonar.y_test) for m in masks[:2]]
    np.testing.assert_array_equal(held, expected)


@pytest.mark.parametrize("kwargs, match", [
    (dict(estimator=KNeighborsClassifier().fit([[0], [1]], [0, 1]).kneighbors), "classifier"),
    (dict(estimator=object()), "classifier"),
    (dict(scoring="accuracyy"), "scoring='accuracyy' is not a valid scorer"),
    (dict(n_jobs=0), "n_jobs"),
    (dict(n_jobs=1.5), "n_jobs"),
    (dict(cache_size=-1), "cache_size"),
    (dict(cv="kfold"), "cv must be"),
    (dict(random_state=-3), "random_state"),
])
def test_invalid_arguments_name_the_parameter(sonar, kwargs, match):
    kwargs.setdefault("estimator", LogisticRegression())
    with pytest.raises(ValueError, match=match):
        EstimatorEvaluator(sonar.X_train, sonar.y_train, **kwargs)


# ------------------------------------------------------------------ choosing the path
@pytest.mark.parametrize("estimator, options, expected", [
    (None, {}, KNNEvaluator),
    (None, dict(n_neighbors=1, scoring="balanced_accuracy"), KNNEvaluator),
    (KNeighborsClassifier(3), {}, KNNEvaluator),
    (KNeighborsClassifier(3, metric="euclidean"), dict(n_jobs=1, precision="float32"),
     KNNEvaluator),
    (KNeighborsClassifier(3, weights="distance"), {}, EstimatorEvaluator),
    (KNeighborsClassifier(3, p=1), {}, EstimatorEvaluator),
    (KNeighborsClassifier(3, algorithm="brute"), {}, EstimatorEvaluator),
    (None, dict(scoring="f1_macro"), EstimatorEvaluator),
    (LogisticRegression(), dict(n_jobs=2), EstimatorEvaluator),
])
def test_make_evaluator_takes_the_fast_path_only_where_exact(sonar, estimator, options,
                                                             expected):
    ev = make_evaluator(sonar.X_train, sonar.y_train, estimator, cv=3, **options)
    assert type(ev) is expected


def test_knn_on_either_path_gives_the_same_scores(sonar, masks):
    fast = make_evaluator(sonar.X_train, sonar.y_train, KNeighborsClassifier(3), cv=4)
    general = EstimatorEvaluator(sonar.X_train, sonar.y_train, KNeighborsClassifier(3), cv=4)
    np.testing.assert_array_equal(fast.score(masks), general.score(masks))


@pytest.mark.parametrize("options, match", [
    (dict(metric="balanced_accuracy"), "unexpected keyword argument 'metric'"),
    (dict(n_neighbour=3), "unexpected keyword argument 'n_neighbour'"),
])
def test_make_evaluator_refuses_unknown_keywords(sonar, options, match):
    with pytest.raises(TypeError, match=match):
        make_evaluator(sonar.X_train, sonar.y_train, **options)


def test_fast_path_options_are_refused_on_the_general_path(sonar):
    with pytest.raises(TypeError, match="'precision'"):
        make_evaluator(sonar.X_train, sonar.y_train, LogisticRegression(), precision="float32")
    with pytest.raises(TypeError, match="n_neighbors is taken from the estimator"):
        make_evaluator(sonar.X_train, sonar.y_train, KNeighborsClassifier(3), n_neighbors=5)


# ------------------------------------------------------------------ the problems' from_data
@pytest.mark.parametrize("cls", [WeightedFeatureSelection, BiObjectiveFeatureSelection])
def test_from_data_refuses_unknown_and_misspelled_keywords(sonar, cls):
    with pytest.raises(TypeError, match="unexpected keyword argument 'metric'"):
        cls.from_data(sonar.X_train, sonar.y_train, metric="balanced_accuracy")
    with pytest.raises(TypeError, match="unexpected keyword argument 'alpah'"):
        cls.from_data(sonar.X_train, sonar.y_train, alpah=0.8)


def test_from_data_passes_every_option_through(sonar, masks):
    p = WeightedFeatureSelection.from_data(
        sonar.X_train, sonar.y_train, DecisionTreeClassifier(random_state=0), cv=4,
        scoring="balanced_accuracy", alpha=0.7, cache_size=0, X_test=sonar.X_test,
        y_test=sonar.y_test)
    assert isinstance(p.evaluator, EstimatorEvaluator) and p.alpha == 0.7
    assert p.evaluator.scoring == "balanced_accuracy" and p.evaluator.cache_size == 0
    assert len(p.evaluator.folds) == 4
    q = BiObjectiveFeatureSelection.from_data(sonar.X_train, sonar.y_train, n_neighbors=1,
                                              cv="loo", precision="float32", n_jobs=1)
    assert isinstance(q.evaluator, KNNEvaluator)
    assert (q.evaluator.n_neighbors, q.evaluator.precision, q.evaluator.n_threads) == (1,
                                                                                    "float32", 1)
    assert len(q.evaluator.folds) == sonar.X_train.shape[0]
    scores = p.evaluator.score(masks)
    np.testing.assert_allclose(p.evaluate(masks)[:, 0],
                               0.7 * (1 - scores) + 0.3 * masks.sum(axis=1) / 60)
