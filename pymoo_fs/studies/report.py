"""The report of a study: tables, statistics, figures and provenance, from its result store.

:func:`load_results` reads a study directory (finished runs, references, what is missing,
provenance). :func:`summary_data` computes, per dataset and algorithm, the measures as numbers
(subset sizes and test scores, or hypervolume and IGD of the fronts; evaluations, seconds,
Wilcoxon signs and p-values against the reference algorithm, the Q-measure) beside the
all-features scores; :func:`summary_tables` lays them out as text, :func:`legend` says what
every column and sign means, :func:`latex_tables` sets them for a paper. :func:`write_report`
writes the report directory, all files together:

=========================  ==================================================================
``report.md``              the tables with their legend, the figures, the provenance
``report.html``            the same, self-contained (figures embedded)
``tables.tex``             the tables in LaTeX (``booktabs``), one ``table`` per dataset
``summary.csv``            the tables' numbers, one row per dataset and algorithm
``summary.json``           the same, with the all-features scores and the legend
``all_features.csv``       the classifier on every feature, per dataset
``runs.csv``               one row per run (:func:`run_table`)
``fronts.csv``             one row per front member (:func:`front_table`), front studies only
``<dataset>_<figure>.*``   every figure as PNG, PDF and SVG
``manifest.json``          the files above; a later report removes those it does not rewrite
=========================  ==================================================================

:func:`text_table` lays a table out for a terminal.
"""

import base64
import hashlib
import html
import io
import math
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pymoo_fs import __version__
from pymoo_fs._files import commit_files, csv_text, json_text, read_json
from pymoo_fs.analysis import (average_front, best_front, hypervolume, igd, nondominated,
                               plot_convergence, plot_fronts, plot_selection_heatmap, plot_tsne,
                               q_measure, reference_front, selection_frequency, tsne_embedding)
from pymoo_fs.analysis.statistics import rank_sum, signed_rank
from pymoo_fs.studies.spec import Protocol
from pymoo_fs.studies.store import (REFERENCE_KEYS, ResultStore, RunKey, StoreFileError,
                                    read_checked)

__all__ = ["ALL_FEATURES_COLUMNS", "CITATIONS", "FRONT_COLUMNS", "FRONT_RUN_COLUMNS",
           "FRONT_SUMMARY_COLUMNS", "MANIFEST", "SUBSET_RUN_COLUMNS", "SUBSET_SUMMARY_COLUMNS",
           "StudyResults", "SummaryTable", "all_features_line", "front_table", "fronts_figure",
           "latex_tables", "legend", "load_results", "run_table", "summary_data",
           "summary_tables", "text_table", "write_report"]

#: the papers whose figures and measures the report follows, cited in its captions
CITATIONS = {
    "fronts": "H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, \"New mechanism for archive "
              "maintenance in PSO-based multi-objective feature selection\", Soft Computing 20, "
              "3927-3946 (2016), doi:10.1007/s00500-016-2128-8, section \"Results and "
              "discussion\", Figs. 1-6",
    "q_measure": "T. Butler-Yeoman, B. Xue, M. Zhang, \"Particle swarm optimisation for "
                 "feature selection: a size-controlled approach\", AusDM 2015, CRPIT 168, "
                 "section 5.5 and Table 5",
    "tsne": "B. Tran, B. Xue, M. Zhang, \"Adaptive multi-subswarm optimisation for feature "
            "selection on high-dimensional classification\", GECCO 2019, "
            "doi:10.1145/3321707.3321713, section 5.1.4 and Fig. 3",
    "tables": "A.-D. Li, B. Xue, M. Zhang, \"A forward search inspired particle swarm "
              "optimization algorithm for feature selection in classification\", IEEE CEC "
              "2021, 786-793, doi:10.1109/CEC45853.2021.9504949, Tables II and III",
    "hypervolume": "E. Zitzler, L. Thiele, \"Multiobjective evolutionary algorithms: a "
                   "comparative case study and the strength Pareto approach\", IEEE Trans. "
                   "Evolutionary Computation 3(4), 257-271 (1999), doi:10.1109/4235.797969",
    "wilcoxon": "F. Wilcoxon, \"Individual comparisons by ranking methods\", Biometrics "
                "Bulletin 1(6), 80-83 (1945)",
}


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
    provenance : dict or None
        The study's ``provenance.json`` (:meth:`~pymoo_fs.studies.ResultStore.read_provenance`:
        one session per ``run_study``), None for a study stored before it was kept.
    """

    spec: dict
    records: list
    references: dict
    missing: list = field(default_factory=list)
    provenance: dict = None

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
    StoreFileError
        (a ``ValueError``) Naming the file, if ``study.json``, a reference file, a run file or
        ``provenance.json`` is damaged (truncated, not JSON, keys missing): a damaged run is
        redone by running the study again.
    """
    directory = Path(directory)
    if not (directory / "study.json").is_file():
        raise ValueError(f"{directory} is not a study directory (no study.json)")
    store = ResultStore(directory)
    spec = store.read_spec()
    references = {}
    for path in sorted((directory / "reference").glob("*_fold-*.json")):
        record = read_checked(path, REFERENCE_KEYS)
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
    for key in finished:  # a run whose split lost its reference would vanish from the tables
        if (key.dataset, key.fold) not in references:
            raise StoreFileError(store.reference_path(key.dataset, key.fold),
                                 f"runs of its split are stored ({key})", missing=True)
    records = [store.read_run(key) for key in finished]
    missing = [k for k in wanted if not store.has(k)]
    return StudyResults(spec, records, references, missing, store.read_provenance())


