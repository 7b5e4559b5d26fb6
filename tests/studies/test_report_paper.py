"""From study to paper (issue 43): LaTeX tables that fit one- and two-column pages, figures at
journal widths with Type 42 fonts and a colour-blind-safe palette, ranks across datasets with
Friedman, Nemenyi and a critical-difference diagram, feature names from the data, the
statistics' corrections and what too few runs can decide."""

import csv
import math
import re
import shutil
import subprocess

import matplotlib
import matplotlib.text
import numpy as np
import pytest
from scipy import stats

from pymoo_fs.analysis import (figure_style, friedman_ranks, holm, plot_convergence,
                               plot_critical_difference, plot_fronts, plot_run_distributions,
                               plot_selection_heatmap)
from pymoo_fs.analysis.statistics import can_decide, min_runs_for_test, rank_sum
from pymoo_fs.cli import main
from pymoo_fs.studies import load_study, run_study
from pymoo_fs.studies.report import load_results, summary_data, summary_tables, write_report
from pymoo_fs.studies.report.latex import LATEX_COLUMNS, NARROW_LATEX_COLUMNS, latex_tables
from pymoo_fs.studies.report.ranking import study_ranking

NAMES = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]

SPEC = """\
name = "paper"
seed = 3
runs = {runs}
datasets = ["sonar", "{named}"]
protocol = "S003"
reference = "CMDPSOFS"

[budget]
n_gen = 3

[[algorithms]]
name = "CMDPSOFS"
pop_size = 6

[[algorithms]]
name = "NSGA-II"
pop_size = 6

[[algorithms]]
name = "MOPSO"
label = "MOPSO_6"
pop_size = 6
"""


