"""Feature selection as pymoo ``Problem``\\ s over boolean masks."""

from pymoo_fs.problems.feature_selection import (
    BiObjectiveFeatureSelection,
    FeatureSelectionProblem,
    WeightedFeatureSelection,
    as_masks,
)

__all__ = [
    "BiObjectiveFeatureSelection",
    "FeatureSelectionProblem",
    "WeightedFeatureSelection",
    "as_masks",
]
