"""The exact KNN wrapper evaluator: cross-validated accuracy of feature subsets."""

import os

import numpy as np
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs._validation import check_choice, check_int, check_positive_int
from pymoo_fs.evaluation import _reference
from pymoo_fs.evaluation.base import Evaluator, check_float32_range

_SCORINGS = ("accuracy", "balanced_accuracy")
_BACKENDS = ("numba", "numpy")
_PRECISIONS = ("float64", "float32")
#: sorted nearest candidates kept per row for score_flips (scans rarely go past 40)
_FLIP_PREFIX = 64


class EvaluatorMemoryError(MemoryError):
    """The evaluator would need more memory than its ``memory_limit`` allows."""


class KNNEvaluator(Evaluator):
    """Exact inner cross-validation score of KNN on feature subsets (the wrapper fitness).

    For every boolean mask ``m`` over the features, :meth:`score` returns exactly::

        cross_val_score(KNeighborsClassifier(n_neighbors=k), X[:, m], y, cv=ev.folds).mean()

    (with ``scoring="balanced_accuracy"`` when ``scoring="balanced_accuracy"``), where ``X`` is
    the float64 copy held in :attr:`X`. It implements the
    :class:`~pymoo_fs.evaluation.Evaluator` contract. One squared-distance matrix per mask serves every fold: a
    sample's candidate neighbours are the training samples of its fold.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training data (already scaled), converted to a C-contiguous float64 array.
    y : array-like of shape (n_samples,)
        Class labels of any type; encoded internally as ``0 .. n_classes - 1`` in the order of
        ``np.unique(y)`` (scikit-learn's ``classes_`` order).
    n_neighbors : int, default=5
        ``k`` of KNN. Must not exceed the size of any fold's training part.
    cv : int, "loo", scikit-learn splitter or list of (train_idx, test_idx), default=10
        Inner cross-validation. An int gives ``StratifiedKFold(cv, shuffle=True,
        random_state=random_state)`` (a class smaller than ``cv`` gets scikit-learn's warning,
        and the split goes on); ``"loo"`` gives leave-one-out; a splitter object is asked for
        its splits once; a list of index-array pairs is used as given (each fold's training
        and test parts must be disjoint). The folds are fixed at construction and exposed as
        :attr:`folds` (see :func:`~pymoo_fs.evaluation.base.make_folds`).
    random_state : int or None, default=0
        Seed of the fold shuffling for an int ``cv``.
    scoring : {"accuracy", "balanced_accuracy"}, default="accuracy"
        Score of each fold: accuracy, or balanced accuracy (the mean per-class recall over the
        classes present in the fold's test part). The folds' scores are then averaged.
    cache_size : int, default=100000
        Maximum number of scores kept, keyed by the packed mask (least recently used evicted);
        0 disables the cache. Each entry costs about ``100 + n_features / 8`` bytes.
    memory_limit : int, optional
        Bytes the evaluator may use for its work arrays; default: half of the physical memory
        (4 GiB where it cannot be read). See Notes.
    n_threads : int, optional
        Worker threads; default: numba's thread count (the number of cores).
    backend : {"numba", "numpy"}, default="numba"
        The compiled kernels, or the plain-numpy reference implementation (slower; same
        scores).
    precision : {"float64", "float32"}, default="float64"
        Precision of the Gram products of :meth:`score` (compiled backend). float32 doubles
        the matrix-multiply throughput; its wider rounding band is certified in float64 (the
        band members' distances are recomputed exactly), so scores stay equal to
        scikit-learn's. :meth:`score_flips` and :meth:`holdout_score` always use float64.

    Attributes
    ----------
    X : ndarray of float64, shape (n_samples, n_features)
    y : ndarray of int64, shape (n_samples,)
        Encoded labels.
    classes : ndarray, shape (n_classes,)
        Original labels; ``classes[y]`` restores them.
    folds : list of (ndarray, ndarray)
        ``(train_idx, test_idx)`` int64 arrays of every fold.
    n_evaluations : int
        Number of masks whose score was actually computed.
    n_cache_hits : int
        Number of masks answered without computation: from the cache, as a repeat within one
        call, or because they are empty. ``n_evaluations + n_cache_hits`` is the number of
        masks asked for.

    Raises
    ------
    ValueError
        If ``X`` or ``y`` fails :func:`~pymoo_fs.evaluation.base.check_data` (e.g. values so
        large that squared distances overflow, labels mixing strings and numbers),
        ``n_neighbors`` is not a positive int or exceeds a fold's training part, ``cv`` is
        invalid (or every class is smaller than ``cv``), ``scoring``, ``backend``,
        ``precision``, ``cache_size``, ``n_threads`` or ``memory_limit`` is invalid, or
        ``precision="float32"`` cannot hold the squared distances of ``X``.
    EvaluatorMemoryError
        If the work arrays would exceed ``memory_limit`` (a subclass of ``MemoryError``).

    Notes
    -----
    **Exactness and ties.** scikit-learn keeps, among candidates at equal distance, the one met
    first, and a vote tie goes to the smallest class index (``argmax`` of the class counts).
    Which candidate is met first depends on its algorithm (brute force scans by index; a
    kd-tree, chosen for 15 or fewer selected features, scans in tree order), and its distances
    carry rounding errors of their own. This evaluator therefore certifies every prediction:
    with ``t`` the k-th nearest distance and ``E`` a rigorous bound of the difference between
    the two computations (Higham's dot-product bound), the vote cannot differ from
    scikit-learn's unless the band ``[t - 2E, t + 2E]`` holds candidates on both sides of the
    k-th place with different labels. Such rows (rare on continuous data, more frequent on
    discrete data) are predicted by scikit-learn itself on exactly the data ``cross_val_score``
    would use. Scores are therefore equal bit for bit; distances are float64 throughout.

    **Speed.** A batch of masks is scored in one compiled call, the masks shared among the
    threads, each computing its masks' Gram matrices with a single-threaded BLAS call
    (a ``?syrk`` of numpy's bundled OpenBLAS where found, else of scipy's BLAS; the
    environment variable ``PYMOO_FS_SCIPY_BLAS=1`` forces scipy's. BLAS is held to one thread
    for the call with threadpoolctl, so nothing is oversubscribed); a single mask splits its
    rows over the threads. :meth:`score_flips` updates one mask's distance matrix by a single
    column per flip. Kernels are compiled on first use and cached on disk; ``import pymoo_fs``
    compiles nothing.

    **Memory.** About ``n_threads * (n_samples^2 + n_samples * n_features)`` float64 values of
    work arrays for :meth:`score` (one distance matrix and one gathered copy of the selected
    columns per worker thread), ``n_samples^2 + 128 * R`` more for :meth:`score_flips` (``R``
    = number of rows of all test folds: ``n_samples`` for k-fold and leave-one-out), and four
    copies of the data (centred, transposed). This estimate (:attr:`memory_estimate`) is
    checked against ``memory_limit`` at construction.

    **Empty mask.** A mask selecting no feature scores 0.0 (KNN is undefined without features).

    **Balanced accuracy.** Seed 001 (Tran, Xue & Zhang, GECCO 2019, Eq. 7) averages per-fold
    balanced accuracies, as done here; the AMSO authors' code pools one confusion matrix over
    all folds instead.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.evaluation import KNNEvaluator
    >>> data = load_dataset("sonar")
    >>> ev = KNNEvaluator(data.X, data.y, n_neighbors=5, cv=5, random_state=0)
    >>> masks = np.zeros((2, data.n_features), dtype=bool)
    >>> masks[0, :10] = True
    >>> masks[1] = True
    >>> ev.score(masks).round(3)
    array([0.736, 0.807])
    >>> ev.score_flips(masks[0], features=[0, 10]).round(3)
    array([0.731, 0.745])
    """

    def __init__(self, X, y, n_neighbors=5, cv=10, random_state=0, scoring="accuracy",
                 cache_size=100_000, memory_limit=None, n_threads=None, backend="numba",
                 precision="float64"):
        self.n_neighbors = check_positive_int("n_neighbors", n_neighbors)
        self.scoring = self.metric = check_choice("scoring", scoring, _SCORINGS)
        self.backend = check_choice("backend", backend, _BACKENDS)
        self.precision = check_choice("precision", precision, _PRECISIONS)
        self.n_threads = None if n_threads is None else check_int("n_threads", n_threads, low=1)
        if memory_limit is not None and (isinstance(memory_limit, bool) or not isinstance(
                memory_limit, (int, float, np.integer, np.floating)) or not memory_limit > 0):
            raise ValueError(f"memory_limit must be a positive number of bytes, got "
                             f"{memory_limit!r}")
        super().__init__(X, y, cv, random_state, cache_size)
        if precision == "float32":
            check_float32_range(self.X)
        smallest = min(len(train) for train, _ in self.folds)
        if self.n_neighbors > smallest:
            raise ValueError(
                f"n_neighbors={self.n_neighbors} exceeds the training part of a fold "
                f"({smallest} samples)"
            )
        self.memory_limit = _default_memory_limit() if memory_limit is None else memory_limit
        self._build_fold_layout()
        self._check_memory()
        self.Xc = self.X - self.X.mean(axis=0)
        self._Xt = np.ascontiguousarray(self.X.T)
        self._Xct = np.ascontiguousarray(self.Xc.T)
        self._Xgt = self._Xct.astype(np.float32) if precision == "float32" else self._Xct
        self._raw = np.einsum("ij,ij->i", self.X, self.X)
        self._n_uncertified = 0  # rows predicted by scikit-learn (diagnostics and tests)

    # ------------------------------------------------------------------ properties
    @property
    def memory_estimate(self):
        """int: bytes of work arrays the evaluator may allocate (see Notes)."""
        n, D = self.X.shape
        threads = self._threads()
        return 8 * (threads * (n * n + n * D) + 4 * n * D + n * n
                     + 2 * _FLIP_PREFIX * self._rows.size)

    # ------------------------------------------------------------------ computation
    def _threads(self):
        if self.n_threads is not None:
            return self.n_threads
        import numba

        return numba.get_num_threads()

    def _compute(self, masks):
        """Scores of distinct non-empty masks (n, D)."""
        if self.backend == "numpy":
            pred = np.stack([self._predict_cv_reference(m) for m in masks])
        else:
            pred, amb = self._predict_cv_compiled(masks)
            for b in np.flatnonzero(amb.any(axis=1)):
                self._fix_cv_rows(pred[b], amb[b], self.X[:, masks[b]])
        return self._cv_scores(pred)

    def _predict_cv_compiled(self, masks):
        from pymoo_fs.evaluation import _kernels

        threads = self._threads()
        cols = [np.flatnonzero(m) for m in masks]
        with _parallel_context(threads):
            if len(cols) == 1:
                pred, amb = _kernels.cv_predict_one(
                    self._Xgt, self.Xc, self._raw, cols[0], self._cand, self._rows,
                    self._row_fold, self.y, self.n_neighbors, self.n_classes, threads,
                    _kernels.USE_NUMPY_BLAS)
                return pred[None, :], amb[None, :]
            ptr = np.zeros(len(cols) + 1, dtype=np.int64)
            ptr[1:] = np.cumsum([c.size for c in cols])
            return _kernels.cv_predict_batch(
                self._Xgt, self.Xc, self._raw, np.concatenate(cols), ptr, self._cand, self._rows,
                self._row_fold, self.y, self.n_neighbors, self.n_classes,
                min(threads, len(cols)), _kernels.USE_NUMPY_BLAS)

    def _compute_flips(self, mask, features, flipped):
        """Scores of one-feature flips of ``mask``, each from ``mask``'s distance matrix.

        Flipping feature ``f`` changes each squared distance by ``+-(x_f[i] - x_f[j])^2``, so
        every flip is answered from ``mask``'s distance matrix in O(n^2) at most, instead of
        O(n^2 |S|). Each row's candidates are sorted by base distance once; when adding a
        feature, distances only grow, so a row's scan stops once the base distance exceeds its
        current (k+1)-th best plus the rounding band; when removing one, distances shrink by
        at most the row's largest squared difference on that feature, which gives the same
        kind of exact stopping rule. This is the move of sequential forward/backward selection
        and of the local searches of ISRPSO and AMSO.
        """
        if self.backend == "numpy":
            return self._compute(flipped)
        from pymoo_fs.evaluation import _kernels

        threads = self._threads()
        with _parallel_context(threads):
            order, dist, complete, G, sq, raw = _kernels.flip_tables(
                self._Xct, self.X, np.flatnonzero(mask), self._cand, self._rows,
                self._row_fold, _FLIP_PREFIX, threads, _kernels.USE_NUMPY_BLAS)
            pred, amb = _kernels.flip_predict(
                self._Xt, self._Xct, features.astype(np.int64), ~mask[features], order, dist,
                complete, G, sq, raw, int(mask.sum()), self._cand, self._rows, self._row_fold,
                self.y, self.n_neighbors, self.n_classes)
        for b in np.flatnonzero(amb.any(axis=1)):
            self._fix_cv_rows(pred[b], amb[b], self.X[:, flipped[b]])
        return self._cv_scores(pred)

    def _predict_cv_reference(self, mask):
        """Certified CV predictions of one non-empty mask (numpy backend)."""
        Xs = self.X[:, mask]
        D, E = _reference.squared_distances(Xs)
        pred, ambiguous = _reference.knn_predict_rows(
            D[self._rows], E[self._rows], self._cand[self._row_fold], self.y, self.n_neighbors,
            self.n_classes,
        )
        if ambiguous.any():
            self._fix_cv_rows(pred, ambiguous, Xs)
        return pred

    def _fix_cv_rows(self, pred, ambiguous, Xs):
        """Replace uncertified predictions by scikit-learn's, fold by fold."""
        self._n_uncertified += int(ambiguous.sum())
        for f in np.unique(self._row_fold[ambiguous]):
            train, test = self.folds[f]
            knn = KNeighborsClassifier(n_neighbors=self.n_neighbors)
            lo, hi = self._bounds[f], self._bounds[f + 1]
            pred[lo:hi] = knn.fit(Xs[train], self.y[train]).predict(Xs[test])

    def _holdout_scores(self, masks, X_test, y_test):
        """``KNeighborsClassifier(k).fit(X[:, m], y).score(X_test[:, m], y_test)`` per mask.

        Balanced accuracy with ``scoring="balanced_accuracy"``; certified float64 predictions,
        scikit-learn's own for an uncertifiable test set.
        """
        codes = _encode_test_labels(y_test, self.classes)
        scores = np.empty(masks.shape[0])
        for i, mask in enumerate(masks):
            pred = self._predict_holdout(mask, X_test)
            scores[i] = _fold_score(pred == codes, codes, self.metric)[0]
        return scores

    def _predict_holdout(self, mask, X_test):
        Xs = self.X[:, mask]
        Qs = X_test[:, mask]
        D, E = _reference.squared_distances(Xs, Qs)
        cand = np.ones(D.shape, dtype=bool)
        pred, ambiguous = _reference.knn_predict_rows(
            D, E, cand, self.y, self.n_neighbors, self.n_classes
        )
        if ambiguous.any():
            self._n_uncertified += int(ambiguous.sum())
            knn = KNeighborsClassifier(n_neighbors=self.n_neighbors)
            pred = knn.fit(Xs, self.y).predict(Qs)
        return pred

    def _cv_scores(self, pred):
        """Mean fold score of each row of ``pred`` (n_masks, n_rows), as scikit-learn."""
        correct = pred == self._row_labels
        if self.metric == "accuracy":
            hits = np.add.reduceat(correct, self._bounds[:-1], axis=1)
            return (hits / self._fold_sizes).mean(axis=1)
        counts = correct.astype(np.float64) @ self._onehot  # (B, n_folds * n_classes)
        fold_scores = np.empty((pred.shape[0], len(self.folds)))
        for n_present, (folds, groups) in self._balanced_groups.items():
            recalls = counts[:, groups] / self._group_sizes[groups]
            fold_scores[:, folds] = recalls.reshape(pred.shape[0], folds.size, n_present).mean(
                axis=2)
        return fold_scores.mean(axis=1)

    # ------------------------------------------------------------------ set-up
    def _build_fold_layout(self):
        """Concatenate the folds' test rows; mark each fold's training part."""
        tests = [test for _, test in self.folds]
        n_folds = len(self.folds)
        self._rows = np.concatenate(tests)
        self._row_fold = np.repeat(np.arange(n_folds), [t.size for t in tests])
        self._bounds = np.cumsum([0] + [t.size for t in tests])
        self._fold_sizes = np.diff(self._bounds)
        cand = np.zeros((n_folds, self.n_samples), dtype=bool)
        for f, (train, _) in enumerate(self.folds):
            cand[f, train] = True
        self._cand = cand
        self._row_labels = self.y[self._rows]
        if self.metric == "balanced_accuracy":
            C = self.n_classes
            group = self._row_fold * C + self._row_labels
            self._onehot = np.zeros((self._rows.size, n_folds * C))
            self._onehot[np.arange(self._rows.size), group] = 1.0
            self._group_sizes = self._onehot.sum(axis=0)
            by_count = {}
            for f in range(n_folds):
                present = np.flatnonzero(self._group_sizes[f * C:(f + 1) * C])
                by_count.setdefault(present.size, ([], []))
                by_count[present.size][0].append(f)
                by_count[present.size][1].extend(f * C + present)
            self._balanced_groups = {c: (np.array(fs), np.array(gs))
                                     for c, (fs, gs) in by_count.items()}

    def _check_memory(self):
        need = self.memory_estimate
        if need > self.memory_limit:
            raise EvaluatorMemoryError(
                f"the evaluator needs about {need / 2**30:.2f} GiB of work arrays for "
                f"{self.n_samples} samples x {self.n_features} features "
                f"({self._threads()} threads), more than memory_limit="
                f"{self.memory_limit / 2**30:.2f} GiB; raise memory_limit, use fewer threads "
                f"(n_threads) or fewer training samples"
            )


