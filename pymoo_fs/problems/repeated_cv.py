"""Seed 000's fitness as Weka's wrapper computes it: inner cross-validation repeated on demand.

Weka's ``WrapperSubsetEval`` (and the seed-000 authors' ``ModiWrapperSubsetEval``) runs the
inner cross-validation of a subset at least twice and at most five times, each time on new
folds, and stops as soon as the spread of the repetitions' errors is small. This module holds
one evaluator per repetition's folds and applies that rule; the problem on top is the usual
weighted problem. The simple form, one fixed set of folds, is
:class:`~pymoo_fs.problems.WeightedFeatureSelection` on one evaluator.
"""

import numpy as np

from pymoo_fs._validation import check_int, check_real, check_seed, check_unit_interval
from pymoo_fs.evaluation import make_evaluator
from pymoo_fs.problems.feature_selection import WeightedFeatureSelection
from pymoo_fs.seeds import run_seed

__all__ = ["RepeatedCVFeatureSelection", "RepeatedCrossValidation", "repetition_seeds"]


class RepeatedCrossValidation:
    """Weka's repeated inner cross-validation over one evaluator per repetition.

    It fulfils the evaluator contract a :class:`~pymoo_fs.problems.FeatureSelectionProblem`
    relies on (``n_features``, ``score``, ``score_flips``, ``holdout_score``,
    ``check_test_set``, the counters and ``clear_cache``).

    Parameters
    ----------
    evaluators : sequence of Evaluator
        One evaluator per repetition, on the same training data, each with its own folds
        (2 to 5 in Weka; at least ``min_repetitions``).
    alpha : float, default=1.0
        Weight of the error in the value whose spread decides: each repetition's
        ``e = alpha (1 - acc) + (1 - alpha) |S| / D``. 1 is Weka's ``WrapperSubsetEval`` (the
        error rate); seed 000's FIT-A is 0.9, the authors' ``ModiWrapperSubsetEval``.
    threshold : float, default=0.01
        Another repetition runs while ``std(e) / mean(e) > threshold`` (population standard
        deviation, Weka's ``-T``, default 1 %).
    min_repetitions : int, default=2
        Repetitions always run (Weka: 2).

    Attributes
    ----------
    evaluators : list of Evaluator
    last_repetitions_ : ndarray of int64, shape (n,)
        How many repetitions each mask of the last ``score``/``score_flips`` call took.

    Raises
    ------
    ValueError
        If there are fewer evaluators than ``min_repetitions``, they differ in their number of
        features or samples, or a parameter is out of range (named in the message).

    Notes
    -----
    [P: FSIPSO-code ``ModiWrapperSubsetEval.evaluateSubset``; Weka ``WrapperSubsetEval``]
    For each mask, repetition ``r`` scores it on evaluator ``r``; after at least
    ``min_repetitions``, the next runs only if the relative spread of the errors so far
    exceeds ``threshold`` (a zero mean stops). The score is the mean of the repetitions'
    scores, so the weighted objective on top is the mean of their FIT-A values, as Weka
    returns it. Every repetition's folds are fixed, so the value of a subset is deterministic
    and each evaluator caches its own repetition.

    Departure: Weka's accuracy pools the predictions of all folds; the evaluators here average
    the folds' accuracies, which differs slightly when folds differ in size.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import RepeatedCVFeatureSelection
    >>> data = load_dataset("sonar")
    >>> masks = np.zeros((3, 60), dtype=bool)
    >>> masks[0, :10] = masks[1, :30] = masks[2] = True
    >>> problem = RepeatedCVFeatureSelection.from_data(data.X, data.y, cv=5, random_state=1)
    >>> problem.evaluate(masks).round(4).ravel().tolist()
    [0.2578, 0.2367, 0.2894]
    >>> problem.evaluator.last_repetitions_.tolist()  # spreads above 1 %: five repetitions
    [5, 5, 5]
    >>> problem = RepeatedCVFeatureSelection.from_data(data.X, data.y, cv=5, random_state=1,
    ...                                                threshold=0.05)
    >>> problem.evaluate(masks).round(4).ravel().tolist()
    [0.2521, 0.2367, 0.2903]
    >>> problem.evaluator.last_repetitions_.tolist()
    [2, 5, 2]
    """

    def __init__(self, evaluators, alpha=1.0, threshold=0.01, min_repetitions=2):
        self.evaluators = list(evaluators)
        self.alpha = check_unit_interval("alpha", alpha)
        self.threshold = check_real("threshold", threshold, low=0.0)
        if not self.evaluators:
            raise ValueError("evaluators must hold at least one evaluator")
        self.min_repetitions = check_int("min_repetitions", min_repetitions, low=1,
                                         high=len(self.evaluators))
        first = self.evaluators[0]
        for ev in self.evaluators[1:]:
            if ev.n_features != first.n_features or ev.n_samples != first.n_samples:
                raise ValueError("evaluators must all hold the same training data")
        self.last_repetitions_ = np.zeros(0, dtype=np.int64)

    @property
    def n_features(self):
        """int: number of features ``D``."""
        return self.evaluators[0].n_features

    @property
    def n_samples(self):
        """int: number of training samples."""
        return self.evaluators[0].n_samples

    @property
    def n_evaluations(self):
        """int: scores computed, summed over the repetitions."""
        return sum(ev.n_evaluations for ev in self.evaluators)

    @property
    def n_cache_hits(self):
        """int: scores answered without computation, summed over the repetitions."""
        return sum(ev.n_cache_hits for ev in self.evaluators)

    def clear_cache(self):
        """Forget every repetition's cached scores."""
        for ev in self.evaluators:
            ev.clear_cache()

    def check_test_set(self, X_test, y_test):
        """The checks of :meth:`pymoo_fs.evaluation.Evaluator.check_test_set`."""
        return self.evaluators[0].check_test_set(X_test, y_test)

    def holdout_score(self, masks, X_test, y_test):
        """Hold-out score (independent of the folds): the first evaluator's."""
        return self.evaluators[0].holdout_score(masks, X_test, y_test)

    def score(self, masks):
        """Mean score over the repetitions each mask needs.

        Parameters
        ----------
        masks : array-like of bool, shape (n, D) or (D,)

        Returns
        -------
        scores : ndarray of float64, shape (n,)
        """
        masks = self.evaluators[0].check_masks(masks)
        return self._repeat(masks.sum(axis=1), lambda ev, rows: ev.score(masks[rows]))

    def score_flips(self, mask, features=None):
        """:meth:`score` of the one-feature flips of ``mask``, each repetition incremental.

        Parameters
        ----------
        mask : array-like of bool, shape (D,)
        features : array-like of int, optional
            Features to flip; default all.

        Returns
        -------
        scores : ndarray of float64, shape (k,)
        """
        mask = self.evaluators[0].check_masks(mask)[0]
        features = np.arange(self.n_features) if features is None else np.asarray(features)
        sizes = mask.sum() + np.where(mask[features], -1, 1)
        return self._repeat(sizes, lambda ev, rows: ev.score_flips(mask, features[rows]))

    def _repeat(self, sizes, score_rows):
        """Weka's rule: ``score_rows(evaluator, rows)`` for the rows still needing it."""
        n, R = sizes.shape[0], len(self.evaluators)
        scores = np.zeros((R, n))
        used = np.zeros(n, dtype=np.int64)
        todo = np.arange(n)
        ratio = sizes / self.n_features
        for r, ev in enumerate(self.evaluators):
            scores[r, todo] = score_rows(ev, todo)
            used[todo] = r + 1
            if r + 1 >= self.min_repetitions:
                errors = self.alpha * (1.0 - scores[:r + 1, todo]) + (1 - self.alpha) * ratio[todo]
                with np.errstate(divide="ignore", invalid="ignore"):
                    spread = errors.std(axis=0) / errors.mean(axis=0)
                todo = todo[spread > self.threshold]
            if todo.size == 0:
                break
        self.last_repetitions_ = used
        return scores.sum(axis=0) / np.maximum(used, 1)


