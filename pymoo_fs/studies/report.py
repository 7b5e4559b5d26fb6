"""The report of a study: tables, statistics and figures from its result store.

:func:`load_results` reads a study directory (finished runs, references, what is missing);
:func:`summary_tables` computes the tables (per dataset and algorithm: test scores, subset
sizes, hypervolume and IGD, times, Wilcoxon signs against the reference algorithm, Q-measure);
:func:`write_report` writes ``report.md`` (the tables), ``report.html`` (tables and every
figure embedded, self-contained), the PNG figures, ``runs.csv`` (one row per run,
:func:`run_table`) and ``fronts.csv`` (one row per front member, :func:`front_table`) beside
them. :func:`text_table` lays a table out for a terminal.
"""

import base64
import html
import io
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pymoo_fs._files import csv_text, read_json, write_atomic, write_json_atomic
from pymoo_fs.analysis import (average_front, best_front, hypervolume, igd, nondominated,
                               plot_convergence, plot_fronts, plot_selection_frequency,
                               plot_tsne, q_measure, reference_front, selection_frequency,
                               tsne_embedding)
from pymoo_fs.analysis.statistics import rank_sum, signed_rank
from pymoo_fs.studies.spec import Protocol
from pymoo_fs.studies.store import ResultStore, RunKey

__all__ = ["FRONT_COLUMNS", "FRONT_RUN_COLUMNS", "SUBSET_RUN_COLUMNS", "StudyResults",
           "front_table", "fronts_figure", "load_results", "run_table", "summary_tables",
           "text_table", "write_report"]


@dataclass
class StudyResults:
    """What a study directory holds.

    Attributes
    ----------
    spec : dict
        The stored spec (``study.json``).
    records : list of dict
        Every finished run's record, with ``"seconds"`` added.
    references : dict
        ``{(dataset, fold): record}``: all-features scores of each split.
    missing : list of RunKey
        Runs the spec asks for that are not in the store.
    """

    spec: dict
    records: list
    references: dict
    missing: list = field(default_factory=list)

    @property
    def datasets(self):
        """list of str: dataset names, in the order of the references."""
        return list(dict.fromkeys(d for d, _ in sorted(self.references)))

    @property
    def labels(self):
        """list of str: algorithm labels, in the spec's order."""
        return [a["label"] for a in self.spec["algorithms"]]

    @property
    def protocol(self):
        """Protocol: the stored protocol (older stores' flat objective keys understood)."""
        return Protocol.from_dict(self.spec["protocol"])

    @property
    def pareto(self):
        """bool: whether each run returns a Pareto front (else one subset)."""
        return self.protocol.objective.result == "front"

    def runs_of(self, dataset, label):
        """list of dict: the records of one algorithm on one dataset, by (fold, run)."""
        return sorted((r for r in self.records if r["dataset"] == dataset
                       and r["algorithm"] == label), key=lambda r: (r["fold"], r["run"]))


def load_results(directory, keys=None):
    """Read a study directory.

    Parameters
    ----------
    directory : path
    keys : iterable of RunKey, optional
        Only these runs (and their splits and algorithms), e.g. the runs of one command in a
        directory that also holds more; default every run the directory holds.

    Returns
    -------
    results : StudyResults

    Raises
    ------
    ValueError
        If the directory holds no ``study.json``.
    """
    directory = Path(directory)
    if not (directory / "study.json").is_file():
        raise ValueError(f"{directory} is not a study directory (no study.json)")
    store = ResultStore(directory)
    spec = store.read_spec()
    references = {}
    for path in sorted((directory / "reference").glob("*_fold-*.json")):
        record = read_json(path)
        references[(record["dataset"], record["fold"])] = record
    if keys is None:
        wanted = [RunKey(d, a["label"], run, fold) for (d, fold) in sorted(references)
                  for a in spec["algorithms"] for run in range(spec["runs"])]
        finished = store.finished()
    else:
        wanted = sorted(set(keys))
        labels = {k.algorithm for k in wanted}
        spec = dict(spec, runs=max(k.run for k in wanted) + 1,
                    algorithms=[a for a in spec["algorithms"] if a["label"] in labels])
        references = {k: v for k, v in references.items()
                      if k in {(key.dataset, key.fold) for key in wanted}}
        finished = [k for k in wanted if store.has(k)]
    records = [store.read_run(key) for key in finished]
    missing = [k for k in wanted if not store.has(k)]
    return StudyResults(spec, records, references, missing)


