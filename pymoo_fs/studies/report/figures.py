"""The report's figures: fronts, convergence, per-run distributions, selection frequencies,
t-SNE views, and the critical-difference diagram across datasets; all in one
:class:`~pymoo_fs.analysis.FigureStyle`."""

import io
import math
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pymoo_fs.analysis import (average_front, best_front, plot_convergence,
                               plot_critical_difference, plot_fronts, plot_run_distributions,
                               plot_selection_heatmap, plot_tsne, selection_frequency,
                               tsne_embedding)
from pymoo_fs.analysis.style import figure_style
from pymoo_fs.evaluation.base import error_label
from pymoo_fs.studies.report.results import CITATIONS
from pymoo_fs.studies.report.tables import (_all_features, _pareto_indicators, _q,
                                            _representative)

__all__ = ["feature_names", "fronts_figure"]


def _sentence_case(text):
    return text[:1].upper() + text[1:]


def _full_error(results, dataset):
    """(inner-CV error, test error) with every feature, averaged over the splits."""
    refs = [v for (d, _), v in results.references.items() if d == dataset]
    return (1 - np.mean([r["score_train"] for r in refs]),
            1 - np.mean([r["score_test"] for r in refs]))


def fronts_figure(results, dataset, style=None):
    """The training and test panels of each algorithm's best and average front on a dataset.

    Per algorithm, Nguyen et al.'s two views of a set of runs (Soft Computing 2016, section
    "Results and discussion", Figs. 1-6): the "best" front, the non-dominated union of the
    runs' fronts (``NAME-Best``), and the "average" front, the mean error of the union's
    members of each subset size (``NAME-Ave``); on the training data (inner-CV error) and on
    the test data (hold-out error, the best front's non-dominance recomputed on it), with the
    all-features error as a dashed line. The title names the dataset, its number of features
    and the all-features errors, as the paper's figures do.

    Parameters
    ----------
    results : StudyResults
    dataset : str
    style : FigureStyle or str, optional
        :func:`~pymoo_fs.analysis.figure_style` (default two columns wide).

    Returns
    -------
    figure : matplotlib.figure.Figure
    """
    by_label = {label: results.runs_of(dataset, label) for label in results.labels}
    by_label = {k: v for k, v in by_label.items() if v}
    fronts = {}
    for kind, pool in (("best", best_front), ("average", average_front)):
        for part in ("train", "test"):
            fronts[kind, part] = {k: pool([np.asarray(r[f"F_{part}"]) for r in v])
                                  for k, v in by_label.items()}
    runs = max(len(v) for v in by_label.values())
    full = _full_error(results, dataset)
    D = _all_features(results, dataset)["n_features"]
    return plot_fronts(fronts["best", "train"], fronts["best", "test"], full_error=full,
                       train_average=fronts["average", "train"],
                       test_average=fronts["average", "test"], n_features=D, style=style,
                       error_label=_sentence_case(error_label(
                           results.spec["protocol"].get("scoring", "accuracy"))),
                       title=figure_style(style).wrap(
                           f"{dataset} ({D} features; all features: error {full[0]:.3f} "
                           f"training, {full[1]:.3f} test): best and average fronts of "
                           f"{runs} run{'s' if runs != 1 else ''}"))


# ---------------------------------------------------------------------------------- figures
@dataclass
class _Figure:
    slug: str       # file name part
    title: str      # heading
    caption: str    # what it shows and where it comes from
    figure: object  # matplotlib Figure


