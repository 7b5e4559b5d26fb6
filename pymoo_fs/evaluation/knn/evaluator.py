"""The exact KNN wrapper evaluator: cross-validated accuracy of feature subsets.

:class:`KNNEvaluator` holds the options, the data and the cache, and runs each call; the
rooms it draws on are the fold layout (:mod:`.layout`), the Gram matrices' planner and pool
(:mod:`.planner`), the precision rule (:mod:`.precision`), the settling of uncertified rows
(:mod:`.settle`), the thread settings (:mod:`.parallel`), the compiled kernels
(:mod:`.kernels`) and the plain-numpy statement (:mod:`.reference`).
"""

import os

import numpy as np

from pymoo_fs._validation import check_choice, check_int, check_positive_int
from pymoo_fs.evaluation.base import (
    REGRESSION_SCORINGS,
    CrossValidatedEvaluator,
    check_float32_range,
    flip_rows,
)
from pymoo_fs.evaluation.knn import reference, selfcheck
from pymoo_fs.evaluation.knn.layout import FoldLayout, RowSeeds, encode_test_labels, fold_score
from pymoo_fs.evaluation.knn.parallel import (ParallelContext, default_threads,
                                              ensure_threading_layer)
from pymoo_fs.evaluation.knn.paths import PathChooser
from pymoo_fs.evaluation.knn.planner import GramPlanner, make_kept
from pymoo_fs.evaluation.knn.precision import AutoPrecision, float32_holds
from pymoo_fs.evaluation.knn.settle import RowSettler

_SCORINGS = ("accuracy", "balanced_accuracy") + REGRESSION_SCORINGS
_BACKENDS = ("numba", "numpy")
_PRECISIONS = ("auto", "float64", "float32")
#: sorted nearest candidates kept per row for score_flips: the shortest prefix and the longest
#: (removals from small bases on many rows)
_FLIP_PREFIX = 64
_FLIP_PREFIX_MAX = 512
#: the first prefix of calls that only add features: additions to small bases reach far
#: (forward selection, one thread, 256 against 64 entries: the third step 0.58 -> 0.43 s on
#: isolet, 0.86 -> 0.38 s on mfeat, gas6's fourth 0.10 -> 0.08 s); it adapts from there
_FLIP_PREFIX_ADD = 256
#: the prefix doubles after a call whose rows were rescanned past it more often than
#: this, and halves after one where fewer than _FLIP_SHRINK went past its half
_FLIP_GROW = 0.02
_FLIP_SHRINK = 0.01
#: default bytes for kept Gram matrices (at most; and at most half of what memory_limit leaves)
_DEFAULT_POOL_MEMORY = 2**30


class EvaluatorMemoryError(MemoryError):
    """The evaluator would need more memory than its ``memory_limit`` allows."""


