"""The ``pymoo-fs compare`` command line, end to end and in-process."""

import csv
import subprocess
import sys

import pytest

from pymoo_fs import cli, comparison

ALGORITHMS = ["CMDPSOFS", "NSGA-II", "SPEA2"]
SMALL = ["--dataset", "sonar", "--runs", "1", "--generations", "3", "--pop-size", "8",
         "--folds", "3"]


def _module(*args):
    return subprocess.run([sys.executable, "-m", "pymoo_fs", *args], capture_output=True,
                          text=True, timeout=300)


def _check_outputs(out):
    assert sorted(p.name for p in out.iterdir()) == ["fronts.csv", "fronts.png", "results.csv"]
    with open(out / "results.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [row["algorithm"] for row in rows] == ALGORITHMS
    assert all(int(row["n_eval"]) == 24 for row in rows)
    assert (out / "fronts.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_module_end_to_end(tmp_path):
    proc = _module("compare", *SMALL, "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("sonar (60 features): 1 runs x 3 generations x 8")
    for name in ALGORITHMS:
        assert any(line.startswith(name) for line in lines)
    assert f"wrote {tmp_path / 'results.csv'}" in proc.stdout
    # progress goes to stderr, one line per run
    assert [line for line in proc.stderr.splitlines() if line.startswith("[")] == [
        line for line in proc.stderr.splitlines() if "evaluations" in line]
    assert len([line for line in proc.stderr.splitlines() if "evaluations" in line]) == 3
    _check_outputs(tmp_path)


def test_main_in_process(tmp_path, monkeypatch, capsys):
    figures = []
    original = comparison.plot_fronts

    def capture(*args, **kwargs):
        figures.append(original(*args, **kwargs))
        return figures[-1]

    monkeypatch.setattr(comparison, "plot_fronts", capture)
    out = tmp_path / "results"
    status = cli.main(["compare", *SMALL, "--algorithms", "cmdpsofs,nsga2,SPEA2",
                       "--out", str(out)])
    assert status == 0
    captured = capsys.readouterr()
    for name in ALGORITHMS:
        assert name in captured.out
    _check_outputs(out)
    (fig,) = figures
    assert len(fig.axes) == 2
    for ax in fig.axes:
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert [label for label in labels if label != "all features"] == ALGORITHMS


BAD = [
    (["--dataset", "no-such-dataset"], "no-such-dataset"),
    (["--algorithms", "CMDPSOFS,FOO"], "unknown algorithm"),
    (["--algorithms", "PSO"], "single-objective"),
    (["--runs", "0"], "runs"),
    (["--generations", "1"], "generations"),
    (["--bogus"], "unrecognized arguments"),
    (["--folds", "abc"], "--folds"),
    (["--runs", "two"], "--runs"),
]


@pytest.mark.parametrize("args,fragment", BAD)
def test_bad_arguments_exit_2_with_one_line(args, fragment, tmp_path, capsys):
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", "--dataset", "sonar", *args, "--out", str(out)])
    assert excinfo.value.code == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1 and "error" in lines[0] and fragment in lines[0], captured.err
    assert captured.out == ""
    assert not out.exists()


@pytest.mark.parametrize("args,fragment", [BAD[0], BAD[5], BAD[6]])
def test_bad_arguments_as_a_command_print_no_traceback(args, fragment, tmp_path):
    out = tmp_path / "out"
    proc = _module("compare", "--dataset", "sonar", *args, "--out", str(out))
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and fragment in lines[0], proc.stderr
    assert proc.stdout == "" and not out.exists()


def test_missing_command_exits_2(capsys):
    with pytest.raises(SystemExit) as excinfo:
        cli.main([])
    assert excinfo.value.code == 2
    assert len(capsys.readouterr().err.splitlines()) == 1


def test_help_lists_the_options():
    proc = _module("compare", "--help")
    assert proc.returncode == 0
    for option in ("--dataset", "--data-dir", "--algorithms", "--runs", "--generations",
                   "--pop-size", "--seed", "--n-neighbors", "--folds", "--test-size", "--out"):
        assert option in proc.stdout
    top = _module("--help")
    assert top.returncode == 0 and "compare" in top.stdout


def test_version(capsys):
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["--version"])
    assert excinfo.value.code == 0
    assert capsys.readouterr().out.startswith("pymoo-fs ")


def test_out_that_is_a_file_exits_2_before_running(tmp_path, capsys):
    out = tmp_path / "results.txt"
    out.write_text("not a directory")
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", "--dataset", "sonar", "--out", str(out)])
    assert excinfo.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "--out" in err[0] and "not a directory" in err[0]
    assert out.read_text() == "not a directory"
