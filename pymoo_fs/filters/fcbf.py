"""FCBF: the fast correlation-based filter (Yu & Liu 2003) with Weka's defaults."""

import numpy as np

from pymoo_fs._validation import check_real
from pymoo_fs.filters._base import SupportSelector

__all__ = ["FCBF"]


class FCBF(SupportSelector):
    """Fast correlation-based filter: relevant features without redundant ones.

    Features whose SU with the class exceeds ``threshold`` are sorted by decreasing SU; each
    remaining feature in turn is predominant and removes every later feature ``q`` with
    ``SU(p, q) >= SU(q, C)`` (within ``1e-8``). The predominant features are selected
    (Weka ``FCBFSearch`` with ``SymmetricalUncertAttributeSetEval``).

    Parameters
    ----------
    threshold : float or None, default=0.0
        Relevance threshold ``delta``: only features with ``SU(f, C) > threshold`` are
        considered. None is Weka's default (no threshold); our assumption [A] is 0.
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
        Selected (predominant) features.
    ranking_ : ndarray of int64, shape (n_selected,)
        Selected features by decreasing SU with the class.
    su_ : SymmetricUncertainty
        The SU table of the training data.
    n_features_in_ : int

    Raises
    ------
    ValueError
        From :meth:`fit`, for invalid data, an unknown ``discretization`` or a threshold that
        is not a real number.

    Notes
    -----
    Equal relevance keeps the lower feature index first (our assumption [A]); Weka's order among
    equal values is that of its sort. Feature-feature SU is Weka's (0 when a feature has a
    single bin). With ``threshold=None``, a feature of zero relevance is removed by the first
    predominant feature (its SU with it is at least 0), so both settings select the same
    features unless no feature is relevant. Deterministic.

    References
    ----------
    L. Yu, H. Liu, "Feature selection for high-dimensional data: a fast correlation-based
    filter solution", ICML 2003, pp. 856-863. Weka package ``fastCorrBasedFS``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.filters import FCBF
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1, 2], 20)
    >>> signal = y + 1.5 * rng.random(60)
    >>> X = np.column_stack([rng.random(60), signal, signal + 0.2 * rng.random(60),
    ...                      y + 1.5 * rng.random(60)])
    >>> FCBF().fit(X, y).get_support().tolist()  # noise out, the near-copy of column 1 out
    [False, True, False, True]
    """

    def __init__(self, threshold=0.0, better_encoding=True, discretization="mdl"):
        self.threshold = threshold
        self.better_encoding = better_encoding
        self.discretization = discretization

    def fit(self, X, y):
        """Select the predominant features.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : FCBF
        """
        threshold = (-np.inf if self.threshold is None
                     else check_real("threshold", self.threshold))
        su = self._fit_su(X, y)
        order = su.ranking()
        order = order[su.relevance[order] > threshold]
        removed = np.zeros(su.n_features, dtype=bool)
        selected = []
        for position, p in enumerate(order):
            if removed[p]:
                continue
            selected.append(int(p))
            later = order[position + 1:]
            later = later[~removed[later]]
            if later.size:
                pair = su.between(int(p), later)
                own = su.relevance[later]
                removed[later[(own < pair) | (np.abs(pair - own) < 1e-8)]] = True
        self.ranking_ = np.array(selected, dtype=np.int64)
        self.support_ = np.zeros(su.n_features, dtype=bool)
        self.support_[self.ranking_] = True
        return self
