"""Stratified hold-out splits and min-max scaling fitted on the training part only.

Both steps delegate to scikit-learn (:func:`sklearn.model_selection.train_test_split` and
:class:`sklearn.preprocessing.MinMaxScaler`); this module fixes the project's defaults
(stratified, seeded, 30 % test, scaling fitted on training data) and checks the inputs.
"""

from __future__ import annotations

import math
import numbers
from typing import NamedTuple, Optional

import numpy as np
from numpy.typing import ArrayLike
from sklearn.model_selection import train_test_split as _sk_train_test_split
from sklearn.preprocessing import MinMaxScaler

from .loading import Dataset

__all__ = ["Split", "holdout_indices", "holdout_split", "min_max_scale"]


class Split(NamedTuple):
    """A hold-out split, as returned by :func:`holdout_split`.

    A named tuple: unpack it as ``X_train, X_test, y_train, y_test, scaler = split``.

    Attributes
    ----------
    X_train : ndarray of shape (n_train, n_features), dtype float64
        Training features (scaled when the split was made with ``scale=True``).
    X_test : ndarray of shape (n_test, n_features), dtype float64
        Hold-out test features, transformed by the scaler fitted on ``X_train``.
    y_train : ndarray of shape (n_train,)
        Training labels.
    y_test : ndarray of shape (n_test,)
        Test labels.
    scaler : sklearn.preprocessing.MinMaxScaler or None
        The scaler fitted on the raw training features, or None when ``scale=False``.
    """

    X_train: np.ndarray
    X_test: np.ndarray
    y_train: np.ndarray
    y_test: np.ndarray
    scaler: Optional[MinMaxScaler]


def holdout_split(dataset_or_X: Dataset | ArrayLike, y: ArrayLike | None = None,
                  test_size: float | int = 0.3, random_state: int | None = 0,
                  scale: bool = True) -> Split:
    """Stratified, seeded hold-out split, optionally min-max scaled on the training part.

    Parameters
    ----------
    dataset_or_X : Dataset or array-like of shape (n_samples, n_features)
        The data: a :class:`~pymoo_fs.datasets.Dataset` (then ``y`` must be None and its
        integer codes ``dataset.y`` are used), or a numeric feature matrix.
    y : array-like of shape (n_samples,), optional
        Class labels, required when ``dataset_or_X`` is an array; kept as given.
    test_size : float, default=0.3
        Fraction of the samples put in the test part, strictly between 0 and 1.
    random_state : int, numpy.random.RandomState or None, default=0
        Seed of the shuffle, passed to :func:`sklearn.model_selection.train_test_split`: an
        int in [0, 2**32 - 1], a ``RandomState`` or None. The same int gives the same split.
    scale : bool, default=True
        If True, fit :class:`~sklearn.preprocessing.MinMaxScaler` on the training features
        and apply it to both parts.

    Returns
    -------
    split : Split
        ``(X_train, X_test, y_train, y_test, scaler)``; features float64 and C-contiguous.

    Raises
    ------
    ValueError
        - ``test_size`` is not a number strictly between 0 and 1;
        - ``test_size`` is too small to put ``n_classes`` samples in the test part
          (``ceil(test_size * n_samples) < n_classes``), or too large to leave ``n_classes``
          in the training part; the message gives the usable range;
        - ``random_state`` is not None, an int in [0, 2**32 - 1] or a ``RandomState``;
        - a Dataset is given together with ``y``, or an array without ``y``;
        - ``X`` is not 2-D or ``y`` does not have one label per row;
        - a class has a single sample (it cannot be in both parts), or ``y`` mixes label
          types that cannot be sorted together;
        - ``X`` is not numeric, or (with ``scale=True``) a column of the training part spans
          a range that overflows float64 (``max - min`` is infinite).

    Notes
    -----
    Formerly ``train_test_split``, renamed so that it does not shadow
    :func:`sklearn.model_selection.train_test_split`, whose signature and return value differ
    (the old name still works from :mod:`pymoo_fs.datasets`, with a ``DeprecationWarning``).

    The split is stratified (``stratify=y``): each class keeps its proportion in both parts,
    up to rounding. The scaler sees the training part only, so scaled training features lie
    in [0, 1] while test features may fall outside it; constant training columns map to 0.

    Examples
    --------
    >>> from pymoo_fs.datasets import holdout_split, load_dataset
    >>> split = holdout_split(load_dataset("sonar"), test_size=0.3, random_state=0)
    >>> split.X_train.shape, split.X_test.shape
    ((145, 60), (63, 60))
    >>> round(float(split.X_train.min()), 9), round(float(split.X_train.max()), 9)
    (0.0, 1.0)
    """
    _check_test_size(test_size)
    _check_random_state(random_state)
    if isinstance(dataset_or_X, Dataset):
        if y is not None:
            raise ValueError("y must be None when a Dataset is given (its labels are used)")
        X, y = dataset_or_X.X, dataset_or_X.y
    else:
        if y is None:
            raise ValueError("y is required when dataset_or_X is an array, not a Dataset")
        try:
            X = np.asarray(dataset_or_X, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"X must be a 2-D numeric array: {error}") from None
        y = np.asarray(y)
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
    _check_stratifiable(y, test_size)
    X_train, X_test, y_train, y_test = _sk_train_test_split(
        X, y, test_size=test_size, random_state=random_state, stratify=y
    )
    scaler = None
    if scale:
        scaler = _fit_scaler(X_train, "X")
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    return Split(
        np.ascontiguousarray(X_train, dtype=np.float64),
        np.ascontiguousarray(X_test, dtype=np.float64),
        np.asarray(y_train),
        np.asarray(y_test),
        scaler,
    )


