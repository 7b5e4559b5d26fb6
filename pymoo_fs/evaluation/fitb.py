"""FIT-B of AMSO (Tran et al. 2019): balanced 1-NN accuracy plus a class-distance term."""

import math
import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn.metrics import accuracy_score, balanced_accuracy_score

from pymoo_fs._validation import check_choice, check_int, check_positive_int, check_unit_interval
from pymoo_fs.evaluation.base import CrossValidatedEvaluator, check_data

__all__ = ["FitBEvaluator", "block_folds"]

_DEFAULT_MEMORY = 256 * 2 ** 20
_MAX_STORE = 1024


def block_folds(y: ArrayLike, n_folds: int = 10, order: str = "stratified",
                random_state: int | None = 0) -> list[tuple[np.ndarray, np.ndarray]]:
    """Inner folds of FIT-B: contiguous blocks of the training instances (the AMSO code).

    Parameters
    ----------
    y : array-like, shape (n,)
        Class labels of the training instances.
    n_folds : int, default=10
        Number of blocks; block ``k`` holds positions ``floor(k n / n_folds)`` to
        ``floor((k + 1) n / n_folds) - 1`` of the order [P: AMSO code
        ``CalculateDistanceAndmFCVBalAcckNN``].
    order : {"stratified", "given"}, default="stratified"
        ``"given"`` cuts the instances in the order given. ``"stratified"`` first shuffles them
        with ``random_state``, groups them by class (in order of first appearance) and deals
        them out with step ``n_folds`` (Weka's ``randomize`` then ``stratify``), so that each
        block is stratified: the AMSO code cuts a training set that Weka has already
        randomised and stratified [A: how it reached that order is Weka's outer split].
    random_state : int or None, default=0
        Seed of the shuffle (``order="stratified"``).

    Returns
    -------
    folds : list of (ndarray, ndarray)
        ``(train_idx, test_idx)`` of each block, sorted int64 indices; every instance is in
        exactly one test part.

    Raises
    ------
    ValueError
        If ``n_folds`` is not an int in ``[2, n]`` or ``order`` is unknown.

    Examples
    --------
    >>> from pymoo_fs.evaluation import block_folds
    >>> [test.tolist() for _, test in block_folds([0, 0, 0, 1, 1, 1], 3, order="given")]
    [[0, 1], [2, 3], [4, 5]]
    >>> [sorted(set([0, 0, 0, 1, 1, 1][i] for i in test))
    ...  for _, test in block_folds([0, 0, 0, 1, 1, 1], 3)]
    [[0, 1], [0, 1], [0, 1]]
    """
    y = np.asarray(y).ravel()
    n = y.size
    n_folds = check_int("n_folds", n_folds, low=2, high=max(n, 2))
    order = check_choice("order", order, ("stratified", "given"))
    if order == "given":
        sequence = np.arange(n)
    else:
        perm = np.random.default_rng(random_state).permutation(n)
        codes = np.unique(y[perm], return_inverse=True)[1].reshape(-1)
        first_seen = np.unique(codes, return_index=True)[1]
        rank = np.empty_like(first_seen)
        rank[np.argsort(first_seen)] = np.arange(first_seen.size)
        grouped = perm[np.argsort(rank[codes], kind="stable")]
        sequence = np.concatenate([grouped[start::n_folds] for start in range(n_folds)])
    bounds = [k * n // n_folds for k in range(n_folds + 1)]
    folds = []
    for k in range(n_folds):
        test = np.sort(sequence[bounds[k]:bounds[k + 1]])
        train = np.setdiff1d(np.arange(n), test)
        folds.append((train.astype(np.int64), test.astype(np.int64)))
    return folds


class FitBEvaluator(CrossValidatedEvaluator):
    """FIT-B of feature subsets, exactly, with incremental distance matrices.

    For a mask ``S``, :meth:`score` returns ``mu * BalAcc + (1 - mu) * Distance`` [Tran et al. 2019,
    Eq. 6]:

    - ``BalAcc``: balanced accuracy (mean recall over the classes) of 1-NN across the inner
      folds, with the Manhattan distance over ``S`` [Tran et al. 2019, Eq. 7, 11];
    - ``Distance = 1 / (1 + exp(-5 (D_b - D_w)))`` [Eq. 8], ``D_b`` the mean over instances of
      the distance to the nearest instance of another class, ``D_w`` the mean distance to the
      farthest instance of the same class [Eq. 9-10].

    It implements the :class:`~pymoo_fs.evaluation.Evaluator` contract (cache, counters,
    :meth:`score_flips`, :meth:`holdout_score`).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training data, scaled (min-max to [0, 1] in Tran et al. 2019).
    y : array-like of shape (n_samples,)
        Class labels.
    mu : float, default=0.8
        Weight of the balanced accuracy [Tran et al. 2019, Tab. 2].
    n_folds : int, default=10
        Inner folds (see :func:`block_folds`).
    fold_order : {"stratified", "given"}, default="stratified"
        Order in which the blocks are cut (see :func:`block_folds`) [A].
    random_state : int or None, default=0
        Seed of the stratified order.
    balanced_accuracy : {"pooled", "per_fold"}, default="pooled"
        ``"pooled"``: one confusion matrix over all folds, the AMSO code
        (``MyClassifier.unbalanceAcc``); ``"per_fold"``: the mean of the folds' balanced
        accuracies, the paper's Eq. 7 [P-code≠paper]. A class absent from a fold's test part
        is skipped in that fold.
    distance : {"averaged", "sum"}, default="averaged"
        ``"averaged"``: Manhattan distance divided by the number of selected features, the AMSO
        code; ``"sum"``: the plain sum of Eq. 11 [P-code≠paper]. The 1-NN decisions are the
        same; the Distance term differs.
    test_metric : {"euclidean", "manhattan"}, default="euclidean"
        Distance of the 1-NN of :meth:`holdout_score`; the paper's test classifier is KNN with
        K = 1 (Weka's IB1, Euclidean) [A].
    test_scoring : {"accuracy", "balanced_accuracy"}, default="accuracy"
        Score of :meth:`holdout_score`: the paper reports accuracy, its code balanced accuracy.
    cache_size : int, default=100000
        Scores kept, keyed by the packed mask (0 disables the cache).
    memory_limit : int, optional
        Bytes for the stored distance matrices (default 256 MiB; at most 1024 matrices).

    Attributes
    ----------
    X, y, classes, folds, n_evaluations, n_cache_hits
        See :class:`~pymoo_fs.evaluation.Evaluator`.
    fold_of : ndarray of int64, shape (n_samples,)
        Inner fold of each training instance.
    step : float
        Quantisation step of the data (see Notes).
    n_columns_updated : int
        Columns added or removed in distance matrices so far (the work done; a from-scratch
        matrix of ``k`` features counts ``k``).

    Raises
    ------
    ValueError
        For invalid data or a parameter outside its domain (named in the message).

    Notes
    -----
    **Exact and incremental.** The data are rounded to a grid of ``step = range / 2^32``
    (``range`` the spread of all values; fewer bits when ``n_samples * n_features`` is so large
    that int64 sums could overflow), so every Manhattan distance is an exact int64 sum and a
    distance matrix can be updated column by column: adding or removing a feature adds or
    subtracts its column's contributions, and the result equals the matrix computed from
    scratch bit for bit. The rounding changes no per-feature difference by more than
    ``step``. The evaluator keeps the matrices of recent masks; a new mask starts from the
    stored matrix nearest in Hamming distance when that costs fewer columns than computing it
    from scratch. :meth:`score_flips` scores one-feature flips without building their
    matrices. Nearest neighbours: candidates are the instances of the other folds; equal
    distances go to the lowest index (our assumption [A]; the AMSO code's list keeps the second of
    two equal nearest). ``D_b`` and ``D_w`` follow Eq. 9-10 (the code caps ``D_b``'s per-instance
    minimum at 1, which per-feature-averaged distances of [0, 1] data never exceed).

    **Empty mask.** Scores 0.0, the worst fitness [AMSO code].

    References
    ----------
    B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
    high-dimensional classification", GECCO 2019, Eq. 6-11. Authors' code: GitHub
    ``tnbinh/AMSO``, ``AMSOFeatureselection.CalculateDistanceAndmFCVBalAcckNN``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.evaluation import FitBEvaluator
    >>> data = load_dataset("sonar")
    >>> ev = FitBEvaluator(data.X, data.y)
    >>> mask = np.zeros(data.n_features, dtype=bool)
    >>> mask[:10] = True
    >>> ev.score(mask).round(4)
    array([0.5615])
    >>> bool(ev.score_flips(mask, [3])[0] == ev.score(mask ^ (np.arange(60) == 3))[0])
    True
    """

    def __init__(self, X: ArrayLike, y: ArrayLike, mu: float = 0.8, n_folds: int = 10,
                 fold_order: str = "stratified", random_state: int | None = 0,
                 balanced_accuracy: str = "pooled", distance: str = "averaged",
                 test_metric: str = "euclidean", test_scoring: str = "accuracy",
                 cache_size: int = 100000, memory_limit: int | None = None) -> None:
        self.mu = check_unit_interval("mu", mu)
        self.balanced_accuracy = check_choice("balanced_accuracy", balanced_accuracy,
                                              ("pooled", "per_fold"))
        self.distance = check_choice("distance", distance, ("averaged", "sum"))
        self.test_metric = check_choice("test_metric", test_metric, ("euclidean", "manhattan"))
        self.test_scoring = check_choice("test_scoring", test_scoring,
                                         ("accuracy", "balanced_accuracy"))
        memory_limit = (_DEFAULT_MEMORY if memory_limit is None
                        else check_positive_int("memory_limit", memory_limit))
        _, codes, _ = check_data(X, y)
        folds = block_folds(codes, n_folds, fold_order, random_state)
        super().__init__(X, y, cv=folds, random_state=None, cache_size=cache_size)
        self.n_folds, self.fold_order, self.fold_seed = n_folds, fold_order, random_state
        self.fold_of = np.empty(self.n_samples, dtype=np.int64)
        for f, (_, test) in enumerate(self.folds):
            self.fold_of[test] = f
        self.step, self._q_t = _quantise(self.X)
        n = self.n_samples
        self._capacity = int(max(1, min(_MAX_STORE, memory_limit // (8 * n * n))))
        self._words = (self.n_features + 63) // 64
        self._keys = np.zeros((self._capacity, self._words), dtype=np.uint64)
        self._stamps = np.zeros(self._capacity, dtype=np.int64)
        self._masks = np.zeros((self._capacity, self.n_features), dtype=bool)
        self._counts = np.bincount(self.y, minlength=self.n_classes)
        self._present = self._counts > 0
        self._matrices = np.empty((self._capacity, n, n), dtype=np.int64)
        self._zeros = np.zeros(n, dtype=np.int64)
        self._n_stored = 0
        self._last = 0
        self._hints = []
        self._clock = 0
        self.n_columns_updated = 0

    # ------------------------------------------------------------------ the contract
    def _compute(self, masks):
        out = np.empty(masks.shape[0])
        hints = self._hints
        self._hints = []
        kernels = _kernels()
        for i, m in enumerate(masks):
            (slot, self._n_stored, self._clock, n_columns, *stats) = kernels.locate_evaluate(
                self._matrices, self._keys, self._masks, self._stamps, self._n_stored,
                self._clock, hints[i] if i < len(hints) else self._last, self._q_t, m,
                self._zeros, self.y, self.fold_of, self.n_classes)
            self.n_columns_updated += n_columns
            self._last = slot
            self._hints.append(slot)
            out[i] = self._fitness(*stats, int(np.count_nonzero(m)))
        return out

    def _compute_flips(self, mask, features):
        M = self._matrices[self._matrix(mask, self._last)]
        k = int(np.count_nonzero(mask))
        out = np.empty(features.size)
        for i, f in enumerate(features):
            sign = -1 if mask[f] else 1
            stats = _kernels().evaluate(M, self._q_t[f], sign, self.y, self.fold_of,
                                     self.n_classes)
            out[i] = self._fitness(*stats, k + sign) if k + sign else 0.0
        self.n_columns_updated += features.size
        return out

    def _holdout_scores(self, masks, X_test, y_test):
        labels = self.classes[self.y]
        score = accuracy_score if self.test_scoring == "accuracy" else balanced_accuracy_score
        out = np.empty(masks.shape[0])
        from sklearn.neighbors import KNeighborsClassifier

        for i, m in enumerate(masks):
            knn = KNeighborsClassifier(n_neighbors=1, metric=self.test_metric,
                                       algorithm="brute").fit(self.X[:, m], labels)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                out[i] = score(y_test, knn.predict(X_test[:, m]))
        return out

    def clear_cache(self):
        """Forget all cached scores and stored distance matrices (the counters are kept)."""
        super().clear_cache()
        self._n_stored = self._last = 0
        self._hints = []

    # ------------------------------------------------------------------ pieces
    def _fitness(self, pred, correct, total_other, total_same, k):
        """FIT-B of a subset of ``k`` features from the kernels' statistics."""
        if self.balanced_accuracy == "pooled":
            acc = np.mean(correct[self._present] / self._counts[self._present])
        else:
            acc = np.mean([_balanced_accuracy(self.y[test], pred[test], self.n_classes)
                           for _, test in self.folds])
        scale = self.step / k if self.distance == "averaged" else self.step
        n = self.n_samples
        d_b = float(total_other) * scale / n
        d_w = float(total_same) * scale / n
        return self.mu * float(acc) + (1.0 - self.mu) / (1.0 + np.exp(-5.0 * (d_b - d_w)))

    def _matrix(self, mask, hint):
        """Slot of the L1 matrix of ``mask``: stored, updated from the nearest stored one, or new.

        ``hint`` is the slot compared first (the same position of the last batch, or the last
        matrix used): a close first match makes the scan of the others short
        (:func:`~pymoo_fs.evaluation._fitb_kernels.locate`).
        """
        slot, self._n_stored, self._clock, n_columns = _kernels().locate(
            self._matrices, self._keys, self._masks, self._stamps, self._n_stored, self._clock,
            hint, self._q_t, mask)
        self.n_columns_updated += n_columns
        self._last = slot
        return slot


def _kernels():
    """The FIT-B kernels' module, imported on first use (it imports numba, which importing
    :mod:`pymoo_fs.evaluation` does not)."""
    from pymoo_fs.evaluation import _fitb_kernels

    return _fitb_kernels


def _quantise(X):
    """Integer grid of the data: ``(step, Q^T)`` with ``Q = rint((X - min) / step)``."""
    n, D = X.shape
    low, high = float(X.min()), float(X.max())
    span = high - low if high > low else 1.0
    bits = min(32, 62 - math.ceil(math.log2(max(n * D, 2))))
    step = span / 2.0 ** bits
    Q = np.rint((X - low) / step).astype(np.int64)
    return step, np.ascontiguousarray(Q.T)


def _balanced_accuracy(y, pred, n_classes):
    """Mean recall over the classes present in ``y`` (scikit-learn's operations)."""
    counts = np.bincount(y, minlength=n_classes)
    correct = np.bincount(y[pred == y], minlength=n_classes)
    present = counts > 0
    return np.mean(correct[present] / counts[present])
