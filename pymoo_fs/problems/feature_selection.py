"""Wrapper feature selection posed as vectorised pymoo problems over boolean masks."""

import numpy as np
from pymoo.core.problem import Problem

from pymoo_fs.evaluation import KNNEvaluator


class FeatureSelectionProblem(Problem):
    """Base class: a pymoo ``Problem`` whose decision vector is one boolean per feature.

    Subclasses turn the evaluator's scores into objectives (:meth:`_objectives`). The problem
    is vectorised: ``_evaluate`` receives a whole population and scores it with one call to the
    evaluator.

    Parameters
    ----------
    evaluator : KNNEvaluator
        Scores masks by inner cross-validation on the training data (any object with
        ``n_features``, ``score(masks)`` and ``holdout_score(masks, X_test, y_test)``).
    n_obj : int
        Number of objectives.
    X_test : array-like of shape (n_test, n_features), optional
        Hold-out test data, used by :meth:`holdout_objectives` when none is passed there.
    y_test : array-like of shape (n_test,), optional
        Hold-out test labels.

    Attributes
    ----------
    evaluator : KNNEvaluator
    n_var : int
        Number of features ``D``; ``xl = 0``, ``xu = 1`` and ``vtype = bool``.

    Raises
    ------
    ValueError
        If only one of ``X_test`` and ``y_test`` is given.

    Notes
    -----
    This class is the representation boundary of pymoo-fs: it sees boolean masks only. An
    algorithm that works with continuous positions, bits or other codes decodes them to masks
    before it asks for an evaluation.
    """

    def __init__(self, evaluator, n_obj, X_test=None, y_test=None, **kwargs):
        if (X_test is None) != (y_test is None):
            raise ValueError("X_test and y_test must be given together")
        self.evaluator = evaluator
        self.X_test = X_test
        self.y_test = y_test
        super().__init__(
            n_var=evaluator.n_features, n_obj=n_obj, xl=0, xu=1, vtype=bool, **kwargs
        )

    @classmethod
    def from_data(cls, X, y, n_neighbors=5, cv=10, random_state=0, X_test=None, y_test=None,
                  **kwargs):
        """Build the problem with a :class:`~pymoo_fs.evaluation.KNNEvaluator` on ``(X, y)``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, already scaled.
        y : array-like of shape (n_samples,)
            Training labels.
        n_neighbors, cv, random_state
            Passed to :class:`~pymoo_fs.evaluation.KNNEvaluator`.
        X_test, y_test : optional
            Hold-out test set for :meth:`holdout_objectives`.
        **kwargs
            Further arguments of the problem class (``alpha`` for the weighted problem).

        Returns
        -------
        problem : FeatureSelectionProblem
        """
        evaluator = KNNEvaluator(X, y, n_neighbors=n_neighbors, cv=cv, random_state=random_state)
        return cls(evaluator, X_test=X_test, y_test=y_test, **kwargs)

    def _evaluate(self, x, out, *args, **kwargs):
        masks = as_masks(x, self.n_var)
        out["F"] = self._objectives(self.evaluator.score(masks), masks)

    def holdout_objectives(self, masks, X_test=None, y_test=None):
        """Objectives of masks with KNN fitted on the training data and scored on a test set.

        Parameters
        ----------
        masks : array-like of bool, shape (n, n_features) or (n_features,)
            Feature subsets, e.g. a front's masks.
        X_test, y_test : optional
            Test data and labels; default: those given at construction.

        Returns
        -------
        F : ndarray of float64, shape (n, n_obj)
            The objectives with the hold-out score in place of the inner-CV score.

        Raises
        ------
        ValueError
            If no test set is available or the masks are not boolean.
        """
        if X_test is None and y_test is None:
            X_test, y_test = self.X_test, self.y_test
        if X_test is None or y_test is None:
            raise ValueError("no hold-out test set: pass X_test and y_test")
        masks = as_masks(masks, self.n_var)
        return self._objectives(self.evaluator.holdout_score(masks, X_test, y_test), masks)

    def _objectives(self, score, masks):
        raise NotImplementedError


class WeightedFeatureSelection(FeatureSelectionProblem):
    """Single-objective wrapper feature selection: a weighted sum of error and subset size.

    Minimises ``F = alpha * (1 - acc) + (1 - alpha) * |S| / D``, where ``acc`` is the
    evaluator's inner-CV score of the mask, ``|S|`` the number of selected features and ``D``
    the number of features.

    Parameters
    ----------
    evaluator : KNNEvaluator
        Scores masks on the training data.
    alpha : float, default=0.9
        Weight of the classification term, in [0, 1].
    X_test, y_test : optional
        Hold-out test set (see :class:`FeatureSelectionProblem`).

    Raises
    ------
    ValueError
        If ``alpha`` is outside [0, 1].

    Notes
    -----
    Seed 000 (Li, Xue & Zhang, CEC 2021, Eq. 3) maximises
    ``alpha * acc + (1 - alpha) * (1 - |S|/D)``, which is ``1 - F``: minimising ``F`` selects the
    same subsets. The empty mask scores ``acc = 0`` (the worst), so ``F = alpha``; the seed's
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
    >>> problem.evaluate(mask[None, :])
    array([[0.9]])
    """

    def __init__(self, evaluator, alpha=0.9, X_test=None, y_test=None, **kwargs):
        if not 0.0 <= alpha <= 1.0:
            raise ValueError(f"alpha must be in [0, 1], got {alpha!r}")
        self.alpha = float(alpha)
        super().__init__(evaluator, n_obj=1, X_test=X_test, y_test=y_test, **kwargs)

    def _objectives(self, score, masks):
        ratio = masks.sum(axis=1) / self.n_var
        return (self.alpha * (1.0 - score) + (1.0 - self.alpha) * ratio)[:, None]


class BiObjectiveFeatureSelection(FeatureSelectionProblem):
    """Bi-objective wrapper feature selection: minimise (error rate, selection ratio).

    ``F[:, 0] = 1 - acc`` is the inner-CV classification error rate of the mask and
    ``F[:, 1] = |S| / D`` the fraction of features selected.

    Parameters
    ----------
    evaluator : KNNEvaluator
        Scores masks on the training data.
    X_test, y_test : optional
        Hold-out test set (see :class:`FeatureSelectionProblem`).

    Notes
    -----
    Seed 003 (Nguyen et al. 2016, Eq. 5-6) minimises ErrorRate = (FP + FN) / (TP + TN + FP +
    FN) and FeatureRate = #selected / #all. The empty mask gets error 1.0, the worst value, so
    it is never preferred to a mask that classifies anything (an assumption: the seed is silent).

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
    array([[0.423, 0.017],
           [0.433, 0.017]])
    """

    def __init__(self, evaluator, X_test=None, y_test=None, **kwargs):
        super().__init__(evaluator, n_obj=2, X_test=X_test, y_test=y_test, **kwargs)

    def _objectives(self, score, masks):
        return np.column_stack([1.0 - score, masks.sum(axis=1) / self.n_var])


def as_masks(x, n_var):
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
    if not np.isin(x, (0, 1)).all():
        raise ValueError(
            "feature selection problems take boolean masks; decode continuous positions "
            "(e.g. x > threshold) before evaluation"
        )
    return x.astype(bool)
