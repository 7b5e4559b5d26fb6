"""LFS: linear forward selection (Gütlein et al. 2009) with Weka's defaults and a KNN wrapper."""

import numpy as np
from sklearn.utils.validation import validate_data

from pymoo_fs._validation import check_positive_int
from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.filters._base import SupportSelector
from pymoo_fs.filters.search import best_first_forward

__all__ = ["LFS"]


class LFS(SupportSelector):
    """Linear forward selection: a best-first wrapper search over the top-ranked features.

    Every feature is scored alone by the wrapper; the ``n_top`` best (in that order) are the
    only candidates of a best-first forward search that stops after ``max_stale``
    non-improving expansions (Weka ``LinearForwardSelection`` at its defaults: ranking on,
    fixed-set, k = 50, search termination 5).

    Parameters
    ----------
    n_neighbors : int, default=1
        k of the KNN wrapper (Tran et al. 2019 use 1-NN throughout [A]).
    cv : int, default=5
        Folds of the wrapper's stratified cross-validation (Weka ``WrapperSubsetEval``'s
        default; its folds are fixed for the whole search).
    random_state : int, default=1
        Seed of the folds (Weka's wrapper uses seed 1).
    n_top : int, default=50
        Number of top-ranked features the search may add (Weka ``-K 50``).
    max_stale : int, default=5
        Consecutive non-improving expansions before the search stops.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
        Selected features.
    ranking_ : ndarray of int64, shape (n_features_in_,)
        Features by decreasing wrapper score alone (equal scores keep the lower index first).
    merit_ : float
        Wrapper accuracy of the selected subset.
    n_subsets_evaluated_ : int
        Subsets scored by the wrapper (single features included).
    n_features_in_ : int

    Raises
    ------
    ValueError
        From :meth:`fit`, for invalid data or parameters (named in the message), or a class
        too small for ``cv`` folds.

    Notes
    -----
    The wrapper is the exact compiled KNN evaluator
    (:class:`~pymoo_fs.evaluation.KNNEvaluator`, Euclidean, accuracy, one stratified
    ``cv``-fold cross-validation). Weka's ``WrapperSubsetEval`` repeats the cross-validation up
    to five times while the spread of the estimates exceeds 1 %; one repetition is the
    spec's simplification [A]. The empty subset has merit 0 [A]. Deterministic.

    References
    ----------
    M. Gütlein, E. Frank, M. Hall, A. Karwath, "Large-scale attribute selection using wrappers",
    IEEE CIDM 2009, pp. 332-339. Weka package ``linearForwardSelection``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.filters import LFS
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 20)
    >>> X = np.column_stack([rng.random(40), y + 0.2 * rng.random(40), rng.random(40)])
    >>> LFS().fit(X, y).get_support().tolist()
    [False, True, False]
    """

    def __init__(self, n_neighbors=1, cv=5, random_state=1, n_top=50, max_stale=5):
        self.n_neighbors = n_neighbors
        self.cv = cv
        self.random_state = random_state
        self.n_top = n_top
        self.max_stale = max_stale

    def fit(self, X, y):
        """Rank the features by the wrapper, then search forward among the top ones.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training features, already scaled.
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : LFS
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        if np.unique(y).size < 2:
            raise ValueError("LFS needs at least two classes; y holds one class")
        n_top = check_positive_int("n_top", self.n_top)
        max_stale = check_positive_int("max_stale", self.max_stale)
        evaluator = KNNEvaluator(X, y, n_neighbors=self.n_neighbors, cv=self.cv,
                                 random_state=self.random_state, cache_size=0)
        D = X.shape[1]
        single = evaluator.score(np.eye(D, dtype=bool))
        self.ranking_ = np.argsort(-single, kind="stable").astype(np.int64)
        candidates = self.ranking_[:min(n_top, D)]

        def merits(group, added):
            children = np.repeat(group[None, :], added.size, axis=0)
            children[np.arange(added.size), added] = True
            return evaluator.score(children)

        self.support_, self.merit_, n_children = best_first_forward(
            merits, D, candidates=candidates, max_stale=max_stale)
        self.n_subsets_evaluated_ = D + n_children
        return self
