"""Filter feature selection on supervised discretisation: SU ranking, CFS, FCBF, and LFS.

The baselines of seed 001 (Tran, Xue & Zhang, GECCO 2019) and the relevance measure of AMSO and
VLPSO. Continuous features are discretised by Fayyad & Irani's MDL criterion with Weka's better
encoding (:class:`MDLDiscretizer`); :class:`SymmetricUncertainty` holds the symmetric
uncertainty of every feature with the class and between features, and :func:`su_classif` is
the SU ranking as a scikit-learn ``score_func``. :class:`CFS`, :class:`FCBF` and :class:`LFS`
are deterministic scikit-learn selectors (Weka's defaults, spec §9.7-9.10); LFS is a wrapper
on the compiled KNN evaluator.
"""

from pymoo_fs.filters.cfs import CFS
from pymoo_fs.filters.discretize import MDLDiscretizer, mdl_cut_points
from pymoo_fs.filters.fcbf import FCBF
from pymoo_fs.filters.lfs import LFS
from pymoo_fs.filters.search import best_first_forward
from pymoo_fs.filters.su import SymmetricUncertainty, su_classif, symmetric_uncertainty

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
