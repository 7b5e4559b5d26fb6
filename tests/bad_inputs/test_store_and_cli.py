"""Damaged study directories (the store heals, the report names the file), the selector, and
the command line: in process through ``cli.main`` and, for a few cases, in a subprocess that
must end with a one-line message and no traceback."""

import json
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from pymoo_fs import cli
from pymoo_fs.comparison import compare_spec
from pymoo_fs.selector import SwarmFeatureSelector
from pymoo_fs.studies import (ResultStore, RunKey, StoreFileError, load_study, prepare_study,
                              run_study)
from pymoo_fs.studies.report import load_results

from .corpus import Accepts, Case, Raises, check_case, ids

ROOT = Path(__file__).resolve().parents[2]
SPEC = """name = "tiny"
datasets = ["sonar"]
protocol = "S000"
runs = 2
[budget]
n_gen = 2
[[algorithms]]
name = "pso"
pop_size = 4
"""
KEY = RunKey("sonar", "PSO", 1, 0)


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    """A finished two-run study (never modified: tests work on copies)."""
    base = tmp_path_factory.mktemp("study")
    (base / "tiny.toml").write_text(SPEC)
    run_study(load_study(base / "tiny.toml"), base / "out", progress=False)
    return base / "out"


@pytest.fixture
def copy(study, tmp_path):
    out = tmp_path / "out"
    shutil.copytree(study, out)
    return out


