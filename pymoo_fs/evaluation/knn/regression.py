"""KNN regression predictions of CV rows, certified against scikit-learn's, and their scores.

:class:`RegressionRows` is the regression room of :class:`~pymoo_fs.evaluation.KNNEvaluator`
(``scoring`` one of ``"neg_mean_squared_error"``, ``"neg_mean_absolute_error"``, ``"r2"``).
It answers every fold of a mask from one squared-distance matrix with its per-pair rounding
bound (:func:`.reference.squared_distances`, the neighbour search the classification path
states in numpy), as the classification path does, and differs from it in what a row needs:
a vote needs the neighbour *set*, a mean needs the neighbours' targets *in scikit-learn's
order* (the floating-point sum depends on it).

**Certification.** A row's k + 1 nearest candidates, sorted by our distance ``d_1 <= ... <=
d_(k+1)``, each with its bound ``E_i`` (our and scikit-learn's rounding, Higham's bound, the
same as the vote's), are certified when

* the set is sure: ``d_k + E_k < d_(k+1) - E_max`` (``E_max`` the row's largest bound over
  its candidates, so no candidate outside can come before the k-th), and
* the order is sure where it matters: for each pair of consecutive neighbours,
  ``d_i + E_i < d_(i+1) - E_(i+1)``, or both have the same target (swapping them changes no
  operand of the sum).

For integer-valued targets (``k max |y| < 2^52``) every sum of k of them is exact in
any order, so only the set matters, and a row the first test leaves open takes the vote's
test (:func:`.reference.band_flags`, with the distinct targets as labels): its band of
candidates straddling the k-th place shares one target, or holds exactly the missing places.

Then scikit-learn's sorted neighbours (brute force or kd-tree: both sort by their own distances,
which lie in the intervals) carry the same targets in the same order, and the prediction is
computed as :meth:`sklearn.neighbors.KNeighborsRegressor.predict` computes it (``np.mean`` of
the ``(n_test, k, 1)`` gathered targets over axis 1, fold by fold: the same shapes), so it is
equal bit for bit. A fold holding any row that fails the test (ties between different targets:
integer-valued features give many) is predicted by scikit-learn itself, as a whole (its
distances depend on the query block's shape, so only the whole fold reproduces them). The
fold scores are scikit-learn's metric functions on each fold, and their mean is taken as
``cross_val_score(...).mean()`` takes it.

**Flips.** Flipping feature ``f`` of a base mask changes every squared distance by
``+-(x_f[i] - x_f[j])^2``: :meth:`RegressionRows.predict_flips` updates the base's rows once
per flip (O(R n) instead of a new Gram matrix), with a bound over the norms of every feature
the base and the flips touch plus the rounding of the update itself.
"""

import time

import numpy as np

from pymoo_fs.compilation import compile_seconds
from pymoo_fs.evaluation.knn import reference

#: unit roundoff of float64
_U = 2.0 ** -53
#: the smallest base mask whose flips are updates of its matrix (smaller: fresh matrices,
#: which cost about as much as the update's eight passes over the (R, n) rows on 2 cores)
_FLIP_FROM = 48
#: after this many (mask, fold) pairs, a share of them sent to scikit-learn above _TIE_SHARE
#: sends every later fold there directly (concrete's duplicated mixtures: 97 %)
_TIE_PAIRS = 200
_TIE_SHARE = 0.8


def _metric(scoring):
    """scikit-learn's metric function of ``scoring`` and its sign (as its scorer applies it)."""
    from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

    return {"neg_mean_squared_error": (mean_squared_error, -1.0),
            "neg_mean_absolute_error": (mean_absolute_error, -1.0),
            "r2": (r2_score, 1.0)}[scoring]


def _mse_batch(y_true, P):
    """scikit-learn's ``mean_squared_error`` of ``y_true`` (n_test,) and every row of ``P``
    (B, n_test), in its operations (per row the same reductions as its ``(n_test, 1)``
    arrays)."""
    return np.mean((y_true[None, :] - P) ** 2, axis=1)


def _mae_batch(y_true, P):
    """scikit-learn's ``mean_absolute_error`` of ``y_true`` and every row of ``P``, as
    :func:`_mse_batch`."""
    return np.mean(np.abs(P - y_true[None, :]), axis=1)


