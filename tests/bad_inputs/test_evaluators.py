"""Bad inputs to the evaluators (KNN, any estimator, FIT-B, the wrappers) and make_evaluator.

The KNN evaluator's argument checks are tried here, not changed: it belongs to the speed work.
"""

import numpy as np
import pytest
from sklearn.cluster import KMeans
from sklearn.linear_model import LinearRegression
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.evaluation import (EstimatorEvaluator, Evaluator, FitBEvaluator, FrontRecorder,
                                 KNNEvaluator, RepeatedCrossValidation, make_evaluator)

from .corpus import Accepts, Case, Raises, check_case, ids

RNG = np.random.default_rng(0)
X = RNG.random((30, 4))
Y = np.repeat([0, 1], 15)
Y3 = np.repeat([0, 1, 2], 10)
YS = np.array(["a", "b"] * 15)
MASKS = np.array([[True, True, False, False], [True, True, True, True]])
KNN = KNeighborsClassifier(3)


def _knn(**kw):
    return KNNEvaluator(X, Y, cv=3, **kw)


def _scores_in_unit_interval(scores):
    assert scores.shape == (2,) and np.all((0 <= scores) & (scores <= 1))


CASES = []
EVALUATORS = {
    "KNNEvaluator": lambda X_, y_, **kw: KNNEvaluator(X_, y_, **{"cv": 3, **kw}),
    "EstimatorEvaluator": lambda X_, y_, **kw: EstimatorEvaluator(X_, y_, KNN,
                                                                  **{"cv": 3, **kw}),
    "FitBEvaluator": lambda X_, y_, **kw: FitBEvaluator(X_, y_, **{"n_folds": 3, **kw}),
    "make_evaluator": lambda X_, y_, **kw: make_evaluator(X_, y_, **{"cv": 3, **kw}),
}
for surface, build in EVALUATORS.items():
    CASES += [
        Case(surface, "X as a string", "wrong type", lambda b=build: b("X", Y),
             Raises(ValueError, "X must be a 2-D numeric array, got a string")),
        Case(surface, "1-D X", "wrong shape", lambda b=build: b(X[:, 0], Y),
             Raises(ValueError, r"X must be a 2-D array \(n_samples, n_features\), got 1-D")),
        Case(surface, "y too short", "wrong shape", lambda b=build: b(X, Y[:-1]),
             Raises(ValueError, r"y must have shape \(30,\) to match X")),
        Case(surface, "no feature", "empty", lambda b=build: b(X[:, :0], Y),
             Raises(ValueError, r"X must hold at least one sample and one feature")),
        Case(surface, "NaN in X", "nan/inf",
             lambda b=build: b(np.where(X > 0.9, np.nan, X), Y),
             Raises(ValueError, r"X contains \d+ NaN or infinite values")),
        Case(surface, "inf in X", "nan/inf", lambda b=build: b(np.where(X > 0.9, np.inf, X), Y),
             Raises(ValueError, r"X contains \d+ NaN or infinite values")),
        Case(surface, "squares overflow", "huge", lambda b=build: b(X * 1e200, Y),
             Raises(ValueError, r"X holds values as large as .* would overflow float64")),
        Case(surface, "complex X", "wrong type", lambda b=build: b(X + 1j, Y),
             Raises(ValueError, "X must be numeric, got dtype complex128")),
        Case(surface, "string matrix", "string for number",
             lambda b=build: b(X.astype(str), Y),
             Raises(ValueError, "X must be numeric, got dtype <U")),
        Case(surface, "bytes labels", "wrong type",
             lambda b=build: b(X, np.array([b"a", b"b"] * 15)),
             Raises(ValueError, r"y holds bytes labels \(\|S1\): decode them to str")),
        Case(surface, "str/int list labels", "wrong type", lambda b=build: b(X, ["a", 1] * 15),
             Raises(ValueError, r"y mixes label types \(int, str\)")),
        Case(surface, "None label", "empty", lambda b=build: b(X, [None] + [0, 1] * 14 + [1]),
             Raises(ValueError, "y holds None")),
        Case(surface, "NaN label", "nan/inf", lambda b=build: b(X, np.r_[np.nan, Y[1:]]),
             Raises(ValueError, "y holds NaN")),
        Case(surface, "one class", "out of range", lambda b=build: b(X, np.zeros(30)),
             Raises(ValueError, "y must hold at least 2 classes, got 1")),
        Case(surface, "2-D labels", "wrong shape", lambda b=build: b(X, Y[:, None]),
             Raises(ValueError, r"y must be a 1-D array of labels, got shape \(30, 1\)")),
        Case(surface, "unknown keyword", "unknown keyword",
             lambda b=build: b(X, Y, neighbours=3),
             Raises(TypeError, "unexpected keyword argument 'neighbours'")),
        Case(surface, "bool labels", "odd but valid",
             lambda b=build: b(X, Y.astype(bool)).score(MASKS),
             Accepts(_scores_in_unit_interval)),
        Case(surface, "string labels", "odd but valid",
             lambda b=build: b(X, YS).score(MASKS), Accepts(_scores_in_unit_interval)),
    ]
    if surface != "FitBEvaluator":
        CASES += [
            Case(surface, "bool cv", "bool for int", lambda b=build: b(X, Y, cv=True),
                 Raises(ValueError, r"cv must be an int >= 2, 'loo', .* got True")),
            Case(surface, "string cv", "string for number", lambda b=build: b(X, Y, cv="5"),
                 Raises(ValueError, r"cv must be an int >= 2, 'loo', .* got '5'")),
            Case(surface, "cv 1", "out of range", lambda b=build: b(X, Y, cv=1),
                 Raises(ValueError, r"cv must be an int >= 2, .* got 1")),
            Case(surface, "cv above n", "out of range", lambda b=build: b(X, Y, cv=31),
                 Raises(ValueError, r"cv=31 folds need at least 31 samples, got 30")),
            Case(surface, "negative random_state", "out of range",
                 lambda b=build: b(X, Y, random_state=-1),
                 Raises(ValueError, r"random_state must be an int in \[0, 2\*\*32 - 1\]")),
            Case(surface, "float cache_size", "wrong type",
                 lambda b=build: b(X, Y, cache_size=1.5),
                 Raises(ValueError, "cache_size must be an int >= 0, got 1.5")),
            Case(surface, "leave-one-out", "odd but valid",
                 lambda b=build: b(X, Y, cv="loo").score(MASKS),
                 Accepts(_scores_in_unit_interval)),
        ]

