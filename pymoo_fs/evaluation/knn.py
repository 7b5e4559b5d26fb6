"""The exact KNN wrapper evaluator: cross-validated accuracy of feature subsets."""

import numpy as np
from sklearn.model_selection import LeaveOneOut, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.evaluation import _reference

_METRICS = ("accuracy", "balanced_accuracy")


class KNNEvaluator:
    """Exact inner cross-validation score of KNN on feature subsets (the wrapper fitness).

    For every boolean mask ``m`` over the features, :meth:`score` returns exactly::

        cross_val_score(KNeighborsClassifier(n_neighbors=k), X[:, m], y, cv=ev.folds).mean()

    (with ``scoring="balanced_accuracy"`` when ``metric="balanced_accuracy"``), where ``X`` is the
    float64 copy held in :attr:`X`. One squared-distance matrix per mask serves every fold: a
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
    cv : int, "loo" or list of (train_idx, test_idx), default=10
        Inner cross-validation. An int gives ``StratifiedKFold(cv, shuffle=True,
        random_state=random_state)``; ``"loo"`` gives leave-one-out; a list of index-array pairs
        is used as given (each fold's training and test parts must be disjoint). The folds are
        fixed at construction and exposed as :attr:`folds`.
    random_state : int or None, default=0
        Seed of the fold shuffling for an int ``cv``.
    metric : {"accuracy", "balanced_accuracy"}, default="accuracy"
        Score of each fold (accuracy, or the mean per-class recall over the classes present in
        the fold's test part); the folds' scores are then averaged.

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
        Number of masks whose score was actually computed (empty masks excluded).

    Raises
    ------
    ValueError
        If ``X`` is not a finite 2-D numeric array, ``y`` does not match it or holds fewer than
        2 classes, ``n_neighbors`` is not a positive int or exceeds a fold's training part,
        ``cv`` is invalid, a class has fewer members than the ``cv`` folds asked for, or
        ``metric`` is unknown.

    Notes
    -----
    **Ties.** scikit-learn keeps, among candidates at equal distance, the one met first, and a
    vote tie goes to the smallest class index (``argmax`` of the class counts). Which candidate
    is met first depends on its algorithm (brute force scans by index; a kd-tree, chosen for 15
    or fewer selected features, scans in tree order) and its distances carry rounding errors of
    their own. This evaluator therefore certifies every prediction: with ``t`` the k-th nearest
    distance and ``E`` a rigorous bound of the difference between the two computations, the
    vote cannot differ from scikit-learn's unless the band ``[t - 2E, t + 2E]`` holds
    candidates on both sides of the k-th place with different labels. Such rows (rare on
    continuous data, more frequent on discrete data) are predicted by scikit-learn itself, on
    exactly the data ``cross_val_score`` would use. The result is the same score bit for bit.

    **Empty mask.** A mask selecting no feature scores 0.0 (KNN is undefined without features);
    it is not counted in :attr:`n_evaluations`.

    Seed 001 (Tran et al., GECCO 2019, Eq. 7) averages per-fold balanced accuracies as done
    here; the AMSO authors' code pools one confusion matrix over all folds instead.

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
    array([0.649, 0.798])
    """

    def __init__(self, X, y, n_neighbors=5, cv=10, random_state=0, metric="accuracy"):
        self.X, self.y, self.classes = _check_data(X, y)
        if isinstance(n_neighbors, bool) or not isinstance(n_neighbors, (int, np.integer)):
            raise ValueError(f"n_neighbors must be a positive int, got {n_neighbors!r}")
        if n_neighbors < 1:
            raise ValueError(f"n_neighbors must be a positive int, got {n_neighbors!r}")
        if metric not in _METRICS:
            raise ValueError(f"metric must be one of {_METRICS}, got {metric!r}")
        self.n_neighbors = int(n_neighbors)
        self.metric = metric
        self.random_state = random_state
        self.folds = _make_folds(self.X, self.y, self.classes, cv, random_state)
        self.cv = cv
        smallest = min(len(train) for train, _ in self.folds)
        if self.n_neighbors > smallest:
            raise ValueError(
                f"n_neighbors={self.n_neighbors} exceeds the training part of a fold "
                f"({smallest} samples)"
            )
        self.n_evaluations = 0
        self._n_uncertified = 0  # rows predicted by scikit-learn (diagnostics and tests)
        self._build_fold_layout()

    # ------------------------------------------------------------------ properties
    @property
    def n_samples(self):
        """int: number of training samples."""
        return self.X.shape[0]

    @property
    def n_features(self):
        """int: number of features ``D``."""
        return self.X.shape[1]

    @property
    def n_classes(self):
        """int: number of classes."""
        return self.classes.size

    # ------------------------------------------------------------------ public API
    def score(self, masks):
        """Inner-CV score of KNN on each feature subset.

        Parameters
        ----------
        masks : array-like of bool, shape (n_masks, n_features) or (n_features,)
            Feature subsets (True = selected). A 1-D mask is a batch of one. 0/1 integers are
            accepted.

        Returns
        -------
        scores : ndarray of float64, shape (n_masks,)
            Mean over the folds of the fold's accuracy (or balanced accuracy), in [0, 1]; 0.0 for
            an empty mask.

        Raises
        ------
        ValueError
            If ``masks`` has the wrong shape or values other than 0/1.
        """
        masks = self._check_masks(masks)
        scores = np.zeros(masks.shape[0])
        nonempty = np.flatnonzero(masks.any(axis=1))
        if nonempty.size:
            pred = np.stack([self._predict_cv(masks[i]) for i in nonempty])
            scores[nonempty] = self._cv_scores(pred)
            self.n_evaluations += nonempty.size
        return scores

    def holdout_score(self, masks, X_test, y_test):
        """Score of KNN fitted on all of :attr:`X` and tested on a hold-out set.

        Equals ``KNeighborsClassifier(k).fit(X[:, m], y).score(X_test[:, m], y_test)`` for every
        mask ``m`` (balanced accuracy with ``metric="balanced_accuracy"``).

        Parameters
        ----------
        masks : array-like of bool, shape (n_masks, n_features) or (n_features,)
            Feature subsets.
        X_test : array-like of shape (n_test, n_features)
            Test data, scaled as :attr:`X` was.
        y_test : array-like of shape (n_test,)
            Test labels in the original label space; a label unseen in training can never be
            predicted correctly.

        Returns
        -------
        scores : ndarray of float64, shape (n_masks,)
            0.0 for an empty mask. Hold-out scores are not counted in :attr:`n_evaluations`.

        Raises
        ------
        ValueError
            If the test data are not finite, do not have ``n_features`` columns, or do not match
            ``y_test``; or if ``masks`` is invalid.
        """
        masks = self._check_masks(masks)
        X_test = np.ascontiguousarray(X_test, dtype=np.float64)
        y_test = np.asarray(y_test)
        if X_test.ndim != 2 or X_test.shape[1] != self.n_features:
            raise ValueError(
                f"X_test must have shape (n_test, {self.n_features}), got {X_test.shape}"
            )
        if y_test.shape != (X_test.shape[0],):
            raise ValueError(
                f"y_test must have shape ({X_test.shape[0]},), got {y_test.shape}"
            )
        if not np.isfinite(X_test).all():
            raise ValueError("X_test contains NaN or infinite values")
        codes = _encode_test_labels(y_test, self.classes)
        scores = np.zeros(masks.shape[0])
        for i in np.flatnonzero(masks.any(axis=1)):
            pred = self._predict_holdout(masks[i], X_test)
            scores[i] = _fold_score(pred == codes, codes, self.metric)[0]
        return scores

    # ------------------------------------------------------------------ internals
    def _check_masks(self, masks):
        masks = np.asarray(masks)
        if masks.ndim == 1:
            masks = masks[None, :]
        if masks.ndim != 2 or masks.shape[1] != self.n_features:
            raise ValueError(
                f"masks must have shape (n_masks, {self.n_features}) or ({self.n_features},), "
                f"got {np.shape(masks)}"
            )
        if masks.dtype != bool:
            if not np.isin(masks, (0, 1)).all():
                raise ValueError("masks must be boolean (or 0/1) arrays")
            masks = masks.astype(bool)
        return masks

    def _build_fold_layout(self):
        """Concatenate the folds' test rows and mark each row's candidate neighbours."""
        tests = [test for _, test in self.folds]
        self._rows = np.concatenate(tests)
        self._row_fold = np.repeat(np.arange(len(self.folds)), [t.size for t in tests])
        self._bounds = np.cumsum([0] + [t.size for t in tests])
        cand = np.zeros((self._rows.size, self.n_samples), dtype=bool)
        for f, (train, _) in enumerate(self.folds):
            cand[self._bounds[f] : self._bounds[f + 1], train] = True
        self._candidates = cand
        self._row_labels = self.y[self._rows]

    def _predict_cv(self, mask):
        """Certified CV predictions of one non-empty mask, in the order of ``self._rows``."""
        Xs = self.X[:, mask]
        D, E = _reference.squared_distances(Xs)
        pred, ambiguous = _reference.knn_predict_rows(
            D[self._rows], E[self._rows], self._candidates, self.y, self.n_neighbors,
            self.n_classes,
        )
        if ambiguous.any():
            self._n_uncertified += int(ambiguous.sum())
            self._fix_cv_rows(pred, ambiguous, Xs)
        return pred

    def _fix_cv_rows(self, pred, ambiguous, Xs):
        """Replace uncertified predictions by scikit-learn's, fold by fold."""
        for f in np.unique(self._row_fold[ambiguous]):
            train, test = self.folds[f]
            knn = KNeighborsClassifier(n_neighbors=self.n_neighbors)
            lo, hi = self._bounds[f], self._bounds[f + 1]
            pred[lo:hi] = knn.fit(Xs[train], self.y[train]).predict(Xs[test])

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
        """Mean fold score of each row of ``pred`` (n_masks, n_rows)."""
        correct = pred == self._row_labels
        n_folds = len(self.folds)
        fold_scores = np.empty((pred.shape[0], n_folds))
        for f in range(n_folds):
            lo, hi = self._bounds[f], self._bounds[f + 1]
            fold_scores[:, f] = _fold_score(correct[:, lo:hi], self._row_labels[lo:hi], self.metric)
        return fold_scores.mean(axis=1)


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


