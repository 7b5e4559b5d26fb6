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

import numpy as np

from pymoo_fs.evaluation.knn import reference

#: unit roundoff of float64
_U = 2.0 ** -53


def _metric(scoring):
    """scikit-learn's metric function of ``scoring`` and its sign (as its scorer applies it)."""
    from sklearn.metrics import mean_absolute_error, mean_squared_error, r2_score

    return {"neg_mean_squared_error": (mean_squared_error, -1.0),
            "neg_mean_absolute_error": (mean_absolute_error, -1.0),
            "r2": (r2_score, 1.0)}[scoring]


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

    Attributes
    ----------
    n_uncertified : int
        Rows the bound could not certify so far.
    n_sklearn_folds : int
        (mask, fold) pairs predicted by scikit-learn itself so far.
    """

    def __init__(self, X, y, folds, n_neighbors, scoring):
        self.X, self.y, self.folds, self.k = X, y, folds, n_neighbors
        self.scoring = scoring
        self._metric, self._sign = _metric(scoring)
        tests = [test for _, test in folds]
        self.rows = np.concatenate(tests)
        self.bounds = np.cumsum([0] + [t.size for t in tests])
        self.row_fold = np.repeat(np.arange(len(folds)), [t.size for t in tests])
        n = X.shape[0]
        self.cand = np.zeros((len(folds), n), dtype=bool)
        for f, (train, _) in enumerate(folds):
            self.cand[f, train] = True
        self._y_col = y.reshape(-1, 1)
        # integer targets whose sums of k cannot round: the mean is the same in any order,
        # so only the multiset of the neighbours' targets matters (the vote's test, with the
        # distinct targets as labels)
        self._exact_sums = bool(np.all(y == np.round(y))
                                and n_neighbors * np.abs(y).max() < 2.0 ** 52)
        self._codes = np.unique(y, return_inverse=True)[1].reshape(-1).astype(np.int64)
        self.n_uncertified = 0
        self.n_sklearn_folds = 0

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
        out = np.empty(masks.shape[0])
        for b, mask in enumerate(masks):
            D, E = reference.squared_distances(self.X[:, mask])
            # twice the bound: a margin for the rounding of the centring itself
            out[b] = self._score_rows(D[self.rows], 2.0 * E[self.rows], mask)
        return out

    def flip_scores(self, mask, features):
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
            D, _ = reference.squared_distances(X[:, mask])
            D = D[rows]
        else:
            D = np.zeros((rows.size, n))
        # norms over every column the base and the flips touch bound those of each mask
        union = mask.copy()
        union[features] = True
        Xu = X[:, union]
        Cu = Xu - Xu.mean(axis=0)
        raw = np.sqrt(np.einsum("ij,ij->i", Xu, Xu))
        cen = np.sqrt(np.einsum("ij,ij->i", Cu, Cu))
        m = int(np.count_nonzero(mask)) + 1
        E0 = 2.0 * reference.rounding_bound(m, raw[rows], cen[rows], raw, cen)
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
            # the update's own rounding: the square (3u), the sum or difference (u)
            Ef = E0 + 8.0 * _U * (delta + np.abs(D) + Df)
            out[i] = self._score_rows(Df, Ef, new)
        return out

    def holdout_score(self, mask, X_test, y_test):
        """``scoring`` of ``KNeighborsRegressor(k)`` fitted on all rows, on a test set
        (scikit-learn itself: hold-out scores are rare)."""
        from sklearn.neighbors import KNeighborsRegressor

        knn = KNeighborsRegressor(n_neighbors=self.k).fit(self.X[:, mask], self.y)
        return self._sign * self._metric(y_test, knn.predict(X_test[:, mask]))

    # ------------------------------------------------------------------ rows
    def _score_rows(self, D, E, mask):
        """Mean fold score of one mask from its rows' distances ``D`` (R, n) and bounds."""
        k = self.k
        Dm = np.where(self.cand[self.row_fold], D, np.inf)
        nb, ok = self._certified_neighbours(Dm, E)
        fold_scores = np.empty(len(self.folds))
        for f, (train, test) in enumerate(self.folds):
            lo, hi = self.bounds[f], self.bounds[f + 1]
            if ok[lo:hi].all():
                pred = np.mean(self._y_col[nb[lo:hi, :k]], axis=1).ravel()
            else:
                self.n_uncertified += int(np.count_nonzero(~ok[lo:hi]))
                pred = self._sklearn_fold(mask, train, test)
            fold_scores[f] = self._sign * self._metric(self.y[test], pred)
        return fold_scores.mean()

    def _certified_neighbours(self, Dm, E):
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
        e = np.take_along_axis(E, nb, axis=1)
        finite = np.isfinite(d)
        if K <= k or not finite[:, k].all():
            # a fold's training part of exactly k samples: every candidate is a neighbour,
            # but their order still needs the test below; no (k+1)-th to separate from
            ok = np.ones(R, dtype=bool)
        else:
            e_max = np.max(np.where(np.isfinite(Dm), E, 0.0), axis=1)
            ok = d[:, k - 1] + e[:, k - 1] < d[:, k] - e_max
        if self._exact_sums:
            # only the set matters: rows the strict test leaves open take the vote's test
            # (the band of candidates straddling the k-th place shares one target, or holds
            # exactly the missing places)
            open_rows = np.flatnonzero(~ok & finite[:, :k].all(axis=1))
            if open_rows.size:
                ok[open_rows] = ~reference.band_flags(Dm[open_rows], E[open_rows],
                                                      self._codes, k)
            return nb, ok & finite[:, :k].all(axis=1)
        yk = self.y[nb[:, :k]]
        if k > 1:
            apart = d[:, :k - 1] + e[:, :k - 1] < d[:, 1:k] - e[:, 1:k]
            same = yk[:, :-1] == yk[:, 1:]
            ok &= np.all(apart | same, axis=1)
        ok &= finite[:, :k].all(axis=1)
        return nb, ok

    def _sklearn_fold(self, mask, train, test):
        """scikit-learn's predictions of one fold (the whole query block)."""
        from sklearn.neighbors import KNeighborsRegressor

        self.n_sklearn_folds += 1
        Xs = self.X[:, mask]
        knn = KNeighborsRegressor(n_neighbors=self.k).fit(Xs[train], self.y[train])
        return knn.predict(Xs[test])