def holdout_indices(y: ArrayLike, test_size: float | int = 0.3,
                    random_state: int | None = 0) -> tuple[np.ndarray, np.ndarray]:
    """Indices of a stratified, seeded hold-out split (the split :func:`holdout_split` makes).

    Parameters
    ----------
    y : array-like of shape (n_samples,)
        Class labels.
    test_size : float, default=0.3
        Fraction of the samples put in the test part, strictly between 0 and 1.
    random_state : int or None, default=0
        Seed of the shuffle (an int in [0, 2**32 - 1]).

    Returns
    -------
    train, test : ndarray of int64
        Sorted indices of the two parts.

    Raises
    ------
    ValueError
        As :func:`holdout_split`: ``test_size`` out of range or too small/large for one
        sample of each class in each part, a single-sample class, a bad ``random_state``;
        and if ``y`` is not a non-empty 1-D array.

    Examples
    --------
    >>> from pymoo_fs.datasets import holdout_indices, load_dataset
    >>> train, test = holdout_indices(load_dataset("sonar").y, test_size=0.3, random_state=0)
    >>> train.size, test.size
    (145, 63)
    """
    _check_test_size(test_size)
    _check_random_state(random_state)
    y = np.asarray(y)
    _check_stratifiable(y, test_size)
    index = np.arange(y.shape[0])
    train, test = _sk_train_test_split(index, test_size=test_size, random_state=random_state,
                                       stratify=y)
    return np.sort(train), np.sort(test)


def min_max_scale(X_train: ArrayLike, X_test: ArrayLike | None = None
                  ) -> np.ndarray | tuple[np.ndarray, np.ndarray]:
    """Scale features to [0, 1] with a min-max scaler fitted on ``X_train`` only.

    Parameters
    ----------
    X_train : array-like of shape (n_train, n_features)
        Training features; their column minima and maxima define the scaling.
    X_test : array-like of shape (n_test, n_features), optional
        Other features transformed with the same scaling. Default None.

    Returns
    -------
    X_train_scaled : ndarray of shape (n_train, n_features), dtype float64
        Scaled training features, in [0, 1] (constant columns become 0).
    X_test_scaled : ndarray of shape (n_test, n_features), dtype float64
        Returned only when ``X_test`` is given (then the result is a tuple
        ``(X_train_scaled, X_test_scaled)``); its values may fall outside [0, 1].

    Raises
    ------
    ValueError
        If an input is not 2-D numeric, or ``X_test`` has a different number of columns
        (raised by scikit-learn); if a column of ``X_train`` spans a range that overflows
        float64 (``max - min`` is infinite: the scaling would map it to a constant).

    Examples
    --------
    >>> from pymoo_fs.datasets import load_dataset, min_max_scale
    >>> X = load_dataset("sonar").X
    >>> X_train, X_test = min_max_scale(X[:150], X[150:])
    >>> round(float(X_train.min()), 9), round(float(X_train.max()), 9)
    (0.0, 1.0)
    """
    scaler = _fit_scaler(np.asarray(X_train, dtype=np.float64), "X_train")
    X_train_scaled = np.ascontiguousarray(scaler.transform(np.asarray(X_train, np.float64)))
    if X_test is None:
        return X_train_scaled
    X_test_scaled = np.ascontiguousarray(scaler.transform(np.asarray(X_test, np.float64)))
    return X_train_scaled, X_test_scaled


