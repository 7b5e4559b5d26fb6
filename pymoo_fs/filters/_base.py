"""What the filter selectors share: the fitted support mask, and fitting the SU table."""

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.feature_selection import SelectorMixin
from sklearn.utils.validation import check_is_fitted, validate_data

from pymoo_fs._validation import check_choice
from pymoo_fs.relevance import DISCRETIZERS, SymmetricUncertainty


class SupportSelector(SelectorMixin, BaseEstimator):
    """A scikit-learn selector whose ``fit`` sets the boolean ``support_``."""

    def _get_support_mask(self):
        check_is_fitted(self)
        return self.support_

    def _fit_su(self, X, y):
        """Check ``(X, y)`` and set ``su_``, the SU table of the training data (its bins by
        ``discretization``)."""
        discretization = check_choice("discretization", self.discretization, DISCRETIZERS)
        X, y = validate_data(self, X, y, dtype=np.float64)
        self.su_ = SymmetricUncertainty(X, y, better_encoding=self.better_encoding,
                                        discretization=discretization)
        return self.su_
