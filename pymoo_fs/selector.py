"""Swarm feature selection as a scikit-learn selector: ``fit``, ``transform``, a Pareto front.

:class:`SwarmFeatureSelector` runs a pymoo-fs search (a multi-objective swarm by default) on
the training data it is fitted on, keeps the Pareto front of (inner-CV error, number of
features) of every subset the search evaluated, picks one subset by a documented rule, and
refits the estimator on it. It is a ``SelectorMixin`` transformer, so it goes into a
``Pipeline``, ``GridSearchCV`` and ``clone`` like scikit-learn's ``SequentialFeatureSelector``;
:class:`~pymoo_fs.analysis.ParetoFrontDisplay` draws its front.
"""

import copy
import numbers
import warnings

import numpy as np
from pymoo.core.algorithm import Algorithm
from pymoo.core.callback import Callback
from pymoo.termination.collection import TerminationCollection
from pymoo.termination.max_eval import MaximumFunctionCallTermination
from pymoo.termination.max_gen import MaximumGenerationTermination
from pymoo.termination.max_time import TimeBasedTermination
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone, is_classifier, is_regressor
from sklearn.feature_selection import SelectorMixin
from sklearn.metrics import get_scorer_names
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.utils import check_random_state, get_tags
from sklearn.utils._param_validation import (  # private to scikit-learn: see the class Notes
    HasMethods, Interval, Options, StrOptions)
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data

from pymoo_fs.algorithms.registry import (algorithm_names, canonical_name, make_algorithm,
                                         n_objectives)
from pymoo_fs.analysis.choice import SELECTION_RULES, choose_from_front
from pymoo_fs.analysis.display import ParetoFrontDisplay
from pymoo_fs.analysis.indicators import hypervolume
from pymoo_fs.evaluation import FrontRecorder, make_evaluator
from pymoo_fs.evaluation.base import REGRESSION_SCORINGS
from pymoo_fs.problems.objectives import make_objective, objective_names
from pymoo_fs.seeds import run_seed

__all__ = ["DEFAULT_ALGORITHMS", "ParetoFrontDisplay", "SwarmFeatureSelector"]

#: the algorithm used when ``algorithm=None``, by objective: the best swarm available for each
#: (ISRPSO: Nguyen et al.'s local search on the archive, Soft Computing 2016; measured against
#: MOPSO, CMDPSOFS and NSGA-II in ``benchmarks/RESULTS.md``). With ``max_evals="auto"`` it gets
#: ``n_gen * pop_size`` evaluations, its local search included.
DEFAULT_ALGORITHMS = {"pareto": "ISRPSO", "weighted": "PSO", "fite": "PSO"}

_DEFAULT_POP_SIZE = 30


