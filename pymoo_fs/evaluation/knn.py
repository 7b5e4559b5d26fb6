"""The exact KNN wrapper evaluator: cross-validated accuracy of feature subsets."""

import os

import numpy as np
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs._validation import check_choice, check_int, check_positive_int
from pymoo_fs.evaluation import _exact, _reference
from pymoo_fs.evaluation.base import Evaluator, check_float32_range, flip_rows

_SCORINGS = ("accuracy", "balanced_accuracy")
_BACKENDS = ("numba", "numpy")
_PRECISIONS = ("auto", "float64", "float32")
#: precision="auto" leaves float32 once this fraction of the rows scored needed their float32
#: rounding band re-measured in float64 (and were then certified)...
_AUTO_REFINED = 0.02
#: ...counted over at least this many masks' worth of rows
_AUTO_MIN_MASKS = 4
#: sorted nearest candidates kept per row for score_flips (scans rarely go past 40)
_FLIP_PREFIX = 64
#: most Gram matrices kept for incremental updates
_MAX_POOL_SLOTS = 64
#: with float32 products, most float64 matrices kept for score_flips (a local search moves
#: from a scored mask to a neighbour and scores its flips: a few bases at a time)
_FLIP_POOL_SLOTS = 4
#: default bytes for kept Gram matrices (at most; and at most half of what memory_limit leaves)
_DEFAULT_POOL_MEMORY = 2**30
#: an update of |delta| columns costs about 2 |delta| + overhead columns from scratch (GEMM on
#: full rows: twice the flops of SYRK per column; plus moving the kept matrix, which costs
#: little while it fits in cache and about as much as 16 columns from scratch beyond, measured
#: on mfeat-sized matrices)
_UPDATE_OVERHEAD = (8, 16)
_CACHE_BYTES = 4 * 2**20
#: a chain of updates is recomputed once its error bound exceeds this many fresh bounds
_CHAIN_LIMIT = 16.0
_U64 = np.finfo(np.float64).eps / 2
_U32 = float(np.finfo(np.float32).eps) / 2
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


class EvaluatorMemoryError(MemoryError):
    """The evaluator would need more memory than its ``memory_limit`` allows."""