# ---------------------------------------------------------------------------------- tables
#: numeric columns of :func:`summary_data` for studies whose runs return Pareto fronts
FRONT_SUMMARY_COLUMNS = ("dataset", "algorithm", "reference", "runs", "hv_train_mean",
                         "hv_train_std", "hv_test_mean", "hv_test_std", "hv_test_sign",
                         "hv_test_p", "igd_train_mean", "igd_train_std", "igd_test_mean",
                         "igd_test_std", "front_size_mean", "n_eval_mean", "seconds_mean",
                         "q_measure")
#: numeric columns of :func:`summary_data` for studies whose runs return one subset
SUBSET_SUMMARY_COLUMNS = ("dataset", "algorithm", "reference", "runs", "n_features_mean",
                          "n_features_std", "n_features_sign", "n_features_p",
                          "test_score_best", "test_score_mean", "test_score_std",
                          "test_score_sign", "test_score_p", "train_score_mean", "n_eval_mean",
                          "seconds_mean", "q_measure")
#: columns of the all-features scores (``all_features.csv``)
ALL_FEATURES_COLUMNS = ("dataset", "splits", "n_features", "n_train", "n_test",
                        "train_score", "test_score_best", "test_score_mean", "test_score_std")

_NAN = float("nan")


@dataclass
class SummaryTable:
    """One dataset's summary as numbers: one row per algorithm, and the all-features scores.

    Attributes
    ----------
    dataset : str
    kind : {"front", "subset"}
        Whether the runs return Pareto fronts or one subset each.
    columns : tuple of str
        :data:`FRONT_SUMMARY_COLUMNS` or :data:`SUBSET_SUMMARY_COLUMNS`.
    rows : list of list
        One row per algorithm of the spec, in its order: ``dataset`` and ``algorithm`` (str),
        ``reference`` (bool), ``runs`` (int), the measures as floats (NaN where undefined: a
        standard deviation or Q-measure of fewer than 2 runs, anything of an algorithm without
        runs), the signs as ``"+"``, ``"="``, ``"-"`` (``""`` on the reference's row or
        without runs) with their two-sided p-values.
    all_features : dict
        :data:`ALL_FEATURES_COLUMNS` -> value: the classifier on every feature, scores
        averaged over the splits (``test_score_std`` NaN for one split).
    """

    dataset: str
    kind: str
    columns: tuple
    rows: list
    all_features: dict

    def row(self, algorithm):
        """dict: the row of one algorithm, column -> value."""
        for row in self.rows:
            if row[1] == algorithm:
                return dict(zip(self.columns, row))
        raise KeyError(f"no algorithm {algorithm!r} in the summary of {self.dataset!r}")

    def as_dict(self):
        """dict: JSON-ready (NaN as None), without the dataset column."""
        return {"kind": self.kind, "columns": list(self.columns[1:]),
                "rows": [[_json_number(v) for v in row[1:]] for row in self.rows],
                "all_features": {k: _json_number(v) for k, v in self.all_features.items()
                                 if k != "dataset"}}