# ---------------------------------------------------------------------------------- tables
def summary_tables(results):
    """The report's tables, one per dataset.

    Parameters
    ----------
    results : StudyResults

    Returns
    -------
    tables : dict of {str: (list of str, list of list of str)}
        Per dataset, the header and the rows (strings, ready for Markdown or HTML).

        Single objective (seed 000's Tables II/III layout): #features mean (std) and its sign
        ``T_f``, best and mean (std) test score and its sign ``T_a``, mean training score,
        evaluations, seconds. Two objectives: HV of the training and test fronts (mean ± std)
        with the sign on the test HV, IGD on both (reference: the non-dominated union of all
        runs' fronts of that split), front size, evaluations, seconds. Both end with the
        Q-measure of the runs' subsets (one per run: the single result, or the front member
        with the lowest training error). The first row is all features.

    Notes
    -----
    Signs compare the reference algorithm (``spec["reference"]``) with each other one, as
    seed 000 does: ``+`` the reference is significantly better (fewer features; higher score
    or HV), ``-`` worse, ``=`` no significant difference (alpha 0.05). The protocol's
    ``statistic`` chooses the Wilcoxon rank-sum test over all (run, fold) values, or the
    signed-rank test on values paired by (run, fold).
    """
    tables = {}
    for dataset in results.datasets:
        if results.pareto:
            tables[dataset] = _pareto_table(results, dataset)
        else:
            tables[dataset] = _single_table(results, dataset)
    return tables


def _values(records, key):
    return {(r["run"], r["fold"]): key(r) for r in records}


def _sign(results, ref, other, better):
    if not ref or not other:
        return ""
    paired = results.spec["protocol"]["statistic"] == "signedrank"
    if paired:
        keys = sorted(set(ref) & set(other))
        if len(keys) < 2:
            return ""
        return signed_rank([ref[k] for k in keys], [other[k] for k in keys], better=better).sign
    return rank_sum(list(ref.values()), list(other.values()), better=better).sign


def _ms(values, digits=4, scale=1.0):
    v = np.asarray(list(values), dtype=float) * scale
    if v.size == 0:
        return "-"
    std = v.std(ddof=1) if v.size > 1 else float("nan")
    return f"{v.mean():.{digits}f} ± {std:.{digits}f}" if v.size > 1 else f"{v.mean():.{digits}f}"


def _representative(record):
    """The mask of a run that stands for it: the highest training score, then fewest features."""
    sizes = np.array([len(f) for f in record["features"]])
    i = int(np.lexsort((sizes, -np.asarray(record["score_train"])))[0])
    mask = np.zeros(record["n_features"], dtype=bool)
    mask[record["features"][i]] = True
    return mask


def _q(records):
    if len(records) < 2:
        return "-"
    return f"{q_measure(selection_frequency([_representative(r) for r in records])):.3f}"


def _reference_row(results, dataset, width):
    refs = [v for (d, _), v in results.references.items() if d == dataset]
    train = np.mean([r["score_train"] for r in refs])
    test = np.mean([r["score_test"] for r in refs])
    row = ["all features", f"{refs[0]['n_features']}", f"train {train:.4f}, test {test:.4f}"]
    return row + [""] * (width - len(row))


