"""Evaluators over evaluators: Weka's repeated inner CV, and a recorder of every scored subset.

Both are :class:`~pymoo_fs.evaluation.Evaluator`\\ s, so a feature-selection problem takes them
as it takes any evaluator:

:class:`RepeatedCrossValidation`
    Weka's wrapper rule of Li et al.'s (2021) code: the inner cross-validation of a subset repeated
    2 to 5 times, on new folds, while the spread of the repetitions' errors is large (one
    evaluator per repetition).
:class:`FrontRecorder`
    Forwards every request to an evaluator and keeps the Pareto archive of (error, number of
    features) of every subset scored (what
    :class:`~pymoo_fs.selector.SwarmFeatureSelector` returns as its front).

References
----------
A.-D. Li, B. Xue, M. Zhang, "A forward search inspired particle swarm optimization
algorithm for feature selection in classification", IEEE CEC 2021, pp. 786-793,
doi:10.1109/CEC45853.2021.9504949.
"""

from collections.abc import Sequence

import numpy as np
from numpy.typing import ArrayLike

from pymoo_fs._validation import check_int, check_real, check_seed, check_unit_interval
from pymoo_fs.evaluation.base import Evaluator, flip_rows
from pymoo_fs.seeds import run_seed

__all__ = ["FrontRecorder", "RepeatedCrossValidation", "repetition_seeds"]