def _json_number(value):
    if isinstance(value, (float, np.floating)):
        return None if math.isnan(value) else float(value)
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def summary_data(results):
    """The report's tables as numbers, one :class:`SummaryTable` per dataset.

    Parameters
    ----------
    results : StudyResults

    Returns
    -------
    tables : dict of {str: SummaryTable}
        In the order of :attr:`StudyResults.datasets`.

        Runs returning fronts: hypervolume (reference point (1, 1)) of the training and test
        fronts, mean and standard deviation over the runs, the Wilcoxon sign and p-value of
        the test hypervolume, IGD of both (reference: the non-dominated union of all runs'
        fronts of that split), the mean front size. Runs returning one subset (the layout of
        Li, Xue & Zhang's Tables II and III, CEC 2021): subset size (mean, std, sign, p), best
        and mean test score (std, sign, p), mean training score. Both: mean evaluations and
        seconds per run, and the Q-measure of the runs' subsets (one per run: the single
        result, or the front member with the highest training score, fewest features on
        ties; Butler-Yeoman, Xue & Zhang, AusDM 2015).

    Notes
    -----
    Signs compare the reference algorithm (``spec["reference"]``) with each other one: ``+``
    the reference is significantly better (fewer features; higher score or hypervolume),
    ``-`` significantly worse, ``=`` no significant difference (alpha 0.05). The protocol's
    ``statistic`` chooses the Wilcoxon rank-sum test over all (run, fold) values, or the
    signed-rank test on values paired by (run, fold).
    """
    tables = {}
    for dataset in results.datasets:
        make = _pareto_rows if results.pareto else _subset_rows
        columns, rows = make(results, dataset)
        tables[dataset] = SummaryTable(dataset, "front" if results.pareto else "subset",
                                       columns, rows, _all_features(results, dataset))
    return tables


def _values(records, key):
    return {(r["run"], r["fold"]): key(r) for r in records}


def _test(results, ref, other, better):
    """(sign, p-value) of the reference against another algorithm, ("", NaN) if untestable."""
    if not ref or not other:
        return "", _NAN
    paired = results.spec["protocol"]["statistic"] == "signedrank"
    if paired:
        keys = sorted(set(ref) & set(other))
        if len(keys) < 2:
            return "", _NAN
        test = signed_rank([ref[k] for k in keys], [other[k] for k in keys], better=better)
    else:
        test = rank_sum(list(ref.values()), list(other.values()), better=better)
    return test.sign, float(test.pvalue)


def _mean_std(values):
    v = np.asarray(list(values), dtype=float)
    if v.size == 0:
        return _NAN, _NAN
    return float(v.mean()), float(v.std(ddof=1)) if v.size > 1 else _NAN


def _representative(record):
    """The mask of a run that stands for it: the highest training score, then fewest features."""
    sizes = np.array([len(f) for f in record["features"]])
    i = int(np.lexsort((sizes, -np.asarray(record["score_train"])))[0])
    mask = np.zeros(record["n_features"], dtype=bool)
    mask[record["features"][i]] = True
    return mask


def _q(records):
    if len(records) < 2:
        return _NAN
    return float(q_measure(selection_frequency([_representative(r) for r in records])))


def _all_features(results, dataset):
    refs = [v for (d, _), v in sorted(results.references.items()) if d == dataset]
    test_mean, test_std = _mean_std(r["score_test"] for r in refs)
    return {"dataset": dataset, "splits": len(refs), "n_features": int(refs[0]["n_features"]),
            "n_train": int(round(np.mean([r["n_train"] for r in refs]))),
            "n_test": int(round(np.mean([r["n_test"] for r in refs]))),
            "train_score": float(np.mean([r["score_train"] for r in refs])),
            "test_score_best": float(max(r["score_test"] for r in refs)),
            "test_score_mean": test_mean, "test_score_std": test_std}


def _common(runs):
    return [float(np.mean([r["n_eval"] for r in runs])),
            float(np.nanmean([r["seconds"] for r in runs])) if runs else _NAN, _q(runs)]


def _subset_rows(results, dataset):
    ref_label = results.spec["reference"]
    ref = results.runs_of(dataset, ref_label)
    ref_size = _values(ref, lambda r: len(r["features"][0]))
    ref_test = _values(ref, lambda r: r["score_test"][0])
    rows = []
    for label in results.labels:
        runs = results.runs_of(dataset, label)
        mine = label == ref_label
        if not runs:
            rows.append([dataset, label, mine, 0] + [_NAN] * 2 + ["", _NAN] + [_NAN] * 3
                        + ["", _NAN] + [_NAN] * 4)
            continue
        size = _values(runs, lambda r: len(r["features"][0]))
        test = _values(runs, lambda r: r["score_test"][0])
        size_sign, size_p = ("", _NAN) if mine else _test(results, ref_size, size, "lower")
        test_sign, test_p = ("", _NAN) if mine else _test(results, ref_test, test, "higher")
        rows.append([dataset, label, mine, len(runs), *_mean_std(size.values()), size_sign,
                     size_p, float(max(test.values())), *_mean_std(test.values()), test_sign,
                     test_p, float(np.mean([r["score_train"][0] for r in runs])),
                     *_common(runs)])
    return SUBSET_SUMMARY_COLUMNS, rows


