"""Single-objective FIT-B (Tran et al. 2019): balanced 1-NN accuracy and a distance term."""

import inspect
from typing import Any, Self

import numpy as np
from numpy.typing import ArrayLike

from pymoo_fs.evaluation import Evaluator, FitBEvaluator
from pymoo_fs.problems.feature_selection import CONSTRAINTS, FeatureSelectionProblem

__all__ = ["FitBFeatureSelection"]


class FitBFeatureSelection(FeatureSelectionProblem):
    """Single-objective feature selection with Tran et al.'s (2019) fitness FIT-B.

    Minimises ``F = 1 - FIT-B``, where FIT-B (in [0, 1]) is
    ``mu * BalAcc + (1 - mu) * Distance`` of the mask, scored by a
    :class:`~pymoo_fs.evaluation.FitBEvaluator` (balanced accuracy of 1-NN with Manhattan
    distance across contiguous-block folds, and the sigmoid of the gap between the nearest
    other-class and farthest same-class distances).

    Parameters
    ----------
    evaluator : FitBEvaluator
        Scores masks on the training data (any evaluator whose scores lie in [0, 1] works).
    X_test, y_test : optional
        Hold-out test set: :meth:`holdout_objectives` gives ``1 - accuracy`` of 1-NN fitted on
        the training data (the evaluator's ``test_metric`` and ``test_scoring``).

    Notes
    -----
    Both forms the spec marks [P-code≠paper] are options of the evaluator:
    ``balanced_accuracy="pooled"`` (code, default) or ``"per_fold"`` (paper Eq. 7), and
    ``distance="averaged"`` (code, default) or ``"sum"`` (paper Eq. 11). The empty mask is
    refused (see :class:`FeatureSelectionProblem`); the AMSO code gives it the worst fitness.
    :meth:`symmetric_uncertainty` gives the SU ranking AMSO and VLPSO use.

    References
    ----------
    B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
    high-dimensional classification", GECCO 2019, Eq. 6-11.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitBFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitBFeatureSelection.from_data(data.X, data.y, mu=0.8)
    >>> mask = np.zeros(data.n_features, dtype=bool)
    >>> mask[:10] = True
    >>> problem.evaluate(mask[None, :]).round(4)
    array([[0.4385]])
    """

    def __init__(self, evaluator: Evaluator, X_test: ArrayLike | None = None,
                 y_test: ArrayLike | None = None) -> None:
        super().__init__(evaluator, n_obj=1, X_test=X_test, y_test=y_test)

    @classmethod
    def from_data(cls, X: ArrayLike, y: ArrayLike, *,  # type: ignore[override]
                  X_test: ArrayLike | None = None, y_test: ArrayLike | None = None,
                  **options: Any) -> Self:
        """Build the problem and its :class:`~pymoo_fs.evaluation.FitBEvaluator`.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, already scaled.
        y : array-like of shape (n_samples,)
            Training labels.
        X_test, y_test : optional, keyword-only
            Hold-out test set, checked now.
        **options
            The evaluator's parameters (``mu``, ``n_folds``, ``fold_order``, ``random_state``,
            ``balanced_accuracy``, ``distance``, ``test_metric``, ``test_scoring``,
            ``cache_size``, ``memory_limit``).

        Returns
        -------
        problem : FitBFeatureSelection

        Raises
        ------
        TypeError
            For a keyword the evaluator does not take; the message lists the accepted ones.
        ValueError
            For an invalid value, named in the message.
        """
        accepted = [p for p in inspect.signature(FitBEvaluator.__init__).parameters
                    if p not in ("self", "X", "y")] + list(CONSTRAINTS)
        unknown = [k for k in options if k not in accepted]
        if unknown:
            raise TypeError(f"{cls.__name__}.from_data() got an unexpected keyword argument "
                            f"{unknown[0]!r}; accepted: {', '.join(sorted(accepted))}")
        constraints = {k: options.pop(k) for k in CONSTRAINTS if k in options}
        problem = cls(FitBEvaluator(X, y, **options), X_test=X_test, y_test=y_test)
        return problem.constrain(**constraints) if constraints else problem

    def objectives(self, scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``1 - scores`` as an (n, 1) array."""
        return (1.0 - scores)[:, None]
