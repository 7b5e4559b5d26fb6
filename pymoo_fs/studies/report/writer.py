"""The report directory, every file written together: :func:`write_report`."""

import base64
import hashlib
import html
import math
from pathlib import Path
from pymoo_fs.studies.report.checks import (CHECK_COLUMNS, checks_intro, checks_markdown,
                                            report_checks)
from pymoo_fs.studies.report.figures import (_figures, _ranking_figures, _render,
                                             feature_names)
from pymoo_fs.studies.report.latex import latex_tables
from pymoo_fs.studies.report.ranking import RANK_COLUMNS, study_ranking
from pymoo_fs.studies.report.results import load_results
from pymoo_fs.studies.report.tables import (ALL_FEATURES_COLUMNS, FRONT_SUMMARY_COLUMNS,
                                            SUBSET_SUMMARY_COLUMNS, _legend_by_column,
                                            _sentence, _slug, all_features_line,
                                            front_table, legend, run_table, summary_data,
                                            summary_tables)

__all__ = ["MANIFEST", "write_report"]


from pymoo_fs import __version__
from pymoo_fs._files import commit_files, csv_text, json_text, read_json


MANIFEST = "manifest.json"
#: the heading of the checks section in report.md
CHECKS_TITLE = "## Statements of Nguyen et al. (2016): held / not held"


