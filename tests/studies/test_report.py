"""The study report made fit for publication (issue 24): a legend for every column and sign, the
all-features scores in their own columns, numbers in summary.csv/summary.json, provenance,
figures as PNG, PDF and SVG, LaTeX tables, no stale files, everything written together."""

import csv
import hashlib
import io
import json
import math
import shutil

import numpy as np
import pytest

from pymoo_fs.studies import ResultStore, load_study, run_study
from pymoo_fs.studies.report import (ALL_FEATURES_COLUMNS, FRONT_SUMMARY_COLUMNS,
                                     SUBSET_SUMMARY_COLUMNS, latex_tables, legend,
                                     load_results, run_table, summary_data, summary_tables,
                                     write_report)

FRONT_SPEC = """\
name = "front-report"
seed = 4
runs = 3
datasets = ["sonar"]
protocol = "S003"
reference = "CMDPSOFS"

[budget]
n_gen = 4

[[algorithms]]
name = "CMDPSOFS"
pop_size = 8

[[algorithms]]
name = "NSGA-II"
label = "NSGA_II_small"
pop_size = 8
"""

SUBSET_SPEC = """\
name = "subset-report"
seed = 4
runs = 3
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


def _study(root, text, name):
    spec_path = root / f"{name}.toml"
    spec_path.write_text(text)
    run_study(load_study(spec_path), root / name, progress=False)
    return root / name


@pytest.fixture(scope="module")
def front_study(tmp_path_factory):
    return _study(tmp_path_factory.mktemp("report"), FRONT_SPEC, "front")


@pytest.fixture(scope="module")
def subset_study(tmp_path_factory):
    return _study(tmp_path_factory.mktemp("report"), SUBSET_SPEC, "subset")


@pytest.fixture(scope="module")
def front_report(front_study):
    return write_report(front_study, tsne=False)


def _csv_rows(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


# ---------------------------------------------------------------------- numbers, not strings
def test_summary_files_hold_numbers_that_match_the_runs(front_study, front_report):
    summary = json.loads(front_report["summary_json"].read_text())
    table = summary["datasets"]["sonar"]
    assert table["columns"] == list(FRONT_SUMMARY_COLUMNS[1:])
    rows = {r[0]: dict(zip(table["columns"], r)) for r in table["rows"]}
    header, runs = run_table(load_results(front_study))
    for label, row in rows.items():
        hv = [r[header.index("hv_test")] for r in runs if r[2] == label]
        assert isinstance(row["hv_test_mean"], float) and isinstance(row["runs"], int)
        assert row["hv_test_mean"] == pytest.approx(np.mean(hv), abs=1e-15)
        assert row["hv_test_std"] == pytest.approx(np.std(hv, ddof=1), abs=1e-15)
    assert rows["CMDPSOFS"]["reference"] is True and rows["CMDPSOFS"]["hv_test_sign"] == ""
    assert rows["CMDPSOFS"]["hv_test_p"] is None  # NaN is null in JSON
    assert rows["NSGA_II_small"]["hv_test_sign"] in ("+", "=", "-")
    assert 0.0 <= rows["NSGA_II_small"]["hv_test_p"] <= 1.0
    # the CSV: the same numbers, floats that parse, empty cells for NaN
    csv_rows = {r["algorithm"]: r for r in _csv_rows(front_report["summary"])}
    assert list(csv_rows["CMDPSOFS"]) == list(FRONT_SUMMARY_COLUMNS)
    for label, row in rows.items():
        assert float(csv_rows[label]["hv_test_mean"]) == row["hv_test_mean"]
        assert float(csv_rows[label]["q_measure"]) == row["q_measure"]
    assert csv_rows["CMDPSOFS"]["hv_test_p"] == ""


def test_all_features_scores_have_their_own_columns(front_study, front_report, subset_study):
    reference = ResultStore(front_study).read_reference("sonar", 0)
    all_features = json.loads(front_report["summary_json"].read_text())[
        "datasets"]["sonar"]["all_features"]
    assert all_features["n_features"] == 60 and all_features["splits"] == 1
    assert all_features["train_score"] == reference["score_train"]
    assert all_features["test_score_mean"] == reference["score_test"]
    (row,) = _csv_rows(front_report["all_features"])
    assert list(row) == list(ALL_FEATURES_COLUMNS)
    assert float(row["test_score_mean"]) == reference["score_test"]
    # fronts: not a row of the hypervolume table, a sentence above it
    header, rows = summary_tables(load_results(front_study))["sonar"]
    assert [r[0] for r in rows] == ["CMDPSOFS (reference)", "NSGA_II_small"]
    md = front_report["markdown"].read_text()
    assert f"training (inner CV) accuracy {reference['score_train']:.4f}" in md
    # one subset per run: the first row, in the columns it belongs to
    header, rows = summary_tables(load_results(subset_study))["sonar"]
    first = dict(zip(header, rows[0]))
    ref = ResultStore(subset_study).read_reference("sonar", 0)
    assert first["algorithm"] == "all features" and first["#features"] == "60"
    assert first["best test"] == f"{ref['score_test']:.4f}"
    assert first["test"] == f"{ref['score_test']:.4f}"
    assert first["train"] == f"{ref['score_train']:.4f}"
    assert first["T_f"] == first["T_a"] == first["evaluations"] == ""


def test_subset_summary_numbers(subset_study):
    table = summary_data(load_results(subset_study))["sonar"]
    assert table.columns == SUBSET_SUMMARY_COLUMNS and table.kind == "subset"
    pso = table.row("PSO")
    assert pso["reference"] and pso["n_features_sign"] == "" and math.isnan(pso["n_features_p"])
    fsipso = table.row("FSIPSO")
    assert fsipso["n_features_sign"] in "+=-" and fsipso["test_score_sign"] in "+=-"
    assert fsipso["test_score_best"] >= fsipso["test_score_mean"]
    assert all(isinstance(v, float) for k, v in fsipso.items() if k.endswith(("_mean", "_std")))
    with pytest.raises(KeyError, match="no algorithm 'SFS'"):
        table.row("SFS")


# ---------------------------------------------------------------------- a legend for everything
def test_every_column_and_sign_is_explained_with_its_direction(front_study, front_report,
                                                               subset_study):
    for study, signs in ((front_study, ("T_HV",)), (subset_study, ("T_f", "T_a"))):
        results = load_results(study)
        entries = legend(results)
        explained = " ".join(term for term, _ in entries)
        header, _ = next(iter(summary_tables(results).values()))
        for column in header[1:]:
            assert column in explained, column
        text = dict(entries)
        for sign in signs:
            assert "+ " in text[sign] and "significantly better" in text[sign]
            assert "- significantly worse" in text[sign] and "= no significant" in text[sign]
        assert any("higher is better" in m for m in text.values())
        assert any("lower is better" in m for m in text.values())
        if study == front_study:
            md = (study / "report" / "report.md").read_text()
            assert "## How to read the tables" in md
            assert all(f"**{term}**" in md for term, _ in entries)
    summary = json.loads((front_study / "report" / "summary.json").read_text())
    legend_of = summary["legend"]
    assert set(legend_of) == set(FRONT_SUMMARY_COLUMNS)
    assert "higher is better" in legend_of["hv_test_mean"]
    assert legend_of["hv_test_p"].startswith("two-sided p-value")


# ---------------------------------------------------------------------- provenance
def test_provenance_is_stored_when_runs_are_made_and_printed(front_study, front_report):
    provenance = json.loads((front_study / "provenance.json").read_text())
    (session,) = provenance["sessions"]
    assert set(session["versions"]) == {"pymoo-fs", "pymoo", "numpy", "scipy", "scikit-learn",
                                        "numba", "python"}
    assert session["machine"]["cores"] >= 1 and session["machine"]["node"]
    assert session["status"] == "completed" and session["runs_computed"] == 6
    assert session["started"] <= session["finished"] and session["started"].endswith("+00:00")
    spec_hash = hashlib.sha256((front_study / "study.json").read_bytes()).hexdigest()
    assert session["spec_sha256"] == spec_hash
    md = front_report["markdown"].read_text()
    assert "## Provenance" in md and spec_hash[:16] in md
    assert f"numpy {session['versions']['numpy']}" in md
    # nothing to run: no new session
    run_study(load_study(_spec_file(front_study)), front_study, progress=False)
    assert len(json.loads((front_study / "provenance.json").read_text())["sessions"]) == 1


def _spec_file(study):
    path = study.parent / "again.toml"
    path.write_text(FRONT_SPEC)
    return path


def test_an_interrupted_session_says_so(tmp_path):
    spec = load_study(_write(tmp_path, FRONT_SPEC))
    calls = []

    def stop():
        calls.append(1)
        if len(calls) > 8:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(spec, tmp_path / "study", progress=False, check=stop)
    (session,) = json.loads((tmp_path / "study" / "provenance.json").read_text())["sessions"]
    assert session["status"] == "interrupted"
    assert session["runs_computed"] == len(ResultStore(tmp_path / "study").finished()) < 6


def _write(root, text):
    path = root / "spec.toml"
    path.write_text(text)
    return path


# ---------------------------------------------------------------------- figures and LaTeX
def test_every_figure_as_png_pdf_and_svg(front_report):
    figures = front_report["figures"]
    stems = {p.stem for p in figures}
    assert stems == {"sonar_fronts", "sonar_convergence", "sonar_selection-frequency",
                     "sonar_distributions"}
    for stem in stems:
        by_format = {p.suffix: p.read_bytes() for p in figures if p.stem == stem}
        assert by_format[".png"].startswith(b"\x89PNG")
        assert by_format[".pdf"].startswith(b"%PDF")
        assert b"<svg" in by_format[".svg"][:1000]
    md = front_report["markdown"].read_text()
    assert "[PDF](sonar_fronts.pdf)" in md and "[SVG](sonar_fronts.svg)" in md
    assert "doi:10.1007/s00500-016-2128-8" in md  # the paper whose figure this is
    assert "seed 00" not in md.lower()


def test_reports_are_reproducible_byte_for_byte(front_study, front_report, tmp_path):
    again = write_report(front_study, tmp_path / "again", tsne=False)
    for path in again["figures"] + [again["latex"], again["summary"], again["summary_json"]]:
        assert path.read_bytes() == (front_report["html"].parent / path.name).read_bytes(), \
            path.name


def test_latex_tables_use_booktabs_and_escape(front_study):
    tex = latex_tables(load_results(front_study))
    # the dataset's table and the cost table (one dataset: no table across datasets)
    assert tex.count(r"\begin{table*}") == 2 and tex.count(r"\end{tabular}") == 2
    for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
        assert tex.count(rule) == 2
    assert r"NSGA\_II\_small" in tex and "NSGA_II_small" not in tex.replace(r"\_", "")
    assert r"$T_{\mathrm{HV}}$" in tex and r"\pm" in tex and "±" not in tex
    assert r"\label{tab:sonar}" in tex and r"\label{tab:cost}" in tex
    assert "tab:ranks" not in tex


def test_subset_latex_table_puts_all_features_first(subset_study):
    tex = latex_tables(load_results(subset_study))
    body = tex[tex.index(r"\midrule"):]
    assert body.splitlines()[1].startswith("all features & $60$ &")
    table = tex[:tex.index(r"\end{table*}")]
    assert table.count(r"\midrule") == 2  # under the header, under the all-features row
    assert "$d$: number of features selected" in table


# ---------------------------------------------------------------------- stale files, atomicity
def test_a_new_report_removes_only_the_files_an_earlier_one_wrote(front_study, front_report,
                                                                  tmp_path):
    """Issue 24, defect 5: no stale figure of an earlier report stays beside the new one."""
    out = tmp_path / "report"
    shutil.copytree(front_report["html"].parent, out)
    # an earlier report had t-SNE views (or another dataset): its manifest lists them
    manifest = json.loads((out / "manifest.json").read_text())
    stale = ["sonar_tsne.pdf", "sonar_tsne.png", "sonar_tsne.svg", "musk1_fronts.png"]
    for name in stale:
        (out / name).write_bytes(b"old")
    (out / "manifest.json").write_text(json.dumps({"files": manifest["files"] + stale}))
    (out / "notes.txt").write_text("mine")  # not the report's: never touched
    (out / "old.png").write_bytes(b"not listed")
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    calls = []

    def stop():
        calls.append(1)
        if len(calls) == 8:  # while the files are being written
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_report(front_study, out, tsne=False, check=stop)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # all or nothing
    assert not [p for p in out.iterdir() if p.name.startswith(".pymoo-fs-write-")]

    paths = write_report(front_study, out, tsne=False)
    assert sorted(p.name for p in paths["removed"]) == sorted(stale)
    assert not any((out / name).exists() for name in stale)
    assert (out / "notes.txt").read_text() == "mine" and (out / "old.png").exists()
    manifest = json.loads((out / "manifest.json").read_text())
    assert sorted(manifest["files"]) == sorted(
        p.name for p in out.iterdir() if p.name not in ("notes.txt", "old.png", "manifest.json"))


def test_the_report_command_says_what_it_removed(front_study, tmp_path, capsys):
    from pymoo_fs import cli

    out = tmp_path / "report"
    out.mkdir()
    (out / "sonar_tsne.png").write_bytes(b"old")
    (out / "manifest.json").write_text(json.dumps({"files": ["sonar_tsne.png"]}))
    assert cli.main(["report", str(front_study), "--out", str(out), "--no-tsne"]) == 0
    text = capsys.readouterr().out
    assert "tables.tex (LaTeX)" in text and "PNG, PDF and SVG" in text
    assert "removed 1 files of an earlier report that this one does not write again: " \
           "sonar_tsne.png" in text


# ---------------------------------------------------------------------- progress of a study
class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_progress_shows_each_runs_generations_and_evaluations(tmp_path):
    """An ETA on long runs: the runs' bar, and on a terminal a bar over the current run."""
    spec = load_study(_write(tmp_path, FRONT_SPEC.replace("runs = 3", "runs = 1")))
    stream = _Terminal()
    run_study(spec, tmp_path / "study", progress=True, stream=stream)
    text = stream.getvalue()
    assert "sonar CMDPSOFS run 1" in text and "generation 4, 32 evaluations" in text
    assert "runs: 100%" in text and "[2/2]" in text and "<" in text  # elapsed<remaining
    log = io.StringIO()  # a log file: the runs' bar and one line per run, no run bar
    run_study(spec, tmp_path / "again", progress=True, stream=log)
    assert "generation 4" not in log.getvalue() and "[2/2]" in log.getvalue()


