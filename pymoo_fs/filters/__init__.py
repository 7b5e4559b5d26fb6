"""Filter feature selection for users: CFS, FCBF and LFS as scikit-learn selectors.

The baselines of Tran, Xue & Zhang (GECCO 2019). :class:`CFS`, :class:`FCBF` and :class:`LFS`
are deterministic scikit-learn selectors (Weka's defaults) searched
by :func:`best_first_forward`; CFS and FCBF work on symmetric uncertainty of discretised
features (MDL bins by default, Weka's; equal-width or equal-frequency bins through their
``discretization`` switch), LFS is a wrapper on the compiled KNN evaluator.

The relevance measures themselves live in :mod:`pymoo_fs.relevance` (the algorithms use them
too); :class:`MDLDiscretizer`, :func:`mdl_cut_points`, :class:`SymmetricUncertainty`,
:func:`symmetric_uncertainty` and :func:`su_classif` are re-exported here from there.

References
----------
B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.
"""

from pymoo_fs.filters.cfs import CFS
from pymoo_fs.filters.fcbf import FCBF
from pymoo_fs.filters.lfs import LFS
from pymoo_fs.filters.search import best_first_forward
from pymoo_fs.relevance import (MDLDiscretizer, SymmetricUncertainty, mdl_cut_points,
                                su_classif, symmetric_uncertainty)

__all__ = [
    "CFS",
    "FCBF",
    "LFS",
    "MDLDiscretizer",
    "SymmetricUncertainty",
    "best_first_forward",
    "mdl_cut_points",
    "su_classif",
    "symmetric_uncertainty",
]
