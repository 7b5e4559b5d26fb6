"""scikit-learn's ordered neighbours of the regression rows the rounding bound leaves open,
replayed in compiled code.

``KNeighborsRegressor.predict`` is ``np.mean(y_train[neigh_ind], axis=1)``: the floating-point
sum runs over the neighbours in the order ``kneighbors`` returns them, so a row whose
neighbours tie (equal distances between different targets: integer-valued or duplicated
features, as in ``concrete`` and ``diabetes``) needs scikit-learn's *order*, not only its set.
:class:`RegressionReplay` gives it for the open rows of one mask, fold by fold, from
:func:`~pymoo_fs.evaluation.knn.kernels.sklearn_replay.exact_regression_rows` (scikit-learn's
brute force or kd-tree, as ``algorithm="auto"`` chooses, then its ``simultaneous_sort``), once
:func:`~pymoo_fs.evaluation.knn.selfcheck.regression_settings` has compared that replay with
``KNeighborsRegressor`` in the running process; otherwise it declines (returns False) and the
caller asks scikit-learn.

Versioned against scikit-learn's private implementation like the classifier's replay
(:mod:`pymoo_fs.evaluation.knn.kernels.sklearn_replay`: written against scikit-learn 1.9.1,
``sklearn/utils/_sorting.pyx``, ``sklearn/metrics/_pairwise_distances_reduction/_argkmin.pyx.tp``,
``sklearn/neighbors/_binary_tree.pxi.tp``); the self-check decides on every release.
"""

import numpy as np

from pymoo_fs.evaluation.knn import selfcheck
from pymoo_fs.evaluation.knn.layout import ColumnRanks, FoldLayout


