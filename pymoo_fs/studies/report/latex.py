"""The report's tables in LaTeX (``booktabs``), sized for a paper: :func:`latex_tables`.

One table per dataset (the measures, the signs with their effect sizes, raw and
Holm-corrected p-values), one table of what the runs cost, and, for a study of two or more
datasets, a summary across the datasets (mean Friedman rank, wins/ties/losses against the
reference; :func:`~pymoo_fs.analysis.statistics.friedman_ranks`). Every table is set in
``\\footnotesize`` with narrow column gaps in a ``table*`` by default, so that it fits the
text width of a one-column ``article`` (345 pt) and spans both columns of a two-column one;
``environment="table"`` and a shorter ``columns`` choice (:data:`LATEX_COLUMNS`) set one for a
single column of a two-column page. Where ``graphicx`` is loaded, a table that is still wider
than the line (a long algorithm label, many columns chosen) is scaled down to the line width
instead of running into the margin.
"""

import math

from pymoo_fs.analysis.statistics import can_decide
from pymoo_fs.studies.report.tables import (_all_features, _slug, all_features_line,
                                            summary_data)

__all__ = ["DEFAULT_LATEX_COLUMNS", "LATEX_COLUMNS", "NARROW_LATEX_COLUMNS", "latex_tables",
           "rank_table"]


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}", "±": r"$\pm$"}

#: the columns a per-dataset LaTeX table can hold, by kind of study (runs returning a front
#: or one subset); each is a key of :data:`_COLUMNS`
LATEX_COLUMNS = {
    "front": ("hv_train", "hv_test", "T_HV", "A12_HV", "p_HV", "p_holm_HV", "igd_train",
              "igd_test", "front", "evaluations", "seconds", "Q"),
    "subset": ("n_features", "T_f", "A12_f", "p_f", "p_holm_f", "best_test", "test", "T_a",
               "A12_a", "p_a", "p_holm_a", "train", "evaluations", "seconds", "Q"),
}
#: the default columns: they fit a one-column page (and a ``table*`` of a two-column one)
DEFAULT_LATEX_COLUMNS = {
    "front": ("hv_train", "hv_test", "T_HV", "A12_HV", "p_HV", "p_holm_HV", "igd_test"),
    "subset": ("n_features", "T_f", "p_f", "p_holm_f", "test", "T_a", "A12_a", "p_a",
               "p_holm_a"),
}
#: columns that fit one column of a two-column page (``environment="table"``)
NARROW_LATEX_COLUMNS = {
    "front": ("hv_test", "T_HV", "A12_HV", "p_holm_HV"),
    "subset": ("n_features", "T_f", "test", "T_a"),
}

# column key -> (header, kind, source, better): kind "pm" (mean ± std of source_mean/_std),
# "num" (a number, digits), "sign" / "a12" / "p" / "holm" (of the test of sign column source)
_COLUMNS = {
    "hv_train": (r"HV$_{\mathrm{train}}$", "pm", "hv_train", "higher"),
    "hv_test": (r"HV$_{\mathrm{test}}$", "pm", "hv_test", "higher"),
    "T_HV": (r"$T_{\mathrm{HV}}$", "sign", "hv_test_sign", None),
    "A12_HV": (r"$\hat{A}_{12}$", "a12", "hv_test_sign", None),
    "p_HV": (r"$p$", "p", "hv_test_sign", None),
    "p_holm_HV": (r"$p_{\mathrm{Holm}}$", "holm", "hv_test_sign", None),
    "igd_train": (r"IGD$_{\mathrm{train}}$", "pm", "igd_train", "lower"),
    "igd_test": (r"IGD$_{\mathrm{test}}$", "pm", "igd_test", "lower"),
    "front": (r"$|F|$", "num1", "front_size_mean", None),
    "evaluations": ("evals", "num0", "n_eval_mean", None),
    "seconds": ("s", "num2", "seconds_mean", "lower"),
    "Q": ("$Q$", "num", "q_measure", "higher"),
    "n_features": (r"$d$", "pm1", "n_features", "lower"),
    "T_f": (r"$T_d$", "sign", "n_features_sign", None),
    "A12_f": (r"$\hat{A}_{12}^{d}$", "a12", "n_features_sign", None),
    "p_f": (r"$p_d$", "p", "n_features_sign", None),
    "p_holm_f": (r"$p_{d,\mathrm{Holm}}$", "holm", "n_features_sign", None),
    "best_test": (r"best", "num", "test_score_best", "higher"),
    "test": (r"test", "pm", "test_score", "higher"),
    "T_a": (r"$T_a$", "sign", "test_score_sign", None),
    "A12_a": (r"$\hat{A}_{12}^{a}$", "a12", "test_score_sign", None),
    "p_a": (r"$p_a$", "p", "test_score_sign", None),
    "p_holm_a": (r"$p_{a,\mathrm{Holm}}$", "holm", "test_score_sign", None),
    "train": ("train", "num", "train_score_mean", "higher"),
}