_EV = {}


def _ev():
    """One small KNN evaluator for the mask cases (built once)."""
    if "knn" not in _EV:
        _EV["knn"] = _knn()
    return _EV["knn"]


CASES += [
    # ---------------------------------------------------------------- masks and flips
    Case("Evaluator.score", "mask as a string", "wrong type", lambda: _ev().score("1010"),
         Raises(ValueError, r"masks must have shape \(n_masks, 4\) or \(4,\), got \(\)")),
    Case("Evaluator.score", "NaN mask", "nan/inf", lambda: _ev().score(np.full(4, np.nan)),
         Raises(ValueError, r"masks must be boolean \(or 0/1\) arrays")),
    Case("Evaluator.score", "3-D masks", "wrong shape", lambda: _ev().score(np.ones((1, 1, 4))),
         Raises(ValueError, r"masks must have shape \(n_masks, 4\) or \(4,\), got \(1, 1, 4\)")),
    Case("Evaluator.score", "no mask", "empty", lambda: _ev().score(np.zeros((0, 4), bool)),
         Accepts(lambda s: np.testing.assert_array_equal(s, np.zeros(0)))),
    Case("Evaluator.score", "empty mask", "empty", lambda: _ev().score(np.zeros(4, bool)),
         Accepts(lambda s: np.testing.assert_array_equal(s, [0.0]))),
    Case("Evaluator.score", "0/1 ints", "odd but valid", lambda: _ev().score(MASKS.astype(int)),
         Accepts(_scores_in_unit_interval)),
    Case("Evaluator.score_flips", "index out of range", "out of range",
         lambda: _ev().score_flips(MASKS[0], [7]),
         Raises(ValueError, r"features must be feature indices in \[0, 4\), got 7")),
    Case("Evaluator.score_flips", "negative index", "out of range",
         lambda: _ev().score_flips(MASKS[0], [-1]),
         Raises(ValueError, r"features must be feature indices in \[0, 4\), got -1")),
    Case("Evaluator.score_flips", "float indices", "wrong type",
         lambda: _ev().score_flips(MASKS[0], [1.5]),
         Raises(ValueError, r"features must be a 1-D array of feature indices, got float64")),
    Case("Evaluator.score_flips", "two masks", "wrong shape",
         lambda: _ev().score_flips(MASKS, [1]),
         Raises(ValueError, r"score_flips takes one mask of shape \(4,\), got 2 masks")),
    Case("Evaluator.holdout_score", "test set with 3 columns", "wrong shape",
         lambda: _ev().holdout_score(MASKS, X[:, :3], Y),
         Raises(ValueError, r"X_test must have 4 columns like the training data")),
    Case("Evaluator.holdout_score", "string test labels", "wrong type",
         lambda: _ev().holdout_score(MASKS, X, YS),
         Raises(ValueError, r"y_test labels \(<U1\) are not of the training labels' kind")),
    Case("Evaluator.holdout_score", "empty test set", "empty",
         lambda: _ev().holdout_score(MASKS, X[:0], Y[:0]),
         Raises(ValueError, r"X_test holds no sample")),
    # ---------------------------------------------------------------- estimator and scorer
    # a regressor is taken since the regression issue; a clusterer is neither
    Case("EstimatorEvaluator", "a clusterer", "wrong type",
         lambda: EstimatorEvaluator(X, Y, KMeans(n_clusters=2, n_init=1)),
         Raises(ValueError, "estimator must be a scikit-learn classifier or regressor, got "
                "KMeans")),
    Case("EstimatorEvaluator", "a regressor on class labels", "wrong type",
         lambda: EstimatorEvaluator(X, np.array(["a", "b"] * (len(Y) // 2) + ["a"] * (len(Y) % 2)),
                                    LinearRegression()),
         Raises(ValueError, "y must hold real numbers for regression")),
    Case("EstimatorEvaluator", "estimator class, not instance", "wrong type",
         lambda: EstimatorEvaluator(X, Y, KNeighborsClassifier),
         Raises(ValueError, "estimator must be a scikit-learn classifier")),
    Case("EstimatorEvaluator", "unknown scorer", "out of range",
         lambda: EstimatorEvaluator(X, Y, KNN, scoring="acuracy"),
         Raises(ValueError, "scoring='acuracy' is not a valid scorer")),
    Case("EstimatorEvaluator", "int scorer", "wrong type",
         lambda: EstimatorEvaluator(X, Y, KNN, scoring=3),
         Raises(ValueError, "scoring=3 is not a valid scorer")),
    Case("EstimatorEvaluator", "bool n_jobs", "bool for int",
         lambda: EstimatorEvaluator(X, Y, KNN, n_jobs=True),
         Raises(ValueError, "n_jobs must be a positive int, got True")),
    Case("EstimatorEvaluator", "roc_auc on 3 classes", "out of range",
         lambda: EstimatorEvaluator(X, Y3, KNN, cv=3, scoring="roc_auc").score(MASKS),
         Raises(ValueError, r"scoring='roc_auc' gave no score on inner fold 0 \(of 3\) for a "
                            r"mask of 2 features: it failed: .*multi_class")),
    Case("EstimatorEvaluator", "f1 on string labels", "wrong type",
         lambda: EstimatorEvaluator(X, YS, KNN, cv=3, scoring="f1").score(MASKS),
         Raises(ValueError, r"scoring='f1' gave no score on inner fold 0 .*pos_label=1 is not "
                            r"a valid label")),
    Case("EstimatorEvaluator", "f1 on 3 classes", "out of range",
         lambda: EstimatorEvaluator(X, Y3, KNN, cv=3, scoring="f1").score(MASKS),
         Raises(ValueError, r"scoring='f1' gave no score on inner fold 0 .*multiclass")),
    Case("EstimatorEvaluator", "roc_auc on 3 classes, hold-out", "out of range",
         lambda: EstimatorEvaluator(X, Y3, KNN, cv=3, scoring="roc_auc").holdout_score(
             MASKS, X, Y3),
         Raises(ValueError, r"scoring='roc_auc' failed on the hold-out test set")),
    Case("EstimatorEvaluator", "f1_macro on 3 classes", "odd but valid",
         lambda: EstimatorEvaluator(X, Y3, KNN, cv=3, scoring="f1_macro").score(MASKS),
         Accepts(_scores_in_unit_interval)),
    Case("make_evaluator", "n_neighbors with an estimator", "unknown keyword",
         lambda: make_evaluator(X, Y, KNN, n_neighbors=3),
         Raises(TypeError, "n_neighbors is taken from the estimator")),
    Case("make_evaluator", "fast-path keyword on the general path", "unknown keyword",
         lambda: make_evaluator(X, Y, KNN, scoring="f1", precision="float32"),
         Raises(TypeError, r"the estimator evaluator \(for KNeighborsClassifier\) got an "
                           r"unexpected keyword argument 'precision'")),
    # ---------------------------------------------------------------- wrappers
    Case("RepeatedCrossValidation", "no evaluator", "empty",
         lambda: RepeatedCrossValidation([]),
         Raises(ValueError, "evaluators must hold at least one evaluator")),
    Case("RepeatedCrossValidation", "min_repetitions above the evaluators", "out of range",
         lambda: RepeatedCrossValidation([_ev()], min_repetitions=2),
         Raises(ValueError, r"min_repetitions must be an int in \[1, 1\], got 2")),
    Case("RepeatedCrossValidation", "NaN alpha", "nan/inf",
         lambda: RepeatedCrossValidation([_ev()], alpha=float("nan")),
         Raises(ValueError, r"alpha must be a number in \[0, 1\], got nan")),
    Case("FrontRecorder", "not an evaluator", "wrong type", lambda: FrontRecorder("knn"),
         Raises(TypeError, "FrontRecorder wraps an Evaluator, got str")),
    Case("FitBEvaluator", "mu above 1", "out of range", lambda: FitBEvaluator(X, Y, mu=2),
         Raises(ValueError, r"mu must be a number in \[0, 1\], got 2")),
    Case("FitBEvaluator", "bool n_folds", "bool for int",
         lambda: FitBEvaluator(X, Y, n_folds=True), Raises(ValueError, "n_folds")),
]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_evaluator_input(case):
    check_case(case)


class _NaNEvaluator(Evaluator):
    """An evaluator whose scorer returns NaN for every mask (a user's broken subclass)."""

    n_features = 4

    def score(self, masks):
        return np.full(self.check_masks(masks).shape[0], np.nan)


def test_a_nan_score_never_reaches_a_search():
    from pymoo.optimize import minimize

    from pymoo_fs.algorithms import PSO
    from pymoo_fs.problems import WeightedFeatureSelection

    problem = WeightedFeatureSelection(_NaNEvaluator())
    with pytest.raises(ValueError, match=r"_NaNEvaluator returned the score nan for mask 0 of "
                                         r"the batch: a NaN or infinite score cannot guide"):
        minimize(problem, PSO(pop_size=4), ("n_gen", 2), seed=1)
    with pytest.raises(ValueError, match="_NaNEvaluator returned the score nan"):
        problem.evaluate_flips(MASKS[0], [2])


def test_nan_scorer_is_refused_in_worker_processes_too():
    ev = EstimatorEvaluator(X, Y3, KNN, cv=3, scoring="roc_auc", n_jobs=2)
    with pytest.raises(ValueError, match=r"scoring='roc_auc' gave no score on inner fold 0"):
        ev.score(MASKS)


KNN_OPTION_CASES = [
    Case("KNNEvaluator", f"{option}={value!r}", category, lambda o=option, v=value: _knn(**{o: v}),
         Raises(ValueError, pattern))
    for option, value, category, pattern in [
        ("memory_limit", 0, "out of range", "memory_limit must be a positive number of bytes"),
        ("memory_limit", "1G", "string for number", "memory_limit must be a positive number"),
        ("precision", "half", "out of range", r"precision must be one of \('auto'"),
        ("backend", "gpu", "out of range", r"backend must be one of \('numba', 'numpy'\)"),
        ("n_threads", True, "bool for int", "n_threads must be a positive int, got True"),
        ("incremental", "yes", "wrong type", "incremental must be True or False, got 'yes'"),
        ("pool_memory", -1, "out of range", "pool_memory must be a non-negative number"),
        ("n_neighbors", 10**9, "huge", r"n_neighbors=1000000000 exceeds the training part"),
        ("scoring", "f1", "out of range", r"scoring must be one of \('accuracy'"),
    ]
]


@pytest.mark.parametrize("case", KNN_OPTION_CASES, ids=ids(KNN_OPTION_CASES))
def test_knn_option_input(case):
    check_case(case)