def _named_csv(path):
    rng = np.random.default_rng(0)
    X = rng.random((60, len(NAMES)))
    y = (X[:, 0] + X[:, 3] > 1).astype(int)
    lines = [",".join(NAMES + ["class"])]
    lines += [",".join(f"{v:.4f}" for v in row) + f",{c}" for row, c in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    root = tmp_path_factory.mktemp("paper")
    named = _named_csv(root / "named.csv")
    (root / "spec.toml").write_text(SPEC.format(runs=3, named=named))
    run_study(load_study(root / "spec.toml"), root / "study", progress=False)
    return root / "study"


@pytest.fixture(scope="module")
def report(study):
    return write_report(study, tsne=False)


# ---------------------------------------------------------------------- statistics
def test_holm_friedman_and_the_critical_difference_by_hand():
    np.testing.assert_allclose(holm([0.01, 0.04, 0.03, float("nan")]),
                               [0.03, 0.06, 0.06, float("nan")])
    scores = {"A": [0.9, 0.8, 0.7, 0.6], "B": [0.8, 0.7, 0.6, 0.5], "C": [0.7, 0.9, 0.5, 0.4]}
    r = friedman_ranks(scores, blocks=["d1", "d2", "d3", "d4"])
    # ranks per dataset (1 best): A 1,2,1,1; B 2,3,2,2; C 3,1,3,3
    assert r.mean_ranks == {"A": 1.25, "B": 2.25, "C": 2.5}
    assert r.statistic == pytest.approx(stats.friedmanchisquare(*scores.values()).statistic)
    # Demsar (2006): CD = q_0.05 sqrt(k (k + 1) / (6 N)), q_0.05 = 2.343 for k = 3
    assert r.critical_difference == pytest.approx(2.343 * math.sqrt(3 * 4 / 24), abs=2e-3)
    assert r.posthoc.shape == (3, 3) and np.all(np.diag(r.posthoc) == 1)
    lower = friedman_ranks({k: [-v for v in vs] for k, vs in scores.items()}, better="lower")
    assert lower.mean_ranks == r.mean_ranks
    two = friedman_ranks({"A": [1, 2], "B": [0, 1]})
    assert math.isnan(two.pvalue) and two.mean_ranks == {"A": 1.0, "B": 2.0}
    with pytest.raises(ValueError, match="at least 2 algorithms"):
        friedman_ranks({"A": [1.0]})
    with pytest.raises(ValueError, match="one finite value"):
        friedman_ranks({"A": [1.0, float("nan")], "B": [1.0, 2.0]})


def test_too_few_runs_are_known_before_the_test():
    assert (min_runs_for_test(), min_runs_for_test("signedrank")) == (4, 6)
    assert not can_decide(3, 3) and can_decide(4, 4) and not can_decide(5, 5, paired=True)
    # 3 against 3, as far apart as can be: p = 0.1, never below 0.05
    test = rank_sum([1, 2, 3], [4, 5, 6])
    assert test.sign == "=" and not test.decidable
    assert rank_sum([1, 2, 3, 4], [5, 6, 7, 8]).sign == "-"


# ---------------------------------------------------------------------- the tables
def test_the_tables_carry_holm_p_values_and_say_too_few_runs(study):
    results = load_results(study)
    for dataset, table in summary_data(results).items():
        keys = [k for k in table.tests if k[1] == "hv_test_sign"]
        assert len(keys) == 2  # the reference against the two others
        np.testing.assert_allclose([table.p_holm[k] for k in keys],
                                   holm([table.tests[k].pvalue for k in keys]))
    header, rows = summary_tables(results)["sonar"]
    cells = [row[header.index("T_HV")] for row in rows if not row[0].startswith("CMDPSOFS")]
    # 3 runs against 3 cannot reach alpha 0.05: said in words, never a bare "="
    assert all(c.startswith(("too few runs for a test, A12=", "+", "-")) for c in cells)
    assert not any(c.startswith("=") for c in cells)


def test_summary_json_holds_the_holm_p_values_and_the_legend_says_what_tests_assume(study,
                                                                                  report):
    import json

    summary = json.loads(report["summary_json"].read_text())
    table = summary_data(load_results(study))["sonar"]
    assert summary["p_holm"]["sonar"] == {f"{a}|{c}": v for (a, c), v in table.p_holm.items()}
    assert "assumes independent runs" in summary["legend"]["hv_test_sign"]
    assert summary["ranking"]["mean_ranks"] == study_ranking(
        load_results(study)).friedman.mean_ranks


def _strip_tex(cell):
    cell = re.sub(r"\\(mathrm|mathbf|textbf)\{([^}]*)\}", r"\2", cell)
    cell = re.sub(r"\\[a-zA-Z]+", "x", cell)
    return re.sub(r"[${}^_]", "", cell)


def _widest_row_pt(tex):
    """A rule for the width of each tabular: a footnotesize character is at most 4.25 pt wide
    (a digit), a space 2.7 pt, a column gap 6 pt; the widest row of the widest table."""
    widest = 0.0
    for body in re.findall(r"\\begin\{tabular\}\{[^}]*\}(.*?)\\end\{tabular\}", tex, re.S):
        rows = [r for r in body.split(r"\\") if "&" in r]
        cols = max(len(r.split("&")) for r in rows)
        width = [0.0] * cols
        for r in rows:
            for i, cell in enumerate(r.split("&")):
                text = _strip_tex(cell.replace(r"\toprule", "").replace(r"\midrule", ""))
                text = text.strip()
                width[i] = max(width[i], 4.25 * len(text.replace(" ", ""))
                               + 2.7 * text.count(" "))
        widest = max(widest, sum(width) + 6.0 * cols)
    return widest


def _compile(tex, tmp_path, layout, packages):
    (tmp_path / "tables.tex").write_text(tex)
    doc = tmp_path / f"doc-{layout}.tex"
    doc.write_text(f"\\documentclass[{layout}]{{article}}\n"
                   + "".join(f"\\usepackage{{{p}}}\n" for p in packages)
                   + "\\begin{document}\nText.\n\\input{tables}\n\\end{document}\n")
    done = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error",
                           doc.name], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    log = (tmp_path / f"doc-{layout}.log").read_text(errors="replace")
    assert done.returncode == 0, log[-2000:]
    return log


@pytest.mark.parametrize("columns, environment", [(None, "table*"),
                                                  (NARROW_LATEX_COLUMNS["front"], "table")])
def test_tables_tex_fits_one_and_two_column_pages(study, tmp_path, columns, environment):
    tex = latex_tables(load_results(study), columns=columns, environment=environment)
    assert tex.count(r"\begin{" + environment + "}") == 4  # 2 datasets, costs, ranks
    assert r"\label{tab:ranks}" in tex and r"p_{\mathrm{Holm}}" in tex
    assert r"\mathbf{" in tex  # the best of each column in bold
    first = tex[:tex.index(r"\end{" + environment + "}")]
    for symbol in (r"$\hat{A}_{12}$: Vargha and Delaney", "n/a too few runs",
                   r"$p_{\mathrm{Holm}}$: the same, Holm-corrected"):
        assert symbol in first
    if shutil.which("pdflatex") is None:  # no TeX here: the width rule
        limit = 345.0 if environment == "table*" else 229.0  # text width / column width
        assert _widest_row_pt(tex) <= limit
        return
    for layout in ("onecolumn", "twocolumn"):
        for packages in (("booktabs",), ("booktabs", "graphicx")):
            log = _compile(tex, tmp_path, layout, packages)
            assert "Overfull" not in log, (layout, packages)