class KNNEvaluator(Evaluator):
    """Exact inner cross-validation score of KNN on feature subsets (the wrapper fitness).

    For every boolean mask ``m`` over the features, :meth:`score` returns exactly::

        cross_val_score(KNeighborsClassifier(n_neighbors=k), X[:, m], y, cv=ev.folds).mean()

    (with ``scoring="balanced_accuracy"`` when ``scoring="balanced_accuracy"``), where ``X`` is
    the float64 copy held in :attr:`X`. It implements the
    :class:`~pymoo_fs.evaluation.Evaluator` contract. One squared-distance matrix per mask
    serves every fold: a sample's candidate neighbours are the training samples of its fold.

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
    precision : {"auto", "float64", "float32"}, default="auto"
        Precision of the Gram products of :meth:`score` (compiled backend); the scores are
        scikit-learn's in every case. float32 doubles the matrix-multiply throughput; its
        wider rounding band is certified in float64 (the band members' distances are
        recomputed exactly). ``"auto"`` starts in float32 (float64 where float32 cannot hold
        the squared distances of ``X``) and moves to float64 for good once more than 2 % of
        the rows scored needed that float64 re-measurement (data whose row norms span orders of
        magnitude, where float32 measured up to 4x slower); :attr:`gram_precision` tells which
        is in use. :meth:`score_flips` and :meth:`holdout_score` always use float64.
    incremental : bool, default=True
        Keep the Gram matrices of recently scored masks and build a new mask's matrix from the
        nearest kept one (fewest differing features) when that is cheaper, in the precision of
        the products. Scores are the same either way; see Notes.
    pool_memory : int, optional
        Bytes for the kept matrices (``b n_samples^2 + 32 n_samples`` each, b = 4 bytes in
        float32 and 8 in float64, at most 64);
        default: 1 GiB or half of what ``memory_limit`` leaves, whichever is smaller. Fewer
        than two matrices' worth turns the incremental path off.

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
    gram_precision : str
        ``"float32"`` or ``"float64"``: the precision of the Gram products now.
    n_kept_matrices : int
        Gram matrices kept for incremental updates now.

    Raises
    ------
    ValueError
        If ``X`` or ``y`` fails :func:`~pymoo_fs.evaluation.base.check_data` (e.g. values so
        large that squared distances overflow, labels mixing strings and numbers),
        ``n_neighbors`` is not a positive int or exceeds a fold's training part, ``cv`` is
        invalid (or every class is smaller than ``cv``), ``scoring``, ``backend``,
        ``precision``, ``cache_size``, ``n_threads``, ``memory_limit``, ``incremental`` or
        ``pool_memory`` is invalid, or
        ``precision="float32"`` cannot hold the squared distances of ``X``.
    EvaluatorMemoryError
        If the work arrays would exceed ``memory_limit`` (a subclass of ``MemoryError``).

    Notes
    -----
    **Exactness and ties.** scikit-learn keeps, among candidates at equal distance, the one met
    first, and a vote tie goes to the smallest class index (``argmax`` of the class counts).
    Which candidate is met first depends on its algorithm (brute force scans by index in
    chunks; a kd-tree, chosen for 15 or fewer selected features, scans in tree order), and its
    distances carry rounding errors of their own. This evaluator therefore certifies every
    prediction: each candidate's distance lies within a rigorous bound ``E`` of scikit-learn's
    (Higham's dot-product bound, per pair of rows, so rows whose norms differ by orders of
    magnitude keep tight bounds), and the vote cannot differ from scikit-learn's unless the
    candidates whose intervals straddle the k-th place carry different labels. Such rows (rare
    on continuous data, more frequent on discrete data) are settled by replaying
    scikit-learn's own arithmetic for them in compiled code: for brute force the same
    operands, BLAS calls (scipy's ``ddot`` and ``dgemm``), chunks, sum order and heap; for the
    kd-tree the same reduced distances and, where exact ties straddle the k-th place, the
    same tree build and traversal. The replay is verified against
    scikit-learn once per process (:mod:`pymoo_fs.evaluation._exact`); where it is not, the
    fold is predicted by scikit-learn as a whole. Scores are therefore equal bit for bit.

    **Incremental matrices.** With ``incremental=True`` the Gram matrices of recent masks are
    kept (least recently used evicted, within ``pool_memory``). A new mask whose nearest kept
    mask differs in ``h`` features, with ``2 h + 8`` fewer than its own size, gets its matrix
    as ``G_kept + A_add^T A_add - A_removed^T A_removed`` (one GEMM per panel of rows, cost
    ``n^2 h`` instead of ``n^2 |S| / 2``). The certification bounds the rounding error the chain
    of updates accumulates (a coefficient that grows by ``gamma_{h+4}`` per update, relative to
    row norms over every feature the chain touched); a chain whose bound would exceed 16 times
    that of a fresh computation is recomputed from scratch. Algorithms need do nothing: the
    nearest kept mask is found by Hamming distance at every call, which serves a swarm's
    particles (each near its previous position), :meth:`score_flips` and local searches alike.

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
                 precision="auto", incremental=True, pool_memory=None):
        self.n_neighbors = check_positive_int("n_neighbors", n_neighbors)
        self.scoring = self.metric = check_choice("scoring", scoring, _SCORINGS)
        self.backend = check_choice("backend", backend, _BACKENDS)
        self.precision = check_choice("precision", precision, _PRECISIONS)
        self.n_threads = None if n_threads is None else check_int("n_threads", n_threads, low=1)
        self.memory_limit = _check_bytes("memory_limit", memory_limit)
        if not isinstance(incremental, (bool, np.bool_)):
            raise ValueError(f"incremental must be True or False, got {incremental!r}")
        self.incremental = bool(incremental)
        self.pool_memory = _check_bytes("pool_memory", pool_memory, zero=True)
        super().__init__(X, y, cv, random_state, cache_size)
        if precision == "float32":
            check_float32_range(self.X)
        self._single = precision == "float32" or (precision == "auto"
                                                  and _float32_holds(self.X))
        self._auto_rows = 0  # rows scored in float32 under precision="auto"...
        self._auto_refined = 0  # ...and those float64 had to settle
        smallest = min(len(train) for train, _ in self.folds)
        if self.n_neighbors > smallest:
            raise ValueError(
                f"n_neighbors={self.n_neighbors} exceeds the training part of a fold "
                f"({smallest} samples)"
            )
        if self.memory_limit is None:
            self.memory_limit = _default_memory_limit()
        self._build_fold_layout()
        self._kept, self._flip_kept = self._make_kept()
        self._check_memory()
        self.Xc = self.X - self.X.mean(axis=0)
        self._Xt = np.ascontiguousarray(self.X.T)
        self._Xct = np.ascontiguousarray(self.Xc.T)
        self._Xgt = self._Xct.astype(np.float32) if self._single else self._Xct
        self._raw = np.einsum("ij,ij->i", self.X, self.X)
        self._n_uncertified = 0  # rows the bound could not certify (diagnostics and tests)
        self._n_sklearn_rows = 0  # rows predicted by scikit-learn itself
        self._n_updates = 0  # matrices built by an update (diagnostics and tests)
        self._n_scratch = 0  # matrices built from scratch
        self._seeds = None  # each CV row's nearest candidates under an earlier mask

    # ------------------------------------------------------------------ properties
    @property
    def memory_estimate(self):
        """int: bytes of work arrays the evaluator may allocate (see Notes)."""
        return self._memory_without_pool() + sum(k.nbytes for k in self._kept_pools())

    @property
    def gram_precision(self):
        """str: ``"float32"`` or ``"float64"``, the precision the Gram products use now (with
        ``precision="auto"`` it starts at float32 and may move to float64 for good)."""
        return "float32" if self._single else "float64"

    @property
    def n_kept_matrices(self):
        """int: how many Gram matrices are kept for incremental updates now."""
        return sum(k.n_used for k in self._kept_pools())

    def clear_cache(self):
        """Forget all cached scores, kept Gram matrices and row seeds (the counters are kept)."""
        super().clear_cache()
        for kept in self._kept_pools():
            kept.clear()
        self._seeds = None

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
            pred = self._predict_cv_compiled(masks)
        return self._cv_scores(pred)

    def _predict_cv_compiled(self, masks):
        from pymoo_fs.evaluation import _kernels

        threads = self._threads()
        folds = self._kernel_folds()
        plan, commit = self._plan(masks, self._kept)
        data = self._data()
        with _parallel_context(threads):
            seeds = self._row_seeds(threads)
            if masks.shape[0] == 1:
                pred, unc, n_unc = _kernels.cv_predict_one(
                    data, folds, self._kept.arrays(), plan, threads, seeds[0],
                    _kernels.USE_NUMPY_BLAS)
                pred, unc = pred[None, :], unc[None, :]
            else:
                pred, unc, n_unc = _kernels.cv_predict_batch(
                    data, folds, self._kept.arrays(), plan, min(threads, masks.shape[0]),
                    True, seeds, _kernels.USE_NUMPY_BLAS)
        commit()
        if self.precision == "auto" and self._single:
            self._auto_check(n_unc)
        self._settle(pred, unc, n_unc, masks, folds)
        return pred

    def _auto_check(self, n_unc):
        """``precision="auto"``: move to float64 for good once float32's rounding band sends
        more than :data:`_AUTO_REFINED` of the rows to a float64 re-measurement that settles
        them (heavy-tailed data: a row's band grows with the largest row norms). Rows left
        uncertified either way (exact ties) do not count. Only the speed depends on this."""
        seeds = self._seeds
        refined = int(seeds[:, :, -1].sum())
        self._auto_rows += n_unc.size * self._rows.size
        self._auto_refined += refined - self._refined_seen - int(n_unc.sum())
        self._refined_seen = refined
        if (self._auto_rows >= _AUTO_MIN_MASKS * self._rows.size
                and self._auto_refined > _AUTO_REFINED * self._auto_rows):
            self._single = False
            self._Xgt = self._Xct
            # the kept float32 matrices go; float64 ones serve batches and flips from now
            self._kept, self._flip_kept = self._make_kept()

    def _row_seeds(self, threads):
        """Per thread, each CV row's k + 1 nearest candidates under an earlier mask (int64,
        (threads, n_rows, k + 2), -1 = none yet): the kernels' scan skips every candidate
        farther than these (see ``_kernels._predict_rows``; the scores never depend on them).
        The last column counts the row's float32 bands re-measured in float64."""
        if self._seeds is None or self._seeds.shape[0] < threads:
            self._seeds = np.full((threads, self._rows.size, self.n_neighbors + 2), -1,
                                  dtype=np.int64)
            self._seeds[:, :, -1] = 0
            self._refined_seen = 0
        return self._seeds

    def _compute_flips(self, mask, features):
        """Scores of one-feature flips of ``mask``, each from ``mask``'s Gram matrix.

        Flipping feature ``f`` changes each squared distance by ``+-(x_f[i] - x_f[j])^2``, so
        every flip is answered from ``mask``'s Gram matrix in O(n^2) at most, instead of
        O(n^2 |S|). The base matrix is the kept one when ``mask`` was scored or flipped before
        (else it is built, by an update where cheaper, and kept). Each row's candidates are
        sorted by base distance once; when adding a feature, distances only grow, so a row's
        scan stops once the base distance exceeds its current (k+1)-th best plus the rounding
        band; when removing one, distances shrink by at most the row's largest squared
        difference on that feature, which gives the same kind of exact stopping rule. This is
        the move of sequential forward/backward selection and of the local searches of ISRPSO
        and AMSO.
        """
        if self.backend == "numpy":
            return self._compute(flip_rows(mask, features))
        from pymoo_fs.evaluation import _kernels

        threads = self._threads()
        folds = self._kernel_folds()
        G, sq, m2, r2, eps = self._base_matrix(mask)
        cols = np.flatnonzero(mask)
        with _parallel_context(threads):
            order, dist, complete = _kernels.flip_tables(G, sq, folds, _FLIP_PREFIX, threads)
            pred, unc, n_unc = _kernels.flip_predict(
                self._data(float64=True), folds, G, sq, m2, r2, eps, cols,
                features.astype(np.int64), order, dist, complete, 4 * threads)
        # the flipped masks are built only when some row needs the exact path (rare)
        self._settle(pred, unc, n_unc, flip_rows(mask, features) if n_unc.any() else None,
                     folds)
        return self._cv_scores(pred)

    # ------------------------------------------------------------------ kept matrices
    def _make_kept(self):
        """The kept matrices of :meth:`score` (in the Gram products' precision) and of
        :meth:`score_flips` (float64): one pool, or with float32 products a float64 one of at
        most :data:`_FLIP_POOL_SLOTS` for the flips and a float32 one with the rest."""
        n, D = self.X.shape
        if not self.incremental or self.backend == "numpy":
            budget = 0
        elif self.pool_memory is None:
            left = self.memory_limit - self._memory_without_pool()
            budget = min(_DEFAULT_POOL_MEMORY, max(0, left) // 2)
        else:
            budget = self.pool_memory

        def slots(nbytes, itemsize, most=_MAX_POOL_SLOTS):
            count = min(most, int(nbytes // _slot_bytes(n, itemsize)))
            return count if count >= 2 else 0

        if not self._single:
            kept = _KeptMatrices(n, D, slots(budget, 8), np.float64)
            return kept, kept
        flips = _KeptMatrices(n, D, slots(budget // 4, 8, _FLIP_POOL_SLOTS), np.float64)
        return _KeptMatrices(n, D, slots(budget - flips.nbytes, 4), np.float32), flips

    def _kept_pools(self):
        return (self._kept,) if self._flip_kept is self._kept else (self._kept, self._flip_kept)

    def _memory_without_pool(self):
        n, D = self.X.shape
        return 8 * (self._threads() * (n * n + n * D + self._rows.size * (self.n_neighbors + 1))
                    + 4 * n * D + n * n + 2 * _FLIP_PREFIX * self._rows.size)

    def _fresh_eps(self, m, float32=False):
        if float32:
            return _gamma(m + 3.0, _U32)
        return _gamma(m + 2.0, _U64)

    def _update_eps(self, h, float32=False):
        """Error added by an update of ``h`` columns (its operands rounded to float32 first with
        ``float32``): a GEMM of ``h`` terms added to the kept entry."""
        return _gamma(h + 4.0, _U32 if float32 else _U64) if h else 0.0

    def _plan(self, masks, kept, keep_all=False):
        """How to build each mask's Gram matrix: from scratch or from the nearest matrix of
        ``kept`` (a :class:`_KeptMatrices`), and which matrices to keep.

        A matrix is kept when it was built by an update, or when its mask is near one of the
        previous call's masks (an update from it would have paid): masks that follow others
        (a swarm's moves, a local search) are likely to be followed in turn, while writing
        the matrices of unrelated masks (random initial populations) into the pool only costs
        memory traffic (about 8 % of a batch of random masks on musk1). ``keep_all`` keeps
        every matrix (:meth:`score_flips` reads its base matrix from the pool).

        Returns the kernels' :class:`~pymoo_fs.evaluation._kernels.Plan` and a function that
        records the kept matrices once the kernel has written them.
        """
        from pymoo_fs.evaluation import _kernels

        B, D = masks.shape
        kept.arrays()
        # one pass over the batch (no Python loop per mask unless it has a kept base)
        rows_nz, cols_nz = np.nonzero(masks)
        sizes = np.bincount(rows_nz, minlength=B)
        cols_flat = cols_nz.astype(np.int64)
        cols_ptr = _offsets(sizes)
        base = np.full(B, -1, dtype=np.int64)
        dest = np.full(B, -1, dtype=np.int64)
        single = kept.single
        eps = self._fresh_eps(sizes.astype(np.float64), single)
        deltas, touches = {}, {}
        n_add = np.zeros(B, np.int64)
        delta_sizes = np.zeros(B, np.int64)
        used = np.flatnonzero(kept.used) if kept.slots else np.empty(0, np.int64)
        overhead = _UPDATE_OVERHEAD[kept.dtype.itemsize * self.n_samples ** 2 > _CACHE_BYTES]
        packed = np.packbits(masks, axis=1) if kept.slots else None
        follows = np.full(B, keep_all)
        if kept.slots and not keep_all and kept.recent is not None:
            near = _POPCOUNT[packed[:, None, :] ^ kept.recent[None, :, :]].sum(axis=2).min(axis=1)
            follows = (2 * near + overhead < sizes) | (near == 0)
        if kept.slots:
            kept.recent = packed[-_MAX_POOL_SLOTS:].copy()
        if used.size:
            ham = _POPCOUNT[packed[:, None, :] ^ kept.packed[used][None, :, :]].sum(axis=2)
            nearest = ham.argmin(axis=1)
            h_near = ham[np.arange(B), nearest]
            # an update pays when it changes fewer columns than a fresh product uses
            for b in np.flatnonzero((2 * h_near + overhead < sizes) | (h_near == 0)).tolist():
                s = used[nearest[b]]
                h = int(h_near[b])
                e = kept.eps[s] + self._update_eps(h, single)
                if e > _CHAIN_LIMIT * self._fresh_eps(sizes[b], single):
                    continue
                added = np.flatnonzero(masks[b] & ~kept.mask[s])
                removed = np.flatnonzero(~masks[b] & kept.mask[s])
                base[b] = s
                eps[b] = e
                deltas[b] = np.concatenate([added, removed])
                n_add[b] = added.size
                delta_sizes[b] = deltas[b].size
                touches[b] = np.flatnonzero(masks[b] & ~kept.union[s])
                if h == 0:
                    dest[b] = s
        has_base = base >= 0
        if kept.slots:
            # a base no other mask of the batch uses is updated in place (saves moving it)
            if has_base.any():
                users = np.bincount(base[has_base], minlength=kept.used.size)
                alone = has_base & (users[np.where(has_base, base, 0)] == 1)
                dest[alone] = base[alone]
            busy = np.zeros(kept.used.size, dtype=bool)
            busy[base[has_base]] = True
            order = np.argsort(np.where(kept.used, kept.time, -1), kind="stable")
            free = order[~busy[order]]
            need = np.flatnonzero((dest < 0) & (follows | has_base))[:free.size]
            dest[need] = free[:need.size]

        def commit():
            self._n_updates += int(has_base.sum())
            self._n_scratch += B - int(has_base.sum())
            written = dest >= 0
            if not written.any():
                return
            # the slots are distinct, so the clock ticks in batch order as before
            ticks = kept.clock + np.cumsum(written)
            kept.clock = int(ticks[-1])
            kept.time[dest[written]] = ticks[written]
            changed = written & ~((base == dest) & (delta_sizes == 0))
            if changed.any():
                ch = np.flatnonzero(changed)
                slots = dest[ch]
                kept.mask[slots] = masks[ch]
                kept.packed[slots] = np.packbits(masks[ch], axis=1)
                with_base = base[ch] >= 0
                union = masks[ch].copy()
                union[with_base] |= kept.union[base[ch][with_base]]
                kept.union[slots] = union
                kept.eps[slots] = eps[ch]
                kept.used[slots] = True

        # deltas and touches were filled in increasing mask order
        touch_sizes = np.zeros(B, np.int64)
        touch_sizes[list(touches)] = [t.size for t in touches.values()]
        plan = _kernels.Plan(
            cols_flat=cols_flat, cols_ptr=cols_ptr, base=base, dest=dest,
            delta_flat=_concat(list(deltas.values())), delta_ptr=_offsets(delta_sizes),
            n_add=n_add,
            touch_flat=_concat(list(touches.values())), touch_ptr=_offsets(touch_sizes),
            eps=eps)
        return plan, commit

    def _base_matrix(self, mask):
        """Gram matrix of one mask for :meth:`score_flips`: ``(G, sq, m2, r2, eps)``.

        The kept one when ``mask`` was scored before; else built (by an update where cheaper)
        and kept. Without kept matrices, or for the empty mask, a temporary one.
        """
        from pymoo_fs.evaluation import _kernels

        n = self.n_samples
        if not mask.any():
            zeros = np.zeros((n, n))
            return zeros, zeros[0], zeros[0], zeros[0], 0.0
        if self._flip_kept.slots:
            pool = self._flip_kept.arrays()
            plan, commit = self._plan(mask[None, :], self._flip_kept, keep_all=True)
        else:
            pool = _kernels.Pool(G=np.empty((1, n, n)), sq=np.empty((1, n)),
                                 m2=np.empty((1, n)), r2=np.empty((1, n)))
            cols = np.flatnonzero(mask)
            none = np.empty(0, np.int64)
            plan = _kernels.Plan(cols_flat=cols, cols_ptr=np.array([0, cols.size]),
                                 base=np.array([-1]), dest=np.array([0]), delta_flat=none,
                                 delta_ptr=np.zeros(2, np.int64), n_add=np.zeros(1, np.int64),
                                 touch_flat=none, touch_ptr=np.zeros(2, np.int64),
                                 eps=np.array([self._fresh_eps(cols.size)]))
            commit = None
        with _parallel_context(self._threads()):
            _kernels.cv_predict_batch(self._data(float64=True), self._kernel_folds(), pool, plan,
                                      1, False, self._row_seeds(1), _kernels.USE_NUMPY_BLAS)
        if commit is not None:
            commit()
        s = int(plan.dest[0])
        return pool.G[s], pool.sq[s], pool.m2[s], pool.r2[s], float(plan.eps[0])

    # ------------------------------------------------------------------ kernel arguments
    def _data(self, float64=False):
        from pymoo_fs.evaluation import _kernels

        return _kernels.Data(Xgt=self._Xct if float64 else self._Xgt, Xct=self._Xct,
                             Xt=self._Xt, X=self.X, Xc=self.Xc)

    def _kernel_folds(self):
        from pymoo_fs.evaluation import _kernels

        return _kernels.Folds(cand=self._cand, row_q=self._rows, row_f=self._row_fold,
                              bounds=self._bounds, train=self._train_flat,
                              train_ptr=self._train_ptr, y=self.y, k=self.n_neighbors,
                              n_classes=self.n_classes, exact=0, sk_chunk=256, sk_threads=1, srow=self._srow, srow_ptr=self._srow_ptr,
                              all_rows=self._all_rows)

    def _settle(self, pred, unc, n_unc, masks, folds):
        """Rows the bound could not certify: scikit-learn's arithmetic replayed in compiled
        code where verified (:mod:`~pymoo_fs.evaluation._exact`), else scikit-learn itself."""
        self._n_uncertified += int(n_unc.sum())
        open_masks = np.flatnonzero(unc.any(axis=1))
        if not open_masks.size:
            return
        exact, chunk, threads = _exact.settings()
        if exact:
            from pymoo_fs.evaluation import _kernels

            cols = [np.flatnonzero(m) for m in masks[open_masks]]
            sub_pred, sub_unc = pred[open_masks], unc[open_masks]
            with _parallel_context(self._threads()):
                _kernels.exact_rows(self.X, _concat(cols), _pointers(cols),
                                    folds._replace(exact=1, sk_chunk=chunk, sk_threads=threads),
                                    sub_pred, sub_unc)
            pred[open_masks], unc[open_masks] = sub_pred, sub_unc
        for b in np.flatnonzero(unc.any(axis=1)):
            self._settle_rows(pred[b], unc[b], masks[b])

    def _settle_rows(self, pred, unc, mask):
        """Rows the kernels left, which happens only where the replay of scikit-learn's
        arithmetic is off (not verified in this process, or the numpy backend): scikit-learn
        predicts their folds."""
        rows = np.flatnonzero(unc)
        self._n_sklearn_rows += rows.size
        Xs = self.X[:, mask]
        for f in np.unique(self._row_fold[rows]):
            train, test = self.folds[f]
            lo, hi = self._bounds[f], self._bounds[f + 1]
            knn = KNeighborsClassifier(n_neighbors=self.n_neighbors).fit(Xs[train], self.y[train])
            pred[lo:hi] = knn.predict(Xs[test])

    def _predict_cv_reference(self, mask):
        """Certified CV predictions of one non-empty mask (numpy backend)."""
        Xs = self.X[:, mask]
        D, E = _reference.squared_distances(Xs)
        pred, ambiguous = _reference.knn_predict_rows(
            D[self._rows], E[self._rows], self._cand[self._row_fold], self.y, self.n_neighbors,
            self.n_classes,
        )
        if ambiguous.any():
            self._n_uncertified += int(ambiguous.sum())
            self._settle_rows(pred, ambiguous, mask)
        return pred

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
        if self.metric == "accuracy" and self._fold_sizes.size == correct.shape[1]:
            # leave-one-out: every fold score is 0 or 1, so their mean is the count of hits
            # over the number of folds, exactly (integer sums are exact in any order)
            return np.count_nonzero(correct, axis=1) / correct.shape[1]
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
        self._train_flat = np.concatenate([train for train, _ in self.folds]).astype(np.int64)
        self._train_ptr = np.cumsum([0] + [train.size for train, _ in self.folds]).astype(
            np.int64)
        self._row_labels = self.y[self._rows]
        self._srow = np.argsort(self._rows, kind="stable").astype(np.int64)
        self._srow_ptr = np.searchsorted(self._rows[self._srow],
                                         np.arange(self.n_samples + 1)).astype(np.int64)
        self._all_rows = np.arange(self._rows.size, dtype=np.int64)
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


class _KeptMatrices:
    """Gram matrices of recently scored masks, one slot each, in one precision (the pool).

    Parameters
    ----------
    n, D : int
        Samples and features of the data.
    slots : int
        Number of slots (0: nothing is kept).
    dtype : numpy dtype
        float64 or float32, the precision of the matrices.

    Attributes
    ----------
    mask, union : bool (slots, D)
        Each slot's mask, and every feature its chain of updates ever held.
    packed : uint8 (slots, ceil(D / 8))
        The masks packed (Hamming distances by popcount).
    eps : float64 (slots,)
        Error coefficient of each matrix (see ``_kernels._predict_rows``).
    used : bool (slots,)
    recent : uint8 (at most 64, ceil(D / 8)) or None
        The last call's masks, packed, kept or not.
    time, clock
        Least-recently-written order of the slots.
    """

    def __init__(self, n, D, slots, dtype):
        self.n, self.D, self.slots = n, D, slots
        self.dtype = np.dtype(dtype)
        self.single = self.dtype == np.float32
        self._pool = None
        self.recent = None  # packed masks of the last call (see KNNEvaluator._plan)

    @property
    def nbytes(self):
        """int: bytes of the slots' matrices and vectors."""
        return self.slots * _slot_bytes(self.n, self.dtype.itemsize)

    @property
    def n_used(self):
        """int: slots holding a matrix now."""
        return 0 if self._pool is None else int(self.used.sum())

    def clear(self):
        """Forget every kept matrix."""
        self.recent = None
        if self._pool is not None:
            self.used[:] = False

    def arrays(self):
        """The kernels' :class:`~pymoo_fs.evaluation._kernels.Pool` (allocated on first use;
        one dummy slot when ``slots`` is 0)."""
        from pymoo_fs.evaluation import _kernels

        if self._pool is None:
            n, D = self.n, self.D
            P = max(self.slots, 1)
            shape = (P, n, n) if self.slots else (1, 1, 1)
            self._pool = _kernels.Pool(G=np.empty(shape, dtype=self.dtype), sq=np.empty((P, n)),
                                       m2=np.empty((P, n)), r2=np.empty((P, n)))
            self.mask = np.zeros((P, D), dtype=bool)
            self.packed = np.zeros((P, (D + 7) // 8), dtype=np.uint8)
            self.union = np.zeros((P, D), dtype=bool)
            self.eps = np.zeros(P)
            self.used = np.zeros(P, dtype=bool)
            self.time = np.zeros(P, dtype=np.int64)
            self.clock = 0
        return self._pool


class _parallel_context:
    """Set numba's thread count and hold BLAS to one thread for one call.

    All parallelism comes from numba. A multi-threaded BLAS call inside a kernel was measured
    to slow the kernel's parallel loops several-fold: OpenBLAS's workers keep spinning after
    the call and compete with numba's threads.
    """

    _blas = None

    def __init__(self, threads):
        self.threads = threads

    def __enter__(self):
        import numba

        if _parallel_context._blas is None:
            from threadpoolctl import ThreadpoolController

            # the BLAS libraries loaded now (numpy's and scipy's, which the kernels call)
            _parallel_context._blas = ThreadpoolController().select(
                user_api="blas").lib_controllers
        self._numba_before = numba.get_num_threads()
        want = min(self.threads, numba.config.NUMBA_NUM_THREADS)
        if want != self._numba_before:
            numba.set_num_threads(want)
        # threadpoolctl's own limit() costs about 40 us a call; the controllers are cached
        self._blas_before = [lib.get_num_threads() for lib in _parallel_context._blas]
        for lib, before in zip(_parallel_context._blas, self._blas_before):
            if before is not None and before != 1:
                lib.set_num_threads(1)
        return self

    def __exit__(self, *exc):
        import numba

        for lib, before in zip(_parallel_context._blas, self._blas_before):
            if before is not None and before != 1:
                lib.set_num_threads(before)
        if numba.get_num_threads() != self._numba_before:
            numba.set_num_threads(self._numba_before)
        return False


def _check_bytes(name, value, zero=False):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not (value >= 0 if zero else value > 0):
        kind = "a non-negative" if zero else "a positive"
        raise ValueError(f"{name} must be {kind} number of bytes, got {value!r}")
    return value


def _slot_bytes(n, itemsize=8):
    """Bytes of one kept matrix: the n x n Gram matrix and four float64 vectors."""
    return itemsize * n * n + 8 * 4 * n


def _gamma(m, u):
    """Safety factor 4 times Higham's ``gamma_m = m u / (1 - m u)`` (as the kernels)."""
    return 4.0 * m * u / (1.0 - m * u)


def _concat(parts):
    return np.concatenate(parts).astype(np.int64) if parts else np.empty(0, np.int64)


def _pointers(parts):
    return _offsets([p.size for p in parts])


def _offsets(sizes):
    """Start offsets of consecutive parts of the given sizes, and the total: int64 (n + 1,)."""
    out = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=out[1:])
    return out


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


def _float32_holds(X):
    """Whether float32 Gram products can hold the squared distances of ``X``."""
    try:
        check_float32_range(X)
    except ValueError:
        return False
    return True