def _figures(results, dataset, tsne, data_dir, check, style=None, feature_names=None):
    """The figures of one dataset, in report order."""
    style = figure_style(style)
    by_label = {label: results.runs_of(dataset, label) for label in results.labels}
    by_label = {k: v for k, v in by_label.items() if v}
    if not by_label:
        return []
    runs = max(len(v) for v in by_label.values())
    figures = []
    if results.pareto:
        figures.append(_Figure(
            "fronts", "Best and average fronts",
            f"Each algorithm's best front (-Best: the non-dominated union of its {runs} runs' "
            f"fronts) and average front (-Ave: the mean error of the union's subsets of each "
            f"size) on the training data (inner cross-validation error) and the test data "
            f"(hold-out error); the dashed line is the classifier on all features. The two "
            f"views of a set of runs of {CITATIONS['fronts']}.",
            fronts_figure(results, dataset, style)))
    check()
    figures.append(_distributions(results, dataset, by_label, style))
    check()
    traces = {k: [(r["trace"]["n_eval"], r["trace"]["best"]) for r in v]
              for k, v in by_label.items()}
    what = ("hypervolume of the front so far (training data; higher is better)"
            if results.pareto else "best objective value so far (lower is better)")
    figures.append(_Figure(
        "convergence", "Convergence",
        f"The {what} against the evaluations spent, on a logarithmic axis so that algorithms "
        f"with different budgets all use the width: the mean over the runs (a run's value "
        f"carried forward between its generations), the band from the lowest to the highest "
        f"run, a ring where the longest run ends.",
        plot_convergence(traces, "hypervolume (training)" if results.pareto else
                         "best objective (lower is better)",
                         title=f"{dataset}: convergence (mean and range of the runs)",
                         style=style)))
    frequencies = {k: selection_frequency([_representative(r) for r in v])
                   for k, v in by_label.items()}
    q = {k: _q(v) for k, v in by_label.items()}
    q = {k: v for k, v in q.items() if not math.isnan(v)}
    figures.append(_Figure(
        "selection-frequency", "Selection frequency",
        "How often each algorithm's runs selected each feature (one subset per run"
        + (": the front member with the highest training score" if results.pareto else "")
        + "; dark: selected in every run, white: in none), with the Q-measure of consistency "
          "beside each algorithm (higher: the runs agree more); features "
        + ("by their names in the data" if feature_names is not None else
           "by their 0-based index (the data names none)")
        + f". The frequencies and the Q-measure of {CITATIONS['q_measure']}.",
        plot_selection_heatmap(frequencies, q=q, feature_names=feature_names,
                               title=f"{dataset}: selection frequency over the runs",
                               style=style)))
    check()
    if tsne:
        view = _tsne_figure(results, dataset, frequencies, data_dir, style)
        if view is not None:
            figures.append(_Figure(
                "tsne", "t-SNE views",
                f"Two-dimensional t-SNE embeddings of the dataset (min-max scaled) on all "
                f"features and on the features the reference algorithm selected in at least "
                f"half of its runs, one colour per class: the view of {CITATIONS['tsne']}.",
                view))
    return figures


def _distributions(results, dataset, by_label, style):
    """Per-run box plots: test HV and IGD (fronts), or test score and subset size."""
    if results.pareto:
        ind = _pareto_indicators(results, dataset)
        panels = {"hypervolume (test), higher is better":
                  {k: list(ind[k]["hv_test"].values()) for k in by_label},
                  "IGD (test), lower is better":
                  {k: list(ind[k]["igd_test"].values()) for k in by_label}}
        what = ("the hypervolume and the IGD of each run's test front (IGD to the "
                "non-dominated union of all runs' test fronts)")
    else:
        scoring = results.spec["protocol"].get("scoring", "accuracy").replace("_", " ")
        panels = {f"test {scoring}, higher is better":
                  {k: [r["score_test"][0] for r in v] for k, v in by_label.items()},
                  "features selected, lower is better":
                  {k: [len(r["features"][0]) for r in v] for k, v in by_label.items()}}
        what = f"the test {scoring} and the number of features of each run's subset"
    return _Figure(
        "distributions", "Per-run distributions",
        f"The distribution over the runs of {what}: a box per algorithm (median, quartiles, "
        f"whiskers to 1.5 times the interquartile range) with every run drawn on it. The "
        f"tables' Wilcoxon tests compare these samples: they assume independent runs, not "
        f"normal values.",
        plot_run_distributions(panels, title=f"{dataset}: per-run distributions",
                               style=style))


def _ranking_figures(results, ranking, style=None):
    """The figures across datasets: the critical-difference diagram."""
    f = ranking.friedman
    return [_Figure(
        "cd-diagram", "Critical-difference diagram",
        f"Mean ranks of the algorithms over the {len(f.blocks)} datasets "
        f"({', '.join(f.blocks)}) by {ranking.measure} (1 the best); a bar joins algorithms "
        f"whose Nemenyi post-hoc p-value is at least {f.alpha:g} (no significant "
        f"difference); the critical difference CD = {f.critical_difference:.2f}. Friedman's "
        f"test and Nemenyi's rank within each dataset: they assume independent datasets and "
        f"values comparable within a dataset, not normal ones (Demsar, JMLR 7, 2006). Drawn "
        f"with scikit-posthocs.",
        plot_critical_difference(f, title=f"ranks across datasets by {ranking.measure}",
                                 style=style))]