def test_latex_refuses_unknown_columns_and_floats(study):
    results = load_results(study)
    with pytest.raises(ValueError, match="unknown LaTeX column 'T_a'"):
        latex_tables(results, columns=["hv_test", "T_a"])
    with pytest.raises(ValueError, match="environment must be 'table' or 'table\\*'"):
        latex_tables(results, environment="figure")
    with pytest.raises(ValueError, match="a sequence of column names"):
        latex_tables(results, columns="hv_test")
    tex = latex_tables(results, columns=LATEX_COLUMNS["front"], summary=False)
    assert "tab:cost" not in tex and "IGD$_{\\mathrm{train}}$" in tex


# ---------------------------------------------------------------------- across datasets
def test_a_study_of_two_datasets_gets_ranks_and_a_cd_diagram(study, report):
    results = load_results(study)
    ranking = study_ranking(results)
    data = summary_data(results)
    hv = {a: [data[d].row(a)["hv_test_mean"] for d in ranking.friedman.blocks]
          for a in results.labels}
    expected = friedman_ranks(hv)
    assert ranking.friedman.mean_ranks == expected.mean_ranks
    assert set(ranking.wtl) == {"NSGA-II", "MOPSO_6"}
    assert all(sum(v) == 2 for v in ranking.wtl.values())
    stems = {p.stem for p in report["figures"]}
    assert "across-datasets_cd-diagram" in stems
    with open(report["ranks"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["algorithm"]: float(r["mean_rank"]) for r in rows} == expected.mean_ranks
    md = report["markdown"].read_text()
    assert "## Across datasets" in md and "Friedman" in md and "Nemenyi" in md
    assert "independent datasets" in md  # what the tests assume


def test_one_dataset_has_no_ranking(study, tmp_path):
    results = load_results(study)
    results.references = {k: v for k, v in results.references.items() if k[0] == "sonar"}
    assert study_ranking(results) is None


# ---------------------------------------------------------------------- figures for journals
def _texts(fig):
    fig.canvas.draw()
    return [t for t in fig.findobj(matplotlib.text.Text) if t.get_text() and t.get_visible()]


TRACES = {"ISRPSO": [([30, 3000, 60000], [0.5, 0.8, 0.9]), ([30, 2500, 58000], [0.4, 0.7, 0.9])],
          "NSGA-II": [([30, 1500, 3000], [0.5, 0.6, 0.7]), ([30, 1500, 3000], [0.5, 0.65, 0.7])]}


@pytest.mark.parametrize("width", ["one-column", "two-column"])
def test_figures_at_journal_widths_have_no_text_below_7_pt(width, study):
    style = figure_style(width)
    fronts = {"A": np.array([[0.2, 0.1], [0.1, 0.4]]), "B": np.array([[0.25, 0.1]])}
    figures = [plot_fronts(fronts, fronts, full_error=(0.2, 0.2), n_features=10, style=style,
                           title="a title long enough to need wrapping at one column " * 2),
               plot_convergence(TRACES, "hypervolume", style=style),
               plot_selection_heatmap({"A": np.linspace(0, 1, 60), "B": np.ones(60) / 2},
                                      style=style),
               plot_run_distributions({"HV": {"A": [0.5, 0.6], "B": [0.4]}}, style=style),
               plot_critical_difference(friedman_ranks({"A": [1, 2, 3], "B": [0, 1, 2],
                                                        "C": [2, 0, 1]}), style=style)]
    for fig in figures:
        assert fig.get_size_inches()[0] == pytest.approx(style.width)
        sizes = [t.get_fontsize() for t in _texts(fig)]
        assert min(sizes) >= 7.0 and max(sizes) <= 10.0


def test_styles_are_scoped_and_fonts_embed_as_truetype(tmp_path):
    before = dict(matplotlib.rcParams)
    fig = plot_convergence(TRACES, "hypervolume", style="one-column")
    assert dict(matplotlib.rcParams) == before  # nothing global changed
    from pymoo_fs.analysis import save_figure

    save_figure(fig, tmp_path / "f.pdf")
    save_figure(fig, tmp_path / "f.svg")
    pdf = (tmp_path / "f.pdf").read_bytes()
    assert b"/Type3" not in pdf and b"/FontFile2" in pdf  # TrueType (Type 42), not Type 3
    assert b"<text" in (tmp_path / "f.svg").read_bytes()  # real text, not paths
    assert dict(matplotlib.rcParams) == before
    with pytest.raises(ValueError, match="unknown palette"):
        figure_style(palette="rainbow")
    with pytest.raises(ValueError, match="width must be"):
        figure_style(width=40)


def test_the_report_pdfs_hold_no_type_3_font(report):
    for path in report["figures"]:
        if path.suffix == ".pdf":
            assert b"/Type3" not in path.read_bytes(), path.name


@pytest.mark.parametrize("width", ["one-column", "two-column"])
def test_convergence_tick_labels_do_not_overlap(width):
    traces = {"A": [(np.geomspace(10, 60000, 40), np.linspace(0, 1, 40))],
              "B": [(np.geomspace(10, 3000, 30), np.linspace(0, 0.8, 30))]}
    ax = plot_convergence(traces, "hv", style=width).axes[0]
    ax.figure.canvas.draw()
    boxes = sorted((t.get_window_extent() for t in ax.get_xticklabels()
                    if t.get_text() and t.get_visible()), key=lambda b: b.x0)
    assert len(boxes) >= 3
    assert all(not a.overlaps(b) for a, b in zip(boxes, boxes[1:]))


def test_palette_pairs_colours_with_markers_and_line_styles():
    style = figure_style(palette="okabe-ito")
    series = style.series([f"A{i}" for i in range(6)])
    assert len({s[0] for s in series.values()}) == 6
    assert len({s[1] for s in series.values()}) == 6
    assert len({str(s[2]) for s in series.values()}) == 6
    assert series["A0"][0] == "#0072B2"  # Okabe-Ito blue


# ---------------------------------------------------------------------- feature names
def test_feature_names_from_the_csv_header(study, report):
    with open(report["fronts"], newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r["dataset"] == "named"]
    assert rows and all(r["feature_names"] == "; ".join(NAMES[int(i)]
                                                        for i in r["features"].split())
                        for r in rows)
    sonar = [r for r in csv.DictReader(open(report["fronts"], newline=""))
             if r["dataset"] == "sonar"]
    assert all(r["feature_names"] == "" for r in sonar)  # f0, f1, ...: indices only
    svg = (report["html"].parent / "named_selection-frequency.svg").read_text()
    assert ">alpha<" in svg or "alpha" in svg


# ---------------------------------------------------------------------- the command
def test_report_command_takes_style_and_latex_options(study, tmp_path, capsys):
    out = tmp_path / "r"
    assert main(["report", str(study), "--no-tsne", "--out", str(out), "--figure-width",
                 "one-column", "--palette", "tol-bright", "--latex-float", "table",
                 "--latex-columns", "hv_test,T_HV,p_holm_HV"]) == 0
    err = capsys.readouterr().err
    assert "figures of sonar (" in err and "/2)" in err and "rendering" in err
    tex = (out / "tables.tex").read_text()
    assert r"\begin{table}[" in tex and r"\begin{table*}" not in tex
    assert "IGD" not in tex.split(r"\label{tab:sonar}")[1].split(r"\end{table}")[0]
    provenance = (out / "report.md").read_text().split("## Provenance")[1]
    assert "command: pymoo-fs report" in provenance and "--palette tol-bright" in provenance
    assert "matplotlib " + matplotlib.__version__ in provenance
    with pytest.raises(SystemExit) as exc:
        main(["report", str(study), "--no-tsne", "--out", str(out), "--palette", "rainbow"])
    assert exc.value.code == 2
    assert "unknown palette 'rainbow'" in capsys.readouterr().err


# ---------------------------------------------------------------------- module:Class labels
def test_a_module_class_algorithm_is_labelled_by_its_registered_name(monkeypatch):
    import sys
    from pathlib import Path

    from pymoo_fs.algorithms import unregister
    from pymoo_fs.studies import AlgorithmSpec

    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parents[2] / "examples"))
    import my_algorithms  # noqa: F401  (registers UX-NSGA-II)

    try:
        assert AlgorithmSpec("my_algorithms:UniformNSGA2").label == "UX-NSGA-II"
        assert AlgorithmSpec("my_algorithms:UniformNSGA2", label="mine").label == "mine"
    finally:
        unregister("UX-NSGA-II")
        sys.modules.pop("my_algorithms", None)
    # not registered: the class name
    assert AlgorithmSpec("pymoo_fs.algorithms.moo.cmdpsofs:CMDPSOFS").label == "CMDPSOFS"


SUBSET_SPEC = """\
name = "paper-subset"
seed = 4
runs = 4
datasets = ["sonar"]
protocol = "S000"

[budget]
n_gen = 3

[[algorithms]]
name = "PSO"
pop_size = 6

[[algorithms]]
name = "FSIPSO"
pop_size = 6
"""


def test_subset_tables_fit_too_and_name_their_subscripts(tmp_path):
    (tmp_path / "spec.toml").write_text(SUBSET_SPEC)
    run_study(load_study(tmp_path / "spec.toml"), tmp_path / "study", progress=False)
    tex = latex_tables(load_results(tmp_path / "study"))
    assert "$p_d$, $p_a$: of $T_d$, $T_a$" in tex and r"all features & $60$" in tex
    assert "n/a" not in tex.split(r"\label{tab:sonar}")[1].split(r"\end{table*}")[0]  # 4/4
    if shutil.which("pdflatex") is None:
        assert _widest_row_pt(tex) <= 345.0
        return
    for layout in ("onecolumn", "twocolumn"):
        assert "Overfull" not in _compile(tex, tmp_path, layout, ("booktabs",))
