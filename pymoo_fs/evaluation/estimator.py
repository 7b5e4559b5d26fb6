"""Wrapper evaluation with any scikit-learn classifier or regressor, and the choice between
the two paths."""

import warnings
from typing import Any

import numpy as np
from joblib import Parallel, delayed, parallel_config
from numpy.typing import ArrayLike
from sklearn.base import clone, is_classifier, is_regressor
from sklearn.metrics import check_scoring
from sklearn.model_selection import cross_val_score

from pymoo_fs._validation import check_int, check_keywords
from pymoo_fs.evaluation.base import REGRESSION_SCORINGS, CrossValidatedEvaluator
from pymoo_fs.evaluation.knn import KNNEvaluator

__all__ = ["EstimatorEvaluator", "make_evaluator"]

#: options of each path (for make_evaluator and the problems' from_data)
KNN_OPTIONS = ("n_neighbors", "cv", "random_state", "scoring", "cache_size", "memory_limit",
               "n_jobs", "n_threads", "backend", "precision", "incremental", "pool_memory")
ESTIMATOR_OPTIONS = ("cv", "random_state", "scoring", "n_jobs", "cache_size")


class EstimatorEvaluator(CrossValidatedEvaluator):
    """Inner cross-validation score of any scikit-learn classifier or regressor on feature
    subsets.

    For every boolean mask ``m``, :meth:`score` returns exactly::

        cross_val_score(clone(estimator), X[:, m], y, cv=ev.folds, scoring=scoring).mean()

    A regressor (``sklearn.base.is_regressor``) makes a regression evaluator
    (:attr:`target_type` ``"regression"``): real-valued targets, ``KFold`` folds for an int
    ``cv`` (not stratified), and the regressors' scorers. It implements the :class:`~pymoo_fs.evaluation.Evaluator` contract with the same cache and
    counters as :class:`~pymoo_fs.evaluation.KNNEvaluator`, which is the fast path for KNN.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training data, converted to a C-contiguous float64 array.
    y : array-like of shape (n_samples,)
        Class labels (numbers or strings, not mixed); the estimator sees them as given. For a
        regressor: finite real targets (as float64), not all equal.
    estimator : scikit-learn classifier or regressor
        Cloned (unfitted) for every fold of every mask. Give stochastic estimators a fixed
        ``random_state``, or their scores are not reproducible.
    cv : int, "loo", scikit-learn splitter or list of (train_idx, test_idx), default=10
        Inner cross-validation, fixed at construction (see
        :func:`~pymoo_fs.evaluation.base.make_folds`).
    scoring : str or callable, optional
        A scikit-learn scorer name or scorer callable, as ``cross_val_score`` takes it.
        Default: ``"accuracy"`` for a classifier, ``"neg_mean_squared_error"`` for a
        regressor. The problems need a regressor's scores on their unit scale
        (:meth:`unit_scores`), which is defined for ``"neg_mean_squared_error"``,
        ``"neg_mean_absolute_error"`` and ``"r2"``.
        A classifier's scorer must give values in [0, 1] (the search minimises ``1 - score``):
        a ``neg_*`` scorer, ``"r2"``, ``"matthews_corrcoef"`` and the like are refused at
        construction, and a callable that returns a value outside [0, 1] is refused when it
        does.
    random_state : int or None, default=0
        Seed of the fold shuffling for an int ``cv``.
    n_jobs : int, optional
        Processes over which a batch of masks is spread (joblib's loky backend); ``None`` or 1
        computes in this process, -1 uses every core. Each worker's BLAS/OpenMP thread pools
        are held to one thread, so the cores are not oversubscribed.
    cache_size : int, default=100000
        Maximum number of cached scores (least recently used evicted); 0 disables the cache.

    Attributes
    ----------
    estimator : scikit-learn classifier
        As given (never fitted).
    folds, n_evaluations, n_cache_hits, X, y, classes
        See :class:`~pymoo_fs.evaluation.Evaluator`.

    Raises
    ------
    ValueError
        If ``estimator`` is not a scikit-learn classifier or regressor, ``scoring`` is not a valid scorer,
        ``n_jobs`` is not an int (-1 or >= 1), or the data or ``cv`` fail the checks of
        :class:`~pymoo_fs.evaluation.Evaluator`. Later, from :meth:`score` and
        :meth:`holdout_score`: when the scorer fails or returns NaN on a fold or on the test
        set (``scoring="roc_auc"`` on multiclass labels, ``"f1"`` on string labels): the
        message names the scorer and the fold, and no NaN score ever reaches a search.

    Notes
    -----
    There is no incremental path: :meth:`score_flips` scores the flipped masks as a batch.
    Hold-out scores fit a clone on all training rows and apply the scorer to the test set.
    An empty mask scores 0.0 and is never passed to the estimator.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.evaluation import EstimatorEvaluator
    >>> data = load_dataset("sonar")
    >>> ev = EstimatorEvaluator(data.X, data.y, DecisionTreeClassifier(random_state=0), cv=5)
    >>> mask = np.zeros(data.n_features, dtype=bool)
    >>> mask[:10] = True
    >>> float(ev.score(mask)[0]) > 0.5
    True
    """

    def __init__(self, X: ArrayLike, y: ArrayLike, estimator: Any, cv: Any = 10,
                 scoring: Any = None, random_state: int | None = 0,
                 n_jobs: int | None = None, cache_size: int = 100_000) -> None:
        regression = _is_regressor(estimator)
        if not regression and not _is_classifier(estimator):
            raise ValueError(f"estimator must be a scikit-learn classifier or regressor, got "
                             f"{estimator!r}")
        if scoring is None:
            scoring = "neg_mean_squared_error" if regression else "accuracy"
        try:
            self._scorer = check_scoring(estimator, scoring=scoring)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"scoring={scoring!r} is not a valid scorer: {exc}") from None
        if not regression and isinstance(scoring, str) and (scoring.startswith("neg_")
                                                            or scoring in _UNBOUNDED):
            # a classifier's score must be in [0, 1]; a regressor's goes to its unit scale
            raise ValueError(_UNIT_MESSAGE.format(scoring=scoring, value="values outside"))
        if n_jobs is not None and n_jobs != -1:
            check_int("n_jobs", n_jobs, low=1)
        self.estimator = estimator
        self.scoring = scoring
        self.n_jobs = n_jobs
        super().__init__(X, y, cv, random_state, cache_size,
                         target="regression" if regression else "classification")
        self._labels = self.y if regression else self.classes[self.y]

    def _compute(self, masks):
        n_jobs = self._n_workers(masks.shape[0])
        if n_jobs == 1:
            return self._in_unit(_cv_scores(self.estimator, self.X, self._labels, masks,
                                            self.folds, self.scoring))
        chunks = np.array_split(np.arange(masks.shape[0]), n_jobs)
        with parallel_config(backend="loky", inner_max_num_threads=1):
            parts = Parallel(n_jobs=n_jobs)(
                delayed(_cv_scores)(self.estimator, self.X, self._labels, masks[c], self.folds,
                                    self.scoring) for c in chunks)
        return self._in_unit(np.concatenate(parts))

    def _holdout_scores(self, masks, X_test, y_test):
        scores = np.empty(masks.shape[0])
        for i, mask in enumerate(masks):
            fitted = clone(self.estimator).fit(self.X[:, mask], self._labels)
            try:
                scores[i] = self._scorer(fitted, X_test[:, mask], y_test)
            except (ValueError, TypeError) as error:
                raise ValueError(
                    f"scoring={self.scoring!r} failed on the hold-out test set (a mask of "
                    f"{int(mask.sum())} features): {error}; choose a scorer that suits these "
                    "labels (e.g. 'accuracy', 'balanced_accuracy', 'f1_macro' for multiclass)"
                ) from None
            if not np.isfinite(scores[i]):
                raise ValueError(
                    f"scoring={self.scoring!r} returned {scores[i]} on the hold-out test set "
                    f"(a mask of {int(mask.sum())} features); choose a scorer that suits "
                    "these labels"
                )
        return self._in_unit(scores)

    def _in_unit(self, scores):
        """A classifier's scores, refused where one lies outside [0, 1]; a regressor's as they
        are (the problems read them on their unit scale, :meth:`unit_scores`)."""
        if self.target_type == "regression":
            return scores
        return _in_unit(scores, self.scoring)

    def _n_workers(self, n_masks):
        if self.n_jobs is None or n_masks == 1:
            return 1
        from joblib import cpu_count

        workers = cpu_count() if self.n_jobs == -1 else self.n_jobs
        return max(1, min(workers, n_masks))


