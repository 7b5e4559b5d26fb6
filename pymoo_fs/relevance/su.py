"""Symmetric uncertainty (SU) of discretised features, with the class and between features.

``SU(A, B) = 2 IG(A; B) / (H(A) + H(B))`` with entropies estimated from counts (Yu & Liu 2003;
Weka's SU evaluators).
:func:`symmetric_uncertainty` takes two discrete arrays; :class:`SymmetricUncertainty` holds a
training set discretised once (by default :class:`~pymoo_fs.relevance.MDLDiscretizer`; equal
width or equal frequency bins on request), the SU of every feature with the class (its
relevance, and the SU ranking) and SU between features, computed lazily and cached;
:func:`su_classif` is the relevance as a scikit-learn ``score_func``.
"""

from collections import OrderedDict

import numpy as np
from sklearn.utils.validation import check_X_y

from pymoo_fs._validation import check_choice, check_int
from pymoo_fs.relevance._kernels import redundant_marks, su_against
from pymoo_fs.relevance.binning import EqualFrequencyDiscretizer, EqualWidthDiscretizer
from pymoo_fs.relevance.discretize import MDLDiscretizer

__all__ = ["DISCRETIZERS", "SymmetricUncertainty", "su_classif", "symmetric_uncertainty"]

#: the discretisations SU can be computed on: supervised MDL bins (Fayyad & Irani, Weka's
#: better encoding), and unsupervised equal-width and equal-frequency bins
DISCRETIZERS = ("mdl", "equal_width", "equal_frequency")

#: most relevant features whose pairwise SU is kept as one dense float32 matrix (64 MiB)
_MAX_DENSE = 4096


def symmetric_uncertainty(a, b):
    """Symmetric uncertainty of two discrete variables.

    Parameters
    ----------
    a, b : array-like, shape (n,)
        Discrete values (any labels).

    Returns
    -------
    su : float
        ``2 (H(a) - H(a | b)) / (H(a) + H(b))`` in [0, 1]; 0.0 when either entropy is 0 (a
        constant variable), as Weka's ``ContingencyTables.symmetricalUncertainty``.

    Raises
    ------
    ValueError
        If ``a`` and ``b`` differ in length or are empty.

    References
    ----------
    W. H. Press et al., Numerical Recipes in C, 2nd ed., 1992, §14.7; L. Yu, H. Liu, "Feature
    selection for high-dimensional data: a fast correlation-based filter solution", ICML 2003.

    Examples
    --------
    >>> from pymoo_fs.relevance import symmetric_uncertainty
    >>> symmetric_uncertainty([0, 0, 1, 1], [5, 5, 7, 7])
    1.0
    >>> symmetric_uncertainty([0, 1, 0, 1], [0, 0, 1, 1])
    0.0
    """
    a = np.asarray(a).ravel()
    b = np.asarray(b).ravel()
    if a.shape != b.shape or a.size == 0:
        raise ValueError(f"a and b must be non-empty and of the same length, got {a.size} and "
                         f"{b.size}")
    a_codes = np.unique(a, return_inverse=True)[1].reshape(1, -1).astype(np.int64)
    b_values, b_codes = np.unique(b, return_inverse=True)
    return float(su_against(a_codes, np.array([a_codes.max() + 1]), np.zeros(1, np.int64),
                            b_codes.reshape(-1).astype(np.int64), b_values.size)[0])