def _r2_batch(y_true, P):
    """scikit-learn's ``r2_score`` (``force_finite=True``) of ``y_true`` and every row of
    ``P``, as :func:`_mse_batch` (NaN for fewer than 2 samples)."""
    if y_true.size < 2:
        return np.full(P.shape[0], np.nan)
    num = np.sum(1.0 * (y_true[None, :] - P) ** 2, axis=1)
    t = y_true.reshape(-1, 1)
    den = np.sum(1.0 * (t - np.mean(t, axis=0)) ** 2, axis=0)[0]
    if den != 0:
        return 1.0 - num / den
    return np.where(num == 0, 1.0, 0.0)


_BATCH = {"neg_mean_squared_error": _mse_batch, "neg_mean_absolute_error": _mae_batch,
          "r2": _r2_batch}


def _batch_metric_holds(batch, metric, y, folds, rng):
    """Whether ``batch`` equals scikit-learn's ``metric`` bit for bit on every fold's test
    targets, for every row of a batch of predictions drawn like KNN means and for each row as
    a batch of one (checked once per evaluator; where it fails scikit-learn's function scores
    every fold)."""
    import warnings

    for _, test in folds:
        yt = y[test]
        P = np.mean(y[rng.integers(0, y.size, size=(4, test.size, 3))], axis=2)
        P[0] = yt  # a perfect prediction (r2's zero numerator)
        ours = batch(yt, P)
        for b in range(P.shape[0]):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ref = metric(yt, P[b])
            for value in (ours[b], batch(yt, P[b:b + 1])[0]):
                if not (value == ref or (np.isnan(value) and np.isnan(ref))):
                    return False
    return True