def write_report(directory, out=None, tsne=True, data_dir=None, check=None, keys=None,
                 style=None, latex_columns=None, latex_environment="table*", progress=None,
                 command=None):
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
    style : FigureStyle or str, optional
        The figures' size, fonts and palette (:class:`~pymoo_fs.analysis.FigureStyle`, or a
        preset name of :func:`~pymoo_fs.analysis.figure_style`: ``"two-column"``, the
        default, 7.16 in wide; ``"one-column"``, 3.5 in).
    latex_columns : sequence of str, optional
        The columns of the per-dataset tables of ``tables.tex``
        (:data:`~pymoo_fs.studies.report.latex.LATEX_COLUMNS`; default
        :data:`~pymoo_fs.studies.report.latex.DEFAULT_LATEX_COLUMNS`).
    latex_environment : {"table*", "table"}, default="table*"
        The float of ``tables.tex``'s tables.
    progress : callable, optional
        Called with one line of text at each step (reading the store, the tables, each
        dataset's figures, rendering, writing), e.g. ``print``; default silent.
    command : str, optional
        The command line that writes the report (``pymoo-fs report`` passes its own), for the
        provenance.

    Returns
    -------
    paths : dict
        ``"html"``, ``"markdown"``, ``"latex"``, ``"summary"`` (``summary.csv``),
        ``"summary_json"``, ``"all_features"``, ``"runs"``, ``"fronts"`` (front studies only),
        ``"manifest"``: Path each; ``"figures"``: list of Path (PNG, PDF and SVG of every
        figure); ``"removed"``: list of Path, files of an earlier report in ``out`` that this
        one does not write again (listed in its ``manifest.json``) and removed;
        ``"missing"``: int, the runs the spec asks for that are not stored; ``"checks"``:
        list of :class:`~pymoo_fs.studies.report.checks.CheckResult`, Nguyen et al. (2016)'s
        statements held / not held / not run, for a study under their protocol (``S003``),
        else None.

    Raises
    ------
    ValueError
        If ``directory`` is not a study directory, or ``style``, ``latex_columns`` or
        ``latex_environment`` is invalid (before anything is computed).
    OSError
        If the report cannot be written.

    Notes
    -----
    A study under the protocol ``S003`` (Nguyen, Xue, Liu, Andreae & Zhang, Soft Computing 20,
    2016) also gets the table of that paper's statements checked on its fronts
    (:func:`~pymoo_fs.studies.report.checks.report_checks`): a section of ``report.md`` and
    ``report.html`` and the key ``"checks"`` of ``summary.json`` (``columns``, ``rows``, the
    ``source``; ``held`` true, false or null for not run).

    ``summary.json`` also holds ``"p_holm"`` (per dataset, ``"<algorithm>|<sign column>"`` ->
    the Holm-corrected p-value) and, for two or more datasets, ``"ranking"`` (mean ranks,
    Friedman's statistic and p-value, Nemenyi's p-values and critical difference,
    wins/ties/losses; also ``ranks.csv`` and the critical-difference diagram).

    Only files named in the previous ``manifest.json`` are ever removed, so a report written
    into a directory that holds other files leaves them alone.
    """
    from pymoo_fs.analysis.style import figure_style

    check = check if check is not None else (lambda: None)
    say = progress if progress is not None else (lambda line: None)
    style = figure_style(style)
    say(f"reading the study in {directory}")
    results = load_results(directory, keys)
    say(f"{len(results.records)} runs read; computing the tables (hypervolume, IGD, tests)")
    latex = latex_tables(results, columns=latex_columns, environment=latex_environment)
    out = Path(out) if out is not None else Path(directory) / "report"
    data = summary_data(results)
    tables = summary_tables(results)
    checks = report_checks(results)
    ranking = study_ranking(results)
    names = {d: feature_names(results, d, data_dir) for d in results.datasets}
    figures = {}
    for i, dataset in enumerate(results.datasets, start=1):
        check()
        say(f"figures of {dataset} ({i}/{len(results.datasets)})"
            + (" with t-SNE views (the slowest)" if tsne else ""))
        figures[dataset] = _figures(results, dataset, tsne, data_dir, check, style,
                                    names[dataset])
    if ranking is not None:
        say("ranks across datasets: Friedman, Nemenyi, critical-difference diagram")
        figures[ACROSS] = _ranking_figures(results, ranking, style)
    files, pngs = {}, {}
    n_figures = sum(len(f) for f in figures.values())
    say(f"rendering {n_figures} figures as PNG, PDF and SVG (a line per figure)")
    done = 0
    for dataset, figs in figures.items():
        for fig in figs:
            stem = f"{_slug(dataset)}_{fig.slug}"
            done += 1
            say(f"rendering {done}/{n_figures}: {stem}")
            for fmt in ("png", "pdf", "svg"):
                files[f"{stem}.{fmt}"] = _render(fig.figure, fmt, style)
            pngs[dataset, fig.slug] = (stem, fig, files[f"{stem}.png"])
        check()
    files["report.md"] = _markdown(results, tables, pngs, checks, ranking, command)
    files["report.html"] = _html(results, tables, pngs, checks, ranking, command)
    files["tables.tex"] = latex
    summary = {"legend": _legend_by_column(results),
               "datasets": {d: t.as_dict() for d, t in data.items()}}
    summary["p_holm"] = {d: {f"{a}|{c}": v for (a, c), v in sorted(t.p_holm.items())}
                         for d, t in data.items()}
    if ranking is not None:
        summary["ranking"] = _ranking_json(ranking)
        files["ranks.csv"] = csv_text(RANK_COLUMNS, ranking.rows())
    if checks is not None:
        summary["checks"] = {"source": checks_intro(), "columns": list(CHECK_COLUMNS),
                             "rows": [c.as_row() for c in checks]}
    files["summary.json"] = json_text(summary)
    columns = (FRONT_SUMMARY_COLUMNS if results.pareto else SUBSET_SUMMARY_COLUMNS)
    files["summary.csv"] = csv_text(columns, [_csv_row(row) for t in data.values()
                                              for row in t.rows])
    files["all_features.csv"] = csv_text(ALL_FEATURES_COLUMNS, [
        _csv_row([t.all_features[c] for c in ALL_FEATURES_COLUMNS]) for t in data.values()])
    files["runs.csv"] = csv_text(*run_table(results))
    if results.pareto:
        files["fronts.csv"] = csv_text(*front_table(results, names))
    say(f"writing {len(files) + 1} files into {out}")
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
             "removed": sorted(removed), "missing": len(results.missing), "checks": checks}
    if results.pareto:
        paths["fronts"] = written["fronts.csv"]
    if ranking is not None:
        paths["ranks"] = written["ranks.csv"]
    return paths


#: the key of the figures across datasets in the report (critical-difference diagram)
ACROSS = "across datasets"


def _ranking_json(ranking):
    f = ranking.friedman

    def nan(v):
        return None if v != v else float(v)

    return {"measure": ranking.measure, "column": ranking.column, "datasets": list(f.blocks),
            "algorithms": list(f.labels), "ranks": f.ranks.tolist(),
            "mean_ranks": f.mean_ranks, "friedman_statistic": nan(f.statistic),
            "friedman_p": nan(f.pvalue), "nemenyi_p": [[nan(v) for v in row]
                                                      for row in f.posthoc],
            "critical_difference": f.critical_difference, "alpha": f.alpha,
            "wins_ties_losses": {k: list(v) for k, v in ranking.wtl.items()}}


def _ranking_lines(results, ranking):
    """The summary across datasets as (header, rows) of text, and a paragraph."""
    f = ranking.friedman
    ref = results.spec["reference"]
    header = ["algorithm", *f.blocks, "mean rank", f"W/T/L vs {ref}"]
    rows = []
    for i, label in enumerate(f.labels):
        w = ranking.wtl.get(label)
        rows.append([label + (" (reference)" if label == ref else ""),
                     *(f"{f.ranks[b, i]:g}" for b in range(len(f.blocks))),
                     f"{f.mean_ranks[label]:.2f}", "" if w is None else "/".join(map(str, w))])
    if f.pvalue != f.pvalue:
        test = "Friedman's test needs 3 or more algorithms: not computed."
    else:
        test = (f"Friedman's test of equal mean ranks: chi-square {f.statistic:.2f}, p = "
                f"{f.pvalue:.3g} ({'the ranks differ' if f.decided else 'no significant difference'}"
                f" at alpha {f.alpha:g}); Nemenyi's critical difference CD = "
                f"{f.critical_difference:.2f}: two mean ranks further apart differ "
                f"significantly.")
    text = (f"Each algorithm's rank on each dataset by {ranking.measure} (1 the best, ties "
            f"share the mean rank), its mean rank, and W/T/L: the datasets where it is "
            f"significantly better than / not different from / worse than {ref} by the "
            f"per-dataset Wilcoxon tests. {test} Both tests rank within each dataset, so they "
            f"assume independent datasets and values comparable within a dataset, not normal "
            f"ones; the chi-square approximation is rough with few datasets (Demsar, JMLR 7, "
            f"2006).")
    return header, rows, text


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


def _provenance_lines(results, command=None):
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
    for i, session in enumerate(sessions, start=1):  # what newer stores also keep
        extra = [f"{key} {session[key]}" for key in ("jobs", "workers", "scheduler",
                                                     "git_commit", "command")
                 if session.get(key) not in (None, "")]
        if extra:
            lines[i - 1] += "; " + "; ".join(extra)
    lines.append(f"report: pymoo-fs {__version__}{_versions()}; study.json sha256 "
                 f"{results_spec_sha256(results)[:16]}" + _checkout()
                 + (f"; command: {command}" if command else ""))
    return lines


def _versions():
    """matplotlib's and the statistics packages' versions, for the report's provenance."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for name in ("matplotlib", "scipy", "scikit-posthocs", "statsmodels"):
        try:
            out.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            continue
    return "".join(f", {v}" for v in out)


def _checkout():
    """``; git commit <sha>`` of the pymoo-fs checkout the report runs from, if it is one."""
    from pymoo_fs.studies.runner import git_commit

    sha = git_commit()
    return "" if sha is None else f"; pymoo-fs git commit {sha}"


def results_spec_sha256(results):
    """SHA-256 of the stored spec as JSON text (:func:`pymoo_fs._files.json_text`)."""
    return hashlib.sha256(json_text(results.spec).encode("utf-8")).hexdigest()


def _markdown(results, tables, pngs, checks=None, ranking=None, command=None):
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
    if ranking is not None:
        header, rows, text = _ranking_lines(results, ranking)
        out += [f"## {ACROSS[:1].upper()}{ACROSS[1:]}", "", text, ""]
        out += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        out += ["| " + " | ".join(row) + " |" for row in rows] + [""]
        for (d, _), (stem, fig, _) in pngs.items():
            if d == ACROSS:
                out += [f"### {fig.title}", "", f"![{fig.title}]({stem}.png)", "",
                        f"{fig.caption} ([PDF]({stem}.pdf), [SVG]({stem}.svg))", ""]
    if checks is not None:
        out += [CHECKS_TITLE, ""] + checks_markdown(checks) + [""]
    if results.missing:
        out += ["## Missing runs", ""] + [f"- {key}" for key in results.missing] + [""]
    out += ["## Provenance", ""]
    out += [f"- {line}" for line in _provenance_lines(results, command)] + [""]
    return "\n".join(out)


def _html(results, tables, pngs, checks=None, ranking=None, command=None):
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
    if ranking is not None:
        header, rows, text = _ranking_lines(results, ranking)
        parts.append(f"<h2>{esc(ACROSS[:1].upper() + ACROSS[1:])}</h2><p>{esc(text)}</p>"
                     "<table><tr>")
        parts += [f"<th>{esc(h)}</th>" for h in header] + ["</tr>"]
        for row in rows:
            parts.append("<tr>" + "".join(f"<td>{esc(c)}</td>" for c in row) + "</tr>")
        parts.append("</table>")
        for (d, _), (stem, fig, data) in pngs.items():
            if d == ACROSS:
                b64 = base64.b64encode(data).decode("ascii")
                parts.append(f"<figure><h3>{esc(fig.title)}</h3><img alt='{esc(fig.title)}' "
                             f"src='data:image/png;base64,{b64}'><figcaption>"
                             f"{esc(fig.caption)} (<a href='{esc(stem)}.pdf'>PDF</a>, "
                             f"<a href='{esc(stem)}.svg'>SVG</a>)</figcaption></figure>")
    if checks is not None:
        parts.append(f"<h2>{esc(CHECKS_TITLE[3:])}</h2><p>{esc(checks_intro())}</p><table><tr>")
        parts += [f"<th>{esc(h)}</th>" for h in CHECK_COLUMNS] + ["</tr>"]
        for c in checks:
            verdict = f"<b>{c.verdict}</b>" if c.held is False else c.verdict
            parts.append(f"<tr><td>{esc(c.dataset)}</td><td style='text-align:left'>"
                         f"{esc(c.statement)}</td><td>{c.runs}</td><td>{verdict}</td>"
                         f"<td style='text-align:left'>{esc(c.measured)}</td></tr>")
        parts.append("</table>")
    if results.missing:
        parts.append("<h2>Missing runs</h2><ul>")
        parts += [f"<li>{esc(str(key))}</li>" for key in results.missing] + ["</ul>"]
    parts.append("<h2>Provenance</h2><ul>")
    parts += [f"<li>{esc(line)}</li>" for line in _provenance_lines(results, command)]
    parts.append("</ul>")
    parts.append("</body></html>")
    return "\n".join(parts)