_PREAMBLE = [
    "% pymoo-fs report: the study's tables. Needs \\usepackage{booktabs}; with",
    "% \\usepackage{graphicx} a table wider than the line is scaled down to fit it.",
    r"\providecommand{\pymoofsfit}[1]{\ifdefined\resizebox\setbox0=\hbox{#1}%",
    r"\ifdim\wd0>\linewidth\resizebox{\linewidth}{!}{\box0}\else\box0\fi\else#1\fi}",
    "",
]


def _tex(text):
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def _nan(value):
    return value is None or (isinstance(value, float) and math.isnan(value))


def _fmt(value, digits):
    return "" if _nan(value) else f"{value:.{digits}f}"


def _p(value):
    """A p-value in math: three decimals, ``<0.001`` below."""
    if _nan(value):
        return ""
    return "$<0.001$" if value < 0.001 else f"${value:.3f}$"


def _check_columns(columns, kind):
    allowed = LATEX_COLUMNS[kind]
    if isinstance(columns, str):
        raise ValueError(f"columns must be a sequence of column names, got the string "
                         f"{columns!r}")
    columns = tuple(columns)
    unknown = [c for c in columns if c not in allowed]
    if unknown:
        raise ValueError(f"unknown LaTeX column {unknown[0]!r} for a study whose runs return "
                         f"{'a front' if kind == 'front' else 'one subset'}; choose among "
                         f"{', '.join(allowed)}")
    if not columns:
        raise ValueError("columns must name at least one column")
    return columns


def _best(table, key, digits):
    """The best mean (as it is printed) among the algorithms of one column, or None."""
    _, kind, source, better = _COLUMNS[key]
    if better is None:
        return None
    name = source + "_mean" if kind.startswith("pm") else source
    values = [r[name] for r in (dict(zip(table.columns, row)) for row in table.rows)
              if r["runs"] and not _nan(r[name])]
    if len(values) < 2:
        return None
    best = max(values) if better == "higher" else min(values)
    return _fmt(best, digits)


def _cell(table, row, key, digits, best):
    _, kind, source, _ = _COLUMNS[key]
    label = row["algorithm"]
    if kind.startswith("pm"):
        d = 1 if kind == "pm1" else digits
        mean, std = row[source + "_mean"], row[source + "_std"]
        if _nan(mean):
            return ""
        m = _fmt(mean, d)
        m = rf"\mathbf{{{m}}}" if best is not None and m == best else m
        return f"${m}$" if _nan(std) else f"${m} \\pm {_fmt(std, d)}$"
    if kind.startswith("num"):
        d = int(kind[3:]) if kind[3:] else digits
        text = _fmt(row[source], d)
        if text and best is not None and text == best:
            return rf"$\mathbf{{{text}}}$"
        return f"${text}$" if text else ""
    test = table.tests.get((label, source))
    if test is None:
        return ""
    if kind == "sign":
        if test.sign == "=" and not table_decidable(table, test):
            return "n/a"
        return {"+": "$+$", "-": "$-$", "=": "$=$"}[test.sign]
    if kind == "a12":
        return f"${test.a12:.2f}$"
    if kind == "p":
        return _p(test.pvalue)
    return _p(table.p_holm.get((label, source)))


def table_decidable(table, test):
    """Whether the test behind a sign could reach alpha with its sample sizes."""
    return can_decide(test.n_reference, test.n_other, paired=table.paired)


