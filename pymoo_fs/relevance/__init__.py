"""Relevance measures: how much a feature tells about the class, and about another feature.

What the algorithms rank features by, apart from the filter selectors offered to users
(:mod:`pymoo_fs.filters`, which build on it). Continuous features are discretised by Fayyad &
Irani's MDL criterion with Weka's better encoding (:class:`MDLDiscretizer`,
:func:`mdl_cut_points`, in :mod:`~pymoo_fs.relevance.discretize`); :class:`SymmetricUncertainty`
holds the symmetric uncertainty of every feature with the class (its relevance, and the SU
ranking of AMSO, VLPSO and CEPSO-FL through
:meth:`pymoo_fs.problems.FeatureSelectionProblem.symmetric_uncertainty`) and between features;
:func:`symmetric_uncertainty` is SU of two discrete variables and :func:`su_classif` the
relevance as a scikit-learn ``score_func`` (in :mod:`~pymoo_fs.relevance.su`, with the compiled
loops in ``_kernels``).

Layout: one module per discretisation (``discretize``: supervised MDL bins) and per measure
(``su``: symmetric uncertainty); a new discretisation (equal width, equal frequency) or measure
(mutual information) is a module of its own here. Nothing here imports from the evaluator, the
problems or the algorithms.
"""

from pymoo_fs.relevance.discretize import MDLDiscretizer, mdl_cut_points
from pymoo_fs.relevance.su import SymmetricUncertainty, su_classif, symmetric_uncertainty

__all__ = [
    "MDLDiscretizer",
    "SymmetricUncertainty",
    "mdl_cut_points",
    "su_classif",
    "symmetric_uncertainty",
]
