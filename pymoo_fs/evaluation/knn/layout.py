"""The folds laid out for the kernels, the scores of their predictions, and each CV row's seeds.

Every fold's test rows are concatenated into one list of *rows* (row ``r`` is sample
``rows[r]`` of fold ``row_fold[r]``); one squared-distance matrix per mask serves them all, a
row's candidate neighbours being the training samples of its fold.
"""

import numpy as np

from pymoo_fs.evaluation.knn.kernels.structures import Folds


class FoldLayout:
    """The folds of an evaluator in the layout the kernels read, and its scores.

    Parameters
    ----------
    folds : list of (ndarray, ndarray)
        ``(train_idx, test_idx)`` int64 arrays of every fold.
    y : ndarray of int64, shape (n_samples,)
        Encoded labels.
    n_neighbors : int
    n_classes : int
    metric : {"accuracy", "balanced_accuracy"}

    Attributes
    ----------
    rows : ndarray of int64, shape (R,)
        The folds' test samples, fold after fold.
    row_fold : ndarray of int64, shape (R,)
        Fold of each row.
    bounds : ndarray of int64, shape (n_folds + 1,)
        Rows of fold ``f`` are ``bounds[f]:bounds[f + 1]``.
    cand : ndarray of bool, shape (n_folds, n_samples)
        Training part of each fold.
    row_labels : ndarray of int64, shape (R,)
        Label of each row.
    """

    def __init__(self, folds, y, n_neighbors, n_classes, metric):
        self.y, self.k, self.n_classes, self.metric = y, n_neighbors, n_classes, metric
        self.n_folds = len(folds)
        n = y.size
        tests = [test for _, test in folds]
        self.rows = np.concatenate(tests)
        self.row_fold = np.repeat(np.arange(self.n_folds), [t.size for t in tests])
        self.bounds = np.cumsum([0] + [t.size for t in tests])
        self.fold_sizes = np.diff(self.bounds)
        self.cand = np.zeros((self.n_folds, n), dtype=bool)
        for f, (train, _) in enumerate(folds):
            self.cand[f, train] = True
        self.train_flat = np.concatenate([train for train, _ in folds]).astype(np.int64)
        self.train_ptr = np.cumsum([0] + [train.size for train, _ in folds]).astype(np.int64)
        self.row_labels = y[self.rows]
        self.srow = np.argsort(self.rows, kind="stable").astype(np.int64)
        self.srow_ptr = np.searchsorted(self.rows[self.srow], np.arange(n + 1)).astype(np.int64)
        self.all_rows = np.arange(self.rows.size, dtype=np.int64)
        if metric == "balanced_accuracy":
            self._balanced_layout()

    def _balanced_layout(self):
        """One-hot (fold, class) groups of the rows, grouped by the number of classes present
        in the fold's test part (the per-fold mean runs over those)."""
        C = self.n_classes
        group = self.row_fold * C + self.row_labels
        self._onehot = np.zeros((self.rows.size, self.n_folds * C))
        self._onehot[np.arange(self.rows.size), group] = 1.0
        self._group_sizes = self._onehot.sum(axis=0)
        by_count = {}
        for f in range(self.n_folds):
            present = np.flatnonzero(self._group_sizes[f * C:(f + 1) * C])
            by_count.setdefault(present.size, ([], []))
            by_count[present.size][0].append(f)
            by_count[present.size][1].extend(f * C + present)
        self._balanced_groups = {c: (np.array(fs), np.array(gs))
                                 for c, (fs, gs) in by_count.items()}

    def kernel_folds(self):
        """The kernels' :class:`~pymoo_fs.evaluation.knn.kernels.structures.Folds` (with
        ``exact=0``: the evaluator turns the replay on where the self-check allows)."""
        return Folds(cand=self.cand, row_q=self.rows, row_f=self.row_fold, bounds=self.bounds,
                     train=self.train_flat, train_ptr=self.train_ptr, y=self.y, k=self.k,
                     n_classes=self.n_classes, exact=0, sk_chunk=256, sk_threads=1,
                     srow=self.srow, srow_ptr=self.srow_ptr, all_rows=self.all_rows)

    def cv_scores(self, pred):
        """Mean fold score of each row of ``pred``, as scikit-learn computes it.

        Parameters
        ----------
        pred : ndarray of int64, shape (n_masks, R)
            Predicted (encoded) label of every row.

        Returns
        -------
        ndarray of float64, shape (n_masks,)
        """
        correct = pred == self.row_labels
        if self.metric == "accuracy" and self.fold_sizes.size == correct.shape[1]:
            # leave-one-out: every fold score is 0 or 1, so their mean is the count of hits
            # over the number of folds, exactly (integer sums are exact in any order)
            return np.count_nonzero(correct, axis=1) / correct.shape[1]
        if self.metric == "accuracy":
            hits = np.add.reduceat(correct, self.bounds[:-1], axis=1)
            return (hits / self.fold_sizes).mean(axis=1)
        counts = correct.astype(np.float64) @ self._onehot  # (B, n_folds * n_classes)
        fold_scores = np.empty((pred.shape[0], self.n_folds))
        for n_present, (folds, groups) in self._balanced_groups.items():
            recalls = counts[:, groups] / self._group_sizes[groups]
            fold_scores[:, folds] = recalls.reshape(pred.shape[0], folds.size, n_present).mean(
                axis=2)
        return fold_scores.mean(axis=1)