def _symbols(columns, kind, ref, test, runs_line):
    """Caption sentences defining every symbol of the chosen columns."""
    out = []
    has = set(columns)
    if has & {"T_HV", "T_f", "T_a"}:
        what = {"T_HV": "the test hypervolume", "T_f": "the number of features $d$",
                "T_a": "the test accuracy"}
        tested = ", ".join(f"{_COLUMNS[c][0]} on {what[c]}" for c in ("T_HV", "T_f", "T_a")
                           if c in has)
        out.append(f"{tested}: Wilcoxon {test} test of {_tex(ref)} (marked $^\\dagger$) "
                   f"against the row's algorithm at $\\alpha = 0.05$, from {_tex(ref)}'s side: "
                   f"$+$ {_tex(ref)} significantly better, $-$ significantly worse, "
                   f"$=$ no significant difference, n/a too few runs for the test to reach "
                   f"$\\alpha$ whatever the values (the rank-sum test needs 4 runs per side, "
                   f"the signed-rank test 6 pairs)")
    if has & {"A12_HV", "A12_f", "A12_a"}:
        out.append(r"$\hat{A}_{12}$" + (r" ($\hat{A}_{12}^{d}$, $\hat{A}_{12}^{a}$)"
                                         if kind == "subset" else "")
                   + r": Vargha and Delaney's effect size, the probability that "
                   f"a run of {_tex(ref)} is better than a run of the row's algorithm (ties "
                   r"half; 0.5 no effect, $\geq 0.71$ or $\leq 0.29$ large)")
    if has & {"p_HV", "p_f", "p_a", "p_holm_HV", "p_holm_f", "p_holm_a"}:
        sub = (r" ($p_d$, $p_a$: of $T_d$, $T_a$)" if kind == "subset" else "")
        out.append(f"$p${sub}: the test's two-sided p-value; "
                   r"$p_{\mathrm{Holm}}$: the same, "
                   f"Holm-corrected over the tests against {_tex(ref)} in that column "
                   r"(family-wise error rate $\alpha$)")
    out.append(runs_line)
    if kind == "front":
        if has & {"hv_train", "hv_test"}:
            out.append(r"HV: hypervolume of a run's front in (classification error, fraction "
                       r"of features) with reference point $(1, 1)$, higher is better")
        if has & {"igd_train", "igd_test"}:
            out.append("IGD: inverted generational distance to the non-dominated union of "
                       "all runs' fronts, lower is better")
        if "front" in has:
            out.append(r"$|F|$: mean number of subsets on a run's front")
    else:
        if "n_features" in has:
            out.append("$d$: number of features selected, lower is better")
        if has & {"best_test", "test", "train"}:
            out.append("best, test: the best run's and the mean test accuracy; train: mean "
                       "training (inner cross-validation) accuracy; higher is better")
    if "evaluations" in has:
        out.append("evals: subset evaluations per run (local searches included)")
    if "seconds" in has:
        out.append("s: seconds per run")
    if "Q" in has:
        out.append("$Q$: Q-measure of selection consistency over the runs (higher: more "
                   "consistent)")
    out.append("Means $\\pm$ standard deviations over the runs; the best mean of each column "
               "in bold")
    return ". ".join(s[:1].upper() + s[1:] for s in out) + "."


def _environment(environment):
    if environment not in ("table", "table*"):
        raise ValueError(f"environment must be 'table' or 'table*', got {environment!r}")
    return environment


def _float(environment, caption, label, spec, header, body, placement="tbp"):
    """A float around a booktabs tabular, footnotesize, narrow gaps, fitted to the line."""
    out = [f"\\begin{{{environment}}}[{placement}]", r"\centering", r"\footnotesize",
           r"\setlength{\tabcolsep}{3pt}", f"\\caption{{{caption}}}", f"\\label{{{label}}}",
           f"\\pymoofsfit{{\\begin{{tabular}}{{{spec}}}", r"\toprule", header + r" \\",
           r"\midrule"]
    out += body
    out += [r"\bottomrule", r"\end{tabular}}", f"\\end{{{environment}}}", ""]
    return out