def _pareto_rows(results, dataset):
    indicators = _pareto_indicators(results, dataset)
    ref_label = results.spec["reference"]
    ref_hv = indicators.get(ref_label, {}).get("hv_test", {})
    rows = []
    for label in results.labels:
        runs = results.runs_of(dataset, label)
        mine = label == ref_label
        if not runs:
            rows.append([dataset, label, mine, 0] + [_NAN] * 4 + ["", _NAN] + [_NAN] * 8)
            continue
        ind = indicators[label]
        sign, p = ("", _NAN) if mine else _test(results, ref_hv, ind["hv_test"], "higher")
        rows.append([dataset, label, mine, len(runs), *_mean_std(ind["hv_train"].values()),
                     *_mean_std(ind["hv_test"].values()), sign, p,
                     *_mean_std(ind["igd_train"].values()),
                     *_mean_std(ind["igd_test"].values()),
                     float(np.mean([len(r["features"]) for r in runs])), *_common(runs)])
    return FRONT_SUMMARY_COLUMNS, rows


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


# ---------------------------------------------------------------------------------- as text
_FRONT_HEADER = ("algorithm", "HV train", "HV test", "T_HV", "IGD train", "IGD test", "front",
                 "evaluations", "seconds", "Q")
_SUBSET_HEADER = ("algorithm", "#features", "T_f", "best test", "test", "T_a", "train",
                  "evaluations", "seconds", "Q")


def _number(value, digits=4):
    return "" if value is None or (isinstance(value, float) and math.isnan(value)) \
        else f"{value:.{digits}f}"


def _pm(mean, std, digits=4):
    if math.isnan(mean):
        return "-"
    return f"{mean:.{digits}f}" if math.isnan(std) else f"{mean:.{digits}f} ± {std:.{digits}f}"


def summary_tables(results):
    """The report's tables as text, one per dataset.

    Parameters
    ----------
    results : StudyResults

    Returns
    -------
    tables : dict of {str: (tuple of str, list of list of str)}
        Per dataset, the header and the rows of :func:`summary_data` formatted for Markdown,
        HTML or a terminal (:func:`legend` explains every column).

        Fronts: ``algorithm, HV train, HV test, T_HV, IGD train, IGD test, front,
        evaluations, seconds, Q``; the all-features scores are not a row of this table (they
        have no hypervolume): :func:`write_report` states them above it.

        One subset per run: ``algorithm, #features, T_f, best test, test, T_a, train,
        evaluations, seconds, Q``, the first row the classifier on all features, its values
        in the columns they belong to (number of features, best and mean test score over the
        splits, training score).

        Means over runs are written ``mean ± std`` (the mean alone for one run); the
        reference algorithm's label is followed by ``(reference)``.
    """
    out = {}
    for dataset, table in summary_data(results).items():
        rows = []
        if table.kind == "subset":
            a = table.all_features
            rows.append(["all features", str(a["n_features"]), "", _number(a["test_score_best"]),
                         _pm(a["test_score_mean"], a["test_score_std"]), "",
                         _number(a["train_score"]), "", "", ""])
        for row in table.rows:
            r = dict(zip(table.columns, row))
            label = r["algorithm"] + (" (reference)" if r["reference"] else "")
            if r["runs"] == 0:
                rows.append([label, "no run yet"] + [""] * 8)
            elif table.kind == "front":
                rows.append([label, _pm(r["hv_train_mean"], r["hv_train_std"]),
                             _pm(r["hv_test_mean"], r["hv_test_std"]), r["hv_test_sign"],
                             _pm(r["igd_train_mean"], r["igd_train_std"]),
                             _pm(r["igd_test_mean"], r["igd_test_std"]),
                             _number(r["front_size_mean"], 1), _number(r["n_eval_mean"], 0),
                             _number(r["seconds_mean"], 2), _number(r["q_measure"], 3)])
            else:
                rows.append([label, _pm(r["n_features_mean"], r["n_features_std"], 1),
                             r["n_features_sign"], _number(r["test_score_best"]),
                             _pm(r["test_score_mean"], r["test_score_std"]),
                             r["test_score_sign"], _number(r["train_score_mean"]),
                             _number(r["n_eval_mean"], 0), _number(r["seconds_mean"], 2),
                             _number(r["q_measure"], 3)])
        out[dataset] = (_FRONT_HEADER if table.kind == "front" else _SUBSET_HEADER), rows
    return out