class SwarmFeatureSelector(SelectorMixin, MetaEstimatorMixin, BaseEstimator):
    """Wrapper feature selection by a particle swarm, with the Pareto front it found.

    ``fit`` searches the feature subsets of ``X`` with a pymoo-fs algorithm, scoring each by
    the inner cross-validated error of ``estimator``; it keeps the Pareto front of (error,
    number of features) over every subset the search evaluated, chooses one subset by
    ``select``, and refits ``estimator`` on it. ``transform`` keeps the chosen features;
    ``predict`` and ``score`` use the refitted estimator.

    Parameters
    ----------
    estimator : scikit-learn classifier or regressor, default=None
        The classifier (or regressor) of the wrapper. None is
        ``KNeighborsClassifier(n_neighbors=5)`` (``KNeighborsRegressor(n_neighbors=5)`` when
        ``scoring`` is a regression scoring: ``"neg_mean_squared_error"``,
        ``"neg_mean_absolute_error"``, ``"r2"``), scored by the compiled exact KNN evaluator;
        so is any Euclidean, uniform-weight ``KNeighborsClassifier`` or
        ``KNeighborsRegressor``. Any other classifier or regressor is scored by
        :class:`~pymoo_fs.evaluation.EstimatorEvaluator` (``cross_val_score`` per subset). Give
        a stochastic estimator a fixed ``random_state``. With a regressor the error is the
        normalised MSE (the inner-CV MSE over the variance of the training targets, clipped
        to [0, 1]; :func:`~pymoo_fs.evaluation.base.regression_unit_scores`), the inner folds
        of an int ``cv`` are ``KFold`` and ``y`` holds real-valued targets.
    algorithm : str or pymoo Algorithm, default=None
        A name of :func:`~pymoo_fs.algorithms.algorithm_names` (``"ISRPSO"``, ``"MOPSO"``,
        ``"CMDPSOFS"``, ``"NSGA-II"``, ``"SPEA2"`` for ``objective="pareto"``; ``"PSO"``,
        ``"FSIPSO"``, ... for ``"weighted"``) or one of its registered aliases, any case
        (``"nsga2"``, ``"CSO"``; :func:`~pymoo_fs.algorithms.canonical_name`), or a configured,
        unused pymoo ``Algorithm`` instance (copied before the run; its termination, seed and
        callback are replaced by this selector's). None is :data:`DEFAULT_ALGORITHMS`
        ``[objective]``: ISRPSO for ``"pareto"``, PSO for ``"weighted"``, bounded by
        ``max_evals="auto"``. ISRPSO given by name or instance is not bounded by ``n_gen`` alone:
        its local search spends evaluations beyond ``pop_size * n_gen`` (on Musk1 with ``n_gen=100,
        pop_size=30``: 58,576 evaluations, 47 s, against 3,000 and 3.4 s for CMDPSOFS, with a front
        reaching 1 feature instead of 27; ``benchmarks/selector_fit.py``), and with a slow
        ``estimator`` every one of them is a ``cross_val_score``: give it a ``max_evals``.
    objective : {"pareto", "weighted", "fite"}, default="pareto"
        ``"pareto"`` minimises (error, fraction of features selected) together
        (:class:`~pymoo_fs.problems.BiObjectiveFeatureSelection`); ``"weighted"`` minimises
        ``alpha * error + (1 - alpha) * fraction``
        (:class:`~pymoo_fs.problems.WeightedFeatureSelection`); ``"fite"`` minimises the error,
        equal errors won by fewer features (:class:`~pymoo_fs.problems.FitEFeatureSelection`).
        The objectives of :mod:`pymoo_fs.problems.objectives` that wrap any evaluator.
    alpha : float, default=0.9
        Weight of the error in ``"weighted"``, in [0, 1]; unused by the other objectives.
    cv : int, "loo", cross-validation splitter or iterable of splits, default=5
        The inner cross-validation that scores each subset, fixed for the whole search. An int
        ``k`` is ``StratifiedKFold(k, shuffle=True)`` seeded from ``random_state``; None is 5
        (scikit-learn's default; the papers use 10).
    scoring : str or callable, default=None
        The inner score; the error is ``1 - score``. None is ``"accuracy"`` for a classifier
        and ``"neg_mean_squared_error"`` for a regressor. ``"accuracy"`` and
        ``"balanced_accuracy"`` keep the KNN fast path (for a regressor
        ``"neg_mean_squared_error"``, ``"neg_mean_absolute_error"`` and ``"r2"``, whose
        errors are normalised by the constant prediction's); any other scikit-learn scorer
        name or callable goes through ``cross_val_score`` (a regressor's needs one of those
        three).
    pop_size : int, default=None
        Swarm (population) size for an algorithm given by name; None is 30 (as in Nguyen et
        al. 2016). Must be None when ``algorithm`` is an instance (set the instance's own).
    n_gen : int or None, default=100
        Budget: number of generations, the initial swarm included (``n_gen * pop_size``
        evaluations for a swarm that evaluates every particle once per generation; Nguyen et
        al. 2016 ran 100 iterations).
    max_evals : int, "auto" or None, default="auto"
        Budget: number of subset evaluations. The search stops after the first generation that
        reaches it, so it may exceed it by less than one generation. ``"auto"`` bounds the
        default algorithm (``algorithm=None``) by ``n_gen * pop_size`` evaluations, what a
        swarm that evaluates each particle once per generation spends in ``n_gen``
        generations, so the default search costs what ``n_gen`` says (3,000 evaluations with
        the defaults; ISRPSO's local search counts in them); for an algorithm given by name
        or instance, and without ``n_gen``, ``"auto"`` sets no evaluation bound. None: no
        evaluation bound.
    max_time : float or None, default=None
        Budget: seconds of search (wall clock); a time budget makes the result depend on the
        machine's speed. The search stops at the first budget reached; at least one must be
        given.
    select : {"within_tol", "knee", "min_error"} or int, default="within_tol"
        How one subset is taken from the front (see
        :func:`~pymoo_fs.analysis.choose_from_front`): the fewest features within ``tol`` of
        the lowest error; the knee; the lowest error; or an int ``k``, the lowest error with at
        most ``k`` features (when every subset on the front is larger, a ``UserWarning`` is
        issued and the smallest subset is taken). The default keeps the error within ``tol``
        of the best found; the knee depends on the front's extremes (on min-max scaled Sonar a
        one-feature subset with error 0.36 puts it at 2 features, error 0.19, where
        ``"within_tol"`` takes 8 features, error 0.12); the default is our choice, not a
        paper's.
    tol : float, default=0.01
        Error tolerance of ``select="within_tol"``, ``>= 0``.
    n_jobs : int, default=None
        Parallel evaluation: threads on the KNN fast path, processes (joblib) for other
        classifiers. None is one (scikit-learn's convention), -1 every core.
    random_state : int, RandomState instance or None, default=None
        Seeds the fold shuffling of an int ``cv`` and the search, through two independent
        seeds derived by :func:`pymoo_fs.seeds.run_seed` (``(seed, "cv")`` and
        ``(seed, "search")``). An int is the base seed; a RandomState or None draws it
        (scikit-learn's convention: None uses numpy's global RandomState). An int gives the
        same ``support_`` on every fit (with an evaluation or generation budget).
    verbose : int, default=0
        0 is silent; 1 shows a tqdm progress bar (on stderr) of the budget spent, with the best
        error and the front's size; 2 or more prints pymoo's table of each generation.
    max_features : int or None, default=None
        At most this many selected features (``1 <= max_features <= n_features``): the
        search's problem carries it as a pymoo constraint
        (:meth:`~pymoo_fs.problems.FeatureSelectionProblem.constrain`, searched feasibility
        first), and ``pareto_front_`` and ``support_`` hold subsets of at most
        ``max_features`` features only (sklearn-genetic-opt's ``max_features``). None: no
        bound.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
        The chosen subset.
    pareto_front_ : dict of ndarray, each of shape (n_front,)
        The non-dominated (error, size) pairs of every subset the search evaluated, one row
        per subset (the first found of each pair; errors compared on the grid of
        :func:`pymoo_fs.pareto.on_grid`, so two subsets whose errors differ only by rounding
        are one pair), sorted by size: ``"n_features"`` (int64), ``"error"`` (float64, the
        inner-CV error) and ``"chosen"`` (bool, True on the row chosen by ``select``).
        ``pandas.DataFrame(pareto_front_)`` is a table with one row per subset.
    pareto_masks_ : ndarray of bool, shape (n_front, n_features_in_)
        The subsets of ``pareto_front_``, row for row.
    chosen_index_ : int
        Row of ``pareto_front_`` (and ``pareto_masks_``) chosen by ``select``.
    all_features_error_ : float
        Inner-CV error of the estimator on all features, with the same folds, scored once
        after the search (not counted in ``n_evaluations_``, not on the front).
    history_ : dict of ndarray, each of shape (n_generations,)
        After each generation: ``"n_gen"``; ``"n_evaluations"`` so far; ``"best_error"``, the
        lowest error found so far; ``"n_features"``, the size of that subset; and
        ``"hypervolume"`` of the front so far in (error, fraction of features) with reference
        point (1, 1). ``pandas.DataFrame(history_)`` is a table.
    n_evaluations_ : int
        Subset evaluations the search asked for (pymoo's ``n_eval``, repeats included).
    estimator_ : classifier or regressor
        A clone of ``estimator`` (or KNN-5) fitted on the chosen features of all of ``X``.
    algorithm_name_ : str
        The registry name of the algorithm, or the class name of an instance.
    classes_ : ndarray of shape (n_classes,)
        The classes of ``estimator_`` (classifiers only).
    n_features_in_ : int
        Number of features seen in ``fit``.
    feature_names_in_ : ndarray of str, shape (n_features_in_,)
        Names of the features seen in ``fit``, when ``X`` has string column names.

    Raises
    ------
    ValueError
        In ``fit`` (``sklearn.utils._param_validation.InvalidParameterError``, a
        ``ValueError``): for a parameter outside its constraints, naming it and its value.
        ``ValueError`` for an ``estimator`` that is neither a classifier nor a regressor (or
        a regressor with a ``scoring`` that has no normalised error), an unknown algorithm name (the message
        lists the known ones), an algorithm that does not match the objective (or an instance
        already run, or ``pop_size`` with an instance), no budget, fewer than 2 classes, a bool
        for ``pop_size``, ``n_gen``, ``max_evals``, ``select`` or ``n_jobs`` (scikit-learn's
        constraints would take ``True`` as 1), or data the evaluator refuses.

    See Also
    --------
    sklearn.feature_selection.SequentialFeatureSelector : Greedy wrapper selection.
    pymoo_fs.analysis.ParetoFrontDisplay : Plots ``pareto_front_``.

    Notes
    -----
    **The front.** Every subset any generation evaluates (neighbourhood moves included) is
    offered to a Pareto archive kept by the selector, so ``pareto_front_`` is the same for
    every algorithm and objective: for CMDPSOFS it equals the algorithm's own archive; for
    NSGA-II, SPEA2 and a weighted search it may hold subsets their final population lost.
    The empty subset is never evaluated (pymoo-fs problems refuse it).

    **Estimates.** The errors are inner cross-validation estimates on the data given to
    ``fit``, and the chosen one is optimistic (it was chosen on those folds). Estimate the
    error on new data by wrapping the selector and a classifier in a ``Pipeline`` and
    cross-validating the pipeline.

    **Parameter validation.** Parameters are checked in ``fit`` against
    ``_parameter_constraints``, scikit-learn's own machinery (``Interval``, ``StrOptions``,
    ``HasMethods`` from ``sklearn.utils._param_validation``): the messages, and the error
    type, are those of scikit-learn's estimators. The module is private to scikit-learn; it
    has been stable since scikit-learn 1.2 and the tests exercise it, so a change would fail
    them rather than pass silently.

    **Parallelism.** By default the evaluator runs in one thread (``n_jobs=None``, as in
    scikit-learn); ``n_jobs=-1`` uses every core for one fit. Under
    ``GridSearchCV(n_jobs=...)`` keep the selector's default so the evaluator's threads do not
    oversubscribe the cores.

    References
    ----------
    B. Xue, M. Zhang, W. N. Browne, "Particle swarm optimization for feature selection in
    classification: a multi-objective approach", IEEE Trans. Cybernetics 43(6):1656-1671,
    2013, doi:10.1109/TSMCB.2012.2227469. H. B. Nguyen, B. Xue, I. Liu, P. Andreae,
    M. Zhang, "New mechanism for archive maintenance in PSO-based multi-objective feature
    selection", Soft Computing 20:3927-3946, 2016, doi:10.1007/s00500-016-2128-8 (swarm size
    30 and 100 iterations).

    Examples
    --------
    >>> from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
    >>> from sklearn.pipeline import make_pipeline
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.selector import SwarmFeatureSelector
    >>> data = load_dataset("sonar")
    >>> selector = SwarmFeatureSelector(n_gen=5, pop_size=10, random_state=0)
    >>> pipe = make_pipeline(selector, KNeighborsClassifier()).fit(data.X, data.y)
    >>> fitted = pipe[0]
    >>> fitted.n_evaluations_, fitted.support_.shape
    (50, (60,))
    >>> fitted.pareto_front_["n_features"].tolist()
    [14, 18, 19, 21, 22]
    >>> fitted.pareto_front_["error"].round(4).tolist()
    [0.2314, 0.226, 0.2072, 0.197, 0.1686]
    >>> fitted.chosen_index_, int(fitted.support_.sum())
    (4, 22)
    """

    _parameter_constraints = {
        "estimator": [HasMethods(["fit", "predict"]), None],
        "algorithm": [str, Algorithm, None],  # names and aliases: checked by the registry
        "objective": [StrOptions(set(objective_names(generic=True)))],
        "alpha": [Interval(numbers.Real, 0, 1, closed="both")],
        "cv": ["cv_object", StrOptions({"loo"})],
        "scoring": [StrOptions(set(get_scorer_names())), callable, None],
        "pop_size": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "n_gen": [Interval(numbers.Integral, 1, None, closed="left"), None],
        "max_evals": [Interval(numbers.Integral, 1, None, closed="left"), StrOptions({"auto"}),
                      None],
        "max_time": [Interval(numbers.Real, 0, None, closed="neither"), None],
        "select": [StrOptions(set(SELECTION_RULES)),
                   Interval(numbers.Integral, 1, None, closed="left")],
        "tol": [Interval(numbers.Real, 0, None, closed="left")],
        "n_jobs": [Options(numbers.Integral, {-1}),
                   Interval(numbers.Integral, 1, None, closed="left"), None],
        "random_state": ["random_state"],
        "verbose": ["verbose"],
        "max_features": [Interval(numbers.Integral, 1, None, closed="left"), None],
    }

    def __init__(self, estimator=None, *, algorithm=None, objective="pareto", alpha=0.9, cv=5,
                 scoring=None, pop_size=None, n_gen=100, max_evals="auto", max_time=None,
                 select="within_tol", tol=0.01, n_jobs=None, random_state=None, verbose=0,
                 max_features=None):
        self.estimator = estimator
        self.algorithm = algorithm
        self.objective = objective
        self.alpha = alpha
        self.cv = cv
        self.scoring = scoring
        self.pop_size = pop_size
        self.n_gen = n_gen
        self.max_evals = max_evals
        self.max_time = max_time
        self.select = select
        self.tol = tol
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.verbose = verbose
        self.max_features = max_features

    # ------------------------------------------------------------------ fit
    def fit(self, X, y):
        """Search the feature subsets of ``X``, choose one, refit the estimator on it.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data (numeric, finite; a DataFrame's column names are kept).
        y : array-like of shape (n_samples,)
            Class labels, at least 2 classes (real-valued targets, not all equal, for a
            regressor).

        Returns
        -------
        self : SwarmFeatureSelector

        Raises
        ------
        ValueError
            See the class docstring.
        """
        self._validate_params()
        for name in ("pop_size", "n_gen", "max_evals", "select", "n_jobs", "max_features"):
            value = getattr(self, name)
            if isinstance(value, (bool, np.bool_)):  # scikit-learn takes True for the int 1
                raise ValueError(f"{name} must be an int (or its documented options), got "
                                 f"{value!r}: a bool is not a number")
        estimator = self._base_estimator()
        regression = _is_regressor(estimator)
        if not regression and not is_classifier(estimator):
            raise ValueError(f"estimator must be a scikit-learn classifier or regressor, got "
                             f"{estimator!r}")
        if regression:
            X, y = validate_data(self, X, y, y_numeric=True)
            if y.shape[0] < 2:
                raise ValueError(f"{type(self).__name__} needs more than 1 sample, got "
                                 f"n_samples = {y.shape[0]}")
            if np.unique(y).size < 2:
                raise ValueError(f"{type(self).__name__} needs at least 2 different target "
                                 f"values; y is constant")
        else:
            _refuse_missing_labels(y)
            X, y = validate_data(self, X, y)
            check_classification_targets(y)
            if np.unique(y).size < 2:
                raise ValueError(f"{type(self).__name__} needs samples of at least 2 classes; "
                                 f"y has 1 class")
        termination = self._termination()
        algorithm, name = self._make_algorithm()
        seed = _base_seed(self.random_state)
        scoring = self.scoring
        if scoring is None:
            scoring = "neg_mean_squared_error" if regression else "accuracy"
        options = {"cv": 5 if self.cv is None else self.cv, "scoring": scoring,
                   "random_state": run_seed(seed, "cv"),
                   "n_jobs": 1 if self.n_jobs is None else self.n_jobs}
        evaluator = make_evaluator(X, y, estimator, **options)
        recorder, monitor = self._search(algorithm, evaluator, termination, seed)

        F, masks = recorder.F, recorder.masks
        if self.max_features is not None:
            # the constraint bounds the size only: no larger subset dominates a feasible one,
            # so the feasible part of the recorded front is the constrained front
            feasible = F[:, 1] <= self.max_features
            if not feasible.any():
                raise ValueError(f"no subset of at most max_features={self.max_features} "
                                 f"features was evaluated within the budget: raise n_gen, "
                                 f"max_evals or max_features")
            F, masks = F[feasible], masks[feasible]
        order = np.lexsort((F[:, 0], F[:, 1]))
        self.pareto_masks_ = masks[order]
        self.pareto_front_ = {"n_features": F[order, 1].astype(np.int64), "error": F[order, 0]}
        self.chosen_index_ = self._choose()
        self.pareto_front_["chosen"] = np.arange(len(order)) == self.chosen_index_
        self.support_ = self.pareto_masks_[self.chosen_index_].copy()
        self.history_ = monitor.history()
        self.n_evaluations_ = int(algorithm.evaluator.n_eval)
        self.algorithm_name_ = name
        self.all_features_error_ = float(
            1.0 - evaluator.unit_scores(evaluator.score(np.ones(X.shape[1], bool)))[0])
        self.estimator_ = clone(estimator).fit(X[:, self.support_], y)
        return self

    def _search(self, algorithm, evaluator, termination, seed):
        """Run the search on the objective's problem; the front recorder and the monitor."""
        recorder = FrontRecorder(evaluator)
        problem = self._objective().problem(recorder)
        if self.max_features is not None:
            problem.constrain(max_features=self.max_features)
        monitor = _Monitor(recorder, show_bar=self.verbose == 1)
        try:
            algorithm.setup(problem, termination=termination, seed=run_seed(seed, "search"),
                            verbose=self.verbose >= 2, callback=monitor)
            while algorithm.has_next():
                algorithm.next()
        finally:
            monitor.close()
        return recorder, monitor

    def _base_estimator(self):
        if self.estimator is not None:
            return self.estimator
        if isinstance(self.scoring, str) and self.scoring in REGRESSION_SCORINGS:
            return KNeighborsRegressor(n_neighbors=5)  # the regression mode
        return KNeighborsClassifier(n_neighbors=5)

    def _max_evals(self):
        """The evaluation bound: ``max_evals``, or what ``"auto"`` makes of it."""
        if self.max_evals != "auto":
            return self.max_evals
        if self.algorithm is not None or self.n_gen is None:
            return None
        pop_size = _DEFAULT_POP_SIZE if self.pop_size is None else self.pop_size
        return self.n_gen * pop_size

    def _termination(self):
        parts = []
        max_evals = self._max_evals()
        if self.n_gen is not None:
            parts.append(MaximumGenerationTermination(self.n_gen))
        if max_evals is not None:
            parts.append(MaximumFunctionCallTermination(max_evals))
        if self.max_time is not None:
            parts.append(TimeBasedTermination(float(self.max_time)))
        if not parts:
            why = ("max_evals='auto' bounds only through n_gen" if self.max_evals == "auto"
                   else "all are None")
            raise ValueError(f"no budget: give at least one of n_gen, max_evals and max_time "
                             f"({why})")
        return parts[0] if len(parts) == 1 else TerminationCollection(*parts)

    def _make_algorithm(self):
        """A fresh algorithm for this fit and its name."""
        want = self._objective().n_obj
        if isinstance(self.algorithm, Algorithm):
            if self.pop_size is not None:
                raise ValueError(f"pop_size={self.pop_size!r} applies to an algorithm given "
                                 f"by name; set the pop_size of the algorithm instance")
            if self.algorithm.problem is not None:
                raise ValueError("algorithm instance has already been run; pass a fresh one")
            return copy.deepcopy(self.algorithm), type(self.algorithm).__name__
        name = (DEFAULT_ALGORITHMS[self.objective] if self.algorithm is None
                else canonical_name(self.algorithm))  # an alias ("nsga2") is its algorithm's
        if n_objectives(name) != want:
            fitting = ", ".join(algorithm_names(want))
            raise ValueError(f"algorithm={name!r} does not suit objective={self.objective!r}; "
                             f"use one of {fitting}")
        pop_size = _DEFAULT_POP_SIZE if self.pop_size is None else self.pop_size
        return make_algorithm(name, pop_size=pop_size), name

    def _objective(self):
        """The objective object: ``objective`` with ``alpha`` where it takes one."""
        cls = type(make_objective(self.objective))
        return make_objective(self.objective, **({"alpha": self.alpha}
                                                 if "alpha" in cls.parameters() else {}))

    def _choose(self):
        front = self.pareto_front_
        try:
            return choose_from_front(front["error"], front["n_features"], self.select, self.tol)
        except ValueError as exc:
            if isinstance(self.select, str):
                raise
            warnings.warn(f"{exc}: taking the smallest subset", UserWarning, stacklevel=3)
            return int(np.lexsort((front["error"], front["n_features"]))[0])

    # ------------------------------------------------------------------ selector
    def _get_support_mask(self):
        check_is_fitted(self, "support_")
        return self.support_

    def _selected(self, X):
        """``X`` checked against the fitted data, restricted to the chosen features."""
        check_is_fitted(self, "support_")
        X = validate_data(self, X, reset=False)
        return X[:, self.support_]

    # ------------------------------------------------------------------ delegation
    @property
    def classes_(self):
        """ndarray of shape (n_classes,): the classes of the refitted estimator."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.classes_

    @available_if(lambda self: _has(self, "predict"))
    def predict(self, X):
        """Predict with ``estimator_`` on the chosen features of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        X = self._selected(X)
        return self.estimator_.predict(X)

    @available_if(lambda self: _has(self, "predict_proba"))
    def predict_proba(self, X):
        """Class probabilities of ``estimator_`` on the chosen features of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
        """
        X = self._selected(X)
        return self.estimator_.predict_proba(X)

    @available_if(lambda self: _has(self, "decision_function"))
    def decision_function(self, X):
        """Decision function of ``estimator_`` on the chosen features of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
        """
        X = self._selected(X)
        return self.estimator_.decision_function(X)

    @available_if(lambda self: _has(self, "score"))
    def score(self, X, y):
        """``estimator_.score`` (accuracy for classifiers) on the chosen features of ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features_in_)
        y : array-like of shape (n_samples,)

        Returns
        -------
        score : float
        """
        X = self._selected(X)
        return self.estimator_.score(X, y)

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self._base_estimator())
        tags.estimator_type = inner.estimator_type
        tags.classifier_tags = copy.deepcopy(inner.classifier_tags)
        if tags.classifier_tags is not None:
            tags.classifier_tags.poor_score = True  # a short search may keep few features
            tags.classifier_tags.multi_label = False
        tags.regressor_tags = copy.deepcopy(inner.regressor_tags)
        if tags.regressor_tags is not None:
            tags.regressor_tags.poor_score = True
        if tags.estimator_type == "regressor":
            tags.target_tags.multi_output = False
            tags.target_tags.single_output = True
        tags.target_tags.required = True
        tags.input_tags.sparse = False
        tags.input_tags.allow_nan = False
        return tags