def _check_data(X, y):
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"X must be a 2-D array (n_samples, n_features), got {X.ndim}-D")
    if not np.issubdtype(X.dtype, np.number) or np.issubdtype(X.dtype, np.complexfloating):
        raise ValueError(f"X must be numeric, got dtype {X.dtype}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    bad = ~np.isfinite(X)
    if bad.any():
        cols = np.unique(np.nonzero(bad)[1])
        raise ValueError(
            f"X contains {int(bad.sum())} NaN or infinite values (columns {cols[:10].tolist()})"
        )
    y = np.asarray(y)
    if y.ndim != 1 or y.shape[0] != X.shape[0]:
        raise ValueError(f"y must have shape ({X.shape[0]},), got {y.shape}")
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y must hold at least 2 classes, got {classes.size}")
    return X, codes.astype(np.int64), classes


def _encode_test_labels(y_test, classes):
    pos = np.searchsorted(classes, y_test)
    pos = np.clip(pos, 0, classes.size - 1)
    known = classes[pos] == y_test
    return np.where(known, pos, -1).astype(np.int64)


def _make_folds(X, y, classes, cv, random_state):
    n = X.shape[0]
    if isinstance(cv, str):
        if cv != "loo":
            raise ValueError(f"cv must be an int >= 2, 'loo' or a list of folds, got {cv!r}")
        if n < 2:
            raise ValueError("leave-one-out needs at least 2 samples")
        splits = LeaveOneOut().split(X)
    elif isinstance(cv, (int, np.integer)) and not isinstance(cv, bool):
        if cv < 2:
            raise ValueError(f"cv must be an int >= 2, 'loo' or a list of folds, got {cv!r}")
        counts = np.bincount(y, minlength=classes.size)
        small = np.flatnonzero(counts < cv)
        if small.size:
            c = small[0]
            raise ValueError(
                f"class {classes[c].item()!r} has {counts[c]} members, fewer than the cv={cv} folds "
                f"asked for"
            )
        splits = StratifiedKFold(n_splits=int(cv), shuffle=True, random_state=random_state).split(
            X, y
        )
    else:
        try:
            splits = list(cv)
        except TypeError:
            raise ValueError(
                f"cv must be an int >= 2, 'loo' or a list of folds, got {cv!r}"
            ) from None
        if not splits:
            raise ValueError("cv must hold at least one (train_idx, test_idx) fold")
    folds = []
    for f, split in enumerate(splits):
        try:
            train, test = split
        except (TypeError, ValueError):
            raise ValueError(f"fold {f} of cv is not a (train_idx, test_idx) pair") from None
        train = np.asarray(train)
        test = np.asarray(test)
        for part, idx in (("train", train), ("test", test)):
            if idx.ndim != 1 or idx.size == 0 or not np.issubdtype(idx.dtype, np.integer):
                raise ValueError(f"fold {f}: {part} indices must be a non-empty 1-D int array")
            if idx.min() < 0 or idx.max() >= n:
                raise ValueError(f"fold {f}: {part} indices out of range [0, {n})")
        if np.intersect1d(train, test).size:
            raise ValueError(f"fold {f}: train and test indices overlap")
        folds.append((train.astype(np.int64), test.astype(np.int64)))
    return folds
