"""Rows the rounding bound could not certify: settled by scikit-learn's arithmetic, replayed
in compiled code where the self-check allows, else by scikit-learn itself."""

import numpy as np

from pymoo_fs.evaluation.knn import selfcheck
from pymoo_fs.evaluation.knn.layout import ColumnRanks
from pymoo_fs.evaluation.knn.parallel import ParallelContext
from pymoo_fs.evaluation.knn.paths import MAX_FEATURES


class RowSettler:
    """Settles an evaluator's uncertified rows and counts them.

    Parameters
    ----------
    X : ndarray of float64, shape (n_samples, n_features)
    y : ndarray of int64, shape (n_samples,)
        Encoded labels.
    folds : list of (ndarray, ndarray)
        ``(train_idx, test_idx)`` of every fold.
    layout : FoldLayout
    n_neighbors : int

    Attributes
    ----------
    n_uncertified : int
        Rows the bound could not certify so far (diagnostics and tests).
    n_sklearn_rows : int
        Rows predicted by scikit-learn itself so far.
    ranks : ColumnRanks
        The columns' ranks the replayed kd-trees are built from (the tree path reads them
        too).
    """

    def __init__(self, X, y, folds, layout, n_neighbors):
        self.X, self.y, self.folds, self.layout, self.k = X, y, folds, layout, n_neighbors
        self.ranks = ColumnRanks(X)
        self._int_max = None  # each column's largest magnitude if integer-valued, else -1
        self.n_uncertified = 0
        self.n_sklearn_rows = 0

    def settle(self, pred, unc, n_unc, masks, folds, threads):
        """Settle the rows open in ``unc`` (in place in ``pred``).

        Parameters
        ----------
        pred : ndarray of int64, shape (B, R)
        unc : ndarray of bool, shape (B, R)
            Rows the kernels could not certify.
        n_unc : ndarray of int64, shape (B,)
            Their count per mask.
        masks : ndarray of bool, shape (B, n_features) or None
            The masks (only read where some row is open).
        folds : Folds
            The kernels' fold layout.
        threads : int
            Worker threads of the replay.
        """
        self.n_uncertified += int(n_unc.sum())
        open_masks = np.flatnonzero(unc.any(axis=1))
        if not open_masks.size:
            return
        exact, chunk, sk_threads = selfcheck.settings()
        if exact:
            from pymoo_fs.evaluation.knn.kernels.sklearn_replay import exact_rows

            cols = [np.flatnonzero(m) for m in masks[open_masks]]
            sub_pred, sub_unc = pred[open_masks], unc[open_masks]
            # kd-trees are replayed for masks of at most MAX_FEATURES (else brute force)
            ranks = self.ranks.ensure(_concat([c for c in cols if c.size <= MAX_FEATURES]))
            ints = self.integer_masks(cols)
            with ParallelContext(threads):
                exact_rows(self.X, ranks, _concat(cols), _pointers(cols),
                           folds._replace(exact=1, sk_chunk=chunk, sk_threads=sk_threads),
                           sub_pred, sub_unc, ints)
            pred[open_masks], unc[open_masks] = sub_pred, sub_unc
        for b in np.flatnonzero(unc.any(axis=1)):
            self.settle_rows(pred[b], unc[b], masks[b])

    def integer_masks(self, cols):
        """Whether each mask's brute-force distances are exact integers in float64: all its
        columns integer-valued, of largest magnitude ``A``, with ``4 m A^2 <= 2^53`` for
        ``m`` columns (binary or count data; the replay then forms the middle terms of the
        open rows only, :func:`.kernels.sklearn_replay._sk_brute_rows`).

        Parameters
        ----------
        cols : list of ndarray of int64
            Each mask's selected columns.

        Returns
        -------
        ndarray of bool, shape (len(cols),)
        """
        if self._int_max is None:
            X = self.X
            whole = np.all(X == np.floor(X), axis=0)
            self._int_max = np.where(whole, np.abs(X).max(axis=0, initial=0.0), -1.0)
        out = np.zeros(len(cols), dtype=bool)
        for b, c in enumerate(cols):
            amax = self._int_max[c]
            out[b] = bool(c.size and amax.min() >= 0
                          and 4.0 * c.size * amax.max() ** 2 <= 2.0 ** 53)
        return out

    def settle_rows(self, pred, unc, mask):
        """Rows the kernels left, which happens only where the replay of scikit-learn's
        arithmetic is off (not verified in this process, or the numpy backend): scikit-learn
        predicts their folds (in place in ``pred``, shape (R,))."""
        from sklearn.neighbors import KNeighborsClassifier

        rows = np.flatnonzero(unc)
        self.n_sklearn_rows += rows.size
        Xs = self.X[:, mask]
        for f in np.unique(self.layout.row_fold[rows]):
            train, test = self.folds[f]
            lo, hi = self.layout.bounds[f], self.layout.bounds[f + 1]
            knn = KNeighborsClassifier(n_neighbors=self.k).fit(Xs[train], self.y[train])
            pred[lo:hi] = knn.predict(Xs[test])


def _concat(parts):
    return np.concatenate(parts).astype(np.int64) if parts else np.empty(0, np.int64)


def _pointers(parts):
    out = np.zeros(len(parts) + 1, dtype=np.int64)
    np.cumsum([p.size for p in parts], out=out[1:])
    return out
