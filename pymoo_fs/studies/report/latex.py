"""The report's tables in LaTeX (``booktabs``): :func:`latex_tables`."""

from pymoo_fs.studies.report.tables import (_all_features, _slug, all_features_line,
                                            summary_data, summary_tables)

__all__ = ["latex_tables"]


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#",
                  "_": r"\_", "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}",
                  "^": r"\textasciicircum{}"}


def _tex(text):
    return "".join(_LATEX_SPECIAL.get(c, c) for c in str(text))


def _tex_cell(cell):
    """A text-table cell in LaTeX: ``a ± b`` in math mode, signs as math symbols (before
    their ``A12=... (n/n)``)."""
    if cell in ("+", "-", "="):
        return {"+": "$+$", "-": "$-$", "=": "$=$"}[cell]
    if cell[:1] in ("+", "-", "=") and cell[1:6] == " A12=":
        return f"{_tex_cell(cell[0])} {_tex(cell[2:])}"
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