def _fit_scaler(X_train, name, feature_range=(0, 1)):
    """A MinMaxScaler (``feature_range``) fitted on ``X_train``; a ValueError naming the columns
    whose range ``max - min`` overflows float64 (scikit-learn would silently scale them to 0).
    Also used by the studies' protocols."""
    X_train = np.asarray(X_train, dtype=np.float64)
    if X_train.ndim == 2 and X_train.size and np.isfinite(X_train).all():
        with np.errstate(over="ignore"):
            span = X_train.max(axis=0) - X_train.min(axis=0)
        wide = np.flatnonzero(~np.isfinite(span))
        if wide.size:
            j = int(wide[0])
            raise ValueError(
                f"column(s) {wide[:10].tolist()} of {name} span a range that overflows "
                f"float64 (column {j}: from {X_train[:, j].min():.3g} to "
                f"{X_train[:, j].max():.3g}): min-max scaling cannot represent it; divide "
                "those columns by a constant (e.g. 1e10) before scaling"
            )
    return MinMaxScaler(feature_range=feature_range).fit(X_train)


def _check_test_size(test_size):
    if (isinstance(test_size, bool) or not isinstance(test_size, numbers.Real)
            or not 0.0 < float(test_size) < 1.0):
        raise ValueError(
            f"test_size must be a float strictly between 0 and 1, got {test_size!r}"
        )


def _check_random_state(random_state):
    if random_state is None or isinstance(random_state, np.random.RandomState):
        return
    if (isinstance(random_state, bool) or not isinstance(random_state, numbers.Integral)
            or not 0 <= int(random_state) <= 2**32 - 1):
        raise ValueError(
            "random_state must be None, an int in [0, 2**32 - 1] or a numpy.random.RandomState, "
            f"got {random_state!r}"
        )


def _check_stratifiable(y, test_size):
    """Refuse, in our words, the splits scikit-learn's stratified shuffle split refuses."""
    if y.ndim != 1 or y.shape[0] == 0:
        raise ValueError(f"y must be a non-empty 1-D array of labels, got shape {y.shape}")
    try:
        labels, counts = np.unique(y, return_counts=True)
    except TypeError as error:
        raise ValueError(f"y mixes label types that cannot be sorted together: {error}") from None
    n, n_classes = int(y.shape[0]), int(labels.shape[0])
    single = labels[counts < 2]
    if single.size:
        raise ValueError(
            f"class {single.tolist()[0]!r} has a single sample: a stratified split needs at "
            "least 2 samples of every class, one for each part"
        )
    n_test = int(np.ceil(float(test_size) * n))  # as scikit-learn rounds a fractional size
    if n_test < n_classes:
        raise ValueError(
            f"test_size={test_size!r} is too small: it puts {n_test} of {n} samples in the "
            f"test part, too few for one sample of each of the {n_classes} classes; use "
            f"test_size >= {math.ceil(n_classes / n * 1e4) / 1e4}"
        )
    if n - n_test < n_classes:
        raise ValueError(
            f"test_size={test_size!r} is too large: it leaves {n - n_test} of {n} samples in "
            f"the training part, too few for one sample of each of the {n_classes} classes; "
            f"use test_size <= {math.floor((n - n_classes) / n * 1e4) / 1e4}"
        )
