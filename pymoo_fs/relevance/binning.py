"""Unsupervised discretisation: equal-width and equal-frequency bins, as Weka's ``Discretize``.

:func:`equal_width_cut_points` and :func:`equal_frequency_cut_points` find the cut points of
one continuous feature without looking at the class; :class:`EqualWidthDiscretizer` and
:class:`EqualFrequencyDiscretizer` fit them for every column of a training set and map values
to bins as :class:`~pymoo_fs.relevance.MDLDiscretizer` does (a value equal to a cut point
falls in the lower bin). They are the alternatives to the supervised MDL bins behind symmetric
uncertainty (``discretization="equal_width"`` and ``"equal_frequency"`` of
:class:`~pymoo_fs.relevance.SymmetricUncertainty`).
"""

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from pymoo_fs._validation import check_int

__all__ = ["EqualFrequencyDiscretizer", "EqualWidthDiscretizer", "equal_frequency_cut_points",
           "equal_width_cut_points"]


def _values(x):
    x = np.asarray(x, dtype=np.float64).ravel()
    if np.isnan(x).any():
        raise ValueError("x holds NaN: missing values are not supported")
    return x


def equal_width_cut_points(x, n_bins=10):
    """Cut points of ``n_bins`` intervals of equal width over the range of one feature.

    Parameters
    ----------
    x : array-like of float, shape (n,)
        The feature's values.
    n_bins : int, default=10
        Number of intervals (Weka ``Discretize -B``, default 10), at least 1.

    Returns
    -------
    cuts : ndarray of float64, shape (n_bins - 1,) or (0,)
        ``min + k (max - min) / n_bins`` for ``k = 1 .. n_bins - 1``; empty for a constant
        feature or ``n_bins = 1`` (the feature is one bin).

    Raises
    ------
    ValueError
        If ``x`` holds NaN or ``n_bins`` is not a positive int.

    References
    ----------
    Weka ``weka.filters.unsupervised.attribute.Discretize``
    (``calculateCutPointsByEqualWidthBinning``).

    Examples
    --------
    >>> from pymoo_fs.relevance import equal_width_cut_points
    >>> equal_width_cut_points([0.0, 1.0, 4.0], n_bins=4).tolist()
    [1.0, 2.0, 3.0]
    >>> equal_width_cut_points([2.0, 2.0]).size
    0
    """
    n_bins = check_int("n_bins", n_bins, low=1)
    x = _values(x)
    if x.size == 0:
        return np.zeros(0)
    low, high = float(x.min()), float(x.max())
    width = (high - low) / n_bins
    if n_bins < 2 or width <= 0.0:
        return np.zeros(0)
    return low + width * np.arange(1, n_bins, dtype=np.float64)


def equal_frequency_cut_points(x, n_bins=10):
    """Cut points that split one feature into ``n_bins`` intervals of about equal counts.

    Weka's equal-frequency binning: the values are sorted and scanned; a cut can only fall
    between two distinct values (midpoint). Once the running count reaches the ideal size
    ``freq``, the cut goes at the current place, or at the previous candidate place when that
    one was closer to ``freq``; then ``freq`` is recomputed from what is left. A candidate
    left at the end gives one more cut.

    Parameters
    ----------
    x : array-like of float, shape (n,)
        The feature's values.
    n_bins : int, default=10
        Desired number of intervals (Weka ``Discretize -F -B``, default 10), at least 1.

    Returns
    -------
    cuts : ndarray of float64, shape (k,)
        Increasing cut points, ``k <= n_bins - 1``; fewer when ties leave too few distinct
        values; empty for a constant feature.

    Raises
    ------
    ValueError
        If ``x`` holds NaN or ``n_bins`` is not a positive int.

    References
    ----------
    Weka ``weka.filters.unsupervised.attribute.Discretize``
    (``calculateCutPointsByEqualFrequencyBinning``), every instance of weight 1.

    Examples
    --------
    >>> from pymoo_fs.relevance import equal_frequency_cut_points
    >>> equal_frequency_cut_points([1, 2, 3, 4, 5, 6, 7, 8], n_bins=4).tolist()
    [2.5, 4.5, 6.5]
    >>> equal_frequency_cut_points([1, 1, 1, 1, 1, 2], n_bins=2).tolist()
    [1.5]
    """
    n_bins = check_int("n_bins", n_bins, low=1)
    values = np.sort(_values(x))
    n_cuts = n_bins - 1
    remaining = float(values.size)
    freq = remaining / n_bins
    cuts = []
    counter, last, last_index = 0.0, 0.0, -1
    for i in range(values.size - 1):
        if len(cuts) >= n_cuts:
            break
        counter += 1.0
        remaining -= 1.0
        if not values[i] < values[i + 1]:
            continue
        if counter >= freq:
            if freq - last < counter - freq and last_index != -1:
                cuts.append((values[last_index] + values[last_index + 1]) / 2.0)
                counter -= last
                last = counter
                last_index = i
            else:
                cuts.append((values[i] + values[i + 1]) / 2.0)
                counter, last, last_index = 0.0, 0.0, -1
            freq = (remaining + counter) / (n_cuts + 1 - len(cuts))
        else:
            last_index, last = i, counter
    if len(cuts) < n_cuts and last_index != -1:
        cuts.append((values[last_index] + values[last_index + 1]) / 2.0)
    return np.array(cuts, dtype=np.float64)