def _single_table(results, dataset):
    header = ["algorithm", "#features mean (std)", "T_f", "best test", "test mean (std)", "T_a",
              "train mean", "evaluations", "seconds", "Q"]
    ref_label = results.spec["reference"]
    ref = results.runs_of(dataset, ref_label)
    ref_size = _values(ref, lambda r: len(r["features"][0]))
    ref_test = _values(ref, lambda r: r["score_test"][0])
    rows = [_reference_row(results, dataset, len(header))]
    for label in results.labels:
        runs = results.runs_of(dataset, label)
        if not runs:
            rows.append([label, "no run yet"] + [""] * (len(header) - 2))
            continue
        size = _values(runs, lambda r: len(r["features"][0]))
        test = _values(runs, lambda r: r["score_test"][0])
        mine = label == ref_label
        sizes = np.array(list(size.values()), dtype=float)
        std = f" ({sizes.std(ddof=1):.1f})" if sizes.size > 1 else ""
        rows.append([
            label + (" (reference)" if mine else ""), f"{sizes.mean():.1f}{std}",
            "" if mine else _sign(results, ref_size, size, "lower"),
            f"{max(test.values()):.4f}", _ms(test.values()),
            "" if mine else _sign(results, ref_test, test, "higher"),
            f"{np.mean([r['score_train'][0] for r in runs]):.4f}",
            f"{np.mean([r['n_eval'] for r in runs]):.0f}",
            f"{np.nanmean([r['seconds'] for r in runs]):.2f}", _q(runs)])
    return header, rows


def _pareto_table(results, dataset):
    header = ["algorithm", "HV train", "HV test", "T_HV", "IGD train", "IGD test", "front",
              "evaluations", "seconds", "Q"]
    indicators = _pareto_indicators(results, dataset)
    ref_label = results.spec["reference"]
    ref_hv = indicators.get(ref_label, {}).get("hv_test", {})
    rows = [_reference_row(results, dataset, len(header))]
    for label in results.labels:
        runs = results.runs_of(dataset, label)
        if not runs:
            rows.append([label, "no run yet"] + [""] * (len(header) - 2))
            continue
        ind = indicators[label]
        mine = label == ref_label
        rows.append([
            label + (" (reference)" if mine else ""), _ms(ind["hv_train"].values()),
            _ms(ind["hv_test"].values()),
            "" if mine else _sign(results, ref_hv, ind["hv_test"], "higher"),
            _ms(ind["igd_train"].values()), _ms(ind["igd_test"].values()),
            f"{np.mean([len(r['features']) for r in runs]):.1f}",
            f"{np.mean([r['n_eval'] for r in runs]):.0f}",
            f"{np.nanmean([r['seconds'] for r in runs]):.2f}", _q(runs)])
    return header, rows


def _pareto_indicators(results, dataset):
    """Per label: {"hv_train", "hv_test", "igd_train", "igd_test"} -> {(run, fold): value}."""
    out = {label: {k: {} for k in ("hv_train", "hv_test", "igd_train", "igd_test")}
           for label in results.labels}
    folds = sorted({f for d, f in results.references if d == dataset})
    for fold in folds:
        recs = [r for r in results.records if r["dataset"] == dataset and r["fold"] == fold]
        if not recs:
            continue
        ref_train = reference_front([np.asarray(r["F_train"]) for r in recs])
        ref_test = reference_front([nondominated(np.asarray(r["F_test"])) for r in recs])
        for r in recs:
            key = (r["run"], r["fold"])
            ind = out[r["algorithm"]]
            Ftr, Fte = np.asarray(r["F_train"]), np.asarray(r["F_test"])
            ind["hv_train"][key] = hypervolume(Ftr)
            ind["hv_test"][key] = hypervolume(Fte)
            ind["igd_train"][key] = igd(Ftr, ref_train)
            ind["igd_test"][key] = igd(Fte, ref_test)
    return out


# ---------------------------------------------------------------------------------- per run
#: columns of :func:`run_table` for studies whose runs return a Pareto front
FRONT_RUN_COLUMNS = ("dataset", "fold", "algorithm", "run", "hv_train", "igd_train", "hv_test",
                     "igd_test", "n_eval", "seconds", "front_size")