def all_features_line(results, dataset):
    """One sentence: the classifier's scores on every feature of a dataset.

    Returns
    -------
    line : str
        E.g. ``"all 60 features: training (inner CV) accuracy 0.8138, test accuracy 0.7937"``
        (means over the splits when there are several).
    """
    a = _all_features(results, dataset)
    scoring = results.spec["protocol"].get("scoring", "accuracy").replace("_", " ")
    splits = f" (mean of {a['splits']} splits)" if a["splits"] > 1 else ""
    return (f"all {a['n_features']} features: training (inner CV) {scoring} "
            f"{a['train_score']:.4f}, test {scoring} {a['test_score_mean']:.4f}{splits}")


def _sentence(text):
    return text[:1].upper() + text[1:]


def legend(results):
    """What every column of the tables and every sign means, for this study.

    Parameters
    ----------
    results : StudyResults

    Returns
    -------
    entries : list of (str, str)
        ``(column, meaning)`` in the order of the columns, the direction that is better
        stated for every measure and sign.
    """
    p = results.spec["protocol"]
    ref = results.spec["reference"]
    scoring = p.get("scoring", "accuracy").replace("_", " ")
    test = ("Wilcoxon signed-rank test on values paired by run and fold"
            if p["statistic"] == "signedrank" else "Wilcoxon rank-sum test over all runs")

    def sign(what, better):
        return (f"{test} of {ref}'s {what} against this algorithm's, alpha 0.05, from "
                f"{ref}'s side: + {ref} is significantly better ({better}), - significantly "
                f"worse, = no significant difference; blank on {ref}'s own row")

    entries = []
    if results.pareto:
        entries += [
            ("HV train, HV test", "hypervolume of each run's front, in (classification error, "
             "fraction of features selected) with reference point (1, 1), on the training "
             "data (inner cross-validation error) and on the test data (hold-out error); mean "
             "± std over the runs; higher is better (1 would be no error with no "
             "feature)"),
            ("T_HV", sign("test hypervolume", "higher")),
            ("IGD train, IGD test", "inverted generational distance of each run's front to "
             "the non-dominated union of the fronts of every algorithm and run on that split; "
             "mean ± std; lower is better (0: the front is that union)"),
            ("front", "mean number of subsets on a run's front"),
        ]
    else:
        entries += [
            ("all features", f"the classifier on every feature: its number, best and mean "
             f"test {scoring} over the splits, training (inner cross-validation) {scoring}"),
            ("#features", "number of features selected, mean (± std) over the runs; lower is "
             "better"),
            ("T_f", sign("numbers of features", "fewer")),
            ("best test, test", f"the selected subset's test {scoring} (classifier trained "
             f"on the training part, scored on the held-out part): the best run's, and mean ± "
             f"std over the runs; higher is better"),
            ("T_a", sign(f"test {scoring}", "higher")),
            ("train", f"the selected subset's training (inner cross-validation) {scoring}, "
             "mean over the runs"),
        ]
    entries += [
        ("evaluations", "subset evaluations per run, mean over the runs (every subset scored, "
         "local searches included; repeats answered from the cache count too)"),
        ("seconds", "wall-clock seconds per run, mean over the runs (the machine is in the "
         "provenance)"),
        ("Q", "Q-measure of selection consistency (Butler-Yeoman, Xue & Zhang, AusDM 2015): "
         "how unevenly the runs' subsets (one per run" + (": the front member with the "
         "highest training score, fewest features on ties" if results.pareto else "")
         + ") select the features; 0 when every feature is selected equally often, higher "
         "is more consistent; blank with fewer than 2 runs"),
        ("(reference)", f"{ref}, the algorithm the signs compare the others with"),
    ]
    return entries


def _legend_by_column(results):
    """{numeric column: meaning} for summary.json."""
    by_title = dict(legend(results))
    columns = FRONT_SUMMARY_COLUMNS if results.pareto else SUBSET_SUMMARY_COLUMNS
    title = {"hv_train": "HV train, HV test", "hv_test_mean": "HV train, HV test",
             "hv_test_std": "HV train, HV test", "hv_test_sign": "T_HV", "hv_test_p": "T_HV",
             "igd": "IGD train, IGD test", "front_size": "front", "n_features_sign": "T_f",
             "n_features_p": "T_f", "n_features": "#features", "test_score_sign": "T_a",
             "test_score_p": "T_a", "test_score": "best test, test", "train_score": "train",
             "n_eval": "evaluations", "seconds": "seconds", "q_measure": "Q",
             "reference": "(reference)"}
    out = {"dataset": "the dataset's name", "algorithm": "the algorithm's label in the spec",
           "runs": "finished runs of the algorithm (over every split)"}
    for column in columns:
        if column in out:
            continue
        key = next((k for k in sorted(title, key=len, reverse=True)
                    if column.startswith(k)), None)
        meaning = by_title.get(title[key], "") if key else ""
        if column.endswith("_p"):
            meaning = "two-sided p-value of the test whose sign is in the column before: " + \
                meaning
        out[column] = meaning
    return out


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