class RegressionReplay:
    """scikit-learn's ordered neighbours of chosen CV rows of one mask at a time.

    Parameters
    ----------
    X : ndarray of float64, shape (n_samples, n_features)
        The data as the evaluator scores it (converted to C-contiguous float64 if needed).
    y : ndarray, shape (n_samples,)
        Targets (only their distinct values are encoded, for the kernels' fold layout).
    folds : list of (ndarray, ndarray)
        ``(train_idx, test_idx)`` integer arrays of every fold, as in
        :class:`~pymoo_fs.evaluation.knn.regression.RegressionRows`.
    n_neighbors : int

    Attributes
    ----------
    rows : ndarray of int64, shape (R,)
        The folds' test samples, fold after fold (``RegressionRows.rows``): row ``r`` of
        ``open_rows`` and ``nbr`` in :meth:`neighbours`.
    bounds : ndarray of int64, shape (n_folds + 1,)
        Rows of fold ``f`` are ``bounds[f]:bounds[f + 1]``.
    kernel_folds : Folds
        The kernels' fold layout, the distinct targets encoded as labels
        (:meth:`~pymoo_fs.evaluation.knn.layout.FoldLayout.kernel_folds`; the regression
        kernels of :mod:`~pymoo_fs.evaluation.knn.kernels.regress` read it too).
    k : int
    """

    def __init__(self, X, y, folds, n_neighbors):
        self.X = np.ascontiguousarray(X, dtype=np.float64)
        self.k = int(n_neighbors)
        folds = [(np.asarray(train, dtype=np.int64), np.asarray(test, dtype=np.int64))
                 for train, test in folds]
        codes = np.unique(np.asarray(y), return_inverse=True)[1].reshape(-1).astype(np.int64)
        layout = FoldLayout(folds, codes, self.k, int(codes.max()) + 1, "accuracy")
        self.kernel_folds = layout.kernel_folds()
        self.rows = layout.rows.astype(np.int64)
        self.bounds = layout.bounds.astype(np.int64)
        self._ranks = ColumnRanks(self.X)
        # scikit-learn refuses more neighbours than training samples
        self._fits = self.k >= 1 and min(train.size for train, _ in folds) >= self.k

    def neighbours(self, mask, open_rows, nbr):
        """Fill ``nbr[r]`` with scikit-learn's neighbours of every open row ``r``, in its order.

        ``nbr[r, j]`` (for ``open_rows[r]``) becomes the sample index (into ``X``) of the j-th
        neighbour that ``KNeighborsRegressor(n_neighbors).fit(X[train][:, mask], y[train])
        .kneighbors(X[test][:, mask], return_distance=False)`` gives row r (the fold's test
        sample ``rows[r]``), i.e. ``train[ind[i, j]]``; so ``np.mean(y[nbr[lo:hi], None],
        axis=1).ravel()`` over a fold's rows equals its ``predict``.

        Parameters
        ----------
        mask : ndarray of bool, shape (n_features,)
        open_rows : ndarray of bool, shape (R,)
            The rows to replay (not changed).
        nbr : ndarray of int64, shape (R, n_neighbors), C-contiguous
            Written in place for the open rows only.

        Returns
        -------
        bool
            True when ``nbr`` was filled; False (``nbr`` left as it was) where the replay is
            not usable here: the self-check
            (:func:`~pymoo_fs.evaluation.knn.selfcheck.regression_settings`) failed in this
            process (or scikit-learn's OpenBLAS configuration is unstable), the mask is empty,
            or a fold has fewer training samples than ``n_neighbors``. The caller then asks
            scikit-learn.

        Raises
        ------
        ValueError
            If ``open_rows`` or ``nbr`` do not have the shapes and dtypes above.
        """
        R = self.rows.size
        open_rows = np.asarray(open_rows)
        if open_rows.dtype != np.bool_ or open_rows.shape != (R,):
            raise ValueError(f"open_rows must be a bool array of shape ({R},)")
        if (not isinstance(nbr, np.ndarray) or nbr.dtype != np.int64
                or nbr.shape != (R, self.k) or not nbr.flags.c_contiguous
                or not nbr.flags.writeable):
            raise ValueError(f"nbr must be a writeable C-contiguous int64 array of shape "
                             f"({R}, {self.k})")
        return self.neighbours_batch(np.asarray(mask, dtype=bool)[None, :], open_rows[None, :],
                                     nbr[None])

    def neighbours_batch(self, masks, open_rows, nbr):
        """:meth:`neighbours` of a batch of masks at once, the masks over the threads of the
        caller's :class:`~pymoo_fs.evaluation.knn.parallel.ParallelContext`.

        Parameters
        ----------
        masks : ndarray of bool, shape (B, n_features)
            Non-empty masks.
        open_rows : ndarray of bool, shape (B, R)
        nbr : ndarray of int64, shape (B, R, n_neighbors), C-contiguous
            Written in place for the open rows only.

        Returns
        -------
        bool
            True when ``nbr`` was filled; False (``nbr`` left as it was) where :meth:`neighbours`
            would decline (or a mask is empty).

        Raises
        ------
        ValueError
            If the arrays do not have the shapes and dtypes above.
        """
        from pymoo_fs.evaluation.knn.kernels.sklearn_replay import exact_regression_batch

        masks = np.asarray(masks, dtype=bool)
        B, R = masks.shape[0], self.rows.size
        open_rows = np.asarray(open_rows)
        if masks.ndim != 2 or open_rows.dtype != np.bool_ or open_rows.shape != (B, R):
            raise ValueError(f"masks must be 2-D and open_rows a bool array of shape ({B}, {R})")
        if (not isinstance(nbr, np.ndarray) or nbr.dtype != np.int64
                or nbr.shape != (B, R, self.k) or not nbr.flags.c_contiguous
                or not nbr.flags.writeable):
            raise ValueError(f"nbr must be a writeable C-contiguous int64 array of shape "
                             f"({B}, {R}, {self.k})")
        sizes = np.count_nonzero(masks, axis=1)
        if B == 0 or not sizes.all() or not self._fits:
            return False
        exact, chunk, threads = selfcheck.regression_settings()
        if not exact:
            return False
        if not open_rows.any():
            return True
        _, cols = np.nonzero(masks)
        cols = cols.astype(np.int64)
        ptr = np.zeros(B + 1, dtype=np.int64)
        np.cumsum(sizes, out=ptr[1:])
        folds = self.kernel_folds._replace(exact=1, sk_chunk=chunk, sk_threads=threads)
        exact_regression_batch(self.X, self._ranks.ensure(np.unique(cols)), cols, ptr, folds,
                               np.ascontiguousarray(open_rows), nbr)
        return True