#: columns of :func:`run_table` for studies whose runs return one subset
SUBSET_RUN_COLUMNS = ("dataset", "fold", "algorithm", "run", "n_selected", "train_score",
                      "test_score", "train_objective", "test_objective", "n_eval", "seconds",
                      "features")
#: columns of :func:`front_table`
FRONT_COLUMNS = ("dataset", "fold", "algorithm", "run", "n_selected", "selection_ratio",
                 "train_error", "test_error", "features")


def _ordered_runs(results):
    """(dataset, label, record) of every stored run: datasets, then the spec's algorithm
    order, then (fold, run)."""
    for dataset in results.datasets:
        for label in results.labels:
            for record in results.runs_of(dataset, label):
                yield dataset, label, record


def run_table(results):
    """One row per run: the run's measures as numbers.

    Parameters
    ----------
    results : StudyResults

    Returns
    -------
    header : tuple of str
        :data:`FRONT_RUN_COLUMNS` (runs return a front: hypervolume and IGD of the training
        and test fronts, the IGD reference being the non-dominated union of all runs' fronts of
        that split, as in :func:`summary_tables`), or :data:`SUBSET_RUN_COLUMNS` (runs return
        one subset: its size, training and test score and objective, and its features as
        space-separated 0-based indices).
    rows : list of list
        Numbers as numbers (``seconds`` rounded to milliseconds, NaN if the timing was lost).
    """
    rows = []
    if results.pareto:
        indicators = {d: _pareto_indicators(results, d) for d in results.datasets}
        for dataset, label, r in _ordered_runs(results):
            ind, key = indicators[dataset][label], (r["run"], r["fold"])
            rows.append([dataset, r["fold"], label, r["run"], ind["hv_train"][key],
                         ind["igd_train"][key], ind["hv_test"][key], ind["igd_test"][key],
                         r["n_eval"], round(r["seconds"], 3), len(r["features"])])
        return FRONT_RUN_COLUMNS, rows
    for dataset, label, r in _ordered_runs(results):
        rows.append([dataset, r["fold"], label, r["run"], len(r["features"][0]),
                     r["score_train"][0], r["score_test"][0], r["F_train"][0][0],
                     r["F_test"][0][0], r["n_eval"], round(r["seconds"], 3),
                     " ".join(map(str, r["features"][0]))])
    return SUBSET_RUN_COLUMNS, rows


def front_table(results):
    """One row per member of every run's returned front (studies whose runs return fronts).

    Returns
    -------
    header : tuple of str
        :data:`FRONT_COLUMNS`.
    rows : list of list
        Number of features, selection ratio, training (inner-CV) error and test error of each
        member, and its features as space-separated 0-based indices.
    """
    rows = []
    for dataset, label, r in _ordered_runs(results):
        for features, f_train, f_test in zip(r["features"], r["F_train"], r["F_test"]):
            rows.append([dataset, r["fold"], label, r["run"], len(features), f_train[1],
                         f_train[0], f_test[0], " ".join(map(str, features))])
    return FRONT_COLUMNS, rows


def _full_error(results, dataset):
    """(inner-CV error, test error) with every feature, averaged over the splits."""
    refs = [v for (d, _), v in results.references.items() if d == dataset]
    return (1 - np.mean([r["score_train"] for r in refs]),
            1 - np.mean([r["score_test"] for r in refs]))