# ---------------------------------------------------------------------------------- LaTeX
_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def _tex(text):
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def _tex_cell(cell):
    """A text-table cell in LaTeX: ``a ± b`` in math mode, signs as math symbols."""
    if cell in ("+", "-", "="):
        return {"+": "$+$", "-": "$-$", "=": "$=$"}[cell]
    if " ± " in cell:
        mean, std = cell.split(" ± ")
        return f"${mean} \\pm {std}$"
    return _tex(cell)


def latex_tables(results):
    """The report's tables in LaTeX, one ``table`` environment per dataset (``booktabs``).

    Parameters
    ----------
    results : StudyResults

    Returns
    -------
    tex : str
        For each dataset a ``table`` with a caption (dataset, number of features, runs, the
        all-features scores, the reference algorithm, how to read the signs) and a label
        ``tab:<dataset>``, around a ``tabular`` with ``\\toprule``, ``\\midrule`` and
        ``\\bottomrule``; the columns of :func:`summary_tables` (``T_HV``, ``T_f``, ``T_a``
        set as :math:`T_{HV}` ...). Needs ``\\usepackage{booktabs}``; every other character
        is escaped.
    """
    tables = summary_tables(results)
    ref = results.spec["reference"]
    p = results.spec["protocol"]
    test = "signed-rank" if p["statistic"] == "signedrank" else "rank-sum"
    names = {"T_HV": "$T_{HV}$", "T_f": "$T_f$", "T_a": "$T_a$", "#features": r"\#features"}
    out = ["% pymoo-fs report: the study's tables (needs \\usepackage{booktabs})", ""]
    for dataset, (header, rows) in tables.items():
        a = _all_features(results, dataset)
        runs = max((r[3] for r in summary_data(results)[dataset].rows), default=0)
        what = ("hypervolume (HV, higher is better) and IGD (lower is better) of the training "
                "and test fronts" if results.pareto else
                "number of features (lower is better) and test score (higher is better)")
        caption = (f"{_tex(dataset)} ({a['n_features']} features): {what}, mean $\\pm$ std "
                   f"over {runs} runs; {_tex(all_features_line(results, dataset))}. Signs: "
                   f"Wilcoxon {test} test of {_tex(ref)} against each algorithm "
                   f"($\\alpha = 0.05$): $+$ {_tex(ref)} significantly better, $-$ "
                   f"significantly worse, $=$ no significant difference.")
        spec = "l" + "r" * (len(header) - 1)
        out += [r"\begin{table}[htbp]", r"\centering", f"\\caption{{{caption}}}",
                f"\\label{{tab:{_slug(dataset)}}}", f"\\begin{{tabular}}{{{spec}}}",
                r"\toprule",
                " & ".join(names.get(h, _tex(h)) for h in header) + r" \\", r"\midrule"]
        for i, row in enumerate(rows):
            out.append(" & ".join(_tex_cell(c) for c in row) + r" \\")
            if i == 0 and row[0] == "all features":
                out.append(r"\midrule")
        out += [r"\bottomrule", r"\end{tabular}", r"\end{table}", ""]
    return "\n".join(out)


def _slug(text):
    return "".join(c if c.isalnum() else "-" for c in str(text)).strip("-").lower() or "x"


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


# ---------------------------------------------------------------------------------- writing
#: the name of the report's list of the files it wrote
MANIFEST = "manifest.json"