#: scikit-learn scorers whose values are not in [0, 1] (besides every ``neg_*`` one)
_UNBOUNDED = ("r2", "explained_variance", "matthews_corrcoef", "adjusted_rand_score",
              "d2_absolute_error_score", "d2_log_loss_score")
_UNIT_MESSAGE = ("scoring={scoring!r} gives {value} [0, 1]: feature selection minimises the "
                 "error 1 - score, which needs a score in [0, 1] such as 'accuracy', "
                 "'balanced_accuracy', 'f1_macro' or 'roc_auc'")


def _in_unit(scores, scoring):
    """``scores``, refused (a ValueError naming the scorer) when one lies outside [0, 1]."""
    bad = np.flatnonzero((scores < 0.0) | (scores > 1.0))
    if bad.size:
        raise ValueError(_UNIT_MESSAGE.format(scoring=scoring,
                                              value=f"{float(scores[bad[0]])!r}, outside"))
    return scores


def _is_classifier(estimator):
    try:
        return bool(is_classifier(estimator))
    except (AttributeError, TypeError):  # not a scikit-learn estimator at all
        return False


def _continuous(y):
    """Whether ``y`` is a continuous target (scikit-learn's ``type_of_target``)."""
    from sklearn.utils.multiclass import type_of_target

    try:
        return type_of_target(y) == "continuous"
    except (ValueError, TypeError):
        return False


