"""The ``pymoo-fs compare`` command line, end to end and in-process."""

import csv
import os
import signal
import subprocess
import sys

import pytest

from pymoo_fs import cli, comparison
from pymoo_fs.datasets import load_dataset

ALGORITHMS = ["ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II"]  # the default set
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
    assert len([line for line in proc.stderr.splitlines() if "evaluations" in line]) == 4
    _check_outputs(tmp_path)


def test_main_in_process(tmp_path, monkeypatch, capsys):
    figures = []
    original = comparison.plot_fronts

    def capture(*args, **kwargs):
        figures.append(original(*args, **kwargs))
        return figures[-1]

    monkeypatch.setattr(comparison, "plot_fronts", capture)
    out = tmp_path / "results"
    status = cli.main(["compare", *SMALL, "--algorithms", "isrpso,mopso,cmdpsofs,nsga2",
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
        assert [label for label in labels if label.endswith("-Best")] == [
            f"{a}-Best" for a in ALGORITHMS]


BAD = [
    (["--dataset", "no-such-dataset"], "no-such-dataset"),
    (["--algorithms", "CMDPSOFS,FOO"], "unknown algorithm"),
    (["--algorithms", "PSO"], "single-objective"),
    (["--runs", "0"], "runs"),
    (["--generations", "1"], "generations"),
    (["--bogus"], "unrecognized arguments"),
    (["--folds", "abc"], "--folds"),
    (["--runs", "two"], "--runs"),
    (["--algorithms", "SPEA2,SPEA2"], "algorithms lists SPEA2 twice"),
    (["--algorithms", "nsga2,NSGA-II"], "algorithms lists NSGA-II twice (as 'nsga2' and"),
    (["--seed", "-1"], "seed must be an int in [0, 2**32 - 1], got -1"),
    (["--test-size", "0.001"], "test_size=0.001 is too small: it puts 1 of 208 samples"),
    (["--test-size", "0.999"], "test_size=0.999 is too large"),
    (["--dataset", "."], "is a directory, not a file"),
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


def _fail_if_run(*args, **kwargs):
    raise AssertionError("the comparison ran although --out is unusable")


def test_out_under_a_file_exits_2_before_any_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(comparison, "run", _fail_if_run)
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--out", str(blocker / "results")])
    assert excinfo.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("pymoo-fs compare: error: argument --out: cannot write to ")
    assert "results" in err[0] and "Not a directory" in err[0]


def test_unwritable_out_exits_2_before_any_run_and_removes_what_it_made(tmp_path, monkeypatch,
                                                                       capsys):
    # a directory that cannot be written (simulated: the tests may run as root)
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(comparison, "run", _fail_if_run)
    monkeypatch.setattr(cli.tempfile, "mkstemp", refuse)
    out = tmp_path / "new" / "results"
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--out", str(out)])
    assert excinfo.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"pymoo-fs compare: error: argument --out: cannot write to {str(out)!r}: "
                   "Permission denied"]
    assert not (tmp_path / "new").exists()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="needs a user that file permissions apply to (not root)")
def test_read_only_out_exits_2_before_any_run(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(comparison, "run", _fail_if_run)
    out = tmp_path / "ro"
    out.mkdir()
    out.chmod(0o500)
    try:
        with pytest.raises(SystemExit) as excinfo:
            cli.main(["compare", *SMALL, "--out", str(out)])
    finally:
        out.chmod(0o700)
    assert excinfo.value.code == 2
    assert "argument --out: cannot write to" in capsys.readouterr().err


def test_sigint_handler_is_restored_after_a_run(tmp_path, capsys):
    before = signal.getsignal(signal.SIGINT)
    assert cli.main(["compare", *SMALL, "--algorithms", "NSGA-II",
                     "--out", str(tmp_path)]) == 0
    assert signal.getsignal(signal.SIGINT) is before


def test_ctrl_c_at_a_generation_exits_130_in_process(tmp_path, monkeypatch, capsys):
    before = signal.getsignal(signal.SIGINT)
    calls = []

    class Progress(comparison.ConsoleProgress):
        def __call__(self, event, **info):
            calls.append(event)
            if event == "generation" and info["n_gen"] == 2:
                signal.raise_signal(signal.SIGINT)  # recorded, acted on at the next event
            super().__call__(event, **info)

    monkeypatch.setattr(comparison, "ConsoleProgress", Progress)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--out", str(out)])
    assert excinfo.value.code == 130
    err = capsys.readouterr().err
    assert "pymoo-fs compare: interrupted; nothing written" in err.splitlines()
    assert calls == ["run_start", "generation", "generation"]  # stopped at the next one
    assert not out.exists()
    assert signal.getsignal(signal.SIGINT) is before


def test_ctrl_c_while_moving_the_files_into_place_completes_them(tmp_path, monkeypatch,
                                                                 capsys):
    replace = comparison.os.replace
    moved = []

    def replace_then_signal(src, dst):
        replace(src, dst)
        moved.append(dst)
        if len(moved) == 1:
            signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(comparison.os, "replace", replace_then_signal)
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--out", str(tmp_path)])
    assert excinfo.value.code == 130
    assert len(moved) == 3  # the interrupt did not split the set of files
    err = capsys.readouterr().err
    assert f"interrupted after the results were written to {str(tmp_path)!r}" in err
    _check_outputs(tmp_path)


def test_headerless_csv_runs_with_a_one_line_warning(tmp_path, capsys):
    source = load_dataset("sonar")
    path = tmp_path / "noheader.csv"
    path.write_text("\n".join(",".join([*map(repr, row.tolist()), str(label)])
                              for row, label in zip(source.X, source.classes[source.y])))
    out = tmp_path / "out"
    assert cli.main(["compare", "--dataset", str(path), "--runs", "1", "--generations", "2",
                     "--pop-size", "4", "--folds", "3", "--algorithms", "NSGA-II",
                     "--out", str(out)]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if "warning" in line]
    assert warnings == [f"pymoo-fs compare: warning: {path} has no header row (its first row "
                        "holds values, not names): read it as data, named the features "
                        "f0..f59 and took the last column as the class"]
    assert captured.out.startswith("noheader (60 features)")


def test_results_that_cannot_be_written_exit_1_with_one_line(tmp_path, monkeypatch, capsys):
    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(comparison, "_write_csv", full_disk)
    out = tmp_path / "new"
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--algorithms", "NSGA-II", "--out", str(out)])
    assert excinfo.value.code == 1
    err = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert err == [f"pymoo-fs compare: error: cannot write results to {str(out)!r}: "
                   "[Errno 28] No space left on device"]
    assert not out.exists()  # made for the results, removed again when nothing was written


def test_weighted_objective_prints_seed_000s_table(tmp_path, capsys):
    out = tmp_path / "weighted"
    status = cli.main(["compare", *SMALL, "--algorithms", "FSIPSO,SFS", "--objective",
                       "weighted", "--reference", "SFS", "--out", str(out)])
    assert status == 0
    text = capsys.readouterr().out
    assert "Wilcoxon rank-sum against SFS" in text and "SFS (reference)" in text
    assert f"wrote {out / 'results.csv'} and {out / 'summary.csv'}" in text
    assert sorted(p.name for p in out.iterdir()) == ["results.csv", "summary.csv"]