class SymmetricUncertainty:
    """SU of the features of one training set, with the class and with each other.

    The features are discretised once, fitted on this training set: by default by Fayyad &
    Irani's MDL criterion with Weka's better encoding
    (:class:`~pymoo_fs.relevance.MDLDiscretizer`, Fayyad & Irani 1993), or into equal-width or
    equal-frequency bins (:class:`~pymoo_fs.relevance.EqualWidthDiscretizer`,
    :class:`~pymoo_fs.relevance.EqualFrequencyDiscretizer`).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Continuous training features.
    y : array-like of shape (n_samples,)
        Class labels.
    better_encoding : bool, default=True
        Passed to the MDL discretiser.
    discretization : {"mdl", "equal_width", "equal_frequency"}, default="mdl"
        How the features are binned (:data:`DISCRETIZERS`). MDL gives a feature whose values
        do not split the classes by its criterion a single bin, hence SU 0; the unsupervised
        bins give almost every feature a positive SU (an estimate biased upwards on few
        samples, but one that orders weakly relevant features instead of tying them at 0).
    n_bins : int, default=10
        Bins of the unsupervised discretisations (Weka's default); unused by MDL.
    max_rows : int, default=1024
        Rows of feature-feature SU kept in memory (least recently used evicted); each holds
        ``n_features`` floats.

    Attributes
    ----------
    relevance : ndarray of float64, shape (n_features,)
        ``SU(f, C)`` of each feature with the class; 0.0 for a feature with a single bin.
    codes : ndarray of int64, shape (n_samples, n_features)
        The bin of every value.
    n_bins : ndarray of int64, shape (n_features,)
    discretizer : MDLDiscretizer, EqualWidthDiscretizer or EqualFrequencyDiscretizer
        The fitted discretiser.
    discretization : str
        Its name.
    n_rows_computed : int
        Rows of feature-feature SU computed so far (a measure of work).

    Raises
    ------
    ValueError
        For invalid data (scikit-learn's ``check_X_y``), ``max_rows`` or ``n_bins`` not a
        positive int, or an unknown ``discretization``.

    Notes
    -----
    SU between two features follows Weka's ``ContingencyTables.symmetricalUncertainty``: 0.0
    when either is constant (a single bin). Users apply their own convention on top: CFS
    counts a feature-feature SU of 0 as 1 (Weka ``CfsSubsetEval``), the AMSO local search
    counts a pair with an irrelevant feature as 1 (AMSO code ``SU.get_su``).

    References
    ----------
    B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
    high-dimensional classification", GECCO 2019 (SU ranking); L. Yu, H. Liu, ICML 2003.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.relevance import SymmetricUncertainty
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 20)
    >>> X = np.column_stack([y + 0.1 * rng.random(40), rng.random(40)])
    >>> su = SymmetricUncertainty(X, y)
    >>> su.relevance.round(3).tolist(), su.ranking().tolist()
    ([1.0, 0.0], [0, 1])
    >>> float(su.between(0, [1])[0])
    0.0
    """

    def __init__(self, X, y, better_encoding=True, max_rows=1024, discretization="mdl",
                 n_bins=10):
        X, y = check_X_y(X, y, dtype=np.float64)
        self.max_rows = check_int("max_rows", max_rows, low=1)
        self.discretization = check_choice("discretization", discretization, DISCRETIZERS)
        if discretization == "mdl":
            discretizer = MDLDiscretizer(better_encoding=better_encoding)
        else:
            n_bins = check_int("n_bins", n_bins, low=1)
            discretizer = (EqualWidthDiscretizer(n_bins) if discretization == "equal_width"
                           else EqualFrequencyDiscretizer(n_bins))
        self.discretizer = discretizer.fit(X, y)
        self.codes = self.discretizer.transform(X)
        self.n_bins = self.discretizer.n_bins_
        classes, y_codes = np.unique(y, return_inverse=True)
        self._codes_t = np.ascontiguousarray(self.codes.T)
        self._all = np.arange(self.n_features, dtype=np.int64)
        self.relevance = su_against(self._codes_t, self.n_bins, self._all,
                                    y_codes.reshape(-1).astype(np.int64), classes.size)
        self._rows = OrderedDict()
        self.n_rows_computed = 0
        self._pairs = None

    @property
    def n_features(self):
        """int: number of features."""
        return self.codes.shape[1]

    def ranking(self):
        """Features by decreasing relevance; equal relevance keeps the original order.

        Returns
        -------
        order : ndarray of int64, shape (n_features,)
            ``order[r]`` is the feature of rank ``r`` (our tie rule [A]).
        """
        return np.argsort(-self.relevance, kind="stable").astype(np.int64)

    def between(self, feature, others=None):
        """SU between one feature and others.

        Parameters
        ----------
        feature : int
            A feature index.
        others : array-like of int, optional
            Feature indices; default all features.

        Returns
        -------
        su : ndarray of float64, shape (len(others),)
            ``SU(feature, others[i])``; the feature's row over all features is computed once
            and cached.

        Raises
        ------
        ValueError
            If an index is out of range.
        """
        feature = check_int("feature", feature, low=0, high=self.n_features - 1)
        row = self._rows.get(feature)
        if row is None:
            row = su_against(self._codes_t, self.n_bins, self._all, self._codes_t[feature],
                             int(self.n_bins[feature]))
            self.n_rows_computed += 1
            self._rows[feature] = row
            if len(self._rows) > self.max_rows:
                self._rows.popitem(last=False)
        else:
            self._rows.move_to_end(feature)
        if others is None:
            return row.copy()
        others = np.asarray(others, dtype=np.int64)
        if others.size and (others.min() < 0 or others.max() >= self.n_features):
            raise ValueError(f"others must be feature indices in [0, {self.n_features})")
        return row[others]

    def redundant(self, features):
        """Which features are redundant given earlier ones (the AMSO local search's rule).

        Parameters
        ----------
        features : array-like of int, shape (k,)
            Features in decreasing relevance.

        Returns
        -------
        marked : ndarray of bool, shape (k,)
            ``marked[b]`` when an earlier unmarked ``features[a]`` has
            ``SU(features[a], features[b]) > SU(features[b], C)``; a pair involving a feature
            of zero relevance counts as SU 1. Values are compared in float32, as the AMSO code
            stores them.

        Notes
        -----
        The AMSO code's ``KNNopt.flip`` (an approximate Markov blanket, as in FCBF). SU
        between the relevant features is computed once for all of them (a dense float32
        matrix, when at most 4096 features are relevant) or pair by pair otherwise.

        Examples
        --------
        >>> import numpy as np
        >>> from pymoo_fs.relevance import SymmetricUncertainty
        >>> y = np.repeat([0, 1], 10)
        >>> noisy = np.where(np.arange(20) % 7 == 0, 1 - y, y)  # relevant, imperfect
        >>> X = np.column_stack([noisy, noisy, np.zeros(20)])
        >>> su = SymmetricUncertainty(X, y)
        >>> su.redundant([0, 1, 2]).tolist()  # 1 duplicates 0; 2 is irrelevant
        [False, True, True]
        """
        features = np.asarray(features, dtype=np.int64)
        if features.size and (features.min() < 0 or features.max() >= self.n_features):
            raise ValueError(f"features must be feature indices in [0, {self.n_features})")
        if self._pairs is None:
            self._build_pairs()
        row_of, pairs, relevance = self._pairs
        return redundant_marks(features, relevance, row_of, pairs, self._codes_t, self.n_bins)

    def _build_pairs(self):
        relevant = np.flatnonzero(self.relevance > 0)
        row_of = np.full(self.n_features, -1, dtype=np.int64)
        row_of[relevant] = np.arange(relevant.size)
        if relevant.size > _MAX_DENSE:
            pairs = np.zeros((0, 0), dtype=np.float32)
        else:
            pairs = np.empty((relevant.size, relevant.size), dtype=np.float32)
            for r, f in enumerate(relevant):
                pairs[r] = su_against(self._codes_t, self.n_bins, relevant, self._codes_t[f],
                                      int(self.n_bins[f]))
        self._pairs = (row_of, pairs, self.relevance.astype(np.float32))


def su_classif(X, y):
    """Symmetric uncertainty of each feature with the class, as a scikit-learn ``score_func``.

    Each feature is discretised by the MDL criterion (Weka's better encoding) fitted on
    ``(X, y)``, then ``SU(f, C)`` is computed. Use with
    :class:`sklearn.feature_selection.SelectKBest` or ``SelectPercentile``; the order of the
    scores is the SU ranking of AMSO, VLPSO and FCBF (Tran et al. 2019; Yu & Liu 2003).

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    y : array-like of shape (n_samples,)

    Returns
    -------
    scores : ndarray of float64, shape (n_features,)
        In [0, 1]; higher is more relevant.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.feature_selection import SelectKBest
    >>> from pymoo_fs.relevance import su_classif
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 20)
    >>> X = np.column_stack([rng.random(40), y + 0.1 * rng.random(40), rng.random(40)])
    >>> SelectKBest(su_classif, k=1).fit(X, y).get_support().tolist()
    [False, True, False]
    """
    return SymmetricUncertainty(X, y).relevance