class RegressionRows:
    """Certified KNN regression predictions of an evaluator's CV rows and their scores.

    Parameters
    ----------
    X : ndarray of float64, shape (n_samples, n_features)
    y : ndarray of float64, shape (n_samples,)
        Targets.
    folds : list of (ndarray, ndarray)
        ``(train_idx, test_idx)`` of every fold.
    n_neighbors : int
    scoring : {"neg_mean_squared_error", "neg_mean_absolute_error", "r2"}
    data : Data or None, default=None
        The evaluator's data in the kernels' layouts, products in float64
        (:meth:`~.planner.GramPlanner.data`): the compiled path (:mod:`.kernels.regress`,
        open rows by :class:`~.regress_replay.RegressionReplay`). None: the numpy statement.
    threads : callable or None, default=None
        Returns the thread count of the next kernel call (the evaluator's); None: one.

    Attributes
    ----------
    n_uncertified : int
        Rows the bound could not certify so far.
    n_sklearn_folds : int
        (mask, fold) pairs predicted by scikit-learn itself so far.
    n_folds_seen : int
        (mask, fold) pairs certified or sent to scikit-learn by the test so far.
    n_replayed_rows : int
        Open rows whose neighbours the compiled replay of scikit-learn's search gave
        (compiled path).
    n_tree_masks : int
        Masks whose rows were all predicted by the replay of scikit-learn's kd-tree (the tree
        path; compiled path, see :class:`_PathTimes`).

    Notes
    -----
    Once more than 80 % of at least 200 (mask, fold) pairs went to scikit-learn (data whose
    ties between different targets are everywhere, such as duplicated rows, where the replay
    is not available), every later fold goes there directly: the scores are the same, without
    paying for the test as well.
    """

    def __init__(self, X, y, folds, n_neighbors, scoring, data=None, threads=None):
        self.X, self.y, self.folds, self.k = X, y, folds, n_neighbors
        self.scoring = scoring
        if scoring == "r2" and min(test.size for _, test in folds) < 2:
            raise ValueError("scoring='r2' needs at least 2 test samples in every fold (R^2 "
                             "of one sample is undefined: scikit-learn returns NaN); use "
                             "fewer folds than leave-one-out, or neg_mean_squared_error")
        self._metric, self._sign = _metric(scoring)
        # the fold scores by numpy in scikit-learn's operations, all masks of a fold at once
        # (its metric functions cost about 60 us a call in input checks), where a check on
        # these folds finds them equal; else by scikit-learn's functions, mask by mask
        self._batch_metric = _BATCH[scoring]
        if _batch_metric_holds(self._batch_metric, self._metric, y, folds,
                               np.random.default_rng(1)):
            batch = self._batch_metric
            self._fold_metric = lambda y_true, y_pred: batch(y_true, y_pred[None, :])[0]
        else:
            self._batch_metric = None
            self._fold_metric = self._metric
        tests = [test for _, test in folds]
        self.rows = np.concatenate(tests)
        self.bounds = np.cumsum([0] + [t.size for t in tests])
        self.row_fold = np.repeat(np.arange(len(folds)), [t.size for t in tests])
        n = X.shape[0]
        self.cand = np.zeros((len(folds), n), dtype=bool)
        for f, (train, _) in enumerate(folds):
            self.cand[f, train] = True
        self._y_col = y.reshape(-1, 1)
        self._cand_rows = self.cand[self.row_fold]  # (R, n): each row's candidates
        # integer targets whose sums of k cannot round: the mean is the same in any order,
        # so only the multiset of the neighbours' targets matters (the vote's test, with the
        # distinct targets as labels)
        self._exact_sums = bool(np.all(y == np.round(y))
                                and n_neighbors * np.abs(y).max() < 2.0 ** 52)
        self._codes = np.unique(y, return_inverse=True)[1].reshape(-1).astype(np.int64)
        self.n_uncertified = 0
        self.n_sklearn_folds = 0
        self.n_folds_seen = 0
        # scikit-learn's kd-tree queried directly: checks left (an int), True, or False
        self._direct_tree = 3
        # the compiled path (the evaluator's data and thread count), else numpy's
        self._data, self._threads = data, threads
        self._kernel_folds = None
        self._replay = None         # RegressionReplay of the compiled path
        self.n_replayed_rows = 0
        self.n_tree_masks = 0
        self._paths = _PathTimes()          # batches of masks
        self._flip_paths = _PathTimes()     # one-feature flips of a mask
        if data is not None:
            from pymoo_fs.evaluation.knn.regress_replay import RegressionReplay

            self._replay = RegressionReplay(X, y, folds, n_neighbors)
            self._kernel_folds = self._replay.kernel_folds

    # ------------------------------------------------------------------ scores
    def scores(self, masks):
        """Mean fold scores of non-empty masks, each ``cross_val_score(...).mean()``.

        Parameters
        ----------
        masks : ndarray of bool, shape (B, n_features)

        Returns
        -------
        ndarray of float64, shape (B,)
        """
        from threadpoolctl import threadpool_limits

        if self._data is not None and not self._mostly_ties():
            return self._compiled_scores(masks)
        out = np.empty(masks.shape[0])
        # one BLAS thread: these products are small (n x n x |S|), and a threaded BLAS
        # contending for busy cores measured 35 ms against 0.5 ms for one 442 x 442 x 10
        with threadpool_limits(limits=1, user_api="blas"):
            for b, mask in enumerate(masks):
                if self._mostly_ties():
                    out[b] = self._sklearn_score(mask)
                    continue
                D, norms = self._distances(mask)
                out[b] = self._score_rows(D, _Bound(int(np.count_nonzero(mask)), norms,
                                                    self.rows), mask)
        return out

    def _compiled_scores(self, masks):
        """:meth:`scores` by the compiled kernels (:mod:`.kernels.regress`): every mask's
        certified neighbours in one call, their targets' means as scikit-learn takes them
        (one gather and mean for all rows: the same operations per row as its
        ``(n_test, k, 1)`` block), the folds holding a row left open by scikit-learn, the
        fold scores of all masks per fold at once. Masks scikit-learn searches by kd-tree
        may take the tree path instead (:class:`_PathTimes`)."""
        B = masks.shape[0]
        rows_nz, cols_nz = np.nonzero(masks)
        sizes = np.bincount(rows_nz, minlength=B)
        threads = self._threads() if self._threads is not None else 1
        return self._path_scores(self._paths, masks, sizes, threads, lambda: (
            self._gram_predictions(masks, sizes, rows_nz, cols_nz, threads)))

    def _compiled_flip_scores(self, mask, features):
        """:meth:`flip_scores` by the compiled kernels: the flipped masks' rows from the base
        mask's Gram matrix and one-column updates (:func:`.kernels.regress.regress_flips`), or
        by the tree path, whichever the flips' own measured seconds favour
        (:class:`_PathTimes`); flips of the empty mask are scored as masks."""
        from pymoo_fs.evaluation.base import flip_rows

        flipped = flip_rows(mask, features)
        if not mask.any():
            return self._compiled_scores(flipped)
        sizes = np.count_nonzero(flipped, axis=1)
        threads = self._threads() if self._threads is not None else 1
        return self._path_scores(self._flip_paths, flipped, sizes, threads, lambda: (
            self._flip_predictions(mask, features, flipped, threads)))

    def _path_scores(self, paths, masks, sizes, threads, gram):
        """Scores of ``masks`` by the tree path or by ``gram()`` (the Gram path's predictions),
        as ``paths`` (:class:`_PathTimes`) chooses, with the seconds per mask recorded there
        (numba's compilation during the call subtracted)."""
        compiling = compile_seconds()[0]
        start = time.perf_counter()
        tree = paths.use_tree(sizes)
        pred = self._tree_predictions(masks, threads) if tree else None
        if pred is None:
            tree = False
            pred = gram()
        seconds = time.perf_counter() - start - (compile_seconds()[0] - compiling)
        paths.record(tree, sizes, seconds / masks.shape[0])
        return self._fold_scores(pred)

    def _flip_predictions(self, mask, features, flipped, threads):
        """Predictions (F, R) of the flips' rows from ``mask``'s Gram matrix, open rows as in
        :meth:`_gram_predictions`."""
        from pymoo_fs.evaluation.knn.kernels import blas, regress
        from pymoo_fs.evaluation.knn.kernels.bounds import fresh_eps, update_eps
        from pymoo_fs.evaluation.knn.parallel import ParallelContext

        cols = np.flatnonzero(mask).astype(np.int64)
        F, R = flipped.shape[0], self.rows.size
        with ParallelContext(threads):
            nbr, unc = regress.regress_flips(
                self._data, self._kernel_folds, cols, np.asarray(features, dtype=np.int64),
                float(fresh_eps(float(cols.size))), float(update_eps(1)), self._exact_sums,
                max(1, min(threads, F)), blas.USE_NUMPY_BLAS)
        pred = np.mean(self._y_col[nbr.reshape(F * R, self.k)], axis=1).reshape(F, R)
        if unc.any():
            self._settle(flipped, unc, nbr, pred, threads)
        return pred

    def _fold_scores(self, pred):
        """Mean fold score of every row of the predictions ``pred`` (B, R), as
        ``cross_val_score(...).mean()``."""
        B = pred.shape[0]
        n_folds = len(self.folds)
        self.n_folds_seen += B * n_folds
        fold_scores = np.empty((B, n_folds))
        for f, (_, test) in enumerate(self.folds):
            P = pred[:, self.bounds[f]:self.bounds[f + 1]]
            if self._batch_metric is not None:
                fold_scores[:, f] = self._sign * self._batch_metric(self.y[test], P)
            else:
                for b in range(B):
                    fold_scores[b, f] = self._sign * self._fold_metric(self.y[test], P[b])
        return fold_scores.mean(axis=1)

    def _tree_predictions(self, masks, threads):
        """Predictions (B, R) of every row by the replay of scikit-learn's own search (its
        kd-tree, built for each fold; no Gram matrix, nothing to certify), or None where the
        replay is not usable."""
        from pymoo_fs.evaluation.knn.parallel import ParallelContext

        B, R = masks.shape[0], self.rows.size
        nbr = np.empty((B, R, self.k), dtype=np.int64)
        with ParallelContext(threads):
            if not self._replay.neighbours_batch(masks, np.ones((B, R), dtype=bool), nbr):
                return None
        self.n_tree_masks += B
        return np.mean(self._y_col[nbr.reshape(B * R, self.k)], axis=1).reshape(B, R)

    def _gram_predictions(self, masks, sizes, rows_nz, cols_nz, threads):
        """Predictions (B, R) of every row from the masks' Gram matrices (certified rows) and
        the replay or scikit-learn (open rows)."""
        from pymoo_fs.evaluation.knn.kernels import blas, regress
        from pymoo_fs.evaluation.knn.kernels.bounds import fresh_eps
        from pymoo_fs.evaluation.knn.parallel import ParallelContext

        B = masks.shape[0]
        R, k = self.rows.size, self.k
        eps = fresh_eps(sizes.astype(np.float64), False)
        cols = cols_nz.astype(np.int64)
        folds = self._kernel_folds
        with ParallelContext(threads):
            if B == 1:
                nbr, unc = regress.regress_one(self._data, folds, cols, float(eps[0]),
                                               self._exact_sums, threads,
                                               blas.USE_NUMPY_BLAS)
                nbr, unc = nbr[None], unc[None]
            else:
                ptr = np.zeros(B + 1, dtype=np.int64)
                np.cumsum(sizes, out=ptr[1:])
                nbr, unc = regress.regress_batch(self._data, folds, cols, ptr, eps,
                                                 self._exact_sums, min(threads, B),
                                                 blas.USE_NUMPY_BLAS)
        pred = np.mean(self._y_col[nbr.reshape(B * R, k)], axis=1).reshape(B, R)
        if unc.any():
            self._settle(masks, unc, nbr, pred, threads)
        return pred

    def _settle(self, masks, unc, nbr, pred, threads):
        """Predictions of the open rows ``unc`` (B, R) of ``masks`` (in place in ``pred``
        (B, R)): scikit-learn's ordered neighbours replayed
        (:class:`~.regress_replay.RegressionReplay`, into ``nbr`` (B, R, k), the masks over
        ``threads``) where its self-check holds, else each fold holding one by scikit-learn."""
        from pymoo_fs.evaluation.knn.parallel import ParallelContext

        self.n_uncertified += int(np.count_nonzero(unc))
        with ParallelContext(threads):
            replayed = self._replay.neighbours_batch(masks, unc, nbr)
        if replayed:
            b, r = np.nonzero(unc)
            pred[b, r] = np.mean(self._y_col[nbr[b, r]], axis=1).ravel()
            self.n_replayed_rows += b.size
            return
        open_folds = np.add.reduceat(unc, self.bounds[:-1], axis=1)
        for b, f in zip(*np.nonzero(open_folds)):
            train, test = self.folds[f]
            pred[b, self.bounds[f]:self.bounds[f + 1]] = self._sklearn_fold(masks[b], train,
                                                                            test)

    def _distances(self, mask):
        """Squared distances of the CV rows to every sample (R, n), by the Gram matrix of the
        centred selected columns (as :func:`.reference.squared_distances`), and the raw and
        centred norms of every sample over them."""
        Xs = self.X[:, mask]
        C = Xs - Xs.mean(axis=0)
        sq = np.einsum("ij,ij->i", C, C)
        raw = np.sqrt(np.einsum("ij,ij->i", Xs, Xs))
        rows = self.rows
        D = sq[rows, None] + sq[None, :] - 2.0 * (C[rows] @ C.T)
        np.maximum(D, 0.0, out=D)
        return D, (raw, np.sqrt(sq))

    def flip_scores(self, mask, features):
        """Scores of the one-feature flips of ``mask`` (see :meth:`_flip_scores`), with one
        BLAS thread."""
        from threadpoolctl import threadpool_limits

        if self._data is not None and not self._mostly_ties():
            return self._compiled_flip_scores(mask, features)
        if self._data is not None or np.count_nonzero(mask) < _FLIP_FROM or \
                self._mostly_ties():
            # a fresh matrix of a small mask costs less than the update's passes
            from pymoo_fs.evaluation.base import flip_rows

            return self.scores(flip_rows(mask, features))
        with threadpool_limits(limits=1, user_api="blas"):
            return self._flip_scores(mask, features)

    def _flip_scores(self, mask, features):
        """Scores of the one-feature flips of ``mask`` at ``features``, from its matrix.

        Parameters
        ----------
        mask : ndarray of bool, shape (n_features,)
            Non-empty base mask, or empty (then each flip adds one feature).
        features : ndarray of int64, shape (m,)
            Distinct features, none of whose flips empties the mask.

        Returns
        -------
        ndarray of float64, shape (m,)
            Equal to :meth:`scores` of the flipped masks.
        """
        X, rows = self.X, self.rows
        n = X.shape[0]
        if mask.any():
            D, _ = self._distances(mask)
        else:
            D = np.zeros((rows.size, n))
        # norms over every column the base and the flips touch bound those of each mask
        union = mask.copy()
        union[features] = True
        Xu = X[:, union]
        Cu = Xu - Xu.mean(axis=0)
        raw = np.sqrt(np.einsum("ij,ij->i", Xu, Xu))
        cen = np.sqrt(np.einsum("ij,ij->i", Cu, Cu))
        bound = _Bound(int(np.count_nonzero(mask)) + 1, (raw, cen), rows)
        d_max = D.max(axis=1)
        out = np.empty(features.size)
        for i, f in enumerate(features.tolist()):
            diff = X[rows, f][:, None] - X[None, :, f]
            delta = diff * diff
            if mask[f]:
                Df = D - delta
                np.maximum(Df, 0.0, out=Df)
                new = mask.copy()
                new[f] = False
            else:
                Df = D + delta
                new = mask.copy()
                new[f] = True
            # the update's own rounding: the square (3u), the sum or difference (u), relative
            # to the larger of the operands (all distances are at most the row's largest)
            xq = X[rows, f]
            delta_max = np.maximum((xq - X[:, f].min()) ** 2, (xq - X[:, f].max()) ** 2)
            out[i] = self._score_rows(Df, bound.with_update(d_max, delta_max), new)
        return out

    def holdout_score(self, mask, X_test, y_test):
        """``scoring`` of ``KNeighborsRegressor(k)`` fitted on all rows, on a test set
        (scikit-learn itself: hold-out scores are rare)."""
        from sklearn.neighbors import KNeighborsRegressor

        knn = KNeighborsRegressor(n_neighbors=self.k).fit(self.X[:, mask], self.y)
        return self._sign * self._metric(y_test, knn.predict(X_test[:, mask]))

    # ------------------------------------------------------------------ rows
    def _score_rows(self, D, bound, mask):
        """Mean fold score of one mask from its rows' distances ``D`` (R, n) and their
        :class:`_Bound`."""
        k = self.k
        Dm = np.where(self._cand_rows, D, np.inf)
        nb, ok = self._certified_neighbours(Dm, bound)
        fold_scores = np.empty(len(self.folds))
        self.n_folds_seen += len(self.folds)
        for f, (train, test) in enumerate(self.folds):
            lo, hi = self.bounds[f], self.bounds[f + 1]
            if ok[lo:hi].all():
                pred = np.mean(self._y_col[nb[lo:hi, :k]], axis=1).ravel()
            else:
                self.n_uncertified += int(np.count_nonzero(~ok[lo:hi]))
                pred = self._sklearn_fold(mask, train, test)
            fold_scores[f] = self._sign * self._fold_metric(self.y[test], pred)
        return fold_scores.mean()

    def _certified_neighbours(self, Dm, bound):
        """Each row's k + 1 nearest candidates in order of our distance (R, k + 1) and
        whether the targets of its k nearest, in scikit-learn's order, are sure (R,)."""
        k = self.k
        R, n = Dm.shape
        K = min(k + 1, n)
        part = np.argpartition(Dm, K - 1, axis=1)[:, :K]
        dp = np.take_along_axis(Dm, part, axis=1)
        order = np.lexsort((part, dp), axis=1)
        nb = np.take_along_axis(part, order, axis=1)
        d = np.take_along_axis(dp, order, axis=1)
        e = bound.pairs(nb)
        finite = np.isfinite(d)
        if K <= k:
            # every candidate is a neighbour: no (k+1)-th to separate from (the order is
            # still tested below)
            ok = np.ones(R, dtype=bool)
        else:
            # a row whose fold's training part holds exactly k samples has d_(k+1) = inf:
            # the set is sure, and the comparison says so (inf - finite = inf)
            ok = d[:, k - 1] + e[:, k - 1] < d[:, k] - bound.row_max()
        if self._exact_sums:
            # only the set matters: rows the strict test leaves open take the vote's test
            # (the band of candidates straddling the k-th place shares one target, or holds
            # exactly the missing places)
            open_rows = np.flatnonzero(~ok & finite[:, :k].all(axis=1))
            if open_rows.size:
                ok[open_rows] = ~reference.band_flags(Dm[open_rows], bound.full(open_rows),
                                                      self._codes, k)
            return nb, ok & finite[:, :k].all(axis=1)
        yk = self.y[nb[:, :k]]
        if k > 1:
            apart = d[:, :k - 1] + e[:, :k - 1] < d[:, 1:k] - e[:, 1:k]
            same = yk[:, :-1] == yk[:, 1:]
            ok &= np.all(apart | same, axis=1)
        ok &= finite[:, :k].all(axis=1)
        return nb, ok

    def _mostly_ties(self):
        """Whether nearly every (mask, fold) pair so far went to scikit-learn (data full of
        ties between different targets, such as duplicated rows): then the certification is
        skipped and scikit-learn predicts every fold (the same scores, without paying for
        both)."""
        return self.n_folds_seen >= _TIE_PAIRS and \
            self.n_sklearn_folds > _TIE_SHARE * self.n_folds_seen

    def _sklearn_score(self, mask):
        """Mean fold score of one mask, every fold predicted by scikit-learn."""
        scores = np.empty(len(self.folds))
        for f, (train, test) in enumerate(self.folds):
            scores[f] = self._sign * self._fold_metric(self.y[test],
                                                       self._sklearn_fold(mask, train, test))
        return scores.mean()

    def _sklearn_fold(self, mask, train, test):
        """scikit-learn's predictions of one fold (the whole query block).

        Where scikit-learn searches by kd-tree (at most 15 features, ``k < n_train // 2``),
        its own ``KDTree`` is built and queried directly, as ``KNeighborsRegressor`` builds and
        queries it, without the estimator's input checks (most of a fold's cost on small
        folds); the first three such folds of an evaluator are also predicted by the
        estimator, and a difference turns the direct way off for good.
        """
        from sklearn.neighbors import KNeighborsRegressor

        self.n_sklearn_folds += 1
        Xs = self.X[:, mask]
        Xtr, ytr = np.ascontiguousarray(Xs[train]), self.y[train]
        Xte = np.ascontiguousarray(Xs[test])
        tree = Xs.shape[1] <= 15 and self.k < Xtr.shape[0] // 2
        if tree and self._direct_tree is not False:
            from sklearn.neighbors import KDTree

            ind = KDTree(Xtr, leaf_size=30, metric="euclidean").query(
                Xte, self.k, return_distance=False)
            pred = np.mean(ytr.reshape(-1, 1)[ind], axis=1).ravel()
            if self._direct_tree is True:
                return pred
            ref = KNeighborsRegressor(n_neighbors=self.k).fit(Xtr, ytr).predict(Xte)
            if not np.array_equal(pred, ref):
                self._direct_tree = False
                return ref
            self._direct_tree -= 1
            if self._direct_tree == 0:
                self._direct_tree = True
            return pred
        return KNeighborsRegressor(n_neighbors=self.k).fit(Xtr, ytr).predict(Xte)


