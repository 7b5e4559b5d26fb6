"""The report's figures: fronts, convergence, selection frequencies, t-SNE views."""

import io
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pymoo_fs.analysis import (average_front, best_front, plot_convergence, plot_fronts,
                               plot_selection_heatmap, plot_tsne, selection_frequency,
                               tsne_embedding)
from pymoo_fs.evaluation.base import error_label
from pymoo_fs.studies.report.results import CITATIONS
from pymoo_fs.studies.report.tables import _all_features, _q, _representative

__all__ = ["fronts_figure"]


def _sentence_case(text):
    return text[:1].upper() + text[1:]


def _full_error(results, dataset):
    """(inner-CV error, test error) with every feature, averaged over the splits."""
    refs = [v for (d, _), v in results.references.items() if d == dataset]
    return (1 - np.mean([r["score_train"] for r in refs]),
            1 - np.mean([r["score_test"] for r in refs]))


def fronts_figure(results, dataset):
    """The training and test panels of each algorithm's best and average front on a dataset.

    Per algorithm, Nguyen et al.'s two views of a set of runs (Soft Computing 2016, section
    "Results and discussion", Figs. 1-6): the "best" front, the non-dominated union of the
    runs' fronts (``NAME-Best``), and the "average" front, the mean error of the union's
    members of each subset size (``NAME-Ave``); on the training data (inner-CV error) and on
    the test data (hold-out error, the best front's non-dominance recomputed on it), with the
    all-features error as a dashed line. The title names the dataset, its number of features
    and the all-features errors, as the paper's figures do.

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
                       test_average=fronts["average", "test"], n_features=D,
                       error_label=_sentence_case(error_label(
                           results.spec["protocol"].get("scoring", "accuracy"))),
                       title=f"{dataset} ({D} features; all features: error {full[0]:.3f} "
                             f"training, {full[1]:.3f} test): best and average fronts of "
                             f"{runs} run{'s' if runs != 1 else ''}")


# ---------------------------------------------------------------------------------- figures
@dataclass
class _Figure:
    slug: str       # file name part
    title: str      # heading
    caption: str    # what it shows and where it comes from
    figure: object  # matplotlib Figure


def _figures(results, dataset, tsne, data_dir, check):
    """The figures of one dataset, in report order."""
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
            fronts_figure(results, dataset)))
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
                         title=f"{dataset}: convergence (mean and range of the runs)")))
    frequencies = {k: selection_frequency([_representative(r) for r in v])
                   for k, v in by_label.items()}
    q = {k: _q(v) for k, v in by_label.items()}
    q = {k: v for k, v in q.items() if not math.isnan(v)}
    figures.append(_Figure(
        "selection-frequency", "Selection frequency",
        "How often each algorithm's runs selected each feature (one subset per run"
        + (": the front member with the highest training score" if results.pareto else "")
        + f"; dark: selected in every run, white: in none), with the Q-measure of consistency "
          f"beside each algorithm (higher: the runs agree more). The frequencies and the "
          f"Q-measure of {CITATIONS['q_measure']}.",
        plot_selection_heatmap(frequencies, q=q,
                               title=f"{dataset}: selection frequency over the runs")))
    check()
    if tsne:
        view = _tsne_figure(results, dataset, frequencies, data_dir)
        if view is not None:
            figures.append(_Figure(
                "tsne", "t-SNE views",
                f"Two-dimensional t-SNE embeddings of the dataset (min-max scaled) on all "
                f"features and on the features the reference algorithm selected in at least "
                f"half of its runs, one colour per class: the view of {CITATIONS['tsne']}.",
                view))
    return figures


def _tsne_figure(results, dataset, frequencies, data_dir):
    from sklearn.preprocessing import MinMaxScaler

    from pymoo_fs.datasets import load_dataset

    source = next((d for d in results.spec["datasets"]
                   if Path(d).name.split(".")[0] == dataset or d == dataset), dataset)
    try:
        data = load_dataset(source, data_dir=data_dir or results.spec.get("data_dir"),
                            target=results.spec.get("targets", {}).get(source))
    except ValueError:
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
    return plot_tsne(views, data.classes[data.y], title=f"{dataset}: t-SNE")


def _render(figure, fmt):
    """A figure's bytes as PNG, PDF or SVG, without a creation date (same figure, same bytes)."""
    metadata = {"png": {"Software": None}, "pdf": {"CreationDate": None, "Producer": None},
                "svg": {"Date": None}}[fmt]
    buffer = io.BytesIO()
    import matplotlib

    with matplotlib.rc_context({"svg.hashsalt": "pymoo-fs"}):  # SVG ids: fixed, not random
        figure.savefig(buffer, format=fmt, dpi=150 if fmt == "png" else None,
                       metadata=metadata)
    return buffer.getvalue()
