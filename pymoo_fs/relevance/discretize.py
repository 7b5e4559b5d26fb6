"""Supervised discretisation: Fayyad & Irani's MDL cut points, as Weka's ``Discretize`` makes them.

:func:`mdl_cut_points` finds the cut points of one continuous feature;
:class:`MDLDiscretizer` fits them for every column of a training set and maps values to bins.
Symmetric uncertainty, CFS and FCBF work on these bins (Fayyad & Irani 1993, with Weka's better
encoding).
"""

import math

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.utils.validation import check_is_fitted, validate_data

__all__ = ["MDLDiscretizer", "mdl_cut_points"]

_LOG2 = math.log(2.0)


def _nlogn(c):
    """``c ln c`` elementwise, 0 for ``c <= 0`` (Weka's ``ContingencyTables.lnFunc``)."""
    c = np.asarray(c, dtype=np.float64)
    out = np.zeros_like(c)
    pos = c > 0
    out[pos] = c[pos] * np.log(c[pos])
    return out


def _entropy(counts):
    """Entropy in bits of class counts (k,), Weka's ``ContingencyTables.entropy``."""
    total = counts.sum()
    if total <= 0:
        return 0.0
    value = 0.0
    for term in _nlogn(counts):
        value -= term
    return (value + float(_nlogn(total))) / (total * _LOG2)


def _conditional_entropies(left, right):
    """Class entropy after each candidate split, Weka's ``entropyConditionedOnRows``.

    ``left`` and ``right`` are (m, k) class counts of the two sides of m candidate cuts; the
    terms are added in Weka's order (left row, its total, right row, its total).
    """
    value = np.zeros(left.shape[0])
    for side in (left, right):
        for j in range(side.shape[1]):
            value += _nlogn(side[:, j])
        value -= _nlogn(side.sum(axis=1))
    total = left.sum(axis=1) + right.sum(axis=1)
    return -value / (total * _LOG2)


def _accept_fayyad_irani(prior, left, right, gain, n, n_cut_points):
    """Fayyad & Irani's MDL test of one split (Weka ``Discretize.FayyadAndIranisMDL``)."""
    prior_entropy = _entropy(prior)
    k = int(np.count_nonzero(prior))
    k1 = int(np.count_nonzero(left))
    k2 = int(np.count_nonzero(right))
    delta = math.log2(3.0 ** k - 2.0) - (k * prior_entropy - k2 * _entropy(right)
                                         - k1 * _entropy(left))
    return gain > (math.log2(n_cut_points) + delta) / n


def mdl_cut_points(x, y, better_encoding=True):
    """Cut points of one feature by Fayyad & Irani's MDL criterion, as Weka's ``Discretize``.

    The values are sorted; for an interval ``S`` of ``N`` values, the cut between two adjacent
    distinct values that leaves the lowest class entropy (the first such cut on ties) is kept
    when its information gain is positive and
    ``Gain > (log2(m) + log2(3^k - 2) - [k Ent(S) - k1 Ent(S1) - k2 Ent(S2)]) / N``,
    where ``k, k1, k2`` are the numbers of classes present in ``S`` and its two parts; then
    both parts are cut recursively.

    Parameters
    ----------
    x : array-like of float, shape (n,)
        The feature's values.
    y : array-like of int, shape (n,)
        Class codes ``0 .. n_classes - 1``.
    better_encoding : bool, default=True
        ``m`` is the number of candidate cut points of ``S`` (places where the sorted values
        change), Weka's ``useBetterEncoding``, which the AMSO code, CFS and FCBF set; False uses
        Fayyad & Irani's ``m = N - 1``.

    Returns
    -------
    cuts : ndarray of float64, shape (n_cuts,)
        Increasing cut points, each the midpoint of two adjacent distinct values; empty when
        no cut is accepted (the feature is one bin).

    Raises
    ------
    ValueError
        If ``x`` and ``y`` differ in length, or ``x`` holds NaN.

    Notes
    -----
    Entropies are computed in Weka's order of operations (``ContingencyTables``), so ties
    between candidate cuts resolve as Weka resolves them (the lowest cut wins). Missing values
    are not supported (none of the benchmark datasets has any).

    References
    ----------
    U. M. Fayyad, K. B. Irani, "Multi-interval discretization of continuous-valued attributes
    for classification learning", IJCAI 1993, pp. 1022-1027. Weka
    ``weka.filters.supervised.attribute.Discretize`` (``cutPointsForSubset``).

    Examples
    --------
    >>> from pymoo_fs.relevance import mdl_cut_points
    >>> mdl_cut_points([1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 0, 0, 1, 1, 1, 1])
    array([4.5])
    >>> mdl_cut_points([1, 2, 3, 4], [0, 1, 0, 1]).size
    0
    """
    x = np.asarray(x, dtype=np.float64).ravel()
    y = np.asarray(y).ravel()
    if x.shape != y.shape:
        raise ValueError(f"x and y must have the same length, got {x.size} and {y.size}")
    if np.isnan(x).any():
        raise ValueError("x holds NaN: missing values are not supported")
    order = np.argsort(x, kind="stable")
    values = x[order]
    codes = np.unique(y, return_inverse=True)[1].reshape(-1)[order]
    onehot = np.zeros((values.size, int(codes.max(initial=0)) + 1))
    onehot[np.arange(values.size), codes] = 1.0
    cuts = []
    _cut(values, onehot, 0, values.size, bool(better_encoding), cuts)
    return np.array(sorted(cuts), dtype=np.float64)