DAMAGES = {
    "truncated": lambda b: b[: len(b) // 2],
    "empty": lambda b: b"",
    "not UTF-8": lambda b: b"\xff\xfe" + b,
    "a JSON list": lambda b: b"[1, 2]\n",
    "a key missing": lambda b: json.dumps({k: v for k, v in json.loads(b).items()
                                           if k != "features"}).encode(),
    "another run": lambda b: json.dumps({**json.loads(b), "run": 0}).encode(),
    "lengths disagree": lambda b: json.dumps({**json.loads(b), "F_test": []}).encode(),
}
REASONS = {
    "truncated": r"not valid JSON \(.* truncated or corrupt\)",
    "empty": r"not valid JSON",
    "not UTF-8": r"not UTF-8 text \(byte 0\)",
    "a JSON list": r"holds a JSON list, not an object",
    "a key missing": r"lacks the key\(s\) features",
    "another run": r"holds the run of another run \(0, expected 1\)",
    "lengths disagree": r"its F_test does not hold one entry per solution",
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_run_file_is_redone_byte_identical_and_the_study_says_so(copy, damage):
    store = ResultStore(copy)
    path = store.run_path(KEY)
    good = path.read_bytes()
    path.write_bytes(DAMAGES[damage](good))
    (damaged,) = store.damaged()
    assert damaged.path == path and isinstance(damaged, ValueError)
    with pytest.raises(StoreFileError, match=rf"run-001_fold-00\.json is damaged: "
                                             rf"{REASONS[damage]}"):
        load_results(copy)
    with pytest.warns(UserWarning, match=rf"run file .*run-001_fold-00\.json is damaged "
                                         rf"\({REASONS[damage]}.*\): the run is made again"):
        run_study(load_study(SPEC), copy, progress=False)
    assert path.read_bytes() == good  # healed: the same bytes as the first time
    assert store.damaged() == []
    assert len(load_results(copy).records) == 2


def test_damaged_reference_timing_and_provenance_files(copy):
    store = ResultStore(copy)
    reference = store.reference_path("sonar", 0)
    good = reference.read_bytes()
    reference.write_text("{")
    with pytest.raises(StoreFileError, match=r"sonar_fold-00\.json is damaged: not valid JSON"):
        load_results(copy)
    with pytest.warns(UserWarning, match=r"reference file .*sonar_fold-00\.json is damaged"):
        prepare_study(load_study(SPEC), copy)
    assert reference.read_bytes() == good
    store.timing_path(KEY).write_text("garbage")  # the timing is not part of the result
    assert np.isnan(store.read_run(KEY)["seconds"])
    store.provenance_path.write_text("{")
    with pytest.raises(StoreFileError, match=r"provenance\.json is damaged"):
        store.read_provenance()
    store.add_session({"started": "now"})  # the damaged file is kept aside, not lost
    assert (copy / "provenance.json.damaged").read_text() == "{"
    assert store.read_provenance() == {"sessions": [{"started": "now"}]}


def test_a_damaged_study_json_is_named(copy):
    (copy / "study.json").write_text('{"name": ')
    with pytest.raises(StoreFileError, match=r"study\.json is damaged: not valid JSON"):
        prepare_study(load_study(SPEC), copy)
    with pytest.raises(StoreFileError, match=r"study\.json is damaged"):
        load_results(copy)


def test_identical_runs_still_write_identical_files(study, tmp_path):
    again = tmp_path / "again"
    run_study(load_study(SPEC), again, progress=False)
    for path in sorted((study / "runs").rglob("*.json")):
        assert (again / path.relative_to(study)).read_bytes() == path.read_bytes()


# ------------------------------------------------------------------ the command line
def _main(*argv):
    return cli.main([str(a) for a in argv])


CLI_CASES = [
    ("compare --alpha with the Pareto objective", ["compare", "--alpha", "0.5"], 2,
     r"--alpha is a weight of objective 'weighted', not of 'pareto'"),
    ("compare --mu with the weighted objective",
     ["compare", "--objective", "weighted", "--mu", "0.3"], 2,
     r"--mu is a weight of objective 'fitb', not of 'weighted'"),
    ("compare --runs 0", ["compare", "--runs", "0"], 2, r"--runs must be a positive int, got 0"),
    ("compare --runs abc", ["compare", "--runs", "abc"], 2,
     r"argument --runs: invalid int value: 'abc'"),
    ("compare --folds x", ["compare", "--folds", "x"], 2,
     r"argument --folds: expected an int or 'loo', got 'x'"),
    ("compare --test-size 2", ["compare", "--test-size", "2"], 2,
     r"--test-size must be a float strictly between 0 and 1, got 2.0"),
    ("compare --seed -1", ["compare", "--seed", "-1"], 2, r"--seed must be an int in"),
    ("compare --reference not among the algorithms", ["compare", "--reference", "PSO"], 2,
     r"--reference 'PSO' is not one of the algorithms"),
    ("compare --algorithms ''", ["compare", "--algorithms", ""], 2,
     r"--algorithms must name at least one algorithm"),
    ("compare an unknown dataset", ["compare", "--dataset", "no-such-data"], 2,
     r"unknown dataset name 'no-such-data'"),
    ("unknown command", ["frobnicate"], 2, r"invalid choice: 'frobnicate'"),
    ("study of a directory", ["study", "{tmp}"], 2, r"study file .* is a directory"),
    ("study of a missing file", ["study", "{tmp}/none.toml"], 2, r"study file not found"),
    ("report of a non-study", ["report", "{tmp}"], 2, r"is not a study directory"),
]


@pytest.mark.parametrize("argv, status, message", [c[1:] for c in CLI_CASES],
                         ids=[c[0] for c in CLI_CASES])
def test_command_line_refuses_with_one_line(argv, status, message, tmp_path, capsys):
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    if argv[0] == "compare":
        argv += ["--out", str(tmp_path / "cmp")]
    with pytest.raises(SystemExit) as info:
        _main(*argv)
    assert info.value.code == status
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) <= 3 and "Traceback" not in err
    re_search(message, err)


def test_compare_reference_applies_to_the_pareto_table(tmp_path, capsys):
    out = tmp_path / "cmp"
    assert _main("compare", "--dataset", "sonar", "--algorithms", "nsga2,mopso", "--runs", "1",
                 "--generations", "2", "--pop-size", "4", "--reference", "mopso",
                 "--out", out) == 0
    text = capsys.readouterr().out
    assert "MOPSO (reference)" in text and "NSGA-II (reference)" not in text
    assert json.loads((out / "study.json").read_text())["reference"] == "MOPSO"


def test_report_of_a_damaged_run_file_names_it(copy, capsys):
    ResultStore(copy).run_path(KEY).write_text('{"dataset": "sonar", ')
    with pytest.raises(SystemExit) as info:
        _main("report", copy, "--no-tsne")
    err = capsys.readouterr().err
    assert info.value.code == 2 and "Traceback" not in err
    assert re_search(r"pymoo-fs report: error: .*run-001_fold-00\.json is damaged: not valid "
                     r"JSON .*; run 'pymoo-fs study' on the study's spec again", err)


def re_search(pattern, text):
    """``re.search``, failing the test with both texts when nothing matches."""
    return re.search(pattern, text) or pytest.fail(f"{pattern!r} not in {text!r}")


def _subprocess(*argv):
    return subprocess.run([sys.executable, "-m", "pymoo_fs", *map(str, argv)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def test_no_traceback_in_a_subprocess(copy, tmp_path):
    ResultStore(copy).run_path(KEY).write_bytes(b"\x00" * 10)
    (tmp_path / "bad.csv.gz").write_bytes(b"not gzip")
    for argv, pattern in [
        (["report", copy, "--no-tsne"], r"run-001_fold-00\.json is damaged"),
        (["compare", "--dataset", tmp_path / "bad.csv.gz", "--out", tmp_path / "c"],
         r"bad\.csv\.gz: the file is truncated or not gzip data"),
        (["study", tmp_path], r"is a directory"),
        (["compare", "--alpha", "0.5", "--out", tmp_path / "d"], r"--alpha is a weight"),
    ]:
        done = _subprocess(*argv)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr and re_search(pattern, done.stderr)


@pytest.mark.slow
def test_an_unreachable_dask_scheduler_is_named(tmp_path):
    with pytest.raises(ValueError, match=r"cannot reach the Dask scheduler 'tcp://127\.0\.0\.1:9'"):
        run_study(load_study(SPEC), tmp_path / "dask", n_jobs=2,
                  scheduler="tcp://127.0.0.1:9", progress=False)


# ------------------------------------------------------------------ the selector
RNG = np.random.default_rng(5)
XS, YS = RNG.random((30, 4)), np.repeat([0, 1], 15)


def _fit(**params):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return SwarmFeatureSelector(**{"n_gen": 2, "pop_size": 4, **params}).fit(XS, YS)


SELECTOR_CASES = [
    Case("SwarmFeatureSelector", "select True", "bool for int", lambda: _fit(select=True),
         Raises(ValueError, "select must be an int .*got True: a bool is not a number")),
    Case("SwarmFeatureSelector", "n_gen True", "bool for int", lambda: _fit(n_gen=True),
         Raises(ValueError, "n_gen must be an int .*got True")),
    Case("SwarmFeatureSelector", "n_jobs True", "bool for int", lambda: _fit(n_jobs=True),
         Raises(ValueError, "n_jobs must be an int .*got True")),
    Case("SwarmFeatureSelector", "alias nsga2", "odd but valid",
         lambda: _fit(algorithm="nsga2"), Accepts(lambda s: s.support_.any() or pytest.fail())),
    Case("SwarmFeatureSelector", "alias CSO", "odd but valid",
         lambda: _fit(algorithm="cso", objective="weighted"),
         Accepts(lambda s: s.support_.any() or pytest.fail())),
    Case("SwarmFeatureSelector", "unknown algorithm", "out of range",
         lambda: _fit(algorithm="pso2000"), Raises(ValueError, "unknown algorithm 'pso2000'")),
    Case("SwarmFeatureSelector", "single-objective algorithm for pareto", "out of range",
         lambda: _fit(algorithm="pso"),
         Raises(ValueError, "algorithm='PSO' does not suit objective='pareto'")),
    Case("SwarmFeatureSelector", "unknown keyword", "unknown keyword",
         lambda: SwarmFeatureSelector(generations=3),
         Raises(TypeError, "unexpected keyword argument 'generations'")),
    Case("SwarmFeatureSelector", "NaN in X", "nan/inf",
         lambda: SwarmFeatureSelector(n_gen=2).fit(np.where(XS > 0.9, np.nan, XS), YS),
         Raises(ValueError, "Input X contains NaN",
                delegated="scikit-learn's validate_data, as every scikit-learn estimator")),
    Case("SwarmFeatureSelector", "roc_auc on 3 classes", "out of range",
         lambda: SwarmFeatureSelector(n_gen=2, pop_size=4, scoring="roc_auc").fit(
             XS, np.repeat([0, 1, 2], 10)),
         Raises(ValueError, r"scoring='roc_auc' gave no score on inner fold 0")),
]


@pytest.mark.parametrize("case", SELECTOR_CASES, ids=ids(SELECTOR_CASES))
def test_selector_input(case):
    check_case(case)


@pytest.mark.parametrize("params, name", [
    (dict(tol=float("nan")), "tol"), (dict(alpha=float("nan")), "alpha"),
    (dict(max_time=float("inf")), "max_time"), (dict(select=0), "select"),
    (dict(cv=True), "cv"), (dict(algorithm=3), "algorithm")])
def test_selector_parameter_table_names_the_parameter(params, name):
    with pytest.raises(ValueError, match=rf"The '{name}' parameter of SwarmFeatureSelector"):
        _fit(**params)


COMPARE_CASES = [
    Case("compare_spec", "algorithms as one string", "wrong type",
         lambda: compare_spec(algorithms="NSGA-II"),
         Raises(ValueError, r"algorithms must be a list of names, got the string 'NSGA-II'")),
    Case("compare_spec", "dataset None", "wrong type", lambda: compare_spec(dataset=None),
         Raises(ValueError, "dataset must be a name or a path, got NoneType")),
    Case("compare_spec", "runs True", "bool for int", lambda: compare_spec(runs=True),
         Raises(ValueError, "runs must be a positive int, got True")),
    Case("compare_spec", "generations as a string", "string for number",
         lambda: compare_spec(generations="10"),
         Raises(ValueError, "generations must be an int >= 2, got '10'")),
    Case("compare_spec", "alpha with the Pareto objective", "unknown keyword",
         lambda: compare_spec(alpha=0.5),
         Raises(ValueError, "alpha is a weight of objective 'weighted', not of 'pareto'")),
    Case("compare_spec", "alpha nan", "nan/inf",
         lambda: compare_spec(objective="weighted", algorithms=["PSO"], alpha=float("nan")),
         Raises(ValueError, r"alpha must be a number in \[0, 1\], got nan")),
    Case("compare_spec", "unknown keyword", "unknown keyword", lambda: compare_spec(bogus=1),
         Raises(TypeError, "unexpected keyword argument 'bogus'")),
    Case("compare_spec", "reference on the Pareto objective", "odd but valid",
         lambda: compare_spec(algorithms=["nsga2", "mopso"], reference="mopso"),
         Accepts(lambda spec: spec.reference_label == "MOPSO" or pytest.fail())),
]


@pytest.mark.parametrize("case", COMPARE_CASES, ids=ids(COMPARE_CASES))
def test_compare_spec_input(case):
    check_case(case)


def test_compare_into_a_directory_with_a_damaged_study_json(tmp_path, capsys):
    out = tmp_path / "cmp"
    out.mkdir()
    (out / "study.json").write_text("{")
    with pytest.raises(SystemExit) as info:
        _main("compare", "--dataset", "sonar", "--algorithms", "nsga2", "--runs", "1",
              "--generations", "2", "--pop-size", "4", "--out", out)
    err = capsys.readouterr().err
    assert info.value.code == 2 and "Traceback" not in err
    re_search(r"pymoo-fs compare: error: .*study\.json is damaged: not valid JSON", err)


def test_stray_files_under_runs_are_not_runs(copy):
    folder = ResultStore(copy).run_path(KEY).parent
    (folder / "run-old_fold-00.json").write_text("{}")
    (folder / "run-002_fold-00.json").mkdir()
    assert ResultStore(copy).finished() == [RunKey("sonar", "PSO", 0, 0), KEY]
    assert len(load_results(copy).records) == 2


@pytest.mark.parametrize("edit, pattern", [
    (lambda s: {**s, "runs": "two"}, r"its runs is not a positive int \('two'\)"),
    (lambda s: {**s, "runs": True}, r"its runs is not a positive int \(True\)"),
    (lambda s: {**s, "algorithms": []}, "its algorithms are not a non-empty list"),
    (lambda s: {**s, "algorithms": ["PSO"]}, "its algorithms are not a non-empty list"),
    (lambda s: {**s, "datasets": "sonar"}, "its datasets are not a non-empty list of names"),
    (lambda s: {**s, "protocol": 5}, r"its protocol is not a table \(5\)"),
    (lambda s: {k: v for k, v in s.items() if k != "runs"}, r"lacks the key\(s\) runs"),
], ids=["runs str", "runs bool", "no algorithm", "algorithm not a table", "datasets str",
        "protocol int", "runs missing"])
def test_a_study_json_with_wrong_values_is_named(copy, edit, pattern):
    path = copy / "study.json"
    path.write_text(json.dumps(edit(json.loads(path.read_text()))))
    with pytest.raises(StoreFileError, match=rf"study\.json is damaged: {pattern}"):
        load_results(copy)


def test_runs_without_their_reference_file_are_not_dropped_silently(copy, capsys):
    ResultStore(copy).reference_path("sonar", 0).unlink()
    with pytest.raises(StoreFileError, match=r"sonar_fold-00\.json is missing: runs of its "
                                             r"split are stored \(sonar PSO run 1\)"):
        load_results(copy)
    with pytest.raises(SystemExit):
        _main("report", copy, "--no-tsne")
    re_search(r"is missing: .*; run 'pymoo-fs study' on the study's spec again to compute it",
              capsys.readouterr().err)


@pytest.mark.parametrize("field, value, pattern", [
    ("features", [[999]], r"its features are not lists of feature indices in \[0, 60\)"),
    ("features", [[]], "its features are not lists of feature indices"),
    ("features", [[True]], "its features are not lists of feature indices"),
    ("F_test", [["x", None]], "its F_test holds something other than numbers"),
    ("score_train", ["0.5"], "its score_train holds something other than numbers"),
    ("trace", "nope", "its n_eval or trace is not what a run writes"),
    ("n_eval", None, "its n_eval or trace is not what a run writes"),
])
def test_a_run_file_with_wrong_values_is_damaged(copy, field, value, pattern):
    store = ResultStore(copy)
    path = store.run_path(KEY)
    record = json.loads(path.read_text())
    record[field] = value if field in ("trace", "n_eval") else value * len(record["features"])
    path.write_text(json.dumps(record))
    with pytest.raises(StoreFileError, match=rf"run-001_fold-00\.json is damaged: {pattern}"):
        load_results(copy)