class RepeatedCVFeatureSelection(WeightedFeatureSelection):
    """Seed 000's FIT-A with Weka's repeated inner cross-validation (spec §1.3).

    :class:`~pymoo_fs.problems.WeightedFeatureSelection` (minimise
    ``alpha (1 - acc) + (1 - alpha) |S| / D``) whose ``acc`` is the mean over 2 to 5
    repetitions of the inner cross-validation, as the seed-000 authors' Weka wrapper computes
    it (:class:`RepeatedCrossValidation`, with the repetition rule applied to FIT-A's error).

    Parameters
    ----------
    evaluators : sequence of Evaluator
        One evaluator per repetition (their folds differ).
    alpha : float, default=0.9
        Weight of the classification term [S000 Eq. 3]; 1 gives FIT-A' and Weka's plain
        ``WrapperSubsetEval``.
    threshold : float, default=0.01
        Repetition threshold (Weka's ``-T``).
    min_repetitions : int, default=2
        Repetitions always run.
    X_test, y_test : optional
        Hold-out test set (see :class:`~pymoo_fs.problems.FeatureSelectionProblem`).

    Attributes
    ----------
    evaluator : RepeatedCrossValidation
    evaluators : list of Evaluator

    Raises
    ------
    ValueError
        As :class:`RepeatedCrossValidation` and
        :class:`~pymoo_fs.problems.WeightedFeatureSelection`.

    Notes
    -----
    The empty mask is refused, as by every feature-selection problem. The simple form of
    FIT-A, one fixed set of folds, is the default of the project
    (:class:`~pymoo_fs.problems.WeightedFeatureSelection`); this problem is the option that
    follows the authors' code. It costs 2 to 5 evaluations per subset, all counted by the
    evaluators (``n_evaluations``) but as one in pymoo's ``n_eval``.

    References
    ----------
    A.-D. Li, B. Xue, M. Zhang, IEEE CEC 2021, doi:10.1109/CEC45853.2021.9504949, Eq. 3;
    its authors' ``ModiWrapperSubsetEval`` (github.com/andali89/fsipso_fs); R. Kohavi,
    G. H. John, Artificial Intelligence 97(1-2):273-324, 1997 (Weka's wrapper).

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import PSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import RepeatedCVFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = RepeatedCVFeatureSelection.from_data(data.X, data.y, cv=5, repetitions=3)
    >>> res = minimize(problem, PSO(pop_size=6), ("n_gen", 3), seed=1)
    >>> len(problem.evaluators), res.algorithm.evaluator.n_eval
    (3, 18)
    """

    def __init__(self, evaluators, alpha=0.9, threshold=0.01, min_repetitions=2, X_test=None,
                 y_test=None):
        evaluator = RepeatedCrossValidation(evaluators, alpha, threshold, min_repetitions)
        self.evaluators = evaluator.evaluators
        super().__init__(evaluator, alpha=alpha, X_test=X_test, y_test=y_test)

    @classmethod
    def from_data(cls, X, y, estimator=None, *, repetitions=5, alpha=0.9, threshold=0.01,
                  min_repetitions=2, random_state=0, X_test=None, y_test=None, **options):
        """Build the problem with ``repetitions`` evaluators on the training data.

        Parameters
        ----------
        X, y : array-like
            Training data (scaled) and labels.
        estimator : scikit-learn classifier, optional
            Default KNN (``n_neighbors``, default 5), as
            :func:`~pymoo_fs.evaluation.make_evaluator` chooses.
        repetitions : int, default=5
            Most repetitions (Weka: 5).
        alpha, threshold, min_repetitions
            See the class.
        random_state : int, default=0
            Fold seed of the first repetition; the others' are :func:`repetition_seeds`.
        X_test, y_test : optional
            Hold-out test set.
        **options
            Evaluator options (``cv``, ``n_neighbors``, ``scoring``, ...), as
            :func:`~pymoo_fs.evaluation.make_evaluator` takes them.

        Returns
        -------
        problem : RepeatedCVFeatureSelection

        Raises
        ------
        TypeError
            For an option no evaluator takes.
        ValueError
            For an invalid value, named in the message.
        """
        repetitions = check_int("repetitions", repetitions, low=1)
        evaluators = [make_evaluator(X, y, estimator, random_state=seed, **options)
                      for seed in repetition_seeds(random_state, repetitions)]
        return cls(evaluators, alpha=alpha, threshold=threshold,
                   min_repetitions=min(min_repetitions, repetitions), X_test=X_test,
                   y_test=y_test)


def repetition_seeds(random_state, repetitions):
    """Fold seeds of the repetitions: the given seed first, then seeds derived from it.

    Parameters
    ----------
    random_state : int
        The first repetition's fold seed, so repetition 1 has the folds of the simple form
        built with the same seed.
    repetitions : int

    Returns
    -------
    seeds : list of int
        ``[random_state, run_seed(random_state, "repetition", 1), ...]``.

    Examples
    --------
    >>> from pymoo_fs.problems.repeated_cv import repetition_seeds
    >>> seeds = repetition_seeds(7, 3)
    >>> seeds[0], len(set(seeds))
    (7, 3)
    """
    random_state = check_seed("random_state", random_state)
    return [random_state] + [run_seed(random_state, "repetition", r)
                             for r in range(1, repetitions)]
