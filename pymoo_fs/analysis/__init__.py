"""Analysis of feature-selection fronts: indicators, run pooling, hold-out re-scoring, figures.

Functions
---------
nondominated
    Non-dominated rows of a front, duplicates once, sorted.
reference_front
    Non-dominated union of several fronts (the IGD reference set).
hypervolume
    Hypervolume of a front (pymoo HV), reference point (1, 1) by default.
igd
    Inverted generational distance of a front to a reference set (pymoo IGD).
rescore_front
    Objectives of feature masks on the hold-out test set.
average_front, best_front
    Pooled "average" and "best" fronts of several runs (Nguyen et al. 2016).
plot_fronts
    Training/test Pareto-front figure, drawn off-screen (Agg).
"""

from pymoo_fs.analysis.fronts import average_front, best_front, rescore_front
from pymoo_fs.analysis.indicators import hypervolume, igd, nondominated, reference_front
from pymoo_fs.analysis.plotting import plot_fronts

__all__ = [
    "nondominated",
    "reference_front",
    "hypervolume",
    "igd",
    "rescore_front",
    "average_front",
    "best_front",
    "plot_fronts",
]