def write_report(directory, out=None, tsne=True, data_dir=None, check=None, keys=None):
    """Write a study's report: tables, legend, figures, provenance, LaTeX and CSV files.

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
        Called between figures and between files; an exception it raises stops the report
        before anything is moved into place (the files are written together,
        :func:`pymoo_fs._files.commit_files`).
    keys : iterable of RunKey, optional
        Report only these runs (see :func:`load_results`).

    Returns
    -------
    paths : dict
        ``"html"``, ``"markdown"``, ``"latex"``, ``"summary"`` (``summary.csv``),
        ``"summary_json"``, ``"all_features"``, ``"runs"``, ``"fronts"`` (front studies only),
        ``"manifest"``: Path each; ``"figures"``: list of Path (PNG, PDF and SVG of every
        figure); ``"removed"``: list of Path, files of an earlier report in ``out`` that this
        one does not write again (listed in its ``manifest.json``) and removed;
        ``"missing"``: int, the runs the spec asks for that are not stored.

    Raises
    ------
    ValueError
        If ``directory`` is not a study directory.
    OSError
        If the report cannot be written.

    Notes
    -----
    Only files named in the previous ``manifest.json`` are ever removed, so a report written
    into a directory that holds other files leaves them alone.
    """
    check = check if check is not None else (lambda: None)
    results = load_results(directory, keys)
    out = Path(out) if out is not None else Path(directory) / "report"
    data = summary_data(results)
    tables = summary_tables(results)
    figures = {}
    for dataset in results.datasets:
        check()
        figures[dataset] = _figures(results, dataset, tsne, data_dir, check)
    files, pngs = {}, {}
    for dataset, figs in figures.items():
        for fig in figs:
            stem = f"{_slug(dataset)}_{fig.slug}"
            for fmt in ("png", "pdf", "svg"):
                files[f"{stem}.{fmt}"] = _render(fig.figure, fmt)
            pngs[dataset, fig.slug] = (stem, fig, files[f"{stem}.png"])
        check()
    files["report.md"] = _markdown(results, tables, pngs)
    files["report.html"] = _html(results, tables, pngs)
    files["tables.tex"] = latex_tables(results)
    files["summary.json"] = json_text({"legend": _legend_by_column(results),
                                       "datasets": {d: t.as_dict() for d, t in data.items()}})
    columns = (FRONT_SUMMARY_COLUMNS if results.pareto else SUBSET_SUMMARY_COLUMNS)
    files["summary.csv"] = csv_text(columns, [_csv_row(row) for t in data.values()
                                              for row in t.rows])
    files["all_features.csv"] = csv_text(ALL_FEATURES_COLUMNS, [
        _csv_row([t.all_features[c] for c in ALL_FEATURES_COLUMNS]) for t in data.values()])
    files["runs.csv"] = csv_text(*run_table(results))
    if results.pareto:
        files["fronts.csv"] = csv_text(*front_table(results))
    previous = _manifest(out)
    files[MANIFEST] = json_text({"written_by": f"pymoo-fs {__version__}",
                                 "files": sorted(files)})
    written = commit_files(out, {name: _writer(content) for name, content in files.items()},
                           check)
    removed = []
    for name in previous - set(files):
        stale = out / name
        if stale.is_file():
            stale.unlink()
            removed.append(stale)
    paths = {"html": written["report.html"], "markdown": written["report.md"],
             "latex": written["tables.tex"], "summary": written["summary.csv"],
             "summary_json": written["summary.json"], "all_features": written["all_features.csv"],
             "runs": written["runs.csv"], "manifest": written[MANIFEST],
             "figures": [written[n] for n in files if n.endswith((".png", ".pdf", ".svg"))],
             "removed": sorted(removed), "missing": len(results.missing)}
    if results.pareto:
        paths["fronts"] = written["fronts.csv"]
    return paths


def _csv_row(row):
    return ["" if isinstance(v, float) and math.isnan(v) else v for v in row]


def _writer(content):
    data = content.encode("utf-8") if isinstance(content, str) else content
    return lambda path: Path(path).write_bytes(data)


def _manifest(out):
    """The names an earlier report listed in ``out``'s manifest (plain names only)."""
    try:
        names = read_json(Path(out) / MANIFEST).get("files", [])
    except (OSError, ValueError, AttributeError):
        return set()
    return {n for n in names if isinstance(n, str) and n == Path(n).name and n != MANIFEST}


def _intro(results):
    s = results.spec
    p = s["protocol"]
    budget = ", ".join(f"{k} = {v}" for k, v in s["budget"].items())
    own = [f"{a['label']}: {', '.join(f'{k} = {v}' for k, v in a['budget'].items())}"
           for a in s["algorithms"] if a.get("budget")]
    split = (f"hold-out {1 - p['test_size']:.0%}/{p['test_size']:.0%}" if p["split"] == "holdout"
             else f"outer {p['outer_folds']}-fold CV")
    lines = [
        f"protocol {p['name']}: {split}, scaling {p['scaling']}, KNN-{p['n_neighbors']} with "
        f"{p['inner_cv']}-fold inner CV ({p['scoring'].replace('_', ' ')}), objective "
        f"{results.protocol.objective.describe()}",
        f"{s['runs']} runs per algorithm and split, seed {s['seed']}, budget {budget}"
        + (f" ({'; '.join(own)})" if own else "") + f"; reference algorithm "
        f"{s['reference']}; Wilcoxon "
        f"{'signed-rank' if p['statistic'] == 'signedrank' else 'rank-sum'} test, alpha 0.05",
        f"{len(results.records)} runs stored; {len(results.missing)} missing",
    ]
    return lines