class _parallel_context:
    """Set numba's thread count and hold BLAS to one thread for one call.

    All parallelism comes from numba. A multi-threaded BLAS call inside a kernel was measured
    to slow the kernel's parallel loops several-fold: OpenBLAS's workers keep spinning after
    the call and compete with numba's threads.
    """

    _controller = None

    def __init__(self, threads):
        self.threads = threads

    def __enter__(self):
        import numba
        from threadpoolctl import ThreadpoolController

        if _parallel_context._controller is None:
            _parallel_context._controller = ThreadpoolController()
        self._numba_before = numba.get_num_threads()
        numba.set_num_threads(min(self.threads, numba.config.NUMBA_NUM_THREADS))
        self._limit = _parallel_context._controller.limit(limits=1, user_api="blas")
        self._limit.__enter__()
        return self

    def __exit__(self, *exc):
        import numba

        self._limit.__exit__(*exc)
        numba.set_num_threads(self._numba_before)
        return False


def _default_memory_limit():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def _fold_score(correct, labels, metric):
    """Accuracy or balanced accuracy of one fold, exactly as scikit-learn computes it.

    ``correct`` is (n_test,) or (n_masks, n_test) bool; ``labels`` (n_test,) encoded labels (-1
    for labels unseen in training).
    """
    correct = np.atleast_2d(correct)
    if metric == "accuracy":
        return correct.mean(axis=1)
    present = np.unique(labels)
    recalls = np.stack(
        [correct[:, labels == c].sum(axis=1) / np.count_nonzero(labels == c) for c in present],
        axis=1,
    )
    return recalls.mean(axis=1)


def _encode_test_labels(y_test, classes):
    pos = np.searchsorted(classes, y_test)
    pos = np.clip(pos, 0, classes.size - 1)
    known = classes[pos] == y_test
    return np.where(known, pos, -1).astype(np.int64)
