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

The discretisation behind SU is a switch (issue 23, item 1): MDL (the default of
:class:`SymmetricUncertainty`), equal-width or equal-frequency bins (:class:`EqualWidthDiscretizer`,
:class:`EqualFrequencyDiscretizer`, in :mod:`~pymoo_fs.relevance.binning`), or no
discretisation at all: :class:`MutualInformation` ranks by scikit-learn's
``mutual_info_classif`` (:mod:`~pymoo_fs.relevance.mutual_info`).
:func:`relevance_measure` builds any of them by name (:data:`RELEVANCE_MEASURES`); the
algorithms' ``discretization`` switch and
:meth:`pymoo_fs.problems.FeatureSelectionProblem.symmetric_uncertainty` take these names.

Layout: one module per discretisation (``discretize``: supervised MDL bins; ``binning``:
unsupervised bins) and per measure (``su``: symmetric uncertainty; ``mutual_info``), and
``measures`` to choose among them. Nothing here imports from the evaluator, the problems or
the algorithms.
"""

from pymoo_fs.relevance.binning import (EqualFrequencyDiscretizer, EqualWidthDiscretizer,
                                        equal_frequency_cut_points, equal_width_cut_points)
from pymoo_fs.relevance.discretize import MDLDiscretizer, mdl_cut_points
from pymoo_fs.relevance.measures import RELEVANCE_MEASURES, relevance_measure
from pymoo_fs.relevance.mutual_info import MutualInformation
from pymoo_fs.relevance.su import (DISCRETIZERS, SymmetricUncertainty, su_classif,
                                   symmetric_uncertainty)

__all__ = [
    "DISCRETIZERS",
    "EqualFrequencyDiscretizer",
    "EqualWidthDiscretizer",
    "MDLDiscretizer",
    "MutualInformation",
    "RELEVANCE_MEASURES",
    "SymmetricUncertainty",
    "equal_frequency_cut_points",
    "equal_width_cut_points",
    "mdl_cut_points",
    "relevance_measure",
    "su_classif",
    "symmetric_uncertainty",
]
