"""The evaluator contract: what a Problem asks of a wrapper evaluator, and what all share.

An evaluator scores boolean feature masks by the inner cross-validation of a classifier on a
fixed training set. :class:`Evaluator` states the contract and implements what every evaluator
shares: the checks of the data, of the folds and of the masks; the bounded cache keyed by the
packed mask; and the counters. Subclasses implement :meth:`Evaluator._compute` (and may
override :meth:`Evaluator._compute_flips` with an incremental path) and
:meth:`Evaluator._holdout_scores`.
"""

import numbers
import threading
from abc import ABC, abstractmethod
from collections import OrderedDict
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from sklearn.model_selection import KFold, LeaveOneOut, StratifiedKFold

from pymoo_fs._validation import check_int, check_seed

_LOCK_INIT = threading.Lock()

__all__ = ["CrossValidatedEvaluator", "Evaluator", "REGRESSION_SCORINGS", "TARGET_TYPES",
           "check_data", "check_target", "error_label", "make_folds", "regression_unit_scores",
           "score_label"]

#: the kinds of target an evaluator scores (:attr:`Evaluator.target_type`)
TARGET_TYPES = ("classification", "regression")
#: the regression scorers of the exact KNN path (scikit-learn's names; higher is better)
REGRESSION_SCORINGS = ("neg_mean_squared_error", "neg_mean_absolute_error", "r2")

#: largest |x| * sqrt(n_features) for which squared distances cannot overflow float64
#: (sum of D squared differences of values up to m: at most 4 m^2 D, kept below 1e300)
_FLOAT64_LIMIT = 1e150 / 2
#: the same for float32 Gram products (float32 max is about 3.4e38)
_FLOAT32_LIMIT = 1e18 / 2