def _provenance_lines(results):
    """Where and with what the runs were made, then how the report was written."""
    lines = []
    sessions = (results.provenance or {}).get("sessions", [])
    for i, session in enumerate(sessions, start=1):
        versions = ", ".join(f"{k} {v}" for k, v in session.get("versions", {}).items())
        m = session.get("machine", {})
        machine = ", ".join(str(m[k]) for k in ("node", "system", "processor", "cores")
                            if m.get(k)) + (" cores" if m.get("cores") else "")
        done = session.get("runs_computed")
        lines.append(f"session {i}: started {session.get('started', '?')}"
                     + (f", finished {session['finished']}" if session.get("finished") else "")
                     + (f", {done} runs computed" if done is not None else "")
                     + f"; {machine}; {versions}; spec sha256 "
                       f"{session.get('spec_sha256', '?')[:16]}")
    if not sessions:
        lines.append("the study directory holds no provenance.json (made before pymoo-fs "
                     "kept one): the versions and machine of its runs are unknown")
    lines.append(f"report: pymoo-fs {__version__}; study.json sha256 "
                 f"{results_spec_sha256(results)[:16]}")
    return lines


def results_spec_sha256(results):
    """SHA-256 of the stored spec as JSON text (:func:`pymoo_fs._files.json_text`)."""
    return hashlib.sha256(json_text(results.spec).encode("utf-8")).hexdigest()


def _markdown(results, tables, pngs):
    out = [f"# Study {results.spec['name']}", ""]
    out += [f"- {line}" for line in _intro(results)] + [""]
    out += ["## How to read the tables", ""]
    out += [f"- **{term}**: {meaning}" for term, meaning in legend(results)] + [""]
    for dataset, (header, rows) in tables.items():
        out += [f"## {dataset}", ""]
        if results.pareto:
            out += [_sentence(all_features_line(results, dataset)) + ".", ""]
        out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in rows]
        out.append("")
        for (d, _), (stem, fig, _) in pngs.items():
            if d == dataset:
                out += [f"### {dataset}: {fig.title}", "", f"![{dataset}: {fig.title}]"
                        f"({stem}.png)", "", f"{fig.caption} ([PDF]({stem}.pdf), "
                        f"[SVG]({stem}.svg))", ""]
    if results.missing:
        out += ["## Missing runs", ""] + [f"- {key}" for key in results.missing] + [""]
    out += ["## Provenance", ""] + [f"- {line}" for line in _provenance_lines(results)] + [""]
    return "\n".join(out)


def _html(results, tables, pngs):
    esc = html.escape
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>",
        f"<title>Study {esc(results.spec['name'])}</title><style>",
        "body{font-family:sans-serif;margin:2em;max-width:1400px}",
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;"
        "padding:3px 8px;text-align:right}td:first-child,th:first-child{text-align:left}"
        "th{background:#eee}img{max-width:100%;margin:0.5em 0}"
        "dt{font-weight:bold;margin-top:0.4em}figcaption{max-width:60em}",
        "</style></head><body>", f"<h1>Study {esc(results.spec['name'])}</h1><ul>",
    ]
    parts += [f"<li>{esc(line)}</li>" for line in _intro(results)] + ["</ul>"]
    parts.append("<h2>How to read the tables</h2><dl>")
    parts += [f"<dt>{esc(term)}</dt><dd>{esc(meaning)}</dd>" for term, meaning in
              legend(results)] + ["</dl>"]
    for dataset, (header, rows) in tables.items():
        parts.append(f"<h2>{esc(dataset)}</h2>")
        if results.pareto:
            parts.append(f"<p>{esc(_sentence(all_features_line(results, dataset)))}.</p>")
        parts.append("<table><tr>")
        parts += [f"<th>{esc(h)}</th>" for h in header] + ["</tr>"]
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
        for (d, _), (stem, fig, data) in pngs.items():
            if d == dataset:
                b64 = base64.b64encode(data).decode("ascii")
                parts.append(f"<figure><h3>{esc(dataset)}: {esc(fig.title)}</h3>"
                             f"<img alt='{esc(dataset)}: {esc(fig.title)}' "
                             f"src='data:image/png;base64,{b64}'><figcaption>"
                             f"{esc(fig.caption)} (<a href='{esc(stem)}.pdf'>PDF</a>, "
                             f"<a href='{esc(stem)}.svg'>SVG</a>)</figcaption></figure>")
    if results.missing:
        parts.append("<h2>Missing runs</h2><ul>")
        parts += [f"<li>{esc(str(key))}</li>" for key in results.missing] + ["</ul>"]
    parts.append("<h2>Provenance</h2><ul>")
    parts += [f"<li>{esc(line)}</li>" for line in _provenance_lines(results)] + ["</ul>"]
    parts.append("</body></html>")
    return "\n".join(parts)