class RepeatedCrossValidation(Evaluator):
    """Weka's repeated inner cross-validation over one evaluator per repetition.

    An :class:`~pymoo_fs.evaluation.Evaluator` over evaluators: each method asks the
    repetitions it needs (hold-out scores, test-set checks and training data are the first
    evaluator's, which do not depend on the folds).

    Parameters
    ----------
    evaluators : sequence of Evaluator
        One evaluator per repetition, on the same training data, each with its own folds
        (2 to 5 in Weka; at least ``min_repetitions``).
    alpha : float, default=1.0
        Weight of the error in the value whose spread decides: each repetition's
        ``e = alpha (1 - acc) + (1 - alpha) |S| / D``. 1 is Weka's ``WrapperSubsetEval`` (the
        error rate); Li et al.'s (2021) FIT-A is 0.9, the authors' ``ModiWrapperSubsetEval``.
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

    def __init__(self, evaluators: Sequence[Evaluator], alpha: float = 1.0,
                 threshold: float = 0.01, min_repetitions: int = 2) -> None:
        self.evaluators = list(evaluators)
        self.alpha = check_unit_interval("alpha", alpha)
        self.threshold = check_real("threshold", threshold, low=0.0)
        if not self.evaluators:
            raise ValueError("evaluators must hold at least one evaluator")
        self.min_repetitions = check_int("min_repetitions", min_repetitions, low=1,
                                         high=len(self.evaluators))
        first = self.evaluators[0]
        for ev in self.evaluators[1:]:
            if (ev.n_features != first.n_features
                    or ev.n_samples != first.n_samples):  # type: ignore[attr-defined]
                raise ValueError("evaluators must all hold the same training data")
        self.last_repetitions_ = np.zeros(0, dtype=np.int64)

    @property
    def n_features(self) -> int:  # type: ignore[override]
        """int: number of features ``D``."""
        return self.evaluators[0].n_features

    @property
    def n_samples(self) -> int:
        """int: number of training samples."""
        return self.evaluators[0].n_samples  # type: ignore[attr-defined]

    @property
    def n_evaluations(self) -> int:  # type: ignore[override]
        """int: scores computed, summed over the repetitions."""
        return sum(ev.n_evaluations for ev in self.evaluators)

    @property
    def n_cache_hits(self) -> int:  # type: ignore[override]
        """int: scores answered without computation, summed over the repetitions."""
        return sum(ev.n_cache_hits for ev in self.evaluators)

    def clear_cache(self) -> None:
        """Forget every repetition's cached scores."""
        for ev in self.evaluators:
            ev.clear_cache()

    def check_test_set(self, X_test: ArrayLike,
                       y_test: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """The checks of :meth:`pymoo_fs.evaluation.Evaluator.check_test_set`."""
        return self.evaluators[0].check_test_set(X_test, y_test)

    def holdout_score(self, masks: ArrayLike, X_test: ArrayLike,
                      y_test: ArrayLike) -> np.ndarray:
        """Hold-out score (independent of the folds): the first evaluator's."""
        return self.evaluators[0].holdout_score(masks, X_test, y_test)

    def score(self, masks: ArrayLike) -> np.ndarray:
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

    def training_data(self) -> tuple[np.ndarray, np.ndarray]:
        """The first evaluator's training data (every repetition holds the same)."""
        return self.evaluators[0].training_data()

    @property
    def target_type(self) -> str:  # type: ignore[override]
        """str: the first evaluator's target type."""
        return self.evaluators[0].target_type

    def unit_scores(self, scores: ArrayLike) -> np.ndarray:
        """The first evaluator's unit scale (see :meth:`Evaluator.unit_scores`)."""
        return self.evaluators[0].unit_scores(scores)

    def score_flips(self, mask: ArrayLike, features: ArrayLike | None = None) -> np.ndarray:
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
        mask, features = self._check_flips(mask, features)
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


class FrontRecorder(Evaluator):
    """An evaluator that keeps the Pareto archive of (error, size) of every subset it scores.

    It forwards every request to ``evaluator`` (so the problem's incremental path is kept) and
    offers each scored mask to the archive: non-dominated, one subset per distinct (error,
    size), the first found kept (:func:`pymoo_fs.pareto.nondominated_union`).

    Parameters
    ----------
    evaluator : Evaluator
        The evaluator that scores.

    Attributes
    ----------
    masks : ndarray of bool, shape (m, n_features)
        The archive's subsets, in the order the union keeps them.
    F : ndarray of float64, shape (m, 2)
        Their (error = 1 - score, number of selected features).

    Raises
    ------
    TypeError
        If ``evaluator`` is not an :class:`~pymoo_fs.evaluation.Evaluator`.
    """

    def __init__(self, evaluator: Evaluator) -> None:
        if not isinstance(evaluator, Evaluator):
            raise TypeError(f"FrontRecorder wraps an Evaluator, got {type(evaluator).__name__}")
        self.evaluator = evaluator
        self.n_features = evaluator.n_features
        self.masks = np.zeros((0, self.n_features), dtype=bool)
        self.F = np.zeros((0, 2))

    @property
    def n_evaluations(self) -> int:  # type: ignore[override]
        """int: the wrapped evaluator's count."""
        return self.evaluator.n_evaluations

    @property
    def n_cache_hits(self) -> int:  # type: ignore[override]
        """int: the wrapped evaluator's count."""
        return self.evaluator.n_cache_hits

    def score(self, masks: ArrayLike) -> np.ndarray:
        """The wrapped evaluator's scores; every mask is offered to the archive."""
        masks = self.evaluator.check_masks(masks)
        scores = self.evaluator.score(masks)
        self._offer(masks, scores)
        return scores

    def score_flips(self, mask: ArrayLike, features: ArrayLike | None = None) -> np.ndarray:
        """The wrapped evaluator's flip scores; every flipped mask is offered to the archive."""
        mask, features = self._check_flips(mask, features)
        scores = self.evaluator.score_flips(mask, features)
        self._offer(flip_rows(mask, features), scores)
        return scores

    def holdout_score(self, masks: ArrayLike, X_test: ArrayLike,
                      y_test: ArrayLike) -> np.ndarray:
        """The wrapped evaluator's hold-out scores (not recorded)."""
        return self.evaluator.holdout_score(masks, X_test, y_test)

    def check_test_set(self, X_test: ArrayLike,
                       y_test: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """The wrapped evaluator's checks."""
        return self.evaluator.check_test_set(X_test, y_test)

    def training_data(self) -> tuple[np.ndarray, np.ndarray]:
        """The wrapped evaluator's training data."""
        return self.evaluator.training_data()

    @property
    def target_type(self) -> str:  # type: ignore[override]
        """str: the wrapped evaluator's target type."""
        return self.evaluator.target_type

    def unit_scores(self, scores: ArrayLike) -> np.ndarray:
        """The wrapped evaluator's unit scale (see :meth:`Evaluator.unit_scores`)."""
        return self.evaluator.unit_scores(scores)

    def clear_cache(self) -> None:
        """Clear the wrapped evaluator's cache (the archive is kept)."""
        self.evaluator.clear_cache()

    def _offer(self, masks, scores):
        from pymoo_fs.pareto import nondominated_union  # imports pymoo

        F = np.vstack([self.F, np.column_stack([1.0 - self.evaluator.unit_scores(scores),
                                                masks.sum(axis=1)])])
        keep = nondominated_union(F)
        self.F = F[keep]
        self.masks = np.vstack([self.masks, masks])[keep]


def repetition_seeds(random_state: int | None, repetitions: int) -> list[int]:
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
    >>> from pymoo_fs.evaluation.wrappers import repetition_seeds
    >>> seeds = repetition_seeds(7, 3)
    >>> seeds[0], len(set(seeds))
    (7, 3)
    """
    random_state = check_seed("random_state", random_state)
    return [random_state] + [run_seed(random_state, "repetition", r)
                             for r in range(1, repetitions)]
