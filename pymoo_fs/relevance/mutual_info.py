"""Mutual information with the class without discretisation (scikit-learn's estimator).

:class:`MutualInformation` is the non-discretising alternative to
:class:`~pymoo_fs.relevance.SymmetricUncertainty` as a feature ranking: scikit-learn's
``mutual_info_classif`` (the k-nearest-neighbour estimate of Ross 2014 for a continuous
feature and a discrete class) on the raw training values. It ranks features only: it has no
measure between two features on the scale of its relevance, so what needs one (AMSO's local
search, HFS-C-P's clustering, CFS, FCBF) asks for a discretisation instead.
"""

import numpy as np
from sklearn.feature_selection import mutual_info_classif
from sklearn.utils.validation import check_X_y

from pymoo_fs._validation import check_int

__all__ = ["MutualInformation"]


class MutualInformation:
    """Mutual information of each training feature with the class, for ranking.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Continuous training features.
    y : array-like of shape (n_samples,)
        Class labels.
    n_neighbors : int, default=3
        Neighbours of the estimator (scikit-learn's default).
    random_state : int, default=0
        Seed of the small noise scikit-learn adds to continuous features (so equal values do
        not tie); fixed, so the ranking of a training set is always the same.

    Attributes
    ----------
    relevance : ndarray of float64, shape (n_features,)
        Estimated ``I(f; C)`` in nats, >= 0 (scikit-learn clips negative estimates to 0).
    discretization : str
        ``"mutual_info"``.

    Raises
    ------
    ValueError
        For invalid data (scikit-learn's ``check_X_y``) or ``n_neighbors`` not a positive
        int. (A class smaller than ``n_neighbors + 1`` is handled by scikit-learn, which uses
        fewer neighbours within it.)

    Notes
    -----
    The estimate is on the scale of nats, not SU's [0, 1]; only its order is used. Features
    with an estimate of 0 tie and keep their index order, as in :meth:`ranking` of SU.

    References
    ----------
    B. C. Ross, "Mutual information between discrete and continuous data sets", PLoS ONE
    9(2):e87357, 2014, doi:10.1371/journal.pone.0087357. scikit-learn
    ``sklearn.feature_selection.mutual_info_classif``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.relevance import MutualInformation
    >>> rng = np.random.default_rng(0)
    >>> y = np.repeat([0, 1], 30)
    >>> X = np.column_stack([rng.random(60), y + 0.3 * rng.random(60)])
    >>> MutualInformation(X, y).ranking().tolist()
    [1, 0]
    """

    discretization = "mutual_info"

    def __init__(self, X, y, n_neighbors=3, random_state=0):
        X, y = check_X_y(X, y, dtype=np.float64)
        self.n_neighbors = check_int("n_neighbors", n_neighbors, low=1)
        self.relevance = mutual_info_classif(X, y, discrete_features=False,
                                             n_neighbors=self.n_neighbors,
                                             random_state=random_state).astype(np.float64)
        self._n_features = X.shape[1]

    @property
    def n_features(self):
        """int: number of features."""
        return self._n_features

    def ranking(self):
        """Features by decreasing estimated mutual information; ties keep the index order.

        Returns
        -------
        order : ndarray of int64, shape (n_features,)
        """
        return np.argsort(-self.relevance, kind="stable").astype(np.int64)

    def between(self, feature, others=None):
        """Refused: mutual information ranks features; it has no feature-feature measure here.

        Raises
        ------
        ValueError
            Always, naming the discretisations that have one.
        """
        raise ValueError("discretization='mutual_info' ranks features by relevance only; SU "
                         "between features needs a discretization ('mdl', 'equal_width' or "
                         "'equal_frequency')")

    def redundant(self, features):
        """Refused, as :meth:`between`.

        Raises
        ------
        ValueError
            Always.
        """
        return self.between(0)