def latex_tables(results, columns=None, environment="table*", digits=3, summary=True):
    """The report's tables in LaTeX: one per dataset, one of costs, one across datasets.

    Parameters
    ----------
    results : StudyResults
    columns : sequence of str, optional
        The measure columns of the per-dataset tables, in order, from
        :data:`LATEX_COLUMNS` of the study's kind (``"front"`` or ``"subset"``); default
        :data:`DEFAULT_LATEX_COLUMNS`, which fits the text width of a one-column page.
        :data:`NARROW_LATEX_COLUMNS` fits one column of a two-column page.
    environment : {"table*", "table"}, default="table*"
        The float: ``table*`` spans both columns of a two-column document (and is a plain
        table in a one-column one); ``table`` stays in one column.
    digits : int, default=3
        Decimals of the measures.
    summary : bool, default=True
        Add the cost table (front size, evaluations, seconds, Q of every dataset) and, for
        two or more datasets, the summary across datasets (:func:`rank_table`).

    Returns
    -------
    tex : str
        For each dataset a float with a caption (dataset, number of features, runs, the
        all-features scores; the first table's caption defines every symbol of the columns, the others refer to it), a label
        ``tab:<dataset>``, and a ``tabular`` with ``\\toprule``, ``\\midrule`` and
        ``\\bottomrule``: algorithm, then the chosen columns; the best mean of each measure
        column in bold; signs ``$+$``, ``$-$``, ``$=$``; p-values raw and
        Holm-corrected over the column's tests. Needs ``\\usepackage{booktabs}``; with
        ``graphicx`` loaded, a table wider than ``\\linewidth`` is scaled to it. Every other
        character is escaped.

    Raises
    ------
    ValueError
        For an unknown column, an empty ``columns``, an ``environment`` other than
        ``"table"`` and ``"table*"``, or ``digits`` outside 0 to 6.
    """
    kind = "front" if results.pareto else "subset"
    columns = _check_columns(DEFAULT_LATEX_COLUMNS[kind] if columns is None else columns, kind)
    environment = _environment(environment)
    if isinstance(digits, bool) or not isinstance(digits, int) or not 0 <= digits <= 6:
        raise ValueError(f"digits must be an int from 0 to 6, got {digits!r}")
    data = summary_data(results)
    ref = results.spec["reference"]
    p = results.spec["protocol"]
    test = "signed-rank" if p["statistic"] == "signedrank" else "rank-sum"
    out = list(_PREAMBLE)
    first = None
    for dataset, table in data.items():
        a = _all_features(results, dataset)
        rows = [dict(zip(table.columns, row)) for row in table.rows]
        runs = sorted({r["runs"] for r in rows if r["runs"]})
        sizes = {(t.n_reference, t.n_other) for t in table.tests.values()}
        runs_line = (f"{runs[0]} runs per algorithm" if len(runs) == 1
                     else f"{', '.join(map(str, runs))} runs per algorithm")
        if sizes and len(sizes) == 1:
            n_ref, n_other = next(iter(sizes))
            runs_line += f"; every test compares {n_ref} values of {_tex(ref)} with {n_other}"
        elif sizes:
            runs_line += "; the tests compare " + ", ".join(
                f"{a_}/{b_}" for a_, b_ in sorted(sizes)) + f" values ({_tex(ref)}/other)"
        what = ("hypervolume and IGD of the runs' training and test fronts" if kind == "front"
                else "subset size and accuracy of the runs' selected subsets")
        caption = (f"{_tex(dataset)} ({a['n_features']} features): {what}; "
                   f"{_tex(all_features_line(results, dataset))}. ")
        if first is None:
            caption += _symbols(columns, kind, ref, test, runs_line)
            first = f"tab:{_slug(dataset)}"
        else:
            caption += (f"{runs_line[:1].upper()}{runs_line[1:]}. Symbols as in "
                        f"Table~\\ref{{{first}}}.")
        best = {c: _best(table, c, 1 if _COLUMNS[c][1] == "pm1" else
                         (int(_COLUMNS[c][1][3:]) if _COLUMNS[c][1][3:].isdigit()
                          else digits)) for c in columns}
        body = []
        if kind == "subset":
            extra = {"n_features": f"${a['n_features']}$",
                     "best_test": f"${_fmt(a['test_score_best'], digits)}$",
                     "test": (f"${_fmt(a['test_score_mean'], digits)}$"
                              if _nan(a["test_score_std"]) else
                              f"${_fmt(a['test_score_mean'], digits)} \\pm "
                              f"{_fmt(a['test_score_std'], digits)}$"),
                     "train": f"${_fmt(a['train_score'], digits)}$"}
            body.append(" & ".join(["all features"] + [extra.get(c, "") for c in columns])
                        + r" \\")
            body.append(r"\midrule")
        for r in rows:
            label = _tex(r["algorithm"]) + (r"$^\dagger$" if r["reference"] else "")
            if not r["runs"]:
                body.append(" & ".join([label, r"\multicolumn{" + str(len(columns))
                                        + "}{l}{no run yet}"]) + r" \\")
                continue
            body.append(" & ".join([label] + [_cell(table, r, c, digits, best[c])
                                              for c in columns]) + r" \\")
        header = " & ".join(["algorithm"] + [_COLUMNS[c][0] for c in columns])
        spec = "l" + "".join("c" if _COLUMNS[c][1] == "sign" else "r" for c in columns)
        out += _float(environment, caption, f"tab:{_slug(dataset)}", spec, header, body)
    if summary:
        out += _cost_table(results, data, environment)
        if len(data) >= 2:
            out += rank_table(results, environment=environment)
    return "\n".join(out)


