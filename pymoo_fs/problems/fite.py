"""Single-objective FIT-E (Yang et al. 2022): LOOCV 5-NN accuracy, fewer features winning ties."""

from typing import Any, Self

import numpy as np
from numpy.typing import ArrayLike

from pymoo_fs._validation import check_choice
from pymoo_fs.evaluation import Evaluator
from pymoo_fs.problems.feature_selection import (FeatureSelectionProblem, _checked_scores,
                                               as_masks)

__all__ = ["FitEFeatureSelection"]


class FitEFeatureSelection(FeatureSelectionProblem):
    """Single-objective feature selection with Yang et al.'s (2022) fitness FIT-E.

    Minimises ``F = 1 - acc``, where ``acc`` is the evaluator's inner score of the mask (seed
    004: leave-one-out accuracy of 5-NN on the feature-selection set, ``cv="loo"``,
    ``n_neighbors=5``, the defaults of :meth:`from_data` here). Two masks of equal accuracy are
    ordered by their sizes: **fewer features is better** [Yang et al. 2022, §4.2]. This is a
    lexicographic order (accuracy, then size), not a weighted sum: no accuracy difference, however
    small, is traded for features.

    Parameters
    ----------
    evaluator : Evaluator
        Scores masks on the training data.
    empty_mask : {"refuse", "zero"}, default="refuse"
        ``"refuse"``: the empty mask raises ``ValueError`` like every pymoo-fs problem (the
        algorithms repair when they decode, so none is ever asked for). ``"zero"``: it is
        scored with accuracy 0 (``F = 1``), our assumption [A] for FIT-E; it then still
        wins a tie at accuracy 0 by its size. An empty mask is scored without asking the
        evaluator (counted neither as an evaluation nor as a cache hit). ``"zero"`` applies to
        :meth:`evaluate` only: :meth:`evaluate_flips` still refuses a flip that would empty
        the mask (it removes the only selected feature).
    X_test, y_test : optional
        Hold-out test set (see :class:`FeatureSelectionProblem`).

    Attributes
    ----------
    fewer_breaks_ties : bool
        True: the problem's ordering. Every single-objective swarm of
        :mod:`pymoo_fs.algorithms` reads it (personal and global bests, competitions,
        tournaments), so that equal ``F`` goes to the smaller subset whatever the algorithm's
        own ``pbest_rule`` says (see :meth:`FeatureSelectionProblem.better`).

    Raises
    ------
    ValueError
        If ``empty_mask`` is not one of its choices.

    Notes
    -----
    Accuracies of leave-one-out are multiples of ``1/n``; ``1 - acc`` is computed the same way
    for every mask, so equal accuracies give bit-equal ``F`` and the tie-break applies.

    References
    ----------
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.
    §4.2.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitEFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitEFeatureSelection.from_data(data.X, data.y)
    >>> masks = np.zeros((2, data.n_features), dtype=bool)
    >>> masks[0, :6] = True
    >>> masks[1, :3] = True
    >>> F = problem.evaluate(masks)
    >>> F.round(4)
    array([[0.3606],
           [0.3894]])
    >>> problem.better(F[0], F[1], 6, 3)
    array([ True])
    """

    fewer_breaks_ties = True

    def __init__(self, evaluator: Evaluator, empty_mask: str = "refuse",
                 X_test: ArrayLike | None = None, y_test: ArrayLike | None = None) -> None:
        self.empty_mask = check_choice("empty_mask", empty_mask, ("refuse", "zero"))
        super().__init__(evaluator, n_obj=1, X_test=X_test, y_test=y_test)

    @classmethod
    def from_data(cls, X: ArrayLike, y: ArrayLike, estimator: object = None, *,
                  X_test: ArrayLike | None = None, y_test: ArrayLike | None = None,
                  **options: Any) -> Self:
        """Build the problem and its evaluator: 5-NN and leave-one-out unless told otherwise.

        Parameters
        ----------
        X, y, estimator, X_test, y_test, **options
            As :meth:`FeatureSelectionProblem.from_data`; ``n_neighbors`` defaults to 5 and
            ``cv`` to ``"loo"`` (Yang et al. 2022's FIT-E), ``empty_mask`` is the problem's own.

        Returns
        -------
        problem : FitEFeatureSelection
        """
        if estimator is None:
            options.setdefault("n_neighbors", 5)
        options.setdefault("cv", "loo")
        return super().from_data.__func__(  # type: ignore[attr-defined]
            cls, X, y, estimator, X_test=X_test, y_test=y_test, **options)

    def _evaluate(self, x, out, *args, **kwargs):
        if self.empty_mask == "refuse":
            return super()._evaluate(x, out, *args, **kwargs)
        masks = as_masks(x, self.n_var)
        empty = ~masks.any(axis=1)
        scores = np.zeros(masks.shape[0])
        if not empty.all():
            scores[~empty] = _checked_scores(self.evaluator, self.evaluator.score(masks[~empty]),
                                             int((~empty).sum()))
        out["F"] = self.objectives(scores, masks)
        out["score"] = scores
        self._set_constraints(masks, out)

    def objectives(self, scores: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """``1 - scores`` as an (n, 1) array."""
        return (1.0 - np.asarray(scores, dtype=float))[:, None]
