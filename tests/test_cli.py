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


def _check_outputs(out, algorithms=ALGORITHMS, report=True):
    assert {"fronts.csv", "fronts.png", "results.csv", "study.json",
            *(["report"] if report else [])} <= {p.name for p in out.iterdir()}
    with open(out / "results.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [row["algorithm"] for row in rows] == algorithms
    assert all(int(row["n_eval"]) == 24 for row in rows)
    assert (out / "fronts.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_module_end_to_end(tmp_path):
    proc = _module("compare", *SMALL, "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("sonar (60 features): 1 run x 3 generations x 8")
    for name in ALGORITHMS:
        assert any(line.startswith(name) for line in lines)
    assert f"wrote {tmp_path / 'results.csv'}" in proc.stdout
    assert f"{tmp_path / 'report' / 'report.html'}" in proc.stdout
    # progress goes to stderr, one line per run
    runs = [line for line in proc.stderr.splitlines() if "evaluations" in line]
    assert len(runs) == 4 and all(line.startswith("[") for line in runs)
    _check_outputs(tmp_path)
    # the same command again finds every run stored and rewrites the same files
    before = (tmp_path / "fronts.csv").read_bytes()
    again = _module("compare", *SMALL, "--out", str(tmp_path))
    assert again.returncode == 0, again.stderr
    assert "4 of 4 runs already in the store" in again.stderr
    assert (tmp_path / "fronts.csv").read_bytes() == before


def test_main_in_process(tmp_path, capsys):
    out = tmp_path / "results"
    status = cli.main(["compare", *SMALL, "--algorithms", "isrpso,mopso,cmdpsofs,nsga2",
                       "--out", str(out)])
    assert status == 0
    captured = capsys.readouterr()
    for name in ALGORITHMS:
        assert name in captured.out
    _check_outputs(out)


BAD = [
    (["--dataset", "no-such-dataset"], "no-such-dataset"),
    (["--algorithms", "CMDPSOFS,FOO"], "unknown algorithm"),
    (["--algorithms", "PSO"], "single-objective"),
    (["--alpha", "0.8"], "alpha is a weight of objective 'weighted', not of 'pareto'"),
    (["--objective", "fitb", "--algorithms", "AMSO"], "needs n_neighbors=1"),
    (["--objective", "weighted", "--algorithms", "PSO", "--mu", "0.5"],
     "mu is a weight of objective 'fitb', not of 'weighted'"),
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


def test_missing_command_exits_2_with_the_usage(capsys):
    with pytest.raises(SystemExit) as excinfo:
        cli.main([])
    assert excinfo.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: pymoo-fs")
    assert "commands: compare, study, report, algorithms, datasets" in err


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


@pytest.fixture
def no_run(monkeypatch):
    from pymoo_fs import studies

    monkeypatch.setattr(studies, "run_study", _fail_if_run)


def test_a_non_empty_directory_without_a_comparison_is_refused(tmp_path, no_run, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--out", str(tmp_path)])
    assert excinfo.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [f"pymoo-fs compare: error: argument --out: {str(tmp_path)!r} is not empty "
                   "and holds no comparison (no study.json): choose a new or empty directory"]
    assert [p.name for p in tmp_path.iterdir()] == ["notes.txt"]


def test_a_directory_of_another_comparison_is_refused_before_any_run(tmp_path, capsys):
    assert cli.main(["compare", *SMALL, "--algorithms", "NSGA-II", "--out", str(tmp_path)]) == 0
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    capsys.readouterr()
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--algorithms", "PSO", "--objective", "weighted",
                  "--out", str(tmp_path)])
    assert excinfo.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "holds a study made with a different protocol" in err[0], err
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_out_under_a_file_exits_2_before_any_run(tmp_path, no_run, capsys):
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
                                                                       no_run, capsys):
    # a directory that cannot be written (simulated: the tests may run as root)
    def refuse(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

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
def test_read_only_out_exits_2_before_any_run(tmp_path, no_run, capsys):
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
    from pymoo_fs.studies import runner

    before = signal.getsignal(signal.SIGINT)
    calls = []

    class Trace(runner._Trace):
        def __call__(self, algorithm):
            calls.append(algorithm.n_gen)
            if len(calls) == 5:  # generation 2 of the second run
                signal.raise_signal(signal.SIGINT)  # recorded, acted on at the next check
            super().__call__(algorithm)

    monkeypatch.setattr(runner, "_Trace", Trace)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--out", str(out)])
    assert excinfo.value.code == 130
    err = capsys.readouterr().err
    assert (f"pymoo-fs compare: interrupted; 1 of 4 runs are stored in {str(out)!r}; run the "
            "same command to resume") in err.splitlines()
    assert calls == [1, 2, 3, 1, 2]  # stopped at the generation's own check
    assert [p.name for p in (out / "runs" / "sonar").iterdir()] == ["ISRPSO"]
    assert not (out / "results.csv").exists()
    assert signal.getsignal(signal.SIGINT) is before
    monkeypatch.undo()
    # the same command resumes: the stored run is not run again
    assert cli.main(["compare", *SMALL, "--out", str(out)]) == 0
    assert "1 of 4 runs already in the store" in capsys.readouterr().err
    _check_outputs(out)


def test_ctrl_c_while_moving_the_files_into_place_completes_them(tmp_path, monkeypatch,
                                                                 capsys):
    from pymoo_fs import _files

    replace = _files.os.replace
    moved = []

    def replace_then_signal(src, dst):
        replace(src, dst)
        if ".pymoo-fs-write-" in str(src) and ".pymoo-fs-write-" not in str(dst):
            moved.append(dst)
            if len(moved) == 1:
                signal.raise_signal(signal.SIGINT)

    monkeypatch.setattr(_files.os, "replace", replace_then_signal)
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--out", str(tmp_path)])
    assert excinfo.value.code == 130
    assert len(moved) == 3  # the interrupt did not split the set of files
    err = capsys.readouterr().err
    assert f"interrupted; every run is stored in {str(tmp_path)!r}, the results were not" in err
    monkeypatch.undo()
    _check_outputs(tmp_path, report=False)  # stopped before the report: none half-written
    assert not (tmp_path / "report").exists()


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
    from pymoo_fs import _files

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_files, "commit_files", full_disk)
    monkeypatch.setattr(comparison, "commit_files", full_disk)
    out = tmp_path / "new"
    with pytest.raises(SystemExit) as excinfo:
        cli.main(["compare", *SMALL, "--algorithms", "NSGA-II", "--out", str(out)])
    assert excinfo.value.code == 1
    err = [line for line in capsys.readouterr().err.splitlines() if "error" in line]
    assert err == [f"pymoo-fs compare: error: cannot write results to {str(out)!r}: "
                   "[Errno 28] No space left on device"]
    assert not (out / "results.csv").exists() and (out / "study.json").exists()


def test_weighted_objective_prints_seed_000s_table(tmp_path, capsys):
    out = tmp_path / "weighted"
    status = cli.main(["compare", *SMALL, "--algorithms", "FSIPSO,SFS", "--objective",
                       "weighted", "--reference", "SFS", "--out", str(out)])
    assert status == 0
    text = capsys.readouterr().out
    assert "SFS significantly better" in text and "SFS (reference)" in text
    assert f"wrote {out / 'results.csv'}, {out / 'summary.csv'} and " in text
    assert {"results.csv", "summary.csv"} < {p.name for p in out.iterdir()}


# ---- CLI polish (issue 24): fast help, one default, flags in errors, bare command, listing


def test_building_the_parser_imports_no_registry_and_no_scikit_learn():
    import subprocess
    import sys

    code = ("import sys; from pymoo_fs.cli import build_parser; p = build_parser(); "
            "[p.parse_args([c, '--help']) if False else None for c in ('compare',)]; "
            "import io, contextlib\n"
            "for argv in (['--help'], ['compare', '--help'], ['study', '--help']):\n"
            "    try:\n"
            "        with contextlib.redirect_stdout(io.StringIO()): p.parse_args(argv)\n"
            "    except SystemExit: pass\n"
            "print(sorted(m for m in ('pymoo_fs.algorithms', 'pymoo_fs.comparison', 'sklearn', "
            "'numba', 'pymoo') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_help_shows_each_default_once_and_no_none(capsys):
    from pymoo_fs.cli import main

    for argv in (["compare", "--help"], ["study", "--help"], ["report", "--help"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 0
        text = " ".join(capsys.readouterr().out.split())
        assert "(default: None)" not in text and "(default: False)" not in text
        assert "default 0.9) (default" not in text
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "weight of the error in the weighted objective (default 0.9)" in text
    assert "derived from it and the run index (default: 0)" in text
    assert "default: ISRPSO,MOPSO,CMDPSOFS,NSGA-II" in text


def test_the_help_names_the_default_algorithms_the_comparison_uses(capsys):
    from pymoo_fs.cli import main
    from pymoo_fs.comparison import DEFAULT_ALGORITHMS

    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = "".join(capsys.readouterr().out.split())
    assert f"default:{','.join(DEFAULT_ALGORITHMS)})" in text


@pytest.mark.parametrize("option, value, message", [
    ("--pop-size", "0", "--pop-size must be an int >= 2, got 0"),
    ("--runs", "0", "--runs must be a positive int, got 0"),
    ("--generations", "-1", "--generations must be an int >= 2, got -1"),
    ("--test-size", "2", "--test-size must be a float strictly between 0 and 1, got 2.0"),
    ("--n-neighbors", "0", "--n-neighbors must be a positive int, got 0"),
    ("--folds", "1", "--folds must be an int >= 2 or 'loo', got 1"),
    ("--objective", "foo", "argument --objective: invalid choice: 'foo' (choose from"),
])
def test_compare_errors_name_the_command_line_option(tmp_path, capsys, option, value, message):
    from pymoo_fs.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["compare", "--dataset", "sonar", option, value, "--out", str(tmp_path / "o")])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("pymoo-fs compare: error: ") and message in err
    assert "pop_size" not in err and "n_neighbors" not in err and "inner_cv" not in err


def test_algorithms_command_lists_the_registry(capsys):
    from pymoo_fs.algorithms.registry import algorithm_names
    from pymoo_fs.cli import main

    assert main(["algorithms"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["name", "objectives"]
    assert [line.split()[0] for line in lines[1:]] == list(algorithm_names())
    assert main(["algorithms", "--objectives", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert [line.split()[0] for line in lines] == list(algorithm_names(2))
    assert all(line.split()[1] == "2" for line in lines)