# ------------------------------------------------------------------ signs with their power
def test_signs_carry_a12_and_the_number_of_runs(front_study, front_report):
    # "=" with 3 runs must read differently from "=" with 30: every sign of the text tables
    # (Markdown, HTML, LaTeX) is followed by A12 and the values compared; the numbers (JSON,
    # CSV) keep the bare sign and its p-value
    from pymoo_fs.analysis.statistics import rank_sum

    results = load_results(front_study)
    header, rows = summary_tables(results)["sonar"]
    cell = next(r for r in rows if r[0] == "NSGA_II_small")[header.index("T_HV")]
    hv = {label: [r[header_hv] for r in runs if r[2] == label]
          for header_runs, runs in [run_table(results)]
          for header_hv in [header_runs.index("hv_test")]
          for label in ("CMDPSOFS", "NSGA_II_small")}
    expected = rank_sum(hv["CMDPSOFS"], hv["NSGA_II_small"], better="higher")
    sign = summary_data(results)["sonar"].row("NSGA_II_small")["hv_test_sign"]
    assert cell.endswith("(3/3)") and " A12=" in cell
    if sign == "=":  # 3 runs against 3 cannot reach alpha 0.05: said so, not "="
        assert cell == "too few runs for a test, " + expected.label()[2:]
    else:
        assert cell == expected.label()
    reference = next(r for r in rows if r[0].startswith("CMDPSOFS"))
    assert reference[header.index("T_HV")] == ""
    assert cell in front_report["markdown"].read_text()
    assert cell in (front_study / "report" / "report.html").read_text()
    tex = latex_tables(results)
    row = next(line for line in tex.splitlines() if line.startswith(r"NSGA\_II\_small &"))
    assert f"{'n/a' if sign == '=' else f'${sign}$'} & ${expected.a12:.2f}$" in row
    json_row = json.loads(front_report["summary_json"].read_text())["datasets"]["sonar"]
    signs = {r[0]: dict(zip(json_row["columns"], r))["hv_test_sign"] for r in json_row["rows"]}
    assert signs["NSGA_II_small"] == sign
    assert "A12" in dict(legend(results))["T_HV"]
