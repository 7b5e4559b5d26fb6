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
selection_frequency, q_measure
    How consistently runs select the same features (Butler-Yeoman, Xue & Zhang's Q-measure,
    AusDM 2015).
plot_convergence, plot_selection_frequency, plot_selection_heatmap, tsne_embedding, plot_tsne
    The other figures of a study.
plot_run_distributions, plot_critical_difference
    Per-run box plots of a measure; the critical-difference diagram of ranks across datasets.
rank_sum, signed_rank
    The papers' Wilcoxon tests of a reference algorithm against another, with +/=/- signs.
friedman_ranks, holm
    Friedman ranks across datasets with Nemenyi's post-hoc test (SciPy, scikit-posthocs);
    Holm's correction of a family of p-values (statsmodels).
FigureStyle, figure_style, save_figure
    Journal figure styles (one or two columns, 8 pt text, Type 42 fonts, colour-blind-safe
    palettes), applied through matplotlib.rc_context.
choose_from_front, knee_index
    One subset from a front: the knee, the lowest error, the smallest within a tolerance of
    it, or the best within a feature budget.
ParetoFrontDisplay
    The front of a fitted :class:`~pymoo_fs.selector.SwarmFeatureSelector`, its chosen subset
    and the all-features error (scikit-learn's display convention).
"""

from pymoo_fs.analysis.choice import choose_from_front, knee_index
from pymoo_fs.analysis.consistency import q_measure, selection_frequency
from pymoo_fs.analysis.display import ParetoFrontDisplay
from pymoo_fs.analysis.figures import (plot_convergence, plot_critical_difference,
                                       plot_run_distributions, plot_selection_frequency,
                                       plot_selection_heatmap, plot_tsne, tsne_embedding)
from pymoo_fs.analysis.fronts import average_front, best_front, rescore_front
from pymoo_fs.analysis.indicators import hypervolume, igd, nondominated, reference_front
from pymoo_fs.analysis.plotting import plot_fronts
from pymoo_fs.analysis.statistics import friedman_ranks, holm, rank_sum, signed_rank
from pymoo_fs.analysis.style import FigureStyle, figure_style, save_figure

__all__ = [
    "nondominated",
    "reference_front",
    "hypervolume",
    "igd",
    "rescore_front",
    "average_front",
    "best_front",
    "plot_convergence",
    "plot_critical_difference",
    "plot_fronts",
    "plot_run_distributions",
    "plot_selection_frequency",
    "plot_selection_heatmap",
    "plot_tsne",
    "tsne_embedding",
    "q_measure",
    "selection_frequency",
    "choose_from_front",
    "knee_index",
    "ParetoFrontDisplay",
    "rank_sum",
    "signed_rank",
    "friedman_ranks",
    "holm",
    "FigureStyle",
    "figure_style",
    "save_figure",
]