def _load(results, dataset, data_dir, purpose=None):
    """The dataset behind a report's dataset name, or None where it cannot be loaded or no
    longer holds the data the runs were made on (its stored fingerprint differs). With a
    ``purpose`` (what is left out without it, e.g. ``"its t-SNE views"``), a warning naming the
    dataset says why."""
    from pymoo_fs.datasets import load_dataset
    from pymoo_fs.studies.protocols import data_fingerprint

    source = next((d for d in results.spec["datasets"]
                   if Path(d).name.split(".")[0] == dataset or d == dataset), dataset)
    stored = (results.spec.get("data") or {}).get(dataset) or {}
    target = results.spec.get("targets", {}).get(source)
    if stored.get("source") and Path(stored["source"]).is_file():
        source = stored["source"]  # the file the runs were made on (a renamed dataset too)
    try:
        with warnings.catch_warnings():  # the study warned about the data when it ran
            warnings.simplefilter("ignore")
            data = load_dataset(source, data_dir=data_dir or results.spec.get("data_dir"),
                                target=target)
    except (ValueError, OSError) as exc:
        if purpose is not None:
            warnings.warn(f"dataset {dataset!r}: {purpose} are left out: its data cannot be "
                          f"read ({exc}); restore it or pass its folder as data_dir",
                          UserWarning, stacklevel=3)
        return None
    if stored.get("sha256") and data_fingerprint(data)["sha256"] != stored["sha256"]:
        if purpose is not None:
            warnings.warn(f"dataset {dataset!r}: {purpose} are left out: {data.source} no "
                          "longer holds the data the runs were made on", UserWarning,
                          stacklevel=3)
        return None
    return data


def feature_names(results, dataset, data_dir=None):
    """The names of a dataset's features from its data (the CSV header), if it names them.

    Parameters
    ----------
    results : StudyResults
    dataset : str
    data_dir : path, optional
        Where to find datasets named in the spec (default: the spec's, then
        ``$PYMOO_FS_DATA``).

    Returns
    -------
    names : list of str or None
        None when the data cannot be loaded or no longer holds the data the runs were made on,
        its number of features differs from the study's, or its names are only the generated
        ``f0, f1, ...`` (or ``0, 1, ...``).
    """
    data = _load(results, dataset, data_dir)
    if data is None:
        return None
    names = [str(n) for n in data.feature_names]
    n = _all_features(results, dataset)["n_features"]
    generated = ({f"f{i}" for i in range(n)}, {str(i) for i in range(n)},
                 {f"x{i}" for i in range(n)})
    if len(names) != n or set(names) in generated:
        return None
    return names


def _tsne_figure(results, dataset, frequencies, data_dir, style=None):
    from sklearn.preprocessing import MinMaxScaler

    data = _load(results, dataset, data_dir, purpose="its t-SNE views")
    if data is None:
        return None
    if getattr(data, "classes", None) is None:  # a regression target: no classes to colour
        return None
    ref = results.spec["reference"]
    freq = frequencies.get(ref, next(iter(frequencies.values())))
    selected = freq >= 0.5
    if not selected.any():
        selected = freq == freq.max()
    X = MinMaxScaler().fit_transform(data.X)
    views = {f"all {data.n_features} features": tsne_embedding(X),
             f"{int(selected.sum())} features selected in at least half of {ref}'s runs"
             if (freq >= 0.5).any() else f"{ref}'s most often selected features":
                 tsne_embedding(X[:, selected])}
    return plot_tsne(views, data.classes[data.y], title=f"{dataset}: t-SNE", style=style)


def _render(figure, fmt, style=None):
    """A figure's bytes as PNG, PDF or SVG, without a creation date (same figure, same bytes),
    in the style's font embedding (Type 42 PDF fonts, SVG text as text)."""
    metadata = {"png": {"Software": None}, "pdf": {"CreationDate": None, "Producer": None},
                "svg": {"Date": None}}[fmt]
    buffer = io.BytesIO()
    import matplotlib

    style = figure_style(style)
    with style.context(), matplotlib.rc_context({"svg.hashsalt": "pymoo-fs"}):
        figure.savefig(buffer, format=fmt, dpi=style.dpi if fmt == "png" else None,
                       metadata=metadata)
    return buffer.getvalue()