def _is_regressor(estimator):
    try:
        return bool(is_regressor(estimator))
    except (AttributeError, TypeError):
        return False


def _cv_scores(estimator, X, y, masks, folds, scoring):
    """``cross_val_score(...).mean()`` of each mask (run in a worker process or here).

    Raises
    ------
    ValueError
        If the scorer fails or returns NaN on a fold (scikit-learn would put NaN in the score
        and only warn): the message names the scorer, the fold and the scorer's error.
    """
    scores = np.empty(len(masks))
    for i, m in enumerate(masks):
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Scoring failed", category=UserWarning)
            folds_scores = cross_val_score(clone(estimator), X[:, m], y, cv=folds,
                                           scoring=scoring)
        bad = np.flatnonzero(~np.isfinite(folds_scores))
        if bad.size:
            raise ValueError(_nan_message(estimator, X, y, m, folds, scoring, int(bad[0])))
        scores[i] = folds_scores.mean()
    return scores


def _nan_message(estimator, X, y, mask, folds, scoring, f):
    """Why ``scoring`` gave no finite score on inner fold ``f``: its error, or its value."""
    train, test = folds[f]
    fitted = clone(estimator).fit(X[train][:, mask], y[train])
    try:
        value = check_scoring(estimator, scoring=scoring)(fitted, X[test][:, mask], y[test])
        reason = f"it returned {value}"
    except Exception as error:  # the scorer's own failure, reported in the message
        reason = f"it failed: {type(error).__name__}: {error}"
    return (
        f"scoring={scoring!r} gave no score on inner fold {f} (of {len(folds)}) for a mask of "
        f"{int(mask.sum())} features: {reason}; a NaN score cannot guide a search: choose a "
        "scorer that suits these labels (e.g. 'accuracy', 'balanced_accuracy', or "
        "'f1_macro'/'roc_auc_ovr' for multiclass or string labels)"
    )