class _PathTimes:
    """Chooses, per batch, between the Gram path and the tree path by their measured seconds.

    A mask of at most :data:`~.paths.MAX_FEATURES` features (scikit-learn's kd-tree sizes)
    can be predicted either from its Gram matrix (every row's neighbours certified, the open
    ones replayed) or by the replay of scikit-learn's kd-tree for every row (no matrix, nothing
    open). Which is cheaper depends on the data: UCI concrete's duplicated mixtures leave more
    than half the rows open and the tree path was measured 1.7x faster there (18.0 against
    30.2 ms a batch of 30 masks), diabetes leaves 3 % open and the Gram path was 1.7x faster
    (4.9 against 8.3 ms). So the seconds per mask of each path are measured on the batches
    themselves (an exponential mean over calls, without the seconds numba spent compiling;
    a path's first batch, which loads its kernels, is not counted): the Gram path first, then
    the tree path, then the cheaper one, the other measured again every :attr:`PROBE_EVERY`
    batches. Either path gives the same scores, so the choice changes only the time.

    Attributes
    ----------
    PROBE_EVERY : int
        Batches between two measurements of the path not taken.
    seconds : dict
        ``{"gram": s, "tree": s}``: the measured seconds per mask (None before any).
    """

    PROBE_EVERY = 16

    def __init__(self):
        self.seconds = {"gram": None, "tree": None}
        self.n_batches = 0
        self._calls = {"gram": 0, "tree": 0}

    def use_tree(self, sizes):
        """Whether a batch of masks with ``sizes`` selected features goes by the tree path."""
        from pymoo_fs.evaluation.knn.paths import MAX_FEATURES

        if sizes.max() > MAX_FEATURES:
            return False
        gram, tree = self.seconds["gram"], self.seconds["tree"]
        if gram is None:
            return False
        if tree is None:
            return True
        cheaper = tree < gram
        if self.n_batches % self.PROBE_EVERY == 0:
            return not cheaper
        return cheaper

    def record(self, tree, sizes, seconds_per_mask):
        """Record one batch's seconds per mask (of masks the tree path could take)."""
        from pymoo_fs.evaluation.knn.paths import MAX_FEATURES

        if sizes.max() > MAX_FEATURES:
            return
        self.n_batches += 1
        key = "tree" if tree else "gram"
        self._calls[key] += 1
        if self._calls[key] == 1:
            return  # it loaded (or compiled) the path's kernels
        old = self.seconds[key]
        self.seconds[key] = seconds_per_mask if old is None else \
            0.5 * old + 0.5 * seconds_per_mask