class RowSeeds:
    """Per thread, each CV row's k + 1 nearest candidates under an earlier mask.

    The kernels' scan skips every candidate farther than these (see the kernels'
    ``rows.predict_rows``; the scores never depend on them). The last column counts the
    row's float32 bands re-measured in float64, which ``precision="auto"`` reads.

    Parameters
    ----------
    n_rows : int
        CV rows (R).
    n_neighbors : int
    """

    def __init__(self, n_rows, n_neighbors):
        self.n_rows, self.k = n_rows, n_neighbors
        self.array = None
        self._refined_seen = 0

    def get(self, threads):
        """int64 (at least ``threads``, R, k + 2): the seeds (-1 = none yet), reallocated
        when there are fewer thread rows than ``threads``."""
        if self.array is None or self.array.shape[0] < threads:
            self.array = np.full((threads, self.n_rows, self.k + 2), -1, dtype=np.int64)
            self.array[:, :, -1] = 0
            self._refined_seen = 0
        return self.array

    def clear(self):
        """Forget every seed (and the re-measurement counts)."""
        self.array = None

    def new_refinements(self):
        """int: rows re-measured in float64 since the last call."""
        refined = int(self.array[:, :, -1].sum())
        new = refined - self._refined_seen
        self._refined_seen = refined
        return new


def fold_score(correct, labels, metric):
    """Accuracy or balanced accuracy of one fold, exactly as scikit-learn computes it.

    Parameters
    ----------
    correct : ndarray of bool, shape (n_test,) or (n_masks, n_test)
    labels : ndarray of int64, shape (n_test,)
        Encoded labels, -1 for labels unseen in training.
    metric : {"accuracy", "balanced_accuracy"}

    Returns
    -------
    ndarray of float64, shape (n_masks,)
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


def encode_test_labels(y_test, classes):
    """Codes of ``y_test`` in ``classes`` (sorted), -1 for labels not among them.

    Parameters
    ----------
    y_test : ndarray, shape (n_test,)
    classes : ndarray, shape (n_classes,)

    Returns
    -------
    ndarray of int64, shape (n_test,)
    """
    pos = np.searchsorted(classes, y_test)
    pos = np.clip(pos, 0, classes.size - 1)
    known = classes[pos] == y_test
    return np.where(known, pos, -1).astype(np.int64)


#: columns ranked per sort in :meth:`ColumnRanks.ensure`
_RANK_BLOCK = 512


class ColumnRanks:
    """Each column's ranks of the samples, by value and then by index, made on first use
    (:func:`~pymoo_fs.evaluation.knn.kernels.sklearn_replay.kd_keys` of the columns): the
    order in which scikit-learn's kd-tree build compares points, so that the replay of
    its trees (:func:`pymoo_fs.evaluation.knn.kernels.sklearn_replay.kd_build`) compares two
    integers instead of two floats and their indices.

    Parameters
    ----------
    X : ndarray of float64, shape (n_samples, n_features)

    Attributes
    ----------
    array : ndarray of int32, shape (n_features, n_samples)
        ``array[j, i]``: rank of sample ``i`` in column ``j`` (0-based; equal values ranked
        by index). Only the rows of columns passed to :meth:`ensure` are filled; the
        others are uninitialised (their memory is not touched either).
    """

    def __init__(self, X):
        self._X = X
        self._array = None
        self._done = np.zeros(X.shape[1], dtype=bool)

    def __getstate__(self):
        # the ranks are remade on first use: a pickled evaluator (a worker's copy) does not
        # carry half its data's size again
        return {"X": self._X}

    def __setstate__(self, state):
        self.__init__(state["X"])

    @property
    def array(self):
        """ndarray of int32, shape (n_features, n_samples): the ranks (allocated on first
        access; rows of columns not passed to :meth:`ensure` are uninitialised)."""
        if self._array is None:
            self._array = np.empty(self._X.shape[::-1], dtype=np.int32)
        return self._array

    def ensure(self, cols):
        """Fill the ranks of ``cols`` not made yet; returns :attr:`array`.

        Parameters
        ----------
        cols : array-like of int
            Column indices.

        Returns
        -------
        ndarray of int32, shape (n_features, n_samples)

        Raises
        ------
        IndexError
            If a column index is outside ``0 .. n_features - 1``.
        """
        # the replay's own ranking (imported here: the evaluators import no kernel module)
        from pymoo_fs.evaluation.knn.kernels.sklearn_replay import kd_keys

        ranks = self.array
        todo = np.unique(np.asarray(cols, dtype=np.int64))
        todo = todo[~self._done[todo]]
        # by blocks of columns: the temporaries stay at n x 6 KiB
        for start in range(0, todo.size, _RANK_BLOCK):
            block = todo[start:start + _RANK_BLOCK]
            ranks[block] = kd_keys(np.ascontiguousarray(self._X[:, block]))
            self._done[block] = True
        return ranks