def _is_regressor(estimator):
    try:
        return bool(is_regressor(estimator))
    except (AttributeError, TypeError):
        return False


def _has(selector, method):
    """Whether the (fitted, else configured) estimator has ``method``."""
    inner = getattr(selector, "estimator_", None)
    if inner is None:
        inner = selector._base_estimator()
    return hasattr(inner, method)


def _base_seed(random_state):
    """The base seed of a fit: an int as given, else one draw from the RandomState."""
    if isinstance(random_state, numbers.Integral) and not isinstance(random_state, bool):
        return int(random_state)
    return int(check_random_state(random_state).randint(0, 2**31 - 1))


class _Monitor(Callback):
    """After each generation: one row of ``history_``, and the progress bar (verbose=1)."""

    def __init__(self, recorder, show_bar):
        super().__init__()
        self.recorder = recorder
        self.rows = []
        self.bar = None
        if show_bar:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=100, desc="SwarmFeatureSelector", unit="%",
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}"
                                       "{postfix}")

    def notify(self, algorithm):
        F = self.recorder.F
        best = np.lexsort((F[:, 1], F[:, 0]))[0]
        ratio = F[:, 1] / self.recorder.n_features
        hv = hypervolume(np.column_stack([F[:, 0], ratio]))
        self.rows.append((algorithm.n_gen, algorithm.evaluator.n_eval, F[best, 0],
                          int(F[best, 1]), hv))
        if self.bar is not None:
            done = int(round(100 * min(float(algorithm.termination.perc), 1.0)))
            self.bar.update(done - self.bar.n)
            self.bar.set_postfix(best_error=f"{F[best, 0]:.4f}", front=len(F), refresh=False)

    def close(self):
        if self.bar is not None:
            self.bar.close()

    def history(self):
        rows = np.array(self.rows, dtype=np.float64).reshape(-1, 5)
        return {"n_gen": rows[:, 0].astype(np.int64), "n_evaluations": rows[:, 1].astype(np.int64),
                "best_error": rows[:, 2], "n_features": rows[:, 3].astype(np.int64),
                "hypervolume": rows[:, 4]}


def _refuse_missing_labels(y):
    """A ValueError naming the rows of missing labels (``pd.NA``, None, NaN) in ``y``, which
    scikit-learn's checks end on with pandas' "boolean value of NA is ambiguous"; None is
    left to scikit-learn's own check."""
    if y is None:
        return
    isna = getattr(y, "isna", None)
    if callable(isna):
        missing = np.flatnonzero(np.asarray(isna(), dtype=bool).ravel())
    else:
        try:
            values = np.asarray(y, dtype=object).ravel().tolist()
        except (TypeError, ValueError):
            return
        missing = np.array([i for i, v in enumerate(values)
                            if v is None or type(v).__name__ == "NAType"
                            or (isinstance(v, float) and v != v)], dtype=int)
    if missing.size:
        raise ValueError(f"y holds {missing.size} missing label(s) (rows "
                         f"{missing[:10].tolist()}, counted from 0): every sample needs a "
                         "class label")
