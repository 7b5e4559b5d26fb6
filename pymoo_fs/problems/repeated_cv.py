"""FIT-A (Li et al. 2021) as Weka's wrapper computes it: inner cross-validation repeated on demand.

Weka's ``WrapperSubsetEval`` (and the FSIPSO authors' ``ModiWrapperSubsetEval``) runs the
inner cross-validation of a subset at least twice and at most five times, each time on new
folds, and stops as soon as the spread of the repetitions' errors is small. This module holds
one evaluator per repetition's folds and applies that rule; the problem on top is the usual
weighted problem. The simple form, one fixed set of folds, is
:class:`~pymoo_fs.problems.WeightedFeatureSelection` on one evaluator. The evaluator over the
repetitions, :class:`~pymoo_fs.evaluation.wrappers.RepeatedCrossValidation`, and
:func:`~pymoo_fs.evaluation.wrappers.repetition_seeds` live beside the other evaluators and
are re-exported here.
"""

from collections.abc import Sequence
from typing import Any, Self

from numpy.typing import ArrayLike

from pymoo_fs._validation import check_int
from pymoo_fs.evaluation import Evaluator, make_evaluator
from pymoo_fs.evaluation.wrappers import RepeatedCrossValidation, repetition_seeds
from pymoo_fs.problems.feature_selection import WeightedFeatureSelection

__all__ = ["RepeatedCVFeatureSelection", "RepeatedCrossValidation", "repetition_seeds"]


class RepeatedCVFeatureSelection(WeightedFeatureSelection):
    """FIT-A (Li et al. 2021, Eq. 3) with Weka's repeated inner cross-validation.

    :class:`~pymoo_fs.problems.WeightedFeatureSelection` (minimise
    ``alpha (1 - acc) + (1 - alpha) |S| / D``) whose ``acc`` is the mean over 2 to 5
    repetitions of the inner cross-validation, as the FSIPSO authors' Weka wrapper computes
    it (:class:`RepeatedCrossValidation`, with the repetition rule applied to FIT-A's error).

    Parameters
    ----------
    evaluators : sequence of Evaluator
        One evaluator per repetition (their folds differ).
    alpha : float, default=0.9
        Weight of the classification term [Li et al. 2021, Eq. 3]; 1 gives FIT-A' and Weka's plain
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

    def __init__(self, evaluators: Sequence[Evaluator], alpha: float = 0.9,
                 threshold: float = 0.01, min_repetitions: int = 2,
                 X_test: ArrayLike | None = None, y_test: ArrayLike | None = None) -> None:
        evaluator = RepeatedCrossValidation(evaluators, alpha, threshold, min_repetitions)
        self.evaluators = evaluator.evaluators
        super().__init__(evaluator, alpha=alpha, X_test=X_test, y_test=y_test)

    @classmethod
    def from_data(cls, X: ArrayLike, y: ArrayLike, estimator: object = None, *,
                  repetitions: int = 5, alpha: float = 0.9, threshold: float = 0.01,
                  min_repetitions: int | None = None, random_state: int = 0,
                  X_test: ArrayLike | None = None, y_test: ArrayLike | None = None,
                  **options: Any) -> Self:
        """Build the problem with ``repetitions`` evaluators on the training data.

        Parameters
        ----------
        X, y : array-like
            Training data (scaled) and labels.
        estimator : scikit-learn classifier, optional
            Default KNN (``n_neighbors``, default 5), as
            :func:`~pymoo_fs.evaluation.make_evaluator` chooses.
        repetitions : int, default=5
            Most repetitions (Weka: 5). ``repetitions=1`` is one plain inner cross-validation
            per mask (the repetition rule never applies): the problem then scores as
            :class:`~pymoo_fs.problems.WeightedFeatureSelection` on the same folds.
        min_repetitions : int, optional
            Repetitions always run; default ``min(2, repetitions)`` (Weka's 2). An explicit
            value above ``repetitions`` is refused, not lowered.
        alpha, threshold
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
            For an invalid value, named in the message (``min_repetitions`` above
            ``repetitions`` included).
        """
        repetitions = check_int("repetitions", repetitions, low=1)
        if min_repetitions is None:
            min_repetitions = min(2, repetitions)
        else:
            check_int("min_repetitions", min_repetitions, low=1, high=repetitions)
        evaluators = [make_evaluator(X, y, estimator, random_state=seed, **options)
                      for seed in repetition_seeds(random_state, repetitions)]
        return cls(evaluators, alpha=alpha, threshold=threshold,
                   min_repetitions=min_repetitions, X_test=X_test,
                   y_test=y_test)