class _Bound:
    """Per-pair bounds of |our squared distance - scikit-learn's| for the CV rows of a mask.

    ``E_ij = 2 gamma_{m+2} ((A_i + A_j)^2 + (C_i + C_j)^2)`` (:func:`.reference.rounding_bound`,
    twice over: a margin for the rounding of the centring), with ``A`` and ``C`` the raw and
    centred norms over the mask's columns (or a superset: larger norms bound as well), and for
    a flip the rounding of its one-column update on top. Computed where needed only: for a
    row's nearest candidates (:meth:`pairs`), as a per-row maximum from the largest norms
    (:meth:`row_max`), and in full for a few rows (:meth:`full`).
    """

    def __init__(self, m, norms, rows):
        from pymoo_fs.evaluation.knn.kernels.bounds import U64, gamma

        self.g = 2.0 * gamma(m + 2, U64)
        self.A, self.C = norms
        self.rows = rows
        self.update = None
        self._update_rows = None

    def with_update(self, d_max, delta_max):
        """The bound of a flipped mask's distances ``D +- delta``, from each row's largest
        base distance ``d_max`` (R,) and largest squared difference ``delta_max`` (R,) on the
        flipped feature (a new object)."""
        other = _Bound.__new__(_Bound)
        other.g, other.A, other.C, other.rows = self.g, self.A, self.C, self.rows
        other.update = (d_max, delta_max)
        other._update_rows = None
        return other

    def _extra(self, r, j):
        if self.update is None:
            return 0.0
        return self._row_update()[r]

    def pairs(self, nb):
        """Bounds (R, K) of each row's listed candidates ``nb`` (R, K)."""
        q = self.rows[:, None]
        r = np.arange(nb.shape[0])[:, None]
        return self.g * ((self.A[q] + self.A[nb]) ** 2 + (self.C[q] + self.C[nb]) ** 2) \
            + self._extra(r, nb)

    def row_max(self):
        """An upper bound (R,) of each row's bound over all candidates."""
        q = self.rows
        base = self.g * ((self.A[q] + self.A.max()) ** 2 + (self.C[q] + self.C.max()) ** 2)
        if self.update is None:
            return base
        return base + self._row_update()

    def full(self, which):
        """Bounds (len(which), n) of the rows ``which`` against every sample."""
        q = self.rows[which][:, None]
        E = self.g * ((self.A[q] + self.A[None, :]) ** 2 + (self.C[q] + self.C[None, :]) ** 2)
        if self.update is not None:
            E = E + self._row_update()[which][:, None]
        return E

    def _row_update(self):
        """Per row (R,), a bound of the update's own rounding over all its candidates: the
        square (3u) and the sum or difference (u) of each entry, relative to the row's
        largest base distance and squared difference (``Df <= D + delta``)."""
        if self._update_rows is None:
            d_max, delta_max = self.update
            self._update_rows = 8.0 * _U * (2.0 * d_max + 2.0 * delta_max)
        return self._update_rows