def make_evaluator(X: ArrayLike, y: ArrayLike, estimator: Any = None,
                   **options: Any) -> CrossValidatedEvaluator:
    """The evaluator for a classifier or regressor: the compiled KNN path where exact, else the
    general one.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training data.
    y : array-like of shape (n_samples,)
        Class labels (real-valued targets for regression).
    estimator : scikit-learn classifier or regressor, optional
        Default: KNN with ``n_neighbors`` (default 5): a classifier, or a regressor when
        ``scoring`` is one of ``"neg_mean_squared_error"``, ``"neg_mean_absolute_error"``,
        ``"r2"``, or when no ``scoring`` is given and ``y`` is continuous
        (``sklearn.utils.multiclass.type_of_target(y) == "continuous"``: non-integral
        numbers; then ``scoring="neg_mean_squared_error"``). A ``KNeighborsClassifier`` (``KNeighborsRegressor`` with one of those
        three scorings, the default ``"neg_mean_squared_error"``) with uniform
        weights, Euclidean distance (``metric="minkowski", p=2`` or ``"euclidean"``) and the
        default ``algorithm="auto"`` and ``leaf_size=30`` takes the fast path,
        :class:`~pymoo_fs.evaluation.KNNEvaluator` (whose uncertifiable votes are decided by
        exactly that configuration); every other classifier, or a ``scoring`` other than
        ``"accuracy"``/``"balanced_accuracy"``, takes :class:`EstimatorEvaluator`.
    **options
        Evaluator options. Both paths: ``cv``, ``random_state``, ``scoring``, ``n_jobs`` (worker
        threads on the fast path, processes otherwise), ``cache_size``. Fast path only:
        ``n_neighbors`` (without ``estimator``), ``memory_limit``, ``n_threads``, ``backend``,
        ``precision``, ``incremental``, ``pool_memory``.

    Returns
    -------
    evaluator : KNNEvaluator or EstimatorEvaluator

    Raises
    ------
    TypeError
        For a keyword neither path knows, or one the chosen path does not take (the message
        names it and lists the accepted ones).
    ValueError
        For an invalid value (see the evaluators).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn.linear_model import LogisticRegression
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.evaluation import make_evaluator
    >>> data = load_dataset("sonar")
    >>> type(make_evaluator(data.X, data.y, KNeighborsClassifier(1), cv=5)).__name__
    'KNNEvaluator'
    >>> type(make_evaluator(data.X, data.y, LogisticRegression(), cv=5)).__name__
    'EstimatorEvaluator'
    """
    check_keywords("make_evaluator()", options, KNN_OPTIONS + ESTIMATOR_OPTIONS)
    regression = _is_regressor(estimator) if estimator is not None else (
        isinstance(options.get("scoring"), str) and options["scoring"] in REGRESSION_SCORINGS)
    if estimator is None and options.get("scoring") is None and _continuous(y):
        regression = True  # no estimator, no scoring, a continuous target: KNN regression
    if regression and options.get("scoring") is None:
        options["scoring"] = "neg_mean_squared_error"
    scoring = options.get("scoring", "accuracy")
    fast_scorings = REGRESSION_SCORINGS if regression else ("accuracy", "balanced_accuracy")
    fast_scoring = isinstance(scoring, str) and scoring in fast_scorings
    if estimator is None:
        estimator_given = False
        k = options.pop("n_neighbors", 5)
    else:
        estimator_given = True
        if "n_neighbors" in options:
            raise TypeError("n_neighbors is taken from the estimator; do not pass both")
        k = getattr(estimator, "n_neighbors", None)
    if fast_scoring and (not estimator_given or _is_fast_knn(estimator)):
        check_keywords("the KNN evaluator (fast path)", options, KNN_OPTIONS)
        if "n_jobs" in options:
            if "n_threads" in options:
                raise TypeError("give n_jobs or n_threads, not both")
            n_jobs = options.pop("n_jobs")
            options["n_threads"] = None if n_jobs in (None, -1) else n_jobs
        return KNNEvaluator(X, y, n_neighbors=k, **options)
    if not estimator_given:
        from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor

        estimator = (KNeighborsRegressor if regression else KNeighborsClassifier)(n_neighbors=k)
    name = type(estimator).__name__
    check_keywords(f"the estimator evaluator (for {name})", options, ESTIMATOR_OPTIONS)
    return EstimatorEvaluator(X, y, estimator, **options)


def _is_fast_knn(estimator):
    from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor

    if not isinstance(estimator, (KNeighborsClassifier, KNeighborsRegressor)):
        return False
    p = estimator.get_params()
    euclidean = p["metric"] == "euclidean" or (p["metric"] == "minkowski" and p["p"] == 2)
    return (euclidean and p["weights"] == "uniform" and p["metric_params"] is None
            and p["algorithm"] == "auto" and p["leaf_size"] == 30)
