"""The relevance measure behind a feature ranking, by name: SU on one of three discretisations,
or mutual information without one.

:data:`RELEVANCE_MEASURES` lists the names an algorithm's ``discretization`` switch takes;
:func:`relevance_measure` builds the measure of a training set.
"""

from pymoo_fs.relevance.mutual_info import MutualInformation
from pymoo_fs.relevance.su import DISCRETIZERS, SymmetricUncertainty

__all__ = ["RELEVANCE_MEASURES", "relevance_measure"]

#: the discretisations behind SU, then ``"mutual_info"`` (no discretisation)
RELEVANCE_MEASURES = DISCRETIZERS + ("mutual_info",)


def relevance_measure(X, y, discretization="mdl"):
    """The relevance of the features of one training set, by the named measure.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Continuous training features.
    y : array-like of shape (n_samples,)
        Class labels.
    discretization : {"mdl", "equal_width", "equal_frequency", "mutual_info"}, default="mdl"
        SU after MDL bins (Fayyad & Irani 1993), after 10 equal-width or 10 equal-frequency bins
        (:class:`~pymoo_fs.relevance.SymmetricUncertainty`), or scikit-learn's
        ``mutual_info_classif`` without discretisation
        (:class:`~pymoo_fs.relevance.MutualInformation`, ranking only).

    Returns
    -------
    measure : SymmetricUncertainty or MutualInformation
        ``relevance`` (n_features,), ``ranking()``, ``between(f, others)`` (SU only) and
        ``discretization``.

    Raises
    ------
    ValueError
        For an unknown ``discretization`` (the message lists them) or invalid data.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.relevance import relevance_measure
    >>> y = np.repeat([0, 1], 10)
    >>> X = np.column_stack([np.arange(20.0) % 3, y + np.arange(20) / 40])
    >>> [relevance_measure(X, y, d).ranking().tolist() for d in ("mdl", "equal_frequency")]
    [[1, 0], [1, 0]]
    """
    if discretization == "mutual_info":
        return MutualInformation(X, y)
    if discretization not in DISCRETIZERS:
        raise ValueError(f"discretization must be one of {RELEVANCE_MEASURES}, got "
                         f"{discretization!r}")
    return SymmetricUncertainty(X, y, discretization=discretization)
