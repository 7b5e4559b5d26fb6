"""The report's tables: the measures as numbers (:func:`summary_data`), laid out as text
(:func:`summary_tables`, :func:`text_table`), their legend, the per-run and per-front tables."""

import math
from dataclasses import dataclass, field

import numpy as np

from pymoo_fs.analysis import (hypervolume, igd, nondominated, q_measure, reference_front,
                               selection_frequency)
from pymoo_fs.analysis.statistics import can_decide, holm, rank_sum, signed_rank
from pymoo_fs.evaluation.base import error_label, score_label

__all__ = ["ALL_FEATURES_COLUMNS", "FRONT_COLUMNS", "FRONT_RUN_COLUMNS", "FRONT_SUMMARY_COLUMNS",
           "SUBSET_RUN_COLUMNS", "SUBSET_SUMMARY_COLUMNS", "SummaryTable", "all_features_line",
           "front_table", "legend", "run_table", "summary_data", "summary_tables", "text_table"]


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
    labels : dict of {(str, str): str}
        ``(algorithm, sign column) -> "<sign> A12=<a12> (<n reference>/<n other>)"``
        (:meth:`~pymoo_fs.analysis.statistics.SignificanceTest.label`): each sign with its
        Vargha-Delaney effect size and the numbers of values tested, for the text tables;
        absent where the sign is blank.
    tests : dict of {(str, str): SignificanceTest}
        ``(algorithm, sign column) ->`` the test behind the sign
        (:class:`~pymoo_fs.analysis.statistics.SignificanceTest`: p-value, A12, sample sizes);
        absent where the sign is blank.
    p_holm : dict of {(str, str): float}
        ``(algorithm, sign column) ->`` the p-value Holm-corrected over the family of tests of
        that column on this dataset (the reference against each other algorithm,
        :func:`~pymoo_fs.analysis.statistics.holm`).
    paired : bool
        Whether the signs come from the signed-rank test on paired values (else rank-sum).
    """

    dataset: str
    kind: str
    columns: tuple
    rows: list
    all_features: dict
    labels: dict = field(default_factory=dict)
    tests: dict = field(default_factory=dict)
    p_holm: dict = field(default_factory=dict)
    paired: bool = False

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
        columns, rows, labels = make(results, dataset)
        tests = {k: v[1] for k, v in labels.items() if v[1] is not None}
        p_holm = {}
        for column in {c for _, c in tests}:
            keys = [k for k in tests if k[1] == column]
            p_holm.update(zip(keys, (float(v) for v in
                                     holm([tests[k].pvalue for k in keys]))))
        tables[dataset] = SummaryTable(dataset, "front" if results.pareto else "subset",
                                       columns, rows, _all_features(results, dataset),
                                       {k: v[0] for k, v in labels.items() if v[0]},
                                       tests, p_holm,
                                       results.spec["protocol"]["statistic"] == "signedrank")
    return tables


def _values(records, key):
    return {(r["run"], r["fold"]): key(r) for r in records}


def _test(results, ref, other, better):
    """(sign, p-value, (label, test)) of the reference against another algorithm, ("", NaN,
    ("", None)) if untestable; the label is the sign with A12 and the sample sizes."""
    if not ref or not other:
        return "", _NAN, ("", None)
    paired = results.spec["protocol"]["statistic"] == "signedrank"
    if paired:
        keys = sorted(set(ref) & set(other))
        if len(keys) < 2:
            return "", _NAN, ("", None)
        test = signed_rank([ref[k] for k in keys], [other[k] for k in keys], better=better)
    else:
        test = rank_sum(list(ref.values()), list(other.values()), better=better)
    return test.sign, float(test.pvalue), (test.label(), test)


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
    rows, labels = [], {}
    for label in results.labels:
        runs = results.runs_of(dataset, label)
        mine = label == ref_label
        if not runs:
            rows.append([dataset, label, mine, 0] + [_NAN] * 2 + ["", _NAN] + [_NAN] * 3
                        + ["", _NAN] + [_NAN] * 4)
            continue
        size = _values(runs, lambda r: len(r["features"][0]))
        test = _values(runs, lambda r: r["score_test"][0])
        size_sign, size_p, labels[label, "n_features_sign"] = (
            ("", _NAN, ("", None)) if mine else _test(results, ref_size, size, "lower"))
        test_sign, test_p, labels[label, "test_score_sign"] = (
            ("", _NAN, ("", None)) if mine else _test(results, ref_test, test, "higher"))
        rows.append([dataset, label, mine, len(runs), *_mean_std(size.values()), size_sign,
                     size_p, float(max(test.values())), *_mean_std(test.values()), test_sign,
                     test_p, float(np.mean([r["score_train"][0] for r in runs])),
                     *_common(runs)])
    return SUBSET_SUMMARY_COLUMNS, rows, labels


def _pareto_rows(results, dataset):
    indicators = _pareto_indicators(results, dataset)
    ref_label = results.spec["reference"]
    ref_hv = indicators.get(ref_label, {}).get("hv_test", {})
    rows, labels = [], {}
    for label in results.labels:
        runs = results.runs_of(dataset, label)
        mine = label == ref_label
        if not runs:
            rows.append([dataset, label, mine, 0] + [_NAN] * 4 + ["", _NAN] + [_NAN] * 8)
            continue
        ind = indicators[label]
        sign, p, labels[label, "hv_test_sign"] = (
            ("", _NAN, ("", None)) if mine else _test(results, ref_hv, ind["hv_test"], "higher"))
        rows.append([dataset, label, mine, len(runs), *_mean_std(ind["hv_train"].values()),
                     *_mean_std(ind["hv_test"].values()), sign, p,
                     *_mean_std(ind["igd_train"].values()),
                     *_mean_std(ind["igd_test"].values()),
                     float(np.mean([len(r["features"]) for r in runs])), *_common(runs)])
    return FRONT_SUMMARY_COLUMNS, rows, labels


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
        reference algorithm's label is followed by ``(reference)``; each sign is followed by
        its effect size and sample sizes, e.g. ``"= A12=0.60 (5/5)"``
        (:attr:`SummaryTable.labels`); where the runs are too few for the test to reach
        alpha whatever their values, :data:`TOO_FEW` replaces the ``=``, e.g. ``"too few
        runs for a test, A12=1.00 (3/3)"``.
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
                             _pm(r["hv_test_mean"], r["hv_test_std"]),
                             _signed(table, r, "hv_test_sign", results),
                             _pm(r["igd_train_mean"], r["igd_train_std"]),
                             _pm(r["igd_test_mean"], r["igd_test_std"]),
                             _number(r["front_size_mean"], 1), _number(r["n_eval_mean"], 0),
                             _number(r["seconds_mean"], 2), _number(r["q_measure"], 3)])
            else:
                rows.append([label, _pm(r["n_features_mean"], r["n_features_std"], 1),
                             _signed(table, r, "n_features_sign", results), _number(r["test_score_best"]),
                             _pm(r["test_score_mean"], r["test_score_std"]),
                             _signed(table, r, "test_score_sign", results), _number(r["train_score_mean"]),
                             _number(r["n_eval_mean"], 0), _number(r["seconds_mean"], 2),
                             _number(r["q_measure"], 3)])
        out[dataset] = (_FRONT_HEADER if table.kind == "front" else _SUBSET_HEADER), rows
    return out


#: the text a sign cell holds instead of ``=`` when the runs are too few for the test to reach
#: alpha = 0.05 whatever the values (:func:`~pymoo_fs.analysis.statistics.can_decide`)
TOO_FEW = "too few runs for a test"


def _decidable(results, test):
    paired = results.spec["protocol"]["statistic"] == "signedrank"
    return can_decide(test.n_reference, test.n_other, paired=paired)


def _signed(table, row, column, results=None):
    """A sign cell of the text tables: the sign with its A12 and sample sizes where tested;
    :data:`TOO_FEW` instead of the sign where the runs cannot reach alpha."""
    label = table.labels.get((row["algorithm"], column), row[column])
    test = table.tests.get((row["algorithm"], column))
    if results is not None and test is not None and test.sign == "=" \
            and not _decidable(results, test):
        return f"{TOO_FEW}, {label[2:]}" if label.startswith("= ") else TOO_FEW
    return label


def all_features_line(results, dataset):
    """One sentence: the classifier's scores on every feature of a dataset.

    Returns
    -------
    line : str
        E.g. ``"all 60 features: training (inner CV) accuracy 0.8138, test accuracy 0.7937"``
        (means over the splits when there are several).
    """
    a = _all_features(results, dataset)
    scoring = score_label(results.spec["protocol"].get("scoring", "accuracy"))
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
    scoring = score_label(p.get("scoring", "accuracy"))
    error = error_label(p.get("scoring", "accuracy"))
    test = ("Wilcoxon signed-rank test on values paired by run and fold"
            if p["statistic"] == "signedrank" else "Wilcoxon rank-sum test over all runs")

    assumes = (" paired by run and fold, with a symmetric distribution of the differences"
               if p["statistic"] == "signedrank" else
               " and two samples of the same shape when it is read as a shift")

    def sign(what, better):
        return (f"{test} of {ref}'s {what} against this algorithm's, alpha 0.05, from "
                f"{ref}'s side: + {ref} is significantly better ({better}), - significantly "
                f"worse, = no significant difference; then A12, Vargha and Delaney's effect "
                f"size (the probability that a value of {ref}'s is better than one of this "
                f"algorithm's, ties counting half: 0.5 none, 0.71 or more large, 0.29 or less "
                f"large the other way) and the numbers of values compared ({ref}'s/this "
                f"algorithm's); '{TOO_FEW}' instead of = where the runs are too few for the "
                f"test to reach alpha 0.05 whatever their values (the rank-sum test needs 4 "
                f"runs per side, the signed-rank test 6 pairs); blank on {ref}'s own row. The "
                f"test assumes independent runs{assumes}, not normal values; its "
                f"Holm-corrected p-value over the tests of the column (summary.json's "
                f"p_holm, tables.tex) keeps the family-wise error rate at alpha")

    entries = []
    if results.pareto:
        entries += [
            ("HV train, HV test", f"hypervolume of each run's front, in ({error}, "
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
        ("seconds", "wall-clock seconds per run, mean over the runs, numba's kernel "
         "compilation excluded (CPU seconds per run are in runs.csv; the machine and its "
         "load are in the provenance)"),
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


def _slug(text):
    return "".join(c if c.isalnum() else "-" for c in str(text)).strip("-").lower() or "x"


# ---------------------------------------------------------------------------------- per run
#: columns of :func:`run_table` for studies whose runs return a Pareto front
FRONT_RUN_COLUMNS = ("dataset", "fold", "algorithm", "run", "hv_train", "igd_train", "hv_test",
                     "igd_test", "n_eval", "seconds", "cpu_seconds", "front_size")
#: columns of :func:`run_table` for studies whose runs return one subset
SUBSET_RUN_COLUMNS = ("dataset", "fold", "algorithm", "run", "n_selected", "train_score",
                      "test_score", "train_objective", "test_objective", "n_eval", "seconds",
                      "cpu_seconds", "features")
#: columns of :func:`front_table`
FRONT_COLUMNS = ("dataset", "fold", "algorithm", "run", "n_selected", "selection_ratio",
                 "train_error", "test_error", "features", "feature_names")


def _cpu(record):
    """A run's CPU seconds rounded to milliseconds (NaN where not measured)."""
    return round(float(record.get("cpu_seconds", float("nan"))), 3)


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
        Numbers as numbers (``seconds``, wall-clock with numba's compilation excluded, and
        ``cpu_seconds``, the process's CPU seconds likewise, rounded to milliseconds; NaN if
        the timing was lost or, for ``cpu_seconds``, not measured by the version that ran).
    """
    rows = []
    if results.pareto:
        indicators = {d: _pareto_indicators(results, d) for d in results.datasets}
        for dataset, label, r in _ordered_runs(results):
            ind, key = indicators[dataset][label], (r["run"], r["fold"])
            rows.append([dataset, r["fold"], label, r["run"], ind["hv_train"][key],
                         ind["igd_train"][key], ind["hv_test"][key], ind["igd_test"][key],
                         r["n_eval"], round(r["seconds"], 3), _cpu(r), len(r["features"])])
        return FRONT_RUN_COLUMNS, rows
    for dataset, label, r in _ordered_runs(results):
        rows.append([dataset, r["fold"], label, r["run"], len(r["features"][0]),
                     r["score_train"][0], r["score_test"][0], r["F_train"][0][0],
                     r["F_test"][0][0], r["n_eval"], round(r["seconds"], 3), _cpu(r),
                     " ".join(map(str, r["features"][0]))])
    return SUBSET_RUN_COLUMNS, rows


def front_table(results, feature_names=None):
    """One row per member of every run's returned front (studies whose runs return fronts).

    Parameters
    ----------
    results : StudyResults
    feature_names : dict of {str: list of str or None}, optional
        Per dataset, the names of its features (the CSV header,
        :func:`~pymoo_fs.studies.report.figures.feature_names`); None or absent: unnamed.

    Returns
    -------
    header : tuple of str
        :data:`FRONT_COLUMNS`.
    rows : list of list
        Number of features, selection ratio, training (inner-CV) error and test error of each
        member, its features as space-separated 0-based indices, and their names separated
        by ``"; "`` (empty where the data names no feature).
    """
    feature_names = feature_names or {}
    rows = []
    for dataset, label, r in _ordered_runs(results):
        names = feature_names.get(dataset)
        for features, f_train, f_test in zip(r["features"], r["F_train"], r["F_test"]):
            rows.append([dataset, r["fold"], label, r["run"], len(features), f_train[1],
                         f_train[0], f_test[0], " ".join(map(str, features)),
                         "; ".join(names[i] for i in features) if names else ""])
    return FRONT_COLUMNS, rows