class Evaluator(ABC):
    """The wrapper-evaluator contract: what a feature-selection problem asks of an evaluator.

    A :class:`~pymoo_fs.problems.FeatureSelectionProblem` takes an instance of this class
    (subclass it; duck-typed objects are refused) and relies on:

    - ``n_features`` (int): the number of features ``D``, an attribute or a property;
    - :meth:`score` ``(masks) -> (n,)``: inner-CV scores, higher is better, in [0, 1];
    - :meth:`score_flips` ``(mask, features) -> (k,)``: scores of the one-feature flips of a
      mask, equal to :meth:`score` of the flipped masks (default: exactly that; an evaluator
      with an incremental path overrides it);
    - :meth:`holdout_score` ``(masks, X_test, y_test) -> (n,)`` and :meth:`check_test_set`:
      the classifier fitted on all training rows, scored on a hold-out set, and the checks of
      such a set (default: refused, for an evaluator without one);
    - :meth:`training_data` ``-> (X, y)``: the training data, for the relevance measures
      (symmetric uncertainty) that ranked encodings use (default: refused);
    - :attr:`n_evaluations`, :attr:`n_cache_hits` and :meth:`clear_cache`: the counters and
      the cache (defaults: 0, 0 and nothing to clear).

    Subclasses: :class:`CrossValidatedEvaluator`, the shared implementation of the evaluators
    that hold data and folds (:class:`~pymoo_fs.evaluation.KNNEvaluator`,
    :class:`~pymoo_fs.evaluation.EstimatorEvaluator`,
    :class:`~pymoo_fs.evaluation.FitBEvaluator`), and the wrappers of
    :mod:`pymoo_fs.evaluation.wrappers` that hold other evaluators.

    Attributes
    ----------
    n_evaluations : int
        Number of masks whose score was computed.
    n_cache_hits : int
        Number of masks answered without computation.
    """

    #: The number of features ``D`` (an attribute or a property of every subclass).
    n_features: int

    n_evaluations = 0
    n_cache_hits = 0
    #: ``"classification"`` or ``"regression"``: the kind of target the scores are of
    target_type = "classification"

    @abstractmethod
    def score(self, masks: ArrayLike) -> np.ndarray:
        """Inner-CV score of each feature subset, shape (n,)."""

    def unit_scores(self, scores: ArrayLike) -> np.ndarray:
        """Scores on the unit scale the problems read (higher is better, in [0, 1]).

        For classification the scores are already on it and are returned unchanged (the
        same array values bit for bit). A regression evaluator maps its scorer's values to
        ``1 - error``, with ``error`` the loss divided by the loss of predicting a constant
        on the training data, clipped to [0, 1] (see :func:`regression_unit_scores`).

        Parameters
        ----------
        scores : array-like of float64, shape (n,)
            Scores from :meth:`score`, :meth:`score_flips` or :meth:`holdout_score`.

        Returns
        -------
        unit : ndarray of float64, shape (n,)
        """
        return np.asarray(scores, dtype=np.float64)

    def score_flips(self, mask: ArrayLike, features: ArrayLike | None = None) -> np.ndarray:
        """Scores of the masks obtained by flipping single features of ``mask``.

        Parameters
        ----------
        mask : array-like of bool, shape (n_features,)
            The base feature subset.
        features : array-like of int, optional
            Features to flip (each added if absent from ``mask``, removed if present); default
            all features.

        Returns
        -------
        scores : ndarray of float64, shape (n_flips,)
            ``scores[i] == score(mask ^ e_{features[i]})[0]``.

        Raises
        ------
        ValueError
            If ``mask`` is not one boolean mask, or ``features`` is not a 1-D array of feature
            indices in range (the message names it and the offending value).
        """
        mask, features = self._check_flips(mask, features)
        return self.score(flip_rows(mask, features))

    def holdout_score(self, masks: ArrayLike, X_test: ArrayLike,
                      y_test: ArrayLike) -> np.ndarray:
        """Hold-out scores of ``masks``; this evaluator has none.

        Raises
        ------
        NotImplementedError
            Always, naming the class (evaluators holding training data override it).
        """
        raise NotImplementedError(f"{type(self).__name__} does not score hold-out test sets")

    def check_test_set(self, X_test: ArrayLike,
                       y_test: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """The checks :meth:`holdout_score` makes; this evaluator has none.

        Raises
        ------
        NotImplementedError
            Always, naming the class.
        """
        raise NotImplementedError(f"{type(self).__name__} does not score hold-out test sets")

    def training_data(self) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)``: the training data and its encoded labels; this evaluator holds none.

        Raises
        ------
        ValueError
            Always, naming the class (evaluators holding training data override it).
        """
        raise ValueError(f"{type(self).__name__} holds no training data")

    def clear_cache(self) -> None:
        """Forget cached scores (nothing to forget here)."""

    def check_masks(self, masks: ArrayLike) -> np.ndarray:
        """Masks as a 2-D boolean array, or raise.

        Parameters
        ----------
        masks : array-like, shape (n, n_features) or (n_features,)
            Boolean or 0/1 masks.

        Returns
        -------
        masks : ndarray of bool, shape (n, n_features)

        Raises
        ------
        ValueError
            If the shape is wrong or a value is neither 0 nor 1.
        """
        masks = np.asarray(masks)
        if masks.ndim == 1:
            masks = masks[None, :]
        if masks.ndim != 2 or masks.shape[1] != self.n_features:
            raise ValueError(
                f"masks must have shape (n_masks, {self.n_features}) or ({self.n_features},), "
                f"got {np.shape(masks)}"
            )
        if masks.dtype != bool:
            if masks.dtype == object or not np.isin(masks, (0, 1)).all():
                raise ValueError("masks must be boolean (or 0/1) arrays")
            masks = masks.astype(bool)
        return masks

    def _check_flips(self, mask, features):
        mask = self.check_masks(mask)
        if mask.shape[0] != 1:
            raise ValueError(f"score_flips takes one mask of shape ({self.n_features},), got "
                             f"{mask.shape[0]} masks")
        if features is None:
            features = np.arange(self.n_features)
        features = np.asarray(features)
        if features.ndim != 1 or not (features.size == 0
                                      or np.issubdtype(features.dtype, np.integer)):
            raise ValueError(f"features must be a 1-D array of feature indices, got "
                             f"{np.asarray(features).dtype} of shape {features.shape}")
        features = features.astype(np.int64)
        if features.size:
            bad = features[(features < 0) | (features >= self.n_features)]
            if bad.size:
                raise ValueError(f"features must be feature indices in [0, {self.n_features}), "
                                 f"got {int(bad[0])}")
        return mask[0], features


class CrossValidatedEvaluator(Evaluator):
    """The shared implementation of evaluators that hold data and inner folds.

    It holds a training set ``(X, y)`` and fixed inner cross-validation folds, scores feature
    subsets given as boolean masks over the ``n_features`` columns, and keeps the bounded
    cache and the counters.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Training data, converted to a C-contiguous float64 array (see :func:`check_data`).
    y : array-like of shape (n_samples,)
        Class labels (numbers or strings, not mixed).
    cv : int, "loo", iterable of (train_idx, test_idx) or scikit-learn splitter
        Inner cross-validation; see :func:`make_folds`. Fixed at construction.
    random_state : int or None
        Seed of the fold shuffling for an int ``cv``.
    cache_size : int
        Maximum number of scores kept, keyed by the packed mask (least recently used evicted);
        0 disables the cache.

    Attributes
    ----------
    X : ndarray of float64, shape (n_samples, n_features)
    y : ndarray of int64, shape (n_samples,)
        Labels encoded as ``0 .. n_classes - 1`` in the order of ``np.unique``.
    classes : ndarray, shape (n_classes,)
        The original labels: ``classes[y]`` restores them.
    folds : list of (ndarray, ndarray)
        ``(train_idx, test_idx)`` int64 arrays of every fold.
    n_evaluations : int
        Number of masks whose score was computed.
    n_cache_hits : int
        Number of masks answered without computation (from the cache, as a repeat within one
        call, or because they are empty). ``n_evaluations + n_cache_hits`` is the number of
        masks asked for.

    Notes
    -----
    Subclasses implement :meth:`_compute` (and may override :meth:`_compute_flips` with an
    incremental path) and :meth:`_holdout_scores`; everything else of :class:`Evaluator` is
    here. An empty mask scores 0.0.
    """

    def __init__(self, X: ArrayLike, y: ArrayLike, cv: Any, random_state: int | None,
                 cache_size: int, target: str = "classification") -> None:
        self.target_type = check_target(target)
        self.X, self.y, self.classes = check_data(X, y, target=self.target_type)
        self.cache_size = check_int("cache_size", cache_size, low=0)
        self.random_state = None if random_state is None else check_seed("random_state",
                                                                          random_state)
        self.folds = make_folds(self.X, self.y, cv, self.random_state, target=self.target_type)
        #: score of an empty mask: 0.0, or for regression the error-1 value of the scoring
        #: (``-var(y)``, ``-mean |y - median y|``, 0.0 for R^2), never a good score
        self.empty_score = 0.0 if self.target_type == "classification" else \
            _constant_score(getattr(self, "scoring", None), self.y)
        self.cv = cv
        self.n_evaluations = 0
        self.n_cache_hits = 0
        self._cache = OrderedDict()

    # ------------------------------------------------------------------ threads
    @property
    def _call_lock(self) -> threading.RLock:
        """The lock that serialises :meth:`score` and :meth:`score_flips` of this evaluator:
        Python threads may share one evaluator (its cache, counters and kept matrices are
        updated by one call at a time; each call uses the cores itself). Made on first use,
        and not pickled (a copy gets its own)."""
        lock = self.__dict__.get("_lock")
        if lock is None:
            with _LOCK_INIT:
                lock = self.__dict__.setdefault("_lock", threading.RLock())
        return lock

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_lock", None)
        return state

    # ------------------------------------------------------------------ properties
    @property
    def n_samples(self) -> int:
        """int: number of training samples."""
        return self.X.shape[0]

    @property
    def n_features(self) -> int:  # type: ignore[override]
        """int: number of features ``D``."""
        return self.X.shape[1]

    @property
    def n_classes(self) -> int:
        """int: number of classes (0 for a regression target)."""
        return 0 if self.classes is None else self.classes.size

    def unit_scores(self, scores: ArrayLike) -> np.ndarray:
        """Scores on the unit scale the problems read (see :meth:`Evaluator.unit_scores`).

        Parameters
        ----------
        scores : array-like of float64, shape (n,)

        Returns
        -------
        unit : ndarray of float64, shape (n,)
            ``scores`` for classification; :func:`regression_unit_scores` of them (with this
            evaluator's ``scoring`` and training targets) for regression.
        """
        if self.target_type == "classification":
            return np.asarray(scores, dtype=np.float64)
        return regression_unit_scores(scores, getattr(self, "scoring", None), self.y)

    # ------------------------------------------------------------------ the contract
    def score(self, masks: ArrayLike) -> np.ndarray:
        """Inner-CV score of each feature subset.

        Parameters
        ----------
        masks : array-like of bool, shape (n_masks, n_features) or (n_features,)
            Feature subsets (True = selected). A 1-D mask is a batch of one. 0/1 integers are
            accepted.

        Returns
        -------
        scores : ndarray of float64, shape (n_masks,)
            Mean over the folds of the fold's score; 0.0 for an empty mask.

        Raises
        ------
        ValueError
            If ``masks`` has the wrong shape or values other than 0/1.
        """
        masks = self.check_masks(masks)
        with self._call_lock:
            scores, todo, repeats = self._lookup(masks)
            if todo:
                rows = masks[np.fromiter(todo.values(), dtype=np.int64, count=len(todo))]
                self._store(scores, todo, repeats, self._compute(rows))
        return scores

    def score_flips(self, mask: ArrayLike, features: ArrayLike | None = None) -> np.ndarray:
        """Scores of the masks obtained by flipping single features of ``mask``.

        Parameters
        ----------
        mask : array-like of bool, shape (n_features,)
            The base feature subset.
        features : array-like of int, optional
            Features to flip (each added if absent from ``mask``, removed if present); default
            all features.

        Returns
        -------
        scores : ndarray of float64, shape (n_flips,)
            ``scores[i] == score(mask ^ e_{features[i]})[0]`` exactly.

        Raises
        ------
        ValueError
            If ``mask`` is not one boolean mask or a feature index is out of range.
        """
        mask, features = self._check_flips(mask, features)
        # the flipped masks are never built: their cache keys are the base's packed bits with
        # one bit toggled (D/8 bytes per flip instead of D), and the kernels flip on the fly
        k = features.size
        packed = np.repeat(np.packbits(mask)[None, :], k, axis=0)
        packed[np.arange(k), features >> 3] ^= (128 >> (features & 7)).astype(np.uint8)
        nonempty = ~(mask[features] & (np.count_nonzero(mask) == 1))
        with self._call_lock:
            scores, todo, repeats = self._lookup_packed(packed, nonempty)
            if todo:
                first = np.fromiter(todo.values(), dtype=np.int64, count=len(todo))
                self._store(scores, todo, repeats, self._compute_flips(mask, features[first]))
        return scores

    def holdout_score(self, masks: ArrayLike, X_test: ArrayLike,
                      y_test: ArrayLike) -> np.ndarray:
        """Score of the estimator fitted on all of :attr:`X` and tested on a hold-out set.

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
            0.0 for an empty mask. Hold-out scores are neither cached nor counted.

        Raises
        ------
        ValueError
            As :meth:`check_test_set`, or if ``masks`` is invalid.
        """
        masks = self.check_masks(masks)
        X_test, y_test = self.check_test_set(X_test, y_test)
        scores = np.full(masks.shape[0], self.empty_score)
        nonempty = np.flatnonzero(masks.any(axis=1))
        if nonempty.size:
            scores[nonempty] = self._holdout_scores(masks[nonempty], X_test, y_test)
        return scores

    def clear_cache(self) -> None:
        """Forget all cached scores (the counters are kept)."""
        self._cache.clear()

    # ------------------------------------------------------------------ checks
    def check_test_set(self, X_test: ArrayLike,
                       y_test: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """Check a hold-out test set against the training data.

        Parameters
        ----------
        X_test : array-like of shape (n_test, n_features)
        y_test : array-like of shape (n_test,)

        Returns
        -------
        X_test : ndarray of float64, shape (n_test, n_features), C-contiguous
        y_test : ndarray, shape (n_test,)

        Raises
        ------
        ValueError
            If ``X_test`` is not a non-empty 2-D numeric array with ``n_features`` columns, holds
            NaN, infinite or overflowing values, or ``y_test`` does not hold one label per row
            (or mixes label types, or holds None).
        """
        X_test = _as_float_matrix(X_test, "X_test")
        if X_test.shape[1] != self.n_features:
            raise ValueError(
                f"X_test must have {self.n_features} columns like the training data, got shape "
                f"{X_test.shape}"
            )
        if X_test.shape[0] == 0:
            raise ValueError("X_test holds no sample (shape (0, n_features))")
        _check_values(X_test, "X_test")
        if self.target_type == "regression":
            y_test = _check_targets(y_test, "y_test")
        else:
            y_test = _check_labels(y_test, "y_test")
        if y_test.shape != (X_test.shape[0],):
            raise ValueError(f"y_test must have shape ({X_test.shape[0]},) to match X_test, "
                             f"got {y_test.shape}")
        if self.target_type == "regression":
            return X_test, y_test
        if y_test.dtype.kind != self.classes.dtype.kind and not (
                y_test.dtype.kind in "iuf" and self.classes.dtype.kind in "iuf"):
            raise ValueError(
                f"y_test labels ({y_test.dtype}) are not of the training labels' kind "
                f"({self.classes.dtype}, e.g. {self.classes[0]!r})"
            )
        return X_test, y_test

    def training_data(self) -> tuple[np.ndarray, np.ndarray]:
        """``(X, y)``: the training data (float64) and its encoded labels (int64; the float64
        targets for a regression evaluator)."""
        return self.X, self.y

    # ------------------------------------------------------------------ cache
    def _lookup(self, masks):
        """Scores known without computation, and the unique masks still to compute.

        Returns ``scores`` (n,), an ordered dict {packed key: first row index} of the masks
        to compute, and ``repeats``, a list of (row, key) of later rows equal to one of them;
        counts the hits and the evaluations to come.
        """
        return self._lookup_packed(np.packbits(masks, axis=1), masks.any(axis=1))

    def _lookup_packed(self, packed, nonempty):
        """:meth:`_lookup` of masks given as ``np.packbits(masks, axis=1)`` (n, ceil(D/8))
        and ``masks.any(axis=1)`` (n,).

        Allocates no container per row (ints and bytes only): with a list per row, the
        garbage collector's full passes over a large process (numba, pymoo) cost 10x the
        lookup itself on neighbourhoods of thousands of flips.
        """
        scores = np.full(packed.shape[0], self.empty_score)
        todo, repeats = {}, []
        cache = self._cache
        hits = 0
        for i, alive in enumerate(nonempty.tolist()):
            if not alive:
                hits += 1
                continue
            key = packed[i].tobytes()
            if key in todo:
                repeats.append((i, key))
                hits += 1
            elif key in cache:
                cache.move_to_end(key)
                scores[i] = cache[key]
                hits += 1
            else:
                todo[key] = i
        self.n_cache_hits += hits
        self.n_evaluations += len(todo)
        return scores, todo, repeats

    def _store(self, scores, todo, repeats, values):
        """Write computed ``values`` (one per key of ``todo``) into ``scores`` and the cache."""
        computed = {}
        for (key, i), value in zip(todo.items(), values):
            scores[i] = value
            if repeats:
                computed[key] = value
            if self.cache_size:
                self._cache[key] = value
                if len(self._cache) > self.cache_size:
                    self._cache.popitem(last=False)
        for i, key in repeats:
            scores[i] = computed[key]

    # ------------------------------------------------------------------ to implement
    @abstractmethod
    def _compute(self, masks):
        """Scores (n,) of distinct, non-empty, uncached masks (n, D)."""

    def _compute_flips(self, mask, features):
        """Scores (k,) of the flips of ``mask`` (D,) at distinct ``features`` (k,), none of
        them empty or cached (:func:`flip_rows` builds the masks where needed)."""
        return self._compute(flip_rows(mask, features))

    @abstractmethod
    def _holdout_scores(self, masks, X_test, y_test):
        """Hold-out scores (n,) of non-empty masks on a checked test set."""


def check_data(X, y, target="classification"):
    """Check a training set and encode its labels.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Numeric training data.
    y : array-like of shape (n_samples,)
        Class labels: numbers or strings, not mixed, no None. For ``target="regression"``:
        finite real numbers, not all equal.
    target : {"classification", "regression"}, default="classification"

    Returns
    -------
    X : ndarray of float64, shape (n_samples, n_features), C-contiguous
    y : ndarray of int64, shape (n_samples,)
        Codes ``0 .. n_classes - 1`` in the order of ``np.unique``; for regression the
        targets as float64.
    classes : ndarray, shape (n_classes,), or None
        The original labels, sorted (None for regression).

    Raises
    ------
    ValueError
        If ``X`` is not a non-empty 2-D numeric array of finite values small enough for squared
        distances not to overflow float64 (``|x| * sqrt(n_features) < 5e149``); if ``y`` does
        not hold one label per row, mixes strings and numbers (a list such as ``["a", 1]``
        included, which numpy would turn into strings), holds None, NaN or bytes (decode
        bytes labels to str), or has fewer than 2 classes; for regression, if ``y`` is not
        numeric, holds NaN or infinite values, is constant (no error can be normalised by
        a variance of 0), or has targets so large that the sum of squared errors overflows
        float64 (``max |y| >= sqrt(float64 max / (4 n_samples))``).
    """
    target = check_target(target)
    X = _as_float_matrix(X, "X")
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"X must hold at least one sample and one feature, got shape {X.shape}")
    _check_values(X, "X")
    if target == "regression":
        y = _check_targets(y, "y")
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
        if y.size < 2 or np.all(y == y[0]):
            raise ValueError("y must hold at least 2 different target values for regression")
        # every error of a prediction (a mean of targets) is at most 2 max|y|; its square
        # summed over the samples must stay finite, or MSE and R^2 turn inf and NaN
        limit = np.sqrt(np.finfo(np.float64).max / (4.0 * y.size))
        big = float(np.abs(y).max())
        if big >= limit:
            raise ValueError(f"y's targets are too large for squared errors in float64 "
                             f"(max |y| = {big:.3g}, must be below {limit:.3g} for "
                             f"{y.size} samples); rescale y")
        return X, y, None
    y = _check_labels(y, "y")
    if y.shape != (X.shape[0],):
        raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
    classes, codes = np.unique(y, return_inverse=True)
    if classes.size < 2:
        raise ValueError(f"y must hold at least 2 classes, got {classes.size}")
    return X, codes.reshape(-1).astype(np.int64), classes


def check_float32_range(X):
    """Raise ValueError if ``X`` is too large for exact float32 Gram products.

    Raises
    ------
    ValueError
        If ``max |x| * sqrt(n_features) >= 5e17``: float32 squared distances would overflow.
    """
    _check_magnitude(X, "X", "float32")


def make_folds(X, y, cv, random_state, target="classification"):
    """The inner cross-validation folds of a training set.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    y : ndarray of int64, shape (n_samples,)
        Encoded labels (float64 targets for regression).
    cv : int, "loo", iterable of (train_idx, test_idx) or scikit-learn splitter
        An int ``k >= 2`` gives ``StratifiedKFold(k, shuffle=True, random_state=random_state)``
        (``KFold(k, shuffle=True, random_state=random_state)`` for ``target="regression"``:
        a continuous target has no classes to stratify);
        ``"loo"`` gives leave-one-out; an object with a ``split(X, y)`` method (a scikit-learn
        splitter such as ``RepeatedStratifiedKFold`` or ``GroupKFold`` without groups) is asked
        for its splits once; an iterable of index-array pairs is used as given.
    random_state : int or None
        Seed of the shuffling for an int ``cv``.
    target : {"classification", "regression"}, default="classification"

    Returns
    -------
    folds : list of (ndarray of int64, ndarray of int64)
        Each fold's training and test indices, non-empty, in range and disjoint.

    Raises
    ------
    ValueError
        For an invalid ``cv``; when no class has at least ``cv`` members (scikit-learn's rule);
        or for a fold whose index arrays are empty, out of range or overlapping.

    Warns
    -----
    UserWarning
        scikit-learn's, when some class has fewer members than ``cv`` folds: the stratified
        split goes on, as :func:`sklearn.model_selection.cross_val_score` does.
    """
    n = X.shape[0]
    if isinstance(cv, str):
        if cv != "loo":
            raise ValueError(f"cv must be an int >= 2, 'loo', a splitter or a list of folds, "
                             f"got {cv!r}")
        if n < 2:
            raise ValueError("leave-one-out needs at least 2 samples")
        splits = list(LeaveOneOut().split(X))
    elif isinstance(cv, numbers.Integral) and not isinstance(cv, (bool, np.bool_)):
        if cv < 2:
            raise ValueError(f"cv must be an int >= 2, 'loo', a splitter or a list of folds, "
                             f"got {cv!r}")
        if cv > n:
            raise ValueError(f"cv={cv} folds need at least {cv} samples, got {n}")
        kind = KFold if target == "regression" else StratifiedKFold
        splitter = kind(n_splits=int(cv), shuffle=True, random_state=random_state)
        try:
            splits = list(splitter.split(X, y))
        except ValueError as exc:  # every class smaller than cv: scikit-learn refuses
            raise ValueError(f"cv={cv}: {exc}") from None
    elif hasattr(cv, "split") and callable(cv.split):
        try:
            splits = list(cv.split(X, y))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"cv splitter {cv!r} failed to split the data: {exc}") from None
    else:
        try:
            splits = list(cv)
        except TypeError:
            raise ValueError(
                f"cv must be an int >= 2, 'loo', a splitter or a list of folds, got {cv!r}"
            ) from None
    if not splits:
        raise ValueError("cv must give at least one (train_idx, test_idx) fold")
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


def _as_float_matrix(X, name):
    if isinstance(X, (str, bytes)):
        raise ValueError(f"{name} must be a 2-D numeric array, got a string")
    X = _frame_values(X, name)
    try:
        X = np.asarray(X)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} must be a 2-D numeric array: {exc}") from None
    if X.ndim != 2:
        raise ValueError(f"{name} must be a 2-D array (n_samples, n_features), got {X.ndim}-D")
    if X.dtype == bool:
        X = X.astype(np.float64)
    if not np.issubdtype(X.dtype, np.number) or np.issubdtype(X.dtype, np.complexfloating):
        raise ValueError(f"{name} must be numeric, got dtype {X.dtype}")
    X = np.ascontiguousarray(X, dtype=np.float64)
    # a read-only array (a joblib memmap under GridSearchCV(n_jobs=...)) would make numba
    # compile a second, read-only specialisation of every kernel: copy it instead
    return X if X.flags.writeable else X.copy()


def _frame_values(X, name):
    """A pandas DataFrame's values as float64, missing values (``pd.NA``) as NaN: nullable
    (``Int64``, ``Float64``, ``boolean``) and pyarrow-backed numeric columns, which
    ``np.asarray`` would turn into objects; anything else is returned as it is."""
    dtypes = getattr(X, "dtypes", None)
    if dtypes is None or not hasattr(X, "to_numpy") or getattr(X, "ndim", 2) != 2:
        return X
    from pandas.api.types import is_bool_dtype, is_numeric_dtype

    bad = [str(c) for c, t in zip(X.columns, dtypes)
           if not (is_numeric_dtype(t) or is_bool_dtype(t))]
    if bad:
        raise ValueError(f"{name} must be numeric: column(s) {', '.join(bad[:10])} are not "
                         f"(dtypes {', '.join(sorted({str(t) for t in dtypes}))})")
    return X.to_numpy(dtype=np.float64, na_value=np.nan)


def _check_values(X, name):
    """Finite values, small enough that squared distances cannot overflow float64."""
    bad = ~np.isfinite(X)
    if bad.any():
        cols = np.unique(np.nonzero(bad)[1])
        raise ValueError(
            f"{name} contains {int(bad.sum())} NaN or infinite values (columns "
            f"{cols[:10].tolist()})"
        )
    _check_magnitude(X, name, "float64")


def _check_magnitude(X, name, precision):
    """Values small enough that squared distances over all columns cannot overflow."""
    if not X.size:
        return
    limit = (_FLOAT64_LIMIT if precision == "float64" else _FLOAT32_LIMIT) / np.sqrt(X.shape[1])
    biggest = float(np.abs(X).max())
    if biggest < limit:
        return
    if precision == "float64":
        raise ValueError(
            f"{name} holds values as large as {biggest:.3g} in absolute value: squared "
            f"distances over {X.shape[1]} features would overflow float64 (limit "
            f"{limit:.3g}); rescale the data (e.g. min-max scaling)")
    raise ValueError(
        f"precision='float32' cannot hold the squared distances of {name}: it holds values as "
        f"large as {biggest:.3g} in absolute value (limit {limit:.3g} for {X.shape[1]} "
        f"features); use precision='float64' or rescale the data")


def _check_labels(y, name):
    """A 1-D label array of one kind (numbers or strings), without None, NaN or bytes."""
    if isinstance(y, (list, tuple)):
        # np.asarray would turn ["a", 1] into the strings "a", "1": check the items first
        kinds = {"str" if isinstance(v, (str, np.str_)) else type(v).__name__
                 for v in y if v is not None}
        if "str" in kinds and len(kinds) > 1:
            raise ValueError(f"{name} mixes label types ({', '.join(sorted(kinds))}); use one "
                             f"type (all numbers or all strings)")
    try:
        y = np.asarray(y)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} must be a 1-D array of labels: {exc}") from None
    if y.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of labels, got shape {y.shape}")
    if y.dtype.kind == "S" or (y.dtype == object and any(isinstance(v, (bytes, np.bytes_))
                                                          for v in y.tolist())):
        raise ValueError(f"{name} holds bytes labels ({y.dtype}): decode them to str first "
                         f"(e.g. np.char.decode({name}, 'utf-8'))")
    if y.dtype == object:
        values = y.tolist()
        if any(v is None for v in values):
            raise ValueError(f"{name} holds None: every sample needs a class label")
        missing = [i for i, v in enumerate(values) if type(v).__name__ == "NAType"]
        if missing:
            raise ValueError(f"{name} holds {len(missing)} missing label(s) (pd.NA, rows "
                             f"{missing[:10]}): every sample needs a class label")
        if all(isinstance(v, str) for v in values):
            y = y.astype(str)
        elif all(isinstance(v, numbers.Real) for v in values):
            y = y.astype(np.float64)
        else:
            kinds = sorted({type(v).__name__ for v in values})
            raise ValueError(f"{name} mixes label types ({', '.join(kinds)}); use one type "
                             f"(all numbers or all strings)")
    if y.dtype.kind == "f" and np.isnan(y).any():
        raise ValueError(f"{name} holds NaN: every sample needs a class label")
    if y.dtype.kind not in "biufU":
        raise ValueError(f"{name} must hold numbers or strings, got dtype {y.dtype}")
    if y.dtype.kind == "b":
        y = y.astype(np.int64)
    return y



def check_target(target):
    """``target`` if it is ``"classification"`` or ``"regression"``, else ValueError.

    Raises
    ------
    ValueError
        Naming the value and the accepted ones.
    """
    if not isinstance(target, str) or target not in TARGET_TYPES:
        raise ValueError(f"target must be one of {TARGET_TYPES}, got {target!r}")
    return target


def regression_unit_scores(scores, scoring, y):
    """Regression scores mapped to ``1 - error`` with a normalised, clipped error.

    The error of a subset is its loss divided by the loss of the best constant prediction on
    the training targets ``y``: the mean squared error over the variance of ``y`` (population
    variance, ``ddof=0``: the MSE of predicting the training mean), the mean absolute error
    over ``mean |y - median(y)|``, and ``1 - R^2`` for ``"r2"``. So an error of 1 is "no
    better than predicting the mean" and 0 is a perfect fit. The error is clipped to [0, 1]:
    a subset worse than the constant prediction gets 1 (it is no use, and HV and IGD need the
    reference point (1, 1) to bound every point). For MSE this is the normalised MSE (NMSE),
    also the fraction of variance unexplained, ``1 - R^2`` with the training variance in the
    denominator (Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
    2nd ed., Sec. 3.2 for R^2; the NMSE of Casdagli 1989, "Nonlinear prediction of chaotic
    time series", Physica D 35).

    Parameters
    ----------
    scores : array-like of float64, shape (n,)
        Mean inner-CV (or hold-out) values of ``scoring``, scikit-learn's sign convention
        (higher is better: ``-MSE``, ``-MAE``, ``R^2``).
    scoring : str
        One of ``"neg_mean_squared_error"``, ``"neg_mean_absolute_error"``, ``"r2"``.
    y : ndarray of float64, shape (n_samples,)
        The training targets (the evaluator's).

    Returns
    -------
    unit : ndarray of float64, shape (n,)
        ``1 - clip(error, 0, 1)``.

    Raises
    ------
    ValueError
        For another ``scoring`` (a custom regression scorer has no known baseline), naming it.
    """
    scores = np.asarray(scores, dtype=np.float64)
    if scoring == "neg_mean_squared_error":
        error = -scores / np.var(y)
    elif scoring == "neg_mean_absolute_error":
        error = -scores / np.mean(np.abs(y - np.median(y)))
    elif scoring == "r2":
        error = 1.0 - scores
    else:
        raise ValueError(f"scoring={scoring!r} has no normalised error for the problems; use "
                         f"one of {REGRESSION_SCORINGS}")
    return 1.0 - np.clip(error, 0.0, 1.0)


_ERROR_LABELS = {"neg_mean_squared_error": "normalised MSE",
                 "neg_mean_absolute_error": "normalised MAE", "r2": "1 - R^2"}


def error_label(scoring):
    """The name of the error objective (``1 - unit score``) for a scoring, in words.

    Parameters
    ----------
    scoring : str or None
        The protocol's or evaluator's scoring.

    Returns
    -------
    label : str
        ``"classification error"`` for the classification scorings (and None);
        ``"normalised MSE"``, ``"normalised MAE"`` or ``"1 - R^2"`` for the regression ones
        (:func:`regression_unit_scores`).
    """
    return _ERROR_LABELS.get(scoring, "classification error")


def score_label(scoring):
    """The name of the unit score (what the problems and reports store) for a scoring.

    Parameters
    ----------
    scoring : str or None

    Returns
    -------
    label : str
        The scoring in words for classification (``"accuracy"``, ``"balanced accuracy"``;
        None is ``"accuracy"``); ``"1 - normalised MSE"`` and the like for regression.
    """
    if scoring in _ERROR_LABELS:
        return "R^2 (clipped to [0, 1])" if scoring == "r2" else f"1 - {_ERROR_LABELS[scoring]}"
    return (scoring or "accuracy").replace("_", " ")


def _constant_score(scoring, y):
    """The ``scoring`` value of predicting the best constant on ``y`` (error 1)."""
    if scoring == "neg_mean_squared_error":
        return -float(np.var(y))
    if scoring == "neg_mean_absolute_error":
        return -float(np.mean(np.abs(y - np.median(y))))
    return 0.0


def _check_targets(y, name):
    """A 1-D float64 array of finite real targets."""
    if isinstance(y, (str, bytes)):
        raise ValueError(f"{name} must be a 1-D array of real-valued targets, got a string")
    try:
        y = np.asarray(y)
    except (ValueError, TypeError) as exc:
        raise ValueError(f"{name} must be a 1-D array of real-valued targets: {exc}") from None
    if y.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of real-valued targets, got shape "
                         f"{y.shape}")
    if y.dtype == object:
        if not all(isinstance(v, numbers.Real) and not isinstance(v, bool) for v in y.tolist()):
            raise ValueError(f"{name} must hold real numbers for regression, got objects")
        y = y.astype(np.float64)
    if y.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold real numbers for regression, got dtype {y.dtype}")
    y = np.ascontiguousarray(y, dtype=np.float64)
    if not np.isfinite(y).all():
        raise ValueError(f"{name} holds {int((~np.isfinite(y)).sum())} NaN or infinite "
                         f"targets")
    return y


def flip_rows(mask, features):
    """The masks obtained from ``mask`` by flipping one feature each (no checks).

    Parameters
    ----------
    mask : ndarray of bool, shape (D,)
    features : ndarray of int, shape (k,)
        Feature indices in ``[0, D)`` (not checked: callers check them).

    Returns
    -------
    flipped : ndarray of bool, shape (k, D)
        Row ``i`` is ``mask`` with ``features[i]`` toggled. Used by the evaluators and by
        :func:`pymoo_fs.problems.flip_masks` (which checks its arguments first).
    """
    flipped = np.repeat(mask[None, :], features.size, axis=0)
    flipped[np.arange(features.size), features] ^= True
    return flipped