def fronts_figure(results, dataset):
    """The training and test panels of each algorithm's best and average front on a dataset.

    Per algorithm, Nguyen et al.'s two views of a set of runs (Soft Computing 2016, §7.4): the
    "best" front, the non-dominated union of the runs' fronts (``NAME-Best``), and the
    "average" front, the mean error of the union's members of each subset size
    (``NAME-Ave``); on the training data (inner-CV error) and on the test data (hold-out
    error, the best front's non-dominance recomputed on it), with the all-features error as a
    dashed line.

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
    return plot_fronts(fronts["best", "train"], fronts["best", "test"],
                       full_error=_full_error(results, dataset),
                       train_average=fronts["average", "train"],
                       test_average=fronts["average", "test"],
                       title=f"{dataset}: best and average fronts of {runs} runs")


# ---------------------------------------------------------------------------------- figures
def _figures(results, dataset, tsne, data_dir, check):
    """{caption: Figure} for one dataset."""
    figures = {}
    by_label = {label: results.runs_of(dataset, label) for label in results.labels}
    by_label = {k: v for k, v in by_label.items() if v}
    if not by_label:
        return figures
    if results.pareto:
        figures["fronts (best and average of the runs)"] = fronts_figure(results, dataset)
    check()
    traces = {k: [(r["trace"]["n_eval"], r["trace"]["best"]) for r in v]
              for k, v in by_label.items()}
    figures["convergence"] = plot_convergence(
        traces, "hypervolume of the front (training)" if results.pareto else
        "best fitness (lower is better)", title=f"{dataset}: convergence (mean, min-max)")
    frequencies = {k: selection_frequency([_representative(r) for r in v])
                   for k, v in by_label.items()}
    figures["selection frequency (seed 002 §5.5)"] = plot_selection_frequency(
        frequencies, title=f"{dataset}: selection frequency over runs")
    check()
    if tsne:
        view = _tsne_figure(results, dataset, frequencies, data_dir)
        if view is not None:
            figures["t-SNE views (seed 001)"] = view
    return figures


def _tsne_figure(results, dataset, frequencies, data_dir):
    from sklearn.preprocessing import MinMaxScaler

    from pymoo_fs.datasets import load_dataset

    source = next((d for d in results.spec["datasets"]
                   if Path(d).name.split(".")[0] == dataset or d == dataset), dataset)
    try:
        data = load_dataset(source, data_dir=data_dir or results.spec.get("data_dir"))
    except ValueError:
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


# ---------------------------------------------------------------------------------- writing
def write_report(directory, out=None, tsne=True, data_dir=None, check=None, keys=None):
    """Write a study's report: Markdown tables, PNG figures and a self-contained HTML page.

    Parameters
    ----------
    directory : path
        The study directory.
    out : path, optional
        The report directory (default ``directory/report``); created if missing.
    tsne : bool, default=True
        Draw the t-SNE views (the slowest figures; they need the datasets).
    data_dir : path, optional
        Where to find datasets named in the spec (default: the spec's, then
        ``$PYMOO_FS_DATA``).
    check : callable, optional
        Called between figures; an exception it raises stops the report (nothing is left
        half-written: each file is written atomically).
    keys : iterable of RunKey, optional
        Report only these runs (see :func:`load_results`).

    Returns
    -------
    paths : dict
        ``{"html": Path, "markdown": Path, "figures": [Path, ...], "runs": Path, "fronts":
        Path, "missing": int}``: ``runs.csv`` holds one row per run (:func:`run_table`),
        ``fronts.csv`` one row per front member (:func:`front_table`; only when runs return
        fronts).

    Raises
    ------
    ValueError
        If ``directory`` is not a study directory.
    OSError
        If the report cannot be written.
    """
    check = check if check is not None else (lambda: None)
    results = load_results(directory, keys)
    out = Path(out) if out is not None else Path(directory) / "report"
    out.mkdir(parents=True, exist_ok=True)
    tables = summary_tables(results)
    figures = {}
    for dataset in results.datasets:
        check()
        figures[dataset] = _figures(results, dataset, tsne, data_dir, check)
    pngs = {}
    written = []
    for dataset, figs in figures.items():
        for caption, fig in figs.items():
            name = f"{dataset}_{caption.split(' (')[0].replace(' ', '-').replace('/', '-')}.png"
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=110)
            pngs[(dataset, caption)] = (name, buffer.getvalue())
            written.append(write_atomic(out / name, buffer.getvalue()))
    markdown = _markdown(results, tables, pngs)
    page = _html(results, tables, pngs)
    write_atomic(out / "report.md", markdown)
    write_atomic(out / "report.html", page)
    write_json_atomic(out / "summary.json", {d: {"header": h, "rows": r}
                                             for d, (h, r) in tables.items()})
    paths = {"html": out / "report.html", "markdown": out / "report.md", "figures": written,
             "runs": write_atomic(out / "runs.csv", csv_text(*run_table(results)))}
    if results.pareto:
        paths["fronts"] = write_atomic(out / "fronts.csv", csv_text(*front_table(results)))
    paths["missing"] = len(results.missing)
    return paths


def _intro(results):
    s = results.spec
    p = s["protocol"]
    budget = ", ".join(f"{k} = {v}" for k, v in s["budget"].items())
    split = (f"hold-out {1 - p['test_size']:.0%}/{p['test_size']:.0%}" if p["split"] == "holdout"
             else f"outer {p['outer_folds']}-fold CV"
             + (" (Weka's stratified folds)" if p.get("stratification") == "weka" else ""))
    lines = [
        f"protocol {p['name']}: {split}, scaling {p['scaling']}, KNN-{p['n_neighbors']} with "
        f"{p['inner_cv']}-fold inner CV ({p['scoring']}), objective "
        f"{results.protocol.objective.describe()}",
        f"{s['runs']} runs per algorithm and split, seed {s['seed']}, budget {budget}; "
        f"reference algorithm {s['reference']}; Wilcoxon "
        f"{'signed-rank' if p['statistic'] == 'signedrank' else 'rank-sum'} test, alpha 0.05",
        f"{len(results.records)} runs stored; {len(results.missing)} missing",
    ]
    return lines


def _markdown(results, tables, pngs):
    out = [f"# Study {results.spec['name']}", ""]
    out += [f"- {line}" for line in _intro(results)] + [""]
    for dataset, (header, rows) in tables.items():
        out += [f"## {dataset}", "", "| " + " | ".join(header) + " |",
                "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
        out.append("")
        for (d, caption), (name, _) in pngs.items():
            if d == dataset:
                out += [f"![{dataset}: {caption}]({name})", ""]
    if results.missing:
        out += ["## Missing runs", ""] + [f"- {key}" for key in results.missing] + [""]
    return "\n".join(out)


def _html(results, tables, pngs):
    esc = html.escape
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>Study {esc(results.spec['name'])}</title><style>",
        "body{font-family:sans-serif;margin:2em;max-width:1400px}",
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
        "padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
        "th{background:#eee}img{max-width:100%;margin:0.5em 0}",
        "</style></head><body>", f"<h1>Study {esc(results.spec['name'])}</h1><ul>",
    ]
    parts += [f"<li>{esc(line)}</li>" for line in _intro(results)] + ["</ul>"]
    for dataset, (header, rows) in tables.items():
        parts.append(f"<h2>{esc(dataset)}</h2><table><tr>")
        parts += [f"<th>{esc(h)}</th>" for h in header] + ["</tr>"]
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
        for (d, caption), (name, data) in pngs.items():
            if d == dataset:
                b64 = base64.b64encode(data).decode("ascii")
                parts.append(f"<figure><img alt='{esc(caption)}' src='data:image/png;base64,"
                             f"{b64}'><figcaption>{esc(caption)}</figcaption></figure>")
    if results.missing:
        parts.append("<h2>Missing runs</h2><ul>")
        parts += [f"<li>{esc(str(key))}</li>" for key in results.missing] + ["</ul>"]
    parts.append("</body></html>")
    return "\n".join(parts)


def text_table(header, rows):
    """Text lines of a table: the first column left-aligned, the others right-aligned.

    Parameters
    ----------
    header : sequence of str
    rows : sequence of sequences of str

    Returns
    -------
    lines : list of str
        The header, a rule of dashes, then one line per row.
    """
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), "  ".join("-" * w for w in widths), *(line(row) for row in rows)]