class KNNEvaluator(CrossValidatedEvaluator):
    """Exact inner cross-validation score of KNN on feature subsets (the wrapper fitness).

    For every boolean mask ``m`` over the features, :meth:`score` returns exactly::

        cross_val_score(KNeighborsClassifier(n_neighbors=k), X[:, m], y, cv=ev.folds).mean()

    (with ``scoring="balanced_accuracy"`` when ``scoring="balanced_accuracy"``), where ``X`` is
    the float64 copy held in :attr:`X`. With a regression ``scoring``
    (``"neg_mean_squared_error"``, ``"neg_mean_absolute_error"``, ``"r2"``) it is a KNN
    regression evaluator (:attr:`target_type` ``"regression"``) and returns exactly::

        cross_val_score(KNeighborsRegressor(n_neighbors=k), X[:, m], y, cv=ev.folds,
                        scoring=scoring).mean()

    (see Notes, "Regression"). It implements the
    :class:`~pymoo_fs.evaluation.Evaluator` contract. One squared-distance matrix per mask
    serves every fold: a sample's candidate neighbours are the training samples of its fold.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training data (already scaled), converted to a C-contiguous float64 array.
    y : array-like of shape (n_samples,)
        Class labels of any type; encoded internally as ``0 .. n_classes - 1`` in the order of
        ``np.unique(y)`` (scikit-learn's ``classes_`` order). For a regression ``scoring``:
        finite real targets, held as float64 (scores equal scikit-learn's on ``y`` as
        float64), not all equal.
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
    scoring : {"accuracy", "balanced_accuracy", "neg_mean_squared_error", \
"neg_mean_absolute_error", "r2"}, default="accuracy"
        Score of each fold: accuracy, or balanced accuracy (the mean per-class recall over the
        classes present in the fold's test part); or, for a real-valued target, scikit-learn's
        regression scorer of that name (an int ``cv`` then gives ``KFold(cv, shuffle=True,
        random_state=random_state)``; ``"r2"`` needs 2 test samples per fold). The folds'
        scores are then averaged.
    cache_size : int, default=100000
        Maximum number of scores kept, keyed by the packed mask (least recently used evicted);
        0 disables the cache. Each entry costs about ``100 + n_features / 8`` bytes.
    memory_limit : int, optional
        Bytes the evaluator may use for its work arrays; default: half of the physical memory
        (4 GiB where it cannot be read). See Notes.
    n_threads : int, optional
        Worker threads of every call, as given. Default: chosen per call, the cores of this
        process's CPUs that other processes leave free (all of them on an idle machine, one
        beside busy processes or in a job array), or ``PYMOO_FS_THREADS`` where set (:func:`~pymoo_fs.evaluation.knn.parallel.default_threads`). Scores do not
        depend on it.
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
    scikit-learn once per process (:mod:`pymoo_fs.evaluation.knn.selfcheck`; the replay names
    the scikit-learn releases it was written against and verified on,
    :mod:`pymoo_fs.evaluation.knn.kernels.sklearn_replay`); where it is not, the fold is
    predicted by scikit-learn as a whole. Scores are therefore equal bit for bit.

    **Small subsets by tree.** A mask of at most 15 features, where every fold's training part
    holds more than ``2 n_neighbors`` samples (scikit-learn then takes its kd-tree, whose
    distances are plain sums of squared differences), may instead be scored without a Gram
    matrix: one feature by the samples sorted on it, 2 to 15 by a kd-tree over all samples
    searched for each row's nearest training candidates, the rows whose k-th place is a tie
    of mixed labels replayed on the fold's own tree (:mod:`.kernels.tree`). Its cost grows
    with ``n log n`` rather than ``n^2``; a cost model chooses the cheaper path per mask
    (:mod:`pymoo_fs.evaluation.knn.paths`), and the flips of a small mask go the same way.
    It serves only after its own check against scikit-learn in this process
    (:func:`~pymoo_fs.evaluation.knn.selfcheck.kd_tree_verified`); the scores are the same
    on either path.

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

    **Regression.** A KNN prediction is the mean of the k neighbours' targets in the order
    scikit-learn returns them (a floating-point sum depends on it), so the regression path
    (:mod:`pymoo_fs.evaluation.knn.regression`) certifies each row's neighbours *in order*
    against the same rounding bound, and a fold holding a row it cannot certify (ties between
    different targets) is predicted by scikit-learn's own search, as a whole. It shares the
    evaluator's folds, cache, counters and hold-out scores and the numpy statement of the
    search (:mod:`.reference`), not the compiled kernels, kept matrices, float32 products or
    the compiled tree path (``precision``, ``incremental``, ``pool_memory`` and ``backend``
    change nothing there); :meth:`score_flips` updates the distances by one column per flip.
    An empty mask scores the constant prediction's value (``-Var(y)`` for MSE, 0.0 for R^2):
    error 1 on the problems' scale (:meth:`unit_scores`).

    **Balanced accuracy.** Tran, Xue & Zhang (GECCO 2019, Eq. 7) average per-fold
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
        target = "regression" if self.scoring in REGRESSION_SCORINGS else "classification"
        super().__init__(X, y, cv, random_state, cache_size, target=target)
        if backend != "numpy":
            ensure_threading_layer()  # before any kernel starts numba's threads
        if precision == "float32":
            check_float32_range(self.X)
        single = precision == "float32" or (precision == "auto" and float32_holds(self.X))
        smallest = min(len(train) for train, _ in self.folds)
        if self.n_neighbors > smallest:
            raise ValueError(
                f"n_neighbors={self.n_neighbors} exceeds the training part of a fold "
                f"({smallest} samples)"
            )
        if self.memory_limit is None:
            self.memory_limit = _default_memory_limit()
        self._layout = FoldLayout(self.folds, self.y, self.n_neighbors, self.n_classes,
                                  self.metric)
        kept = make_kept(*self.X.shape, single, self._pool_budget())
        self._check_memory(kept)
        self._gram = GramPlanner(self.X, single, kept)
        self.Xc = self._gram.Xc
        self._auto = AutoPrecision(self._layout.rows.size) if precision == "auto" else None
        self._seeds = RowSeeds(self._layout.rows.size, self.n_neighbors)
        self._settler = RowSettler(self.X, self.y, self.folds, self._layout, self.n_neighbors)
        self._paths = PathChooser(self.n_samples, self._layout.rows.size, self.n_neighbors,
                                  smallest, len(self.folds))
        self._flip_seed = None  # the last flip base's sorted prefixes (order), see _compute_flips
        self._flip_prefix = _FLIP_PREFIX  # the removals' prefix length, see _compute_flips
        self._flip_prefix_add = _FLIP_PREFIX_ADD  # the same for calls that only add
        self._regression = None
        if target == "regression":
            from pymoo_fs.evaluation.knn.regression import RegressionRows

            compiled = backend != "numpy"
            self._regression = RegressionRows(
                self.X, self.y, self.folds, self.n_neighbors, self.scoring,
                data=self._gram.data(float64=True) if compiled else None,
                threads=self._threads if compiled else None)

    # ------------------------------------------------------------------ properties
    @property
    def memory_estimate(self):
        """int: bytes of work arrays the evaluator may allocate (see Notes)."""
        return self._memory_without_pool() + sum(k.nbytes for k in self._gram.pools())

    @property
    def gram_precision(self):
        """str: ``"float32"`` or ``"float64"``, the precision the Gram products use now (with
        ``precision="auto"`` it starts at float32 and may move to float64 for good)."""
        return "float32" if self._gram.single else "float64"

    @property
    def n_kept_matrices(self):
        """int: how many Gram matrices are kept for incremental updates now."""
        return sum(k.n_used for k in self._gram.pools())

    def clear_cache(self):
        """Forget all cached scores, kept Gram matrices, row seeds and the last flip base's
        prefixes (the counters are kept)."""
        super().clear_cache()
        self._gram.clear()
        self._seeds.clear()
        self._flip_seed = None
        self._flip_prefix = _FLIP_PREFIX
        self._flip_prefix_add = _FLIP_PREFIX_ADD

    # ------------------------------------------------------------------ computation
    def _threads(self):
        """Threads of the next kernel call: ``n_threads`` where given, else
        :func:`~pymoo_fs.evaluation.knn.parallel.default_threads` (the cores other processes
        leave free)."""
        if self.n_threads is not None:
            return self.n_threads
        return default_threads()

    def _compute(self, masks):
        """Scores of distinct non-empty masks (n, D)."""
        if self._regression is not None:
            return self._regression.scores(masks)
        if self.backend == "numpy":
            pred = np.stack([self._predict_cv_reference(m) for m in masks])
        else:
            pred = self._predict_cv_compiled(masks)
        return self._layout.cv_scores(pred)

    def _predict_cv_compiled(self, masks):
        """CV predictions (B, R) of distinct non-empty masks: each by the tree path or the
        Gram path, as the cost model chooses (:mod:`pymoo_fs.evaluation.knn.paths`)."""
        sizes = np.count_nonzero(masks, axis=1)
        exact = self.backend == "numba"
        probe = self._paths.path_probes(sizes, self._gram.single, exact)
        if probe.any() and selfcheck.kd_tree_verified(check=False):
            # sizes nothing is known about: one mask each by the tree path first, which
            # measures their ties, then the rest by the path the measurement favours (only
            # where the tree path is checked already: a probe does not pay the check)
            pred = np.empty((masks.shape[0], self._layout.rows.size), dtype=np.int64)
            pred[probe] = self._predict_tree(masks[probe], sizes[probe], learn_visits=False)
            pred[~probe] = self._predict_cv_compiled(masks[~probe])
            return pred
        tree = self._paths.tree_sizes(sizes, self._gram.single, exact)
        if tree.any() and not selfcheck.kd_tree_verified():
            tree[:] = False
        if not tree.any():
            return self._predict_gram(masks)
        if tree.all():
            return self._predict_tree(masks, sizes)
        pred = np.empty((masks.shape[0], self._layout.rows.size), dtype=np.int64)
        pred[tree] = self._predict_tree(masks[tree], sizes[tree])
        pred[~tree] = self._predict_gram(masks[~tree])
        return pred

    def _predict_tree(self, masks, sizes, learn_visits=True):
        """Exact CV predictions of masks of 1 to 15 features by the tree path (the first
        mask of each size not measured yet before the others: :meth:`PathChooser.tree_probes`).
        ``learn_visits=False``: the masks are the cost model's probes, which count ties only
        (:meth:`PathChooser.path_probes`)."""
        from pymoo_fs.evaluation.knn.kernels import tree

        probe = self._paths.tree_probes(sizes)
        if probe.any():
            pred = np.empty((masks.shape[0], self._layout.rows.size), dtype=np.int64)
            pred[probe] = self._predict_tree(masks[probe], sizes[probe], learn_visits)
            pred[~probe] = self._predict_tree(masks[~probe], sizes[~probe], learn_visits)
            return pred

        threads = self._threads()
        folds = self._layout.kernel_folds()
        _, cols = np.nonzero(masks)
        cols = cols.astype(np.int64)
        direct = self._paths.tree_direct(sizes)
        ranks = self._settler.ranks.ensure(cols)
        with ParallelContext(threads):
            if masks.shape[0] == 1:
                pred, n_tie, n_visits = tree.tree_predict_one(self.X, ranks, cols, folds,
                                                              4 * threads, bool(direct[0]))
            else:
                ptr = np.zeros(masks.shape[0] + 1, dtype=np.int64)
                np.cumsum(sizes, out=ptr[1:])
                pred, n_tie, n_visits = tree.tree_predict_batch(
                    self.X, ranks, cols, ptr, folds, min(threads, masks.shape[0]), direct)
        # a direct replay settles every row by choice, not because a bound left it open
        self._settler.n_uncertified += int(n_tie[~direct].sum())
        self._paths.record_tree(sizes, n_visits, n_tie, direct, learn_visits=learn_visits)
        return pred

    def _predict_gram(self, masks):
        """Certified (and where needed exact) CV predictions of masks by their Gram
        matrices."""
        from pymoo_fs.evaluation.knn.kernels import blas, cv

        threads = self._threads()
        folds = self._layout.kernel_folds()
        gram = self._gram
        plan, commit = gram.plan(masks, gram.kept)
        data = gram.data()
        with ParallelContext(threads):
            seeds = self._seeds.get(threads)
            if masks.shape[0] == 1:
                pred, unc, n_unc = cv.cv_predict_one(data, folds, gram.kept.arrays(), plan,
                                                     threads, seeds[0], blas.USE_NUMPY_BLAS)
                pred, unc = pred[None, :], unc[None, :]
            else:
                pred, unc, n_unc = cv.cv_predict_batch(
                    data, folds, gram.kept.arrays(), plan, min(threads, masks.shape[0]), True,
                    seeds, blas.USE_NUMPY_BLAS)
        commit()
        self._paths.record_gram(np.count_nonzero(masks, axis=1), n_unc)
        if self._auto is not None and gram.single:
            if self._auto.leaves_float32(n_unc, self._seeds.new_refinements()):
                # the kept float32 matrices go; float64 ones serve batches and flips from now
                gram.use_float64(make_kept(*self.X.shape, False, self._pool_budget()))
        self._settler.settle(pred, unc, n_unc, masks, folds, self._threads())
        return pred

    def _compute_flips(self, mask, features):
        """Scores of one-feature flips of ``mask``, each from ``mask``'s Gram matrix.

        Flipping feature ``f`` changes each squared distance by ``+-(x_f[i] - x_f[j])^2``, so
        every flip is answered from ``mask``'s Gram matrix in O(n^2) at most, instead of
        O(n^2 |S|). The base matrix is the kept one when ``mask`` was scored or flipped before
        (else it is built, by an update where cheaper, and kept). Each row's candidates are
        sorted by base distance once (the previous base's prefixes seed the sort: the same
        prefixes, with fewer insertions when consecutive bases are close, as in a local
        search); when adding a feature, distances only grow, so a row's
        scan stops once the base distance exceeds its current (k+1)-th best plus the rounding
        band; when removing one, distances shrink by at most the row's largest squared
        difference on that feature, which gives the same kind of exact stopping rule. This is
        the move of sequential forward/backward selection and of the local searches of ISRPSO
        and AMSO. Where the cost model finds the flipped masks (at most 15 features) cheaper
        by the tree path, they are scored as masks instead, without any Gram matrix.

        **Prefix length.** A removal's scan runs past the prefix where the removed feature
        spans much more than the row's neighbour distances (small bases on many rows: on
        isolet's 1,092 training rows, removals from 30-feature bases, half of the rows reach
        past 64 entries, 4 % past 256), and such a row is rescanned over all its candidates.
        So calls that remove features use a prefix of ``L`` entries, 64 to start with, doubled
        (up to 512) after a call where more than 2 % of the removals' rows were rescanned past
        it, halved after one where fewer than 1 % went past its half. Calls that only add
        features follow the same rule with a length of their own, 256 to start with:
        additions to small bases reach far too (forward selection's third step on isolet,
        mfeat: 0.58 -> 0.43 s, 0.86 -> 0.38 s against a fixed 64). The length changes how
        much is scanned, never a score.
        """
        if self._regression is not None:
            return self._regression.flip_scores(mask, features)
        if self.backend == "numpy":
            return self._compute(flip_rows(mask, features))
        base = int(np.count_nonzero(mask))
        n_remove = int(np.count_nonzero(mask[features]))
        # the tree path's own check runs only once the cost model would take it (it compiles
        # the tree kernels: no start-up cost where the Gram path is always cheaper)
        if self._paths.flips_to_tree(base, features.size - n_remove, n_remove, True) \
                and selfcheck.kd_tree_verified():
            # small subsets: every flipped mask by the tree path (no Gram matrix at all)
            return self._compute(flip_rows(mask, features))
        from pymoo_fs.evaluation.knn.kernels import flips

        threads = self._threads()
        folds = self._layout.kernel_folds()
        G, sq, m2, r2, eps = self._gram.base_matrix(mask, folds, self._seeds, threads)
        cols = np.flatnonzero(mask)
        # the last base's prefixes seed this one's (the same tables with any seed, built with
        # fewer insertions when the bases are close: the scans of a local search)
        seed = self._flip_seed if self._flip_seed is not None else flips.NO_SEED
        removes = n_remove > 0
        L = self._flip_prefix if removes else min(self._flip_prefix_add, self.n_samples)
        with ParallelContext(threads):
            tables = flips.flip_tables(G, sq, folds, L, threads, seed)
            pred, unc, n_unc, reach = flips.flip_predict(
                self._gram.data(float64=True), folds, G, sq, m2, r2, eps, cols,
                features.astype(np.int64), *tables, 4 * threads)
        self._flip_seed = tables[0]
        if removes:
            self._flip_prefix = _next_prefix(L, *reach[:3], self.n_samples)
        elif base:  # additions to the empty mask rescan every row, whatever the length
            self._flip_prefix_add = _next_prefix(L, *reach[3:], self.n_samples)
        self._paths.record_flips(cols.size, n_unc)
        # the flipped masks are built only when some row needs the exact path (rare)
        self._settler.settle(pred, unc, n_unc,
                             flip_rows(mask, features) if n_unc.any() else None, folds,
                             self._threads())
        return self._layout.cv_scores(pred)

    def _predict_cv_reference(self, mask):
        """Certified CV predictions of one non-empty mask (numpy backend)."""
        lay = self._layout
        D, E = reference.squared_distances(self.X[:, mask])
        pred, ambiguous = reference.knn_predict_rows(
            D[lay.rows], E[lay.rows], lay.cand[lay.row_fold], self.y, self.n_neighbors,
            self.n_classes,
        )
        if ambiguous.any():
            self._settler.n_uncertified += int(ambiguous.sum())
            self._settler.settle_rows(pred, ambiguous, mask)
        return pred

    def _holdout_scores(self, masks, X_test, y_test):
        """``KNeighborsClassifier(k).fit(X[:, m], y).score(X_test[:, m], y_test)`` per mask.

        Balanced accuracy with ``scoring="balanced_accuracy"``; certified float64 predictions,
        scikit-learn's own for an uncertifiable test set.
        """
        if self._regression is not None:
            return np.array([self._regression.holdout_score(m, X_test, y_test) for m in masks])
        codes = encode_test_labels(y_test, self.classes)
        scores = np.empty(masks.shape[0])
        for i, mask in enumerate(masks):
            pred = self._predict_holdout(mask, X_test)
            scores[i] = fold_score(pred == codes, codes, self.metric)[0]
        return scores

    def _predict_holdout(self, mask, X_test):
        Xs = self.X[:, mask]
        Qs = X_test[:, mask]
        D, E = reference.squared_distances(Xs, Qs)
        cand = np.ones(D.shape, dtype=bool)
        pred, ambiguous = reference.knn_predict_rows(
            D, E, cand, self.y, self.n_neighbors, self.n_classes
        )
        if ambiguous.any():
            from sklearn.neighbors import KNeighborsClassifier

            self._settler.n_uncertified += int(ambiguous.sum())
            knn = KNeighborsClassifier(n_neighbors=self.n_neighbors)
            pred = knn.fit(Xs, self.y).predict(Qs)
        return pred

    # ------------------------------------------------------------------ memory
    def _pool_budget(self):
        """Bytes for the kept matrices (0: none, which turns the incremental path off)."""
        if not self.incremental or self.backend == "numpy":
            return 0
        if self.pool_memory is None:
            left = self.memory_limit - self._memory_without_pool()
            return min(_DEFAULT_POOL_MEMORY, max(0, left) // 2)
        return self.pool_memory

    def _memory_without_pool(self):
        n, D = self.X.shape
        R = self._layout.rows.size
        return 8 * (self._threads() * (n * n + n * D + R * (self.n_neighbors + 1))
                    + 4 * n * D + n * n + 2 * min(_FLIP_PREFIX_MAX, n) * R)

    def _check_memory(self, kept):
        """Raise :class:`EvaluatorMemoryError` where the work arrays and the pools ``kept``
        (:func:`~pymoo_fs.evaluation.knn.planner.make_kept`) exceed ``memory_limit``."""
        pools = kept[:1] if kept[0] is kept[1] else kept
        need = self._memory_without_pool() + sum(k.nbytes for k in pools)
        if need > self.memory_limit:
            raise EvaluatorMemoryError(
                f"the evaluator needs about {need / 2**30:.2f} GiB of work arrays for "
                f"{self.n_samples} samples x {self.n_features} features "
                f"({self._threads()} threads), more than memory_limit="
                f"{self.memory_limit / 2**30:.2f} GiB; raise memory_limit, use fewer threads "
                f"(n_threads) or fewer training samples"
            )


def _check_bytes(name, value, zero=False):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not (value >= 0 if zero else value > 0):
        kind = "a non-negative" if zero else "a positive"
        raise ValueError(f"{name} must be {kind} number of bytes, got {value!r}")
    return value


def _default_memory_limit():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (ValueError, OSError, AttributeError):
        return 4 * 2**30


def _next_prefix(L, rows, past_half, rescanned, n):
    """The prefix length for the next call of the same kind (one that removes features, or
    one that only adds), from this call's ``reach`` of that kind
    (:func:`~pymoo_fs.evaluation.knn.kernels.flips.flip_predict`): doubled (at most
    ``min(512, n)``) when more than 2 % of its rows were rescanned past ``L``, halved
    (at least 64) when fewer than 1 % reached past ``L / 2``, else ``L``."""
    longest = min(_FLIP_PREFIX_MAX, n)
    if rows and rescanned > _FLIP_GROW * rows and L < longest:
        return min(2 * L, longest)
    if rows and past_half < _FLIP_SHRINK * rows and L > _FLIP_PREFIX:
        return max(_FLIP_PREFIX, L // 2)
    return L