def _cut(values, onehot, first, last, better_encoding, cuts):
    """Append the accepted cut points of ``values[first:last]`` (sorted) to ``cuts``."""
    n = last - first
    if n < 2:
        return
    counts = onehot[first:last]
    prior = counts.sum(axis=0)
    left = np.cumsum(counts, axis=0)[:-1]
    right = prior - left
    candidates = np.flatnonzero(values[first:last - 1] < values[first + 1:last])
    if candidates.size == 0:
        return
    entropies = _conditional_entropies(left[candidates], right[candidates])
    prior_entropy = _entropy(prior)
    best, best_entropy = -1, prior_entropy
    for i, e in zip(candidates, entropies):  # strict '<': the first minimum wins (Weka)
        if e < best_entropy:
            best, best_entropy = int(i), float(e)
    gain = prior_entropy - best_entropy
    if best < 0 or gain <= 0:
        return
    m = candidates.size if better_encoding else n - 1
    if not _accept_fayyad_irani(prior, left[best], right[best], gain, float(n), m):
        return
    cuts.append((values[first + best] + values[first + best + 1]) / 2.0)
    _cut(values, onehot, first, first + best + 1, better_encoding, cuts)
    _cut(values, onehot, first + best + 1, last, better_encoding, cuts)


class MDLDiscretizer(TransformerMixin, BaseEstimator):
    """Supervised MDL discretisation of every column (Weka ``Discretize``, better encoding).

    Parameters
    ----------
    better_encoding : bool, default=True
        Count the candidate cut points of an interval in the MDL test (Weka's
        ``useBetterEncoding``, used by the AMSO code and by Weka's CFS and FCBF); False uses
        ``N - 1``. See :func:`mdl_cut_points`.

    Attributes
    ----------
    cut_points_ : list of ndarray of float64
        Increasing cut points of each column; an empty array for a single-bin column.
    n_bins_ : ndarray of int64, shape (n_features,)
        Number of bins of each column (``len(cut_points_[j]) + 1``).
    classes_ : ndarray, shape (n_classes,)
        The class labels seen in :meth:`fit`.
    n_features_in_ : int

    Notes
    -----
    :meth:`transform` maps ``v`` to the number of cut points strictly below it, so a value
    equal to a cut point falls in the lower bin (Weka's ``v <= cut``).

    References
    ----------
    U. M. Fayyad, K. B. Irani, IJCAI 1993; I. Kononenko, "On biases in estimating
    multi-valued attributes", IJCAI 1995 (the better encoding, as Weka implements it).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.relevance import MDLDiscretizer
    >>> X = np.array([[1.0, 5.0], [2.0, 5.0], [3.0, 5.0], [4.0, 5.0],
    ...               [5.0, 5.0], [6.0, 5.0], [7.0, 5.0], [8.0, 5.0]])
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> disc = MDLDiscretizer().fit(X, y)
    >>> disc.n_bins_.tolist(), disc.transform(X)[:, 0].tolist()
    ([2, 1], [0, 0, 0, 0, 1, 1, 1, 1])
    """

    def __init__(self, better_encoding=True):
        self.better_encoding = better_encoding

    def fit(self, X, y):
        """Find the cut points of every column.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Continuous features (no NaN).
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : MDLDiscretizer

        Raises
        ------
        ValueError
            For NaN or infinite values, or mismatched lengths (scikit-learn's checks).
        """
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.classes_, codes = np.unique(y, return_inverse=True)
        codes = codes.reshape(-1)
        self.cut_points_ = [mdl_cut_points(X[:, j], codes, self.better_encoding)
                            for j in range(X.shape[1])]
        self.n_bins_ = np.array([c.size + 1 for c in self.cut_points_], dtype=np.int64)
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        tags.transformer_tags.preserves_dtype = []  # bins are int64 codes
        return tags

    def transform(self, X):
        """Bin index of every value.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        codes : ndarray of int64, shape (n_samples, n_features)
            ``codes[i, j]`` in ``[0, n_bins_[j])``.
        """
        check_is_fitted(self)
        X = validate_data(self, X, dtype=np.float64, reset=False)
        codes = np.empty(X.shape, dtype=np.int64)
        for j, cuts in enumerate(self.cut_points_):
            codes[:, j] = np.searchsorted(cuts, X[:, j], side="left")
        return codes