class _UnsupervisedDiscretizer(TransformerMixin, BaseEstimator):
    """Cut points per column from a function of the column alone; bins by ``searchsorted``."""

    _cut_points = None

    def __init__(self, n_bins=10):
        self.n_bins = n_bins

    def fit(self, X, y=None):
        """Find the cut points of every column.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Continuous features (no NaN).
        y : ignored
            Accepted for pipelines (the bins do not depend on the class).

        Returns
        -------
        self

        Raises
        ------
        ValueError
            For NaN or infinite values (scikit-learn's checks), or ``n_bins`` not a positive
            int.
        """
        check_int("n_bins", self.n_bins, low=1)
        X = validate_data(self, X, dtype=np.float64)
        self.cut_points_ = [type(self)._cut_points(X[:, j], self.n_bins)
                            for j in range(X.shape[1])]
        self.n_bins_ = np.array([c.size + 1 for c in self.cut_points_], dtype=np.int64)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []  # bins are int64 codes
        tags.requires_fit = True
        return tags

    def transform(self, X):
        """Bin index of every value.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        codes : ndarray of int64, shape (n_samples, n_features)
            ``codes[i, j]`` in ``[0, n_bins_[j])``: the number of cut points strictly below
            the value.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        codes = np.empty(X.shape, dtype=np.int64)
        for j, cuts in enumerate(self.cut_points_):
            codes[:, j] = np.searchsorted(cuts, X[:, j], side="left")
        return codes


class EqualWidthDiscretizer(_UnsupervisedDiscretizer):
    """Equal-width bins of every column (Weka's unsupervised ``Discretize``, its default mode).

    Parameters
    ----------
    n_bins : int, default=10
        Intervals per column (Weka's default 10).

    Attributes
    ----------
    cut_points_ : list of ndarray of float64
        Cut points of each column (:func:`equal_width_cut_points`).
    n_bins_ : ndarray of int64, shape (n_features,)
        Bins of each column (1 for a constant column).
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.relevance import EqualWidthDiscretizer
    >>> X = np.array([[0.0, 1.0], [1.0, 1.0], [4.0, 1.0]])
    >>> disc = EqualWidthDiscretizer(n_bins=4).fit(X)
    >>> disc.n_bins_.tolist(), disc.transform(X)[:, 0].tolist()
    ([4, 1], [0, 0, 3])
    """

    _cut_points = staticmethod(equal_width_cut_points)


class EqualFrequencyDiscretizer(_UnsupervisedDiscretizer):
    """Equal-frequency bins of every column (Weka's unsupervised ``Discretize -F``).

    Parameters
    ----------
    n_bins : int, default=10
        Desired intervals per column (Weka's default 10); ties may give fewer.

    Attributes
    ----------
    cut_points_ : list of ndarray of float64
        Cut points of each column (:func:`equal_frequency_cut_points`).
    n_bins_ : ndarray of int64, shape (n_features,)
    n_features_in_ : int

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.relevance import EqualFrequencyDiscretizer
    >>> X = np.arange(8.0).reshape(-1, 1)
    >>> EqualFrequencyDiscretizer(n_bins=4).fit(X).transform(X).ravel().tolist()
    [0, 0, 1, 1, 2, 2, 3, 3]
    """

    _cut_points = staticmethod(equal_frequency_cut_points)
