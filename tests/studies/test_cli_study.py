"""``pymoo-fs study`` and ``pymoo-fs report`` from the command line."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pymoo_fs import cli

SPEC = """\
name = "cli-demo"
seed = 2
runs = 2
datasets = ["sonar"]
protocol = "S003"

[budget]
n_gen = 4

[[algorithms]]
name = "CMDPSOFS"
pop_size = 8

[[algorithms]]
name = "SPEA2"
pop_size = 8
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    spec = root / "demo.toml"
    spec.write_text(SPEC)
    return spec, root / "cli-demo"


def test_study_then_report(study, capsys):
    spec, out = study
    assert cli.main(["study", str(spec), "--quiet"]) == 0
    assert "4 runs stored in" in capsys.readouterr().out
    assert len(list((out / "runs").rglob("*.json"))) == 4
    assert cli.main(["report", str(out), "--no-tsne"]) == 0
    report = out / "report"
    page = (report / "report.html").read_text()
    # best and average fronts, per-run distributions, convergence, selection frequency
    assert page.count("data:image/png;base64,") == 4
    assert "CMDPSOFS (reference)" in page
    assert sorted(p.name for p in report.glob("*.csv")) == [
        "all_features.csv", "fronts.csv", "runs.csv", "summary.csv"]
    assert sorted(p.name for p in report.glob("sonar_fronts.*")) == [
        "sonar_fronts.pdf", "sonar_fronts.png", "sonar_fronts.svg"]
    assert (report / "tables.tex").is_file() and (out / "provenance.json").is_file()
    runs = (report / "runs.csv").read_text().splitlines()
    assert runs[0] == ("dataset,fold,algorithm,run,hv_train,igd_train,hv_test,igd_test,n_eval,"
                       "seconds,cpu_seconds,front_size") and len(runs) == 5
    md = (report / "report.md").read_text()
    assert "| algorithm | HV train | HV test | T_HV |" in md
    assert "Missing runs" not in md


def test_report_of_an_unfinished_study_lists_missing_runs(study, tmp_path, capsys):
    spec, _ = study
    grown = tmp_path / "grown.toml"
    grown.write_text(SPEC.replace("runs = 2", "runs = 3"))
    out = tmp_path / "unfinished"
    assert cli.main(["study", str(spec), "--out", str(out), "--quiet"]) == 0
    # the spec asks for more runs than are stored: record that in study.json, run nothing
    from pymoo_fs.studies import load_study, prepare_study
    prepare_study(load_study(grown), out)
    capsys.readouterr()
    assert cli.main(["report", str(out), "--no-tsne"]) == 0
    assert "2 runs are missing" in capsys.readouterr().out
    md = (out / "report" / "report.md").read_text()
    assert "## Missing runs" in md and "- sonar CMDPSOFS run 3" in md


@pytest.mark.parametrize("text, fragment", [
    (SPEC.replace("runs = 2", "runz = 2"), "line 3: key 'runz': unknown key"),
    (SPEC.replace('"SPEA2"', '"SPEA3"'), "unknown algorithm"),
    (SPEC.replace('"sonar"', '"nothing-here"'), "dataset 'nothing-here'"),
])
def test_bad_specs_exit_2_with_one_line_before_any_run(text, fragment, tmp_path, capsys):
    spec = tmp_path / "bad.toml"
    spec.write_text(text)
    with pytest.raises(SystemExit) as info:
        cli.main(["study", str(spec), "--out", str(tmp_path / "out")])
    assert info.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and fragment in err[0], err
    assert not (tmp_path / "out" / "runs").exists()


def test_report_of_a_directory_that_is_no_study_exits_2(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        cli.main(["report", str(tmp_path)])
    assert info.value.code == 2
    assert "is not a study directory" in capsys.readouterr().err


def test_ctrl_c_stops_the_study_keeping_finished_runs(tmp_path):
    spec = tmp_path / "slow.toml"
    spec.write_text(SPEC.replace("n_gen = 4", "n_gen = 60").replace("runs = 2", "runs = 4"))
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "pymoo_fs", "study", str(spec), "--out",
                             str(out), "--quiet"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    import time

    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and not list(
            Path(out).rglob("run-*.json")):
        time.sleep(0.05)
    proc.send_signal(2)  # SIGINT
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    assert "run the same command to resume" in err
    stored = list((out / "runs").rglob("*.json"))
    assert 1 <= len(stored) < 8
    assert not list(out.rglob("*.tmp"))
