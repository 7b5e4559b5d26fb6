"""Feature selection as pymoo ``Problem``\\ s over boolean masks.

A problem sees boolean masks only, never an empty one (see
:class:`FeatureSelectionProblem`); each algorithm decodes its own encoding before evaluation.
"""

from pymoo_fs.problems.feature_selection import (
    BiObjectiveFeatureSelection,
    FeatureSelectionProblem,
    WeightedFeatureSelection,
    as_masks,
    flip_masks,
)
from pymoo_fs.problems.fitb import FitBFeatureSelection
from pymoo_fs.problems.objectives import (FitBObjective, FitEObjective, Objective,
                                          ParetoObjective, WeightedObjective, make_objective,
                                          objective_names, register_objective)
from pymoo_fs.problems.fite import FitEFeatureSelection
from pymoo_fs.problems.repair import NonEmptyRepair, repair_empty
from pymoo_fs.problems.repeated_cv import RepeatedCrossValidation, RepeatedCVFeatureSelection

__all__ = [
    "BiObjectiveFeatureSelection",
    "FeatureSelectionProblem",
    "FitBFeatureSelection",
    "FitBObjective",
    "FitEObjective",
    "FitEFeatureSelection",
    "NonEmptyRepair",
    "Objective",
    "ParetoObjective",
    "RepeatedCVFeatureSelection",
    "RepeatedCrossValidation",
    "WeightedFeatureSelection",
    "WeightedObjective",
    "as_masks",
    "flip_masks",
    "make_objective",
    "objective_names",
    "register_objective",
    "repair_empty",
]
