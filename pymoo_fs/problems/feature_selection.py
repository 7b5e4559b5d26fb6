"""Wrapper feature selection posed as vectorised pymoo problems over boolean masks."""

import inspect
from typing import Any, Self

import numpy as np
from numpy.typing import ArrayLike
from pymoo.core.problem import Problem

from pymoo_fs._validation import check_int, check_unit_interval
from pymoo_fs.evaluation import Evaluator, make_evaluator
from pymoo_fs.evaluation.base import flip_rows
from pymoo_fs.evaluation.estimator import ESTIMATOR_OPTIONS, KNN_OPTIONS
from pymoo_fs.relevance import RELEVANCE_MEASURES, relevance_measure

#: the keywords of :meth:`FeatureSelectionProblem.constrain`, also taken by ``from_data``
CONSTRAINTS = ("max_features", "feature_costs", "cost_budget")

__all__ = ["CONSTRAINTS", "BiObjectiveFeatureSelection", "FeatureSelectionProblem",
           "WeightedFeatureSelection", "as_masks", "flip_masks", "target_bins"]


class FeatureSelectionProblem(Problem):
    """Base class: a pymoo ``Problem`` whose decision vector is one boolean per feature.

    Subclasses turn the evaluator's scores into objectives (:meth:`objectives`). The problem is
    vectorised: ``_evaluate`` receives a whole population and scores it with one call to the
    evaluator.

    Parameters
    ----------
    evaluator : Evaluator
        Scores masks by inner cross-validation on the training data: an instance of
        :class:`~pymoo_fs.evaluation.Evaluator` (the contract; subclass it for an evaluator of
        your own).
    n_obj : int
        Number of objectives.
    X_test : array-like of shape (n_test, n_features), optional
        Hold-out test data, used by :meth:`holdout_objectives` when none is passed there.
    y_test : array-like of shape (n_test,), optional
        Hold-out test labels.

    Attributes
    ----------
    evaluator : Evaluator
    n_var : int
        Number of features ``D``; ``xl = 0``, ``xu = 1`` and ``vtype = bool``.

    Raises
    ------
    TypeError
        If ``evaluator`` is not an :class:`~pymoo_fs.evaluation.Evaluator`.
    ValueError
        If only one of ``X_test`` and ``y_test`` is given, or the test set fails the
        evaluator's ``check_test_set`` (wrong width, no sample, non-finite values, labels that
        do not match), so a bad test set is refused before any optimisation runs.

    Notes
    -----
    **The representation boundary.** The problem sees boolean masks only. An algorithm that
    works with continuous positions, bits or other codes decodes them to masks before it asks
    for an evaluation; undecoded positions are refused (:func:`as_masks`).

    **No empty subset.** A feature subset selects at least one feature: the problem refuses an
    empty mask with a ``ValueError``, so no front, archive or result can hold one. Every
    algorithm of :mod:`pymoo_fs.algorithms` repairs when it decodes: a thresholded position
    with no coordinate above the threshold selects its largest coordinate
    (:func:`pymoo_fs.algorithms.swarm.decode`), and bit strings with no bit set get one random
    feature (:class:`~pymoo_fs.problems.NonEmptyRepair`, used by NSGA-II and SPEA2). The
    evaluators themselves still score an empty mask as 0.0.

    **Neighbourhoods.** :meth:`evaluate_flips` scores the one-feature flips of a mask, given as
    ``(mask, features)``, through the evaluator's incremental ``score_flips``. Algorithms ask
    through :meth:`pymoo_fs.algorithms.FeatureSelectionAlgorithm.evaluate_flips`, which counts
    every flip in ``n_eval``, so an ``("n_eval", N)`` budget is honest.

    **What a run reports.** :meth:`score`, :meth:`holdout_score`, :meth:`holdout_objectives`,
    :attr:`evaluation_counts`, :attr:`n_train` and :meth:`clear_cache` are what a study
    runner needs, so nothing above the problem reaches into its evaluator.

    **Scores beside objectives.** Every evaluation also returns the evaluator's inner-CV score
    of each mask as ``out["score"]`` (shape ``(n,)``), which pymoo's evaluator stores on the
    individuals (``pop.get("score")``). Algorithms whose fitness is the classification score
    alone (FIT-A' of Li et al. 2021, ``fitness="accuracy"``) read it there, without reaching into
    the evaluator.

    **Ordering.** A single-objective problem orders masks by ``F``; a problem whose class
    attribute :attr:`fewer_breaks_ties` is True (FIT-E of Yang et al. 2022,
    :class:`~pymoo_fs.problems.FitEFeatureSelection`) orders them lexicographically, ``F``
    then the number of selected features (:meth:`better`). The single-objective swarms read
    the attribute in their core (personal and global bests, CSO's competitions), so every
    swarm follows the problem's order.

    **Constraints.** :meth:`constrain` (or ``from_data(..., max_features=, feature_costs=,
    cost_budget=)``) adds pymoo inequality constraints ``G <= 0``: at most ``max_features``
    selected features (``G = |S| - max_features``; the ``max_features`` of
    sklearn-genetic-opt's ``GAFeatureSelectionCV``), and a budget on the summed cost of the
    selected features (``G = sum_{d in S} c_d - budget``: cost-sensitive feature selection,
    where measuring a feature has a price). pymoo computes the constraint violation ``CV``
    from ``G``; every algorithm of :mod:`pymoo_fs.algorithms` prefers feasible masks, then
    lower ``F`` (see :class:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm`).
    """

    #: True: equal ``F`` goes to the mask with fewer features (the problem's ordering)
    fewer_breaks_ties = False
    #: the constraints set by :meth:`constrain` (None: not constrained)
    max_features: int | None = None
    feature_costs: np.ndarray | None = None
    cost_budget: float | None = None

    def __init__(self, evaluator: Evaluator, n_obj: int, X_test: ArrayLike | None = None,
                 y_test: ArrayLike | None = None) -> None:
        if not isinstance(evaluator, Evaluator):
            raise TypeError(f"evaluator must be a pymoo_fs.evaluation.Evaluator (subclass it and "
                            f"implement score), got {type(evaluator).__name__}")
        if (X_test is None) != (y_test is None):
            raise ValueError("X_test and y_test must be given together")
        if X_test is not None and y_test is not None:
            X_test, y_test = evaluator.check_test_set(X_test, y_test)
        if getattr(evaluator, "target_type", "classification") == "regression":
            # the unit scale must exist before a search starts (a custom scorer has none)
            evaluator.unit_scores(np.zeros(1))
        self.evaluator = evaluator
        self.X_test = X_test
        self.y_test = y_test
        super().__init__(n_var=evaluator.n_features, n_obj=n_obj, xl=0, xu=1, vtype=bool,
                         requires_kwargs=True)

    @classmethod
    def from_data(cls, X: ArrayLike, y: ArrayLike, estimator: object = None, *,
                  X_test: ArrayLike | None = None, y_test: ArrayLike | None = None,
                  **options: Any) -> Self:
        """Build the problem and its evaluator from training data.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, already scaled.
        y : array-like of shape (n_samples,)
            Training labels.
        estimator : scikit-learn classifier, optional
            Default: KNN (``n_neighbors=5``). A plain Euclidean KNN takes the compiled fast
            path; any other classifier is scored by
            :class:`~pymoo_fs.evaluation.EstimatorEvaluator` (see
            :func:`~pymoo_fs.evaluation.make_evaluator`).
        X_test, y_test : optional, keyword-only
            Hold-out test set for :meth:`holdout_objectives`, checked now.
        **options
            The problem's own parameters (``alpha`` of the weighted problem) and every
            evaluator option (``n_neighbors``, ``cv``, ``scoring``, ``random_state``, ``n_jobs``,
            ``cache_size``, and for the fast path ``memory_limit``, ``n_threads``,
            ``backend``, ``precision``), and the constraints of :meth:`constrain`
            (``max_features``, ``feature_costs``, ``cost_budget``).

        Returns
        -------
        problem : FeatureSelectionProblem

        Raises
        ------
        TypeError
            For a keyword that neither the problem nor the evaluator takes (e.g. a misspelling
            such as ``metric="balanced_accuracy"`` for ``scoring=``); the message lists the
            accepted keywords.
        ValueError
            For an invalid value, named in the message.

        Examples
        --------
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from pymoo_fs.datasets import load_dataset
        >>> from pymoo_fs.problems import BiObjectiveFeatureSelection
        >>> data = load_dataset("sonar")
        >>> p = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
        >>> type(p.evaluator).__name__
        'KNNEvaluator'
        >>> p = BiObjectiveFeatureSelection.from_data(
        ...     data.X, data.y, DecisionTreeClassifier(random_state=0), cv=5)
        >>> type(p.evaluator).__name__
        'EstimatorEvaluator'
        """
        own = [name for name in inspect.signature(cls.__init__).parameters
               if name not in ("self", "evaluator", "X_test", "y_test")]
        accepted = set(own) | set(KNN_OPTIONS) | set(ESTIMATOR_OPTIONS) | set(CONSTRAINTS)
        unknown = [k for k in options if k not in accepted]
        if unknown:
            raise TypeError(
                f"{cls.__name__}.from_data() got an unexpected keyword argument "
                f"{unknown[0]!r}; accepted: {', '.join(sorted(accepted))}"
            )
        problem_options = {k: options.pop(k) for k in own if k in options}
        constraints = {k: options.pop(k) for k in CONSTRAINTS if k in options}
        evaluator = make_evaluator(X, y, estimator, **options)
        problem = cls(evaluator, X_test=X_test, y_test=y_test, **problem_options)
        return problem.constrain(**constraints) if constraints else problem

    def __deepcopy__(self, memo):
        """The problem itself: a deep copy shares the problem, its evaluator and its cache.

        pymoo deep-copies the algorithm, which holds the problem, after every generation of
        ``minimize(..., save_history=True)`` (and once for ``copy_algorithm=True``). A problem
        is a fixed description of the search (training data, folds, test set) and its
        evaluator's cache and kept Gram matrices only remember work done, so every copy shares
        them: a history entry holds the algorithm's state, not another evaluator (on Musk1 the
        evaluator, its cache and kept matrices are tens of MB).

        Returns
        -------
        problem : FeatureSelectionProblem
            ``self``.
        """
        memo[id(self)] = self
        return self

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, X: Any, *args: Any, **kwargs: Any) -> Any:
        """pymoo's ``Problem.evaluate``, with the shape of ``X`` checked first.

        Parameters
        ----------
        X : array-like of bool, shape (n, n_features) or (n_features,)
            Masks (or pymoo's object arrays of individuals, passed on as they are).
        *args, **kwargs
            As pymoo's ``Problem.evaluate`` (``return_values_of``, ...).

        Returns
        -------
        out
            As pymoo's ``Problem.evaluate``: ``F`` by default, shape (n, n_obj).

        Raises
        ------
        ValueError
            If ``X`` is not one mask or a 2-D array of masks over ``n_features`` columns (pymoo
            would stop on an ``assert``), or for an empty or non-boolean mask.
        """
        if isinstance(X, np.ndarray) and X.dtype != object:
            if X.ndim not in (1, 2) or X.shape[-1] != self.n_var:
                raise ValueError(f"X must hold masks over the {self.n_var} features, shaped "
                                 f"(n, {self.n_var}) or ({self.n_var},); got shape {X.shape}")
        return super().evaluate(X, *args, **kwargs)

    def _evaluate(self, x, out, *args, **kwargs):
        masks = as_masks(x, self.n_var)
        _refuse_empty(masks)
        scores = self.evaluator.unit_scores(
            _checked_scores(self.evaluator, self.evaluator.score(masks), masks.shape[0]))
        out["F"] = self.objectives(scores, masks)
        out["score"] = scores
        self._set_constraints(masks, out)

    # ------------------------------------------------------------------ constraints
    def constrain(self, max_features: int | None = None, feature_costs: ArrayLike | None = None,
                  cost_budget: float | None = None) -> Self:
        """Add inequality constraints on the subset: a maximum size, a cost budget, or both.

        Parameters
        ----------
        max_features : int, optional
            At most this many selected features, in ``[1, n_features]``:
            ``G = |S| - max_features``.
        feature_costs : array-like of float, shape (n_features,), optional
            The cost of measuring each feature (finite, non-negative); needs ``cost_budget``.
        cost_budget : float, optional
            The largest total cost of a subset (finite, > 0): ``G = sum_{d in S} c_d -
            cost_budget``; needs ``feature_costs``.

        Returns
        -------
        problem : FeatureSelectionProblem
            ``self``, with ``n_ieq_constr`` the number of constraints (0, 1 or 2, in the order
            above); the constraints replace any set before.

        Raises
        ------
        ValueError
            For a value outside its domain, costs of the wrong shape, or only one of
            ``feature_costs`` and ``cost_budget``.

        Notes
        -----
        These are pymoo's inequality constraints (``out["G"]``, feasible when ``G <= 0``);
        pymoo's own algorithms (NSGA-II, GA) and every pymoo-fs algorithm prefer feasible
        solutions (pymoo's constraint-domination: feasible first, then the objectives, then the
        smaller violation). Sources: a maximum number of features is
        sklearn-genetic-opt's ``GAFeatureSelectionCV(max_features=...)``; a budget on feature
        costs is the cost-constrained feature selection of Bolon-Canedo et al.,
        "A framework for cost-based feature selection", Pattern Recognition 47(7):2481-2489,
        2014, doi:10.1016/j.patcog.2014.01.008 (posed here as a constraint, not a penalty).

        Examples
        --------
        >>> import numpy as np
        >>> from pymoo_fs.datasets import load_dataset
        >>> from pymoo_fs.problems import WeightedFeatureSelection
        >>> data = load_dataset("sonar")
        >>> p = WeightedFeatureSelection.from_data(data.X, data.y, cv=5, max_features=3)
        >>> masks = np.zeros((2, data.n_features), dtype=bool)
        >>> masks[0, :2] = masks[1, :5] = True
        >>> p.evaluate(masks, return_values_of=["G"]).ravel().tolist()
        [-1.0, 2.0]
        """
        D = self.n_var
        self.max_features = (None if max_features is None else
                             check_int("max_features", max_features, low=1, high=D))
        if (feature_costs is None) != (cost_budget is None):
            raise ValueError("feature_costs and cost_budget must be given together (a cost "
                             "budget constrains the summed costs of the selected features)")
        if feature_costs is not None:
            costs = np.asarray(feature_costs, dtype=float)
            if costs.shape != (D,):
                raise ValueError(f"feature_costs must hold one cost per feature, shape ({D},); "
                                 f"got shape {costs.shape}")
            if not np.all(np.isfinite(costs)) or np.any(costs < 0):
                raise ValueError("feature_costs must be finite and non-negative")
            budget = (float(cost_budget) if isinstance(cost_budget, (int, float, np.number))
                      and not isinstance(cost_budget, bool) else np.nan)
            if not np.isfinite(budget) or budget <= 0:
                raise ValueError(f"cost_budget must be finite and > 0, got {cost_budget!r}")
            self.feature_costs, self.cost_budget = costs, budget
        else:
            self.feature_costs, self.cost_budget = None, None
        self.n_ieq_constr = int(self.max_features is not None) + int(self.feature_costs
                                                                      is not None)
        return self

    def constraint_values(self, masks: ArrayLike) -> np.ndarray:
        """The inequality constraints ``G`` of ``masks`` (feasible where every ``G <= 0``).

        Parameters
        ----------
        masks : array-like of bool, shape (n, n_features)

        Returns
        -------
        G : ndarray of float64, shape (n, n_ieq_constr)
            ``|S| - max_features`` and ``cost - cost_budget``, for the constraints set by
            :meth:`constrain` (shape (n, 0) without any).
        """
        masks = as_masks(masks, self.n_var)
        columns = []
        if self.max_features is not None:
            columns.append(masks.sum(axis=1) - float(self.max_features))
        if self.feature_costs is not None and self.cost_budget is not None:
            columns.append(masks @ self.feature_costs - self.cost_budget)
        if not columns:
            return np.zeros((masks.shape[0], 0))
        return np.column_stack(columns).astype(np.float64)

    def _set_constraints(self, masks, out):
        """``out["G"]`` of ``masks`` when the problem has constraints."""
        if self.n_ieq_constr:
            out["G"] = self.constraint_values(masks)

    def evaluate_flips(self, mask: ArrayLike, features: ArrayLike, return_scores: bool = False
                       ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
        """Objectives of the masks obtained by flipping single features of ``mask``.

        Parameters
        ----------
        mask : array-like of bool, shape (n_features,)
            The base feature subset (not empty).
        features : array-like of int, shape (k,)
            Features to flip: each is added if absent from ``mask``, removed if present.
        return_scores : bool, default=False
            Also return the evaluator's scores of the flipped masks.

        Returns
        -------
        F : ndarray of float64, shape (k, n_obj)
            ``F[i]`` equals ``evaluate(flip_masks(mask, features))[i]``, computed by the
            evaluator's incremental ``score_flips`` (one column update per flip).
        scores : ndarray of float64, shape (k,)
            With ``return_scores``: the inner-CV scores behind ``F``.

        Raises
        ------
        ValueError
            If ``mask`` is not one mask, ``features`` is not a 1-D array of feature indices in
            range (the message names it and the value), or a flip would empty the mask
            (removing its only feature).

        Notes
        -----
        The evaluator counts these evaluations (``evaluator.n_evaluations``); an algorithm
        counts them in its ``n_eval`` when it asks through
        :meth:`pymoo_fs.algorithms.FeatureSelectionAlgorithm.evaluate_flips` or
        :meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.flip_objectives`.
        """
        mask = as_masks(mask, self.n_var)
        if mask.shape[0] != 1:
            raise ValueError(f"mask must be one mask of shape ({self.n_var},)")
        flipped = flip_masks(mask[0], features)
        _refuse_empty(flipped)
        scores = self.evaluator.unit_scores(_checked_scores(
            self.evaluator,
            self.evaluator.score_flips(mask[0], np.asarray(features, dtype=np.int64)),
            flipped.shape[0]))
        F = self.objectives(scores, flipped)
        return (F, scores) if return_scores else F

    # ------------------------------------------------------------------ what a run reports
    def score(self, masks: ArrayLike) -> np.ndarray:
        """The evaluator's inner-CV scores of ``masks`` (higher is better, in [0, 1]).

        Parameters
        ----------
        masks : array-like of bool, shape (n, n_features) or (n_features,)

        Returns
        -------
        scores : ndarray of float64, shape (n,)
            Answered from the evaluator's cache where it can (counted as hits). For a
            regression evaluator, ``1 - error`` with the normalised, clipped error
            (:meth:`~pymoo_fs.evaluation.Evaluator.unit_scores`).
        """
        return self.evaluator.unit_scores(self.evaluator.score(masks))

    @property
    def target_type(self) -> str:
        """str: ``"classification"`` or ``"regression"``, the evaluator's target type."""
        return getattr(self.evaluator, "target_type", "classification")

    def holdout_score(self, masks: ArrayLike, X_test: ArrayLike | None = None,
                      y_test: ArrayLike | None = None) -> np.ndarray:
        """Scores of ``masks`` with the classifier fitted on the training data, on a test set.

        Parameters
        ----------
        masks : array-like of bool, shape (n, n_features) or (n_features,)
        X_test, y_test : optional
            Default: the problem's test set.

        Returns
        -------
        scores : ndarray of float64, shape (n,)

        Raises
        ------
        ValueError
            If no test set is available or it fails the evaluator's checks.
        """
        X_test, y_test = self._test_set(X_test, y_test)
        return self.evaluator.unit_scores(self.evaluator.holdout_score(masks, X_test, y_test))

    @property
    def n_train(self) -> int:
        """int: number of training samples (of the evaluator's ``training_data()``)."""
        return len(self.evaluator.training_data()[1])

    @property
    def evaluation_counts(self) -> tuple[int, int]:
        """tuple of int: ``(n_evaluations, n_cache_hits)`` of the evaluator so far."""
        return self.evaluator.n_evaluations, self.evaluator.n_cache_hits

    def clear_cache(self) -> None:
        """Forget the evaluator's cached scores (its counters are kept)."""
        self.evaluator.clear_cache()

    def _test_set(self, X_test, y_test):
        if X_test is None and y_test is None:
            X_test, y_test = self.X_test, self.y_test
        if X_test is None or y_test is None:
            raise ValueError("no hold-out test set: pass X_test and y_test")
        return X_test, y_test

    def holdout_objectives(self, masks: ArrayLike, X_test: ArrayLike | None = None,
                           y_test: ArrayLike | None = None) -> np.ndarray:
        """Objectives of masks with the classifier fitted on the training data, scored on a test set.

        Parameters
        ----------
        masks : array-like of bool, shape (n, n_features) or (n_features,)
            Feature subsets, e.g. a front's masks; none may be empty.
        X_test, y_test : optional
            Test data and labels; default: those given at construction.

        Returns
        -------
        F : ndarray of float64, shape (n, n_obj)
            The objectives with the hold-out score in place of the inner-CV score.

        Raises
        ------
        ValueError
            If no test set is available, the masks are not boolean or one is empty, or the
            test set fails the evaluator's checks.
        """
        X_test, y_test = self._test_set(X_test, y_test)
        masks = as_masks(masks, self.n_var)
        _refuse_empty(masks)
        return self.objectives(
            self.evaluator.unit_scores(self.evaluator.holdout_score(masks, X_test, y_test)),
            masks)

    def symmetric_uncertainty(self, discretization: str = "mdl") -> Any:
        """The relevance of the training features, computed once per discretisation and cached.

        The relevance measure of the ranking swarms (AMSO, VLPSO, CEPSO-FL, HFS-C-P) and of
        AMSO's local search and HFS-C-P's clustering: symmetric uncertainty of each feature
        with the class and between features, on the evaluator's training data after the
        named discretisation (by default the MDL criterion with Weka's better encoding, Fayyad &
        Irani 1993), or scikit-learn's mutual information for ranking alone. The training data
        never leave the problem; algorithms call this method instead of reaching into the
        evaluator.

        Parameters
        ----------
        discretization : {"mdl", "equal_width", "equal_frequency", "mutual_info"}, \
default="mdl"
            See :func:`pymoo_fs.relevance.relevance_measure`. Each choice is computed once
            and kept, so algorithms with different choices on one problem each get theirs.

        For a regression target, the class is the target cut into 5 equal-frequency bins
        (:func:`target_bins`; our choice: the ranking swarms' papers are classification
        papers).

        Returns
        -------
        su : pymoo_fs.relevance.SymmetricUncertainty or pymoo_fs.relevance.MutualInformation
            ``su.relevance`` (n_features,) is the relevance with the class, ``su.ranking()``
            the features by decreasing relevance, ``su.between(f, others)`` SU between
            features (refused by ``"mutual_info"``).

        Raises
        ------
        ValueError
            If the evaluator holds no training data (its ``training_data()`` refuses), or for
            an unknown ``discretization``.

        Examples
        --------
        >>> from pymoo_fs.datasets import load_dataset
        >>> from pymoo_fs.problems import WeightedFeatureSelection
        >>> data = load_dataset("sonar")
        >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
        >>> problem.symmetric_uncertainty().ranking()[:3].tolist()
        [10, 11, 8]
        >>> problem.symmetric_uncertainty("equal_frequency").discretization
        'equal_frequency'
        """
        if discretization not in RELEVANCE_MEASURES:
            raise ValueError(f"discretization must be one of {RELEVANCE_MEASURES}, got "
                             f"{discretization!r}")
        cached = getattr(self, "_symmetric_uncertainty", None)
        if discretization == "mdl" and cached is not None:
            return cached
        cache = self.__dict__.setdefault("_relevance_measures", {})
        su = cache.get(discretization)
        if su is None:
            try:
                X, y = self.evaluator.training_data()
            except ValueError as exc:
                raise ValueError(f"symmetric uncertainty needs the training data: {exc}") from None
            if self.target_type == "regression":
                y = target_bins(y)
            su = cache[discretization] = relevance_measure(X, y, discretization)
            if discretization == "mdl":
                self._symmetric_uncertainty = su
        return su

    def better(self, F_new: ArrayLike, F_old: ArrayLike, n_new: ArrayLike,
               n_old: ArrayLike) -> np.ndarray:
        """Whether each new solution is better than the old one under the problem's ordering.

        Parameters
        ----------
        F_new, F_old : array-like of float, shape (n, 1), (n,) or (1,)
            Single objectives (lower is better).
        n_new, n_old : array-like of int, shape (n,) or scalars
            Numbers of selected features.

        Returns
        -------
        better : ndarray of bool, shape (n,)
            ``F_new < F_old``, or (when :attr:`fewer_breaks_ties`) equal ``F`` and
            ``n_new < n_old``.
        """
        f_new = np.asarray(F_new, dtype=float).reshape(-1)
        f_old = np.asarray(F_old, dtype=float).reshape(-1)
        out = f_new < f_old
        if self.fewer_breaks_ties:
            out = out | ((f_new == f_old) & (np.asarray(n_new) < np.asarray(n_old)))
        return np.atleast_1d(out)

    def objectives(self, scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Objective vectors from the evaluator's scores of ``masks``.

        Parameters
        ----------
        scores : ndarray of float64, shape (n,)
            Scores of the masks (higher is better, in [0, 1]).
        masks : ndarray of bool, shape (n, n_features)

        Returns
        -------
        F : ndarray of float64, shape (n, n_obj)
        """
        raise NotImplementedError


class WeightedFeatureSelection(FeatureSelectionProblem):
    """Single-objective wrapper feature selection: a weighted sum of error and subset size.

    Minimises ``F = alpha * (1 - acc) + (1 - alpha) * |S| / D``, where ``acc`` is the
    evaluator's inner-CV score of the mask, ``|S|`` the number of selected features and ``D``
    the number of features. For a regression evaluator ``1 - acc`` is the normalised error
    (the MSE over the training targets' variance, clipped to [0, 1]; see
    :meth:`~pymoo_fs.evaluation.Evaluator.unit_scores`).

    Parameters
    ----------
    evaluator : Evaluator
        Scores masks on the training data.
    alpha : float, default=0.9
        Weight of the classification term, in [0, 1]; ``alpha=1`` is accuracy alone (FIT-A'
        of Li et al. 2021, FIT-C of Butler-Yeoman et al. 2015).
    X_test, y_test : optional
        Hold-out test set (see :class:`FeatureSelectionProblem`).

    Raises
    ------
    ValueError
        If ``alpha`` is not a number in [0, 1] (a string such as ``"0.9"`` included).

    Notes
    -----
    Li, Xue & Zhang (2021, Eq. 3) maximise
    ``alpha * acc + (1 - alpha) * (1 - |S|/D)``, which is ``1 - F``: minimising ``F`` selects the
    same subsets. The empty mask is refused (see :class:`FeatureSelectionProblem`); the authors'
    code passes it to Weka, which predicts the majority class.

    References
    ----------
    A.-D. Li, B. Xue, M. Zhang, "A Forward Search Inspired Particle Swarm Optimization
    Algorithm for Feature Selection in Classification", IEEE CEC 2021, pp. 786-793,
    doi:10.1109/CEC45853.2021.9504949.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> mask = np.zeros(data.n_features, dtype=bool)
    >>> mask[:6] = True
    >>> problem.evaluate(mask[None, :]).round(4)
    array([[0.3431]])
    """

    def __init__(self, evaluator: Evaluator, alpha: float = 0.9,
                 X_test: ArrayLike | None = None, y_test: ArrayLike | None = None) -> None:
        self.alpha = check_unit_interval("alpha", alpha)
        super().__init__(evaluator, n_obj=1, X_test=X_test, y_test=y_test)

    def objectives(self, scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``alpha * (1 - scores) + (1 - alpha) * |S| / D`` as an (n, 1) array."""
        ratio = np.count_nonzero(masks, axis=1) / self.n_var
        return (self.alpha * (1.0 - scores) + (1.0 - self.alpha) * ratio)[:, None]


class BiObjectiveFeatureSelection(FeatureSelectionProblem):
    """Bi-objective wrapper feature selection: minimise (error rate, selection ratio).

    ``F[:, 0] = 1 - acc`` is the inner-CV classification error rate of the mask and
    ``F[:, 1] = |S| / D`` the fraction of features selected.

    For a regression evaluator (``evaluator.target_type == "regression"``), ``F[:, 0]`` is
    the normalised error: with ``scoring="neg_mean_squared_error"`` the inner-CV MSE divided
    by the variance of the training targets (1 = no better than predicting their mean, the
    normalised MSE), clipped to [0, 1] where a subset is worse than the mean, so that HV and
    IGD with the reference point (1, 1) stay meaningful
    (:func:`~pymoo_fs.evaluation.base.regression_unit_scores`).

    Parameters
    ----------
    evaluator : Evaluator
        Scores masks on the training data.
    X_test, y_test : optional
        Hold-out test set (see :class:`FeatureSelectionProblem`).

    Notes
    -----
    Nguyen et al. (2016, Eq. 5-6) minimise ErrorRate = (FP + FN) / (TP + TN + FP +
    FN) and FeatureRate = #selected / #all. The empty mask is refused (see
    :class:`FeatureSelectionProblem`); our earlier assumption [A], "error 1.0 for the empty
    mask", is replaced by that rule, so no front holds the point (1.0, 0).

    References
    ----------
    H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
    in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946 (2016),
    doi:10.1007/s00500-016-2128-8.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import BiObjectiveFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> masks = np.eye(data.n_features, dtype=bool)[:2]
    >>> problem.evaluate(masks).round(3)
    array([[0.509, 0.017],
           [0.538, 0.017]])
    """

    def __init__(self, evaluator: Evaluator, X_test: ArrayLike | None = None,
                 y_test: ArrayLike | None = None) -> None:
        super().__init__(evaluator, n_obj=2, X_test=X_test, y_test=y_test)

    def objectives(self, scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``(1 - scores, |S| / D)`` as an (n, 2) array."""
        return np.column_stack([1.0 - scores, np.count_nonzero(masks, axis=1) / self.n_var])


def target_bins(y: ArrayLike, n_bins: int = 5) -> np.ndarray:
    """A real-valued target as class codes: its ``n_bins`` equal-frequency intervals.

    What the relevance measures of the ranking swarms (symmetric uncertainty needs classes)
    see of a regression target; Weka's equal-frequency cut points
    (:func:`pymoo_fs.relevance.equal_frequency_cut_points`). Five bins (quintiles), not ten:
    with ten classes the MDL criterion rejected the cuts of two of the three relevant
    features of ``make_relevant_regression(300, 15, 3)`` (SU 0), with five it ranked all
    three first (seeds 0-2); diabetes' relevances keep their order.

    Parameters
    ----------
    y : array-like of float, shape (n,)
    n_bins : int, default=5

    Returns
    -------
    codes : ndarray of int64, shape (n,)
        ``0 .. k`` with ``k < n_bins`` (fewer where ties leave fewer distinct values).
    """
    from pymoo_fs.relevance import equal_frequency_cut_points

    y = np.asarray(y, dtype=np.float64)
    return np.searchsorted(equal_frequency_cut_points(y, n_bins), y).astype(np.int64)


def as_masks(x: ArrayLike, n_var: int) -> np.ndarray:
    """Check and convert decision vectors to boolean masks.

    Parameters
    ----------
    x : array-like, shape (n, n_var) or (n_var,)
        Boolean (or 0/1) decision vectors.
    n_var : int
        Number of features.

    Returns
    -------
    masks : ndarray of bool, shape (n, n_var)

    Raises
    ------
    ValueError
        If the shape is wrong or a value is neither 0 nor 1 (e.g. continuous particle positions
        that were not decoded).
    """
    x = np.asarray(x)
    if x.ndim == 1:
        x = x[None, :]
    if x.ndim != 2 or x.shape[1] != n_var:
        raise ValueError(f"masks must have shape (n, {n_var}), got {np.shape(x)}")
    if x.dtype == bool:
        return x
    if x.dtype == object or not np.isin(x, (0, 1)).all():
        raise ValueError(
            "feature selection problems take boolean masks; decode continuous positions "
            "(e.g. x > threshold) before evaluation"
        )
    return x.astype(bool)


def flip_masks(mask: ArrayLike, features: ArrayLike) -> np.ndarray:
    """The masks obtained by flipping one feature of ``mask`` each.

    Parameters
    ----------
    mask : ndarray of bool, shape (D,)
    features : array-like of int, shape (k,)
        Feature indices in ``[0, D)``.

    Returns
    -------
    flipped : ndarray of bool, shape (k, D)
        Row ``i`` is ``mask`` with feature ``features[i]`` added or removed.

    Raises
    ------
    ValueError
        If ``features`` is not a 1-D integer array of indices in range.
    """
    mask = np.asarray(mask, dtype=bool)
    features = np.asarray(features)
    if features.ndim != 1 or not (features.size == 0
                                  or np.issubdtype(features.dtype, np.integer)):
        raise ValueError(f"features must be a 1-D array of feature indices, got "
                         f"{features.dtype} of shape {features.shape}")
    if features.size:
        bad = features[(features < 0) | (features >= mask.size)]
        if bad.size:
            raise ValueError(f"features must be feature indices in [0, {mask.size}), got "
                             f"{int(bad[0])}")
    return flip_rows(mask, features)


def _checked_scores(evaluator, scores, n):
    """``scores`` as float64 (n,), or a ValueError naming the evaluator: a NaN or infinite
    score (an evaluator subclass whose scorer failed) must never reach a search."""
    scores = np.asarray(scores, dtype=np.float64)
    if scores.shape != (n,):
        raise ValueError(f"{type(evaluator).__name__} returned scores of shape {scores.shape} "
                         f"for {n} masks; an evaluator must return one score per mask")
    if not np.isfinite(scores).all():
        bad = int(np.flatnonzero(~np.isfinite(scores))[0])
        raise ValueError(
            f"{type(evaluator).__name__} returned the score {scores[bad]} for mask {bad} of "
            f"the batch: a NaN or infinite score cannot guide a search; check its scorer"
        )
    return scores


def _refuse_empty(masks):
    empty = np.flatnonzero(~masks.any(axis=1))
    if empty.size:
        raise ValueError(
            f"mask {int(empty[0])} selects no feature: an empty mask is not a feature subset "
            f"(pymoo-fs algorithms repair it when decoding; with pymoo's own operators, e.g. "
            f"GA or NSGA2 with BitflipMutation, pass repair=NonEmptyRepair() from "
            f"pymoo_fs.problems; see FeatureSelectionProblem)"
        )