def _cost_table(results, data, environment):
    """What the runs cost: front size (fronts), evaluations, seconds, Q, every dataset."""
    kind = "front" if results.pareto else "subset"
    head = ["dataset", "algorithm"] + ([r"$|F|$"] if kind == "front" else []) + \
        ["evals", "s", "$Q$"]
    body = []
    for i, (dataset, table) in enumerate(data.items()):
        if i:
            body.append(r"\midrule")
        for j, row in enumerate(table.rows):
            r = dict(zip(table.columns, row))
            cells = [_tex(dataset) if j == 0 else "", _tex(r["algorithm"])
                     + (r"$^\dagger$" if r["reference"] else "")]
            if kind == "front":
                cells.append(_wrap(_fmt(r["front_size_mean"], 1)))
            cells += [_wrap(_fmt(r["n_eval_mean"], 0)), _wrap(_fmt(r["seconds_mean"], 2)),
                      _wrap(_fmt(r["q_measure"], 3))]
            body.append(" & ".join(cells) + r" \\")
    caption = ("What the runs cost, per dataset and algorithm (means over the runs; "
               f"$^\\dagger$: the reference, {_tex(results.spec['reference'])}). "
               + (r"$|F|$: subsets on a run's front. " if kind == "front" else "")
               + "evals: subset evaluations per run, local searches included; s: seconds per "
                 "run (the machine is in the report's provenance); $Q$: Q-measure of "
                 "selection consistency (Butler-Yeoman, Xue and Zhang, AusDM 2015), higher "
                 "is more consistent, blank with fewer than 2 runs.")
    spec = "ll" + "r" * (len(head) - 2)
    return _float(environment, caption, "tab:cost", spec, " & ".join(head), body)


def _wrap(text):
    return f"${text}$" if text else ""


def rank_table(results, environment="table*"):
    """The summary across datasets as a LaTeX float: mean rank, wins/ties/losses.

    Parameters
    ----------
    results : StudyResults
        A study of two or more datasets.
    environment : {"table*", "table"}, default="table*"

    Returns
    -------
    lines : list of str
        A float labelled ``tab:ranks``: per algorithm its rank on each dataset (by mean test
        hypervolume, or mean test accuracy for single-subset runs; 1 the best), its mean rank
        (the best in bold), and its wins/ties/losses against the reference (the reference's
        signs read from the other side); the caption states Friedman's test, Nemenyi's
        critical difference and what both assume. Empty with fewer than 2 datasets.

    Raises
    ------
    ValueError
        For an unknown ``environment``.
    """
    from pymoo_fs.studies.report.ranking import study_ranking

    environment = _environment(environment)
    ranking = study_ranking(results)
    if ranking is None:
        return []
    f = ranking.friedman
    ref = results.spec["reference"]
    best = min(f.mean_ranks.values())
    body = []
    for i, label in enumerate(f.labels):
        mean = f.mean_ranks[label]
        m = f"{mean:.2f}"
        cells = [_tex(label) + (r"$^\dagger$" if label == ref else "")]
        cells += [f"${f.ranks[b, i]:g}$" for b in range(len(f.blocks))]
        cells.append(rf"$\mathbf{{{m}}}$" if mean == best else f"${m}$")
        w, t, lo = ranking.wtl.get(label, (0, 0, 0))
        cells.append("" if label == ref else f"${w}/{t}/{lo}$")
        body.append(" & ".join(cells) + r" \\")
    head = ["algorithm"] + [_tex(b) for b in f.blocks] + ["mean rank", "W/T/L"]
    spec = "l" + "r" * (len(f.blocks) + 1) + "c"
    if math.isnan(f.pvalue):
        friedman = "Friedman's test needs 3 or more algorithms: not computed"
    else:
        friedman = (f"Friedman's test of equal mean ranks: $\\chi^2_F = {f.statistic:.2f}$, "
                    f"$p = {f.pvalue:.3g}$ ({len(f.labels)} algorithms, {len(f.blocks)} "
                    f"datasets); Nemenyi's critical difference at $\\alpha = {f.alpha:g}$: "
                    f"$\\mathrm{{CD}} = {f.critical_difference:.2f}$ (two mean ranks further "
                    f"apart differ significantly)")
    caption = (f"Ranks across datasets by {ranking.measure} (1 the best, ties share the mean "
               f"rank; the best mean rank in bold). W/T/L: datasets where the row's "
               f"algorithm is significantly better than / not significantly different from / "
               f"significantly worse than {_tex(ref)} ($^\\dagger$), by the per-dataset "
               f"Wilcoxon tests. {friedman}. The ranking assumes independent datasets and "
               f"values comparable within a dataset; the chi-square approximation is rough "
               f"with few datasets.")
    return _float(environment, caption, "tab:ranks", spec, " & ".join(head), body)
