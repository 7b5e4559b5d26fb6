"""CFS: correlation-based feature selection (Hall 2000) with Weka's defaults."""

import numpy as np

from pymoo_fs._validation import check_positive_int
from pymoo_fs.filters._base import SupportSelector
from pymoo_fs.filters.search import best_first_forward

__all__ = ["CFS"]

#: fixed-point unit of the correlations in the merit sums (exact, path-independent sums)
_UNIT = 2 ** 32
#: Weka's Utils.SMALL: a correlation within it of 0 counts as 0
_SMALL = 1e-6


class CFS(SupportSelector):
    """Correlation-based feature selection: best-first search for the subset of highest merit.

    ``merit(S) = k r_cf / sqrt(k + k (k - 1) r_ff)`` with ``k = |S|``, ``r_cf`` the mean SU of the
    features of ``S`` with the class and ``r_ff`` the mean SU between them, on MDL-discretised
    data (Weka ``CfsSubsetEval`` with ``BestFirst``, both at their defaults).

    Parameters
    ----------
    max_stale : int, default=5
        Consecutive non-improving expansions of the best-first search before it stops (Weka
        ``BestFirst -N 5``).
    locally_predictive : bool, default=True
        After the search, visit the remaining features by decreasing SU with the class and add
        each one whose SU with every selected feature is below its SU with the class (Weka's
        ``locallyPredictive``, default on).
    better_encoding : bool, default=True
        MDL better encoding of the discretisation (see
        :class:`~pymoo_fs.filters.MDLDiscretizer`).
    discretization : {"mdl", "equal_width", "equal_frequency"}, default="mdl"
        The bins SU is computed on: Fayyad & Irani's MDL (as Weka's evaluators), or 10
        equal-width or equal-frequency bins (:class:`~pymoo_fs.relevance.SymmetricUncertainty`).
        Mutual information without bins is not offered: the filter compares SU between
        features with SU with the class.

    Attributes
    ----------
    support_ : ndarray of bool, shape (n_features_in_,)
        Selected features.
    merit_ : float
        Merit of the subset found by the search (before the locally predictive additions).
    n_subsets_evaluated_ : int
        Subsets whose merit the search computed.
    su_ : SymmetricUncertainty
        The SU table of the training data.
    n_features_in_ : int

    Raises
    ------
    ValueError
        From :meth:`fit`, for invalid data, an unknown ``discretization`` or ``max_stale`` not
        a positive int.

    Notes
    -----
    As Weka: a feature-feature SU of 0 (within 1e-6) counts as 1, i.e. as fully redundant; a
    child subset improves on the best one when its merit is larger by more than 1e-5. The
    correlations enter the merit sums as integers in units of ``2^-32``, so a subset's merit
    does not depend on the order in which the search reached it (Weka sums float32 values in
    attribute order). Ties keep the lower feature index. Deterministic.

    References
    ----------
    M. A. Hall, "Correlation-based feature selection for discrete and numeric class machine
    learning", ICML 2000, pp. 359-366. Weka ``CfsSubsetEval``, ``BestFirst``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.filters import CFS
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1, 2], 20)
    >>> signal = y + 1.5 * rng.random(60)
    >>> X = np.column_stack([rng.random(60), signal, signal + 0.2 * rng.random(60),
    ...                      y + 1.5 * rng.random(60)])
    >>> CFS().fit(X, y).get_support().tolist()  # noise out, the near-copy of column 1 out
    [False, True, False, True]
    """

    def __init__(self, max_stale=5, locally_predictive=True, better_encoding=True,
                 discretization="mdl"):
        self.max_stale = max_stale
        self.locally_predictive = locally_predictive
        self.better_encoding = better_encoding
        self.discretization = discretization

    def fit(self, X, y):
        """Search the subset of highest merit.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : CFS
        """
        max_stale = check_positive_int("max_stale", self.max_stale)
        su = self._fit_su(X, y)
        relevance = np.where(np.abs(su.relevance) < _SMALL, 0.0, su.relevance)
        merits = _Merits(su, relevance)
        group, self.merit_, self.n_subsets_evaluated_ = best_first_forward(
            merits.of_children, su.n_features, max_stale=max_stale)
        if self.locally_predictive:
            group = _add_locally_predictive(group, relevance, merits.correlations)
        self.support_ = group
        return self


class _Merits:
    """Merits of the children of a subset, from fixed-point correlation sums."""

    def __init__(self, su, relevance):
        self.su = su
        self.relevance_q = np.rint(relevance * _UNIT).astype(np.int64)
        self._rows = {}
        self._rows_q = {}

    def correlations(self, feature):
        """Feature-feature correlation row (float): SU, with 0 counted as 1 (Weka)."""
        row = self._rows.get(feature)
        if row is None:
            row = self.su.between(feature)
            row = np.where(np.abs(row) < _SMALL, 1.0, row)
            self._rows[feature] = row
        return row

    def _row_q(self, feature):
        row = self._rows_q.get(feature)
        if row is None:
            row = np.rint(self.correlations(feature) * _UNIT).astype(np.int64)
            row[feature] = _UNIT
            self._rows_q[feature] = row
        return row

    def of_children(self, group, added):
        members = np.flatnonzero(group)
        acc = np.zeros(group.size, dtype=np.int64)
        for j in members:
            acc += self._row_q(int(j))
        numerator = int(self.relevance_q[members].sum())
        denominator = int(acc[members].sum())  # k + 2 sum_{i<j} r_ij, diagonal 1
        num = (numerator + self.relevance_q[added]).astype(np.float64)
        den = (denominator + _UNIT + 2 * acc[added]).astype(np.float64)
        return (num / _UNIT) / np.sqrt(den / _UNIT)


def _add_locally_predictive(group, relevance, correlations):
    """Weka ``CfsSubsetEval.addLocallyPredictive`` with threshold 0.

    Features are visited by decreasing relevance; one is added when its correlation with
    every selected feature (those found by the search and those added before it) is at most
    its relevance.
    """
    group = group.copy()
    highest = np.full(group.size, -np.inf)  # max correlation with the selected features
    for j in np.flatnonzero(group):
        highest = np.maximum(highest, correlations(int(j)))
    for j in np.argsort(-relevance, kind="stable"):
        if group[j] or highest[j] > relevance[j]:
            continue
        group[j] = True
        highest = np.maximum(highest, correlations(int(j)))
    return group
