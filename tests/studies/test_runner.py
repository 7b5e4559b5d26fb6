"""Running studies: the store, resuming after a kill, workers and Dask give the same files."""

import filecmp
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from pymoo_fs.studies import (ResultStore, RunKey, StudySpecError, execute_run, load_study,
                              plan_runs, run_study)

SPEC = """\
name = "tiny"
seed = 7
runs = 2
datasets = ["sonar"]
protocol = "S003"

[budget]
n_gen = 5

[[algorithms]]
name = "CMDPSOFS"
pop_size = 8

[[algorithms]]
name = "NSGA-II"
pop_size = 8
"""


def _files(directory):
    root = Path(directory) / "runs"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*.json"))


def _same_run_files(a, b):
    names = _files(a)
    assert names == _files(b) and names
    _, mismatch, errors = filecmp.cmpfiles(Path(a) / "runs", Path(b) / "runs", names,
                                           shallow=False)
    assert not mismatch and not errors, mismatch


@pytest.fixture(scope="module")
def spec():
    return load_study(SPEC)


@pytest.fixture(scope="module")
def done(spec, tmp_path_factory):
    directory = tmp_path_factory.mktemp("tiny")
    run_study(spec, directory, progress=False)
    return directory


def test_every_planned_run_is_stored_once(spec, done):
    keys = plan_runs(spec)
    assert len(keys) == 4 and len(set(keys)) == 4
    store = ResultStore(done)
    assert store.finished() == sorted(keys)
    record = store.read_run(RunKey("sonar", "NSGA-II", 1))
    assert record["n_eval"] == 40 and record["n_gen"] == 5
    assert len(record["features"]) == len(record["F_train"]) == len(record["score_test"])
    F = np.array(record["F_train"])
    np.testing.assert_allclose(F[:, 0], 1 - np.array(record["score_train"]))
    np.testing.assert_allclose(F[:, 1], [len(f) / 60 for f in record["features"]])
    assert len(record["trace"]["n_eval"]) == 5 and record["trace"]["n_eval"][-1] == 40
    assert record["seconds"] > 0 and record["n_evaluations"] + record["n_cache_hits"] >= 40
    assert json.loads((Path(done) / "study.json").read_text())["name"] == "tiny"
    reference = json.loads((Path(done) / "reference" / "sonar_fold-00.json").read_text())
    assert reference["n_train"] + reference["n_test"] == 208
    assert reference["classes"] == ["M", "R"]


def test_run_seeds_depend_on_the_run_not_on_its_place(spec, done):
    store = ResultStore(done)
    seeds = {k: store.read_run(k)["seed"] for k in store.finished()}
    assert len(set(seeds.values())) == 4
    record, _ = execute_run(spec, RunKey("sonar", "NSGA-II", 1))  # alone, out of order
    stored = store.read_run(RunKey("sonar", "NSGA-II", 1))
    stored.pop("seconds")
    stored.pop("cpu_seconds")
    assert record == stored


def test_rerunning_a_finished_study_recomputes_nothing(spec, done):
    before = {p: p.stat().st_mtime_ns for p in (Path(done) / "runs").rglob("*.json")}
    lines = []
    run_study(spec, done, progress=False, check=lambda: lines.append(1))
    after = {p: p.stat().st_mtime_ns for p in (Path(done) / "runs").rglob("*.json")}
    assert before == after and not lines


def test_one_and_two_workers_write_identical_run_files(spec, done, tmp_path):
    run_study(spec, tmp_path, n_jobs=2, progress=False)
    _same_run_files(done, tmp_path)


def test_a_dask_local_cluster_writes_identical_run_files(spec, done, tmp_path):
    pytest.importorskip("distributed")
    run_study(spec, tmp_path, n_jobs=2, scheduler="local", progress=False)
    _same_run_files(done, tmp_path)


def test_growing_a_study_keeps_its_runs(spec, done, tmp_path):
    smaller = load_study(SPEC.replace("runs = 2", "runs = 1"))
    run_study(smaller, tmp_path, progress=False)
    assert len(_files(tmp_path)) == 2
    run_study(spec, tmp_path, progress=False)
    _same_run_files(done, tmp_path)


def test_a_changed_spec_is_refused_on_an_existing_directory(done):
    for old, new in (("seed = 7", "seed = 8"), ("n_gen = 5", "n_gen = 6"),
                     ("pop_size = 8\n\n[[", "pop_size = 9\n\n[[")):
        changed = load_study(SPEC.replace(old, new, 1))
        with pytest.raises(StudySpecError, match="different|another configuration"):
            run_study(changed, done, progress=False)


def test_progress_shows_a_bar_and_a_line_per_run(spec, tmp_path):
    import io

    stream = io.StringIO()
    run_study(load_study(SPEC.replace("runs = 2", "runs = 1")), tmp_path, stream=stream)
    text = stream.getvalue()
    assert "[1/2] sonar CMDPSOFS run 1" in text and "[2/2] sonar NSGA-II run 1" in text
    assert "100%" in text


def test_check_stops_the_study_and_keeps_finished_runs(spec, tmp_path):
    calls = []

    def check():
        calls.append(1)
        if len(calls) > 8:  # a few generations into the second run
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_study(spec, tmp_path, progress=False, check=check)
    assert len(_files(tmp_path)) == 1
    assert not list(Path(tmp_path).rglob("*.tmp"))


def test_a_killed_study_resumes_to_byte_identical_run_files(done, tmp_path):
    """SIGKILL the study command mid-way, run it again: the same files as uninterrupted."""
    spec_path = tmp_path / "tiny.toml"
    # slower runs, so that the kill lands between two of them
    spec_path.write_text(SPEC.replace("n_gen = 5", "n_gen = 40").replace("runs = 2",
                                                                          "runs = 3"))
    out = tmp_path / "study"
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    cmd = [sys.executable, "-m", "pymoo_fs", "study", str(spec_path), "--out", str(out),
           "--quiet"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and len(_stored(out)) < 2:
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    stored = _stored(out)
    assert 2 <= len(stored) < 6, "the kill did not land mid-study; adjust the budget"
    kept = {p: p.read_bytes() for p in stored}
    subprocess.run(cmd, env=env, check=True, capture_output=True, timeout=600)
    assert all(p.read_bytes() == data for p, data in kept.items())  # nothing lost or redone
    reference = tmp_path / "reference"
    run_study(load_study(spec_path), reference, progress=False)
    _same_run_files(reference, out)
    assert not list(out.rglob("*.tmp"))


def _stored(out):
    return sorted((Path(out) / "runs").rglob("*.json")) if (Path(out) / "runs").exists() else []


def test_a_users_algorithm_runs_in_a_study_by_name_and_by_reference(tmp_path):
    """Registered at run time in this process only, it still runs in loky workers (they build
    it from its reference); given as "module:Class" it needs no registration at all."""
    from pymoo_fs.algorithms import register, unregister
    from pymoo_fs.studies import AlgorithmSpec, Budget, StudySpec
    from tests.algorithms.user_algorithms import RandomSearch

    register(RandomSearch, "RANDOM-SEARCH")
    try:
        by_name = AlgorithmSpec("random-search", {"pop_size": 4})
        assert by_name.reference == "tests.algorithms.user_algorithms:RandomSearch"
        # by reference, a class registered in this process is labelled by its registered name
        # (issue 43); a second spec of it in the same study needs a label of its own
        assert AlgorithmSpec("tests.algorithms.user_algorithms:RandomSearch").label == \
            "RANDOM-SEARCH"
        by_ref = AlgorithmSpec("tests.algorithms.user_algorithms:RandomSearch",
                               {"pop_size": 4, "density": 0.2}, label="RandomSearch")
        assert (by_name.label, by_ref.label) == ("RANDOM-SEARCH", "RandomSearch")
        spec = StudySpec(name="users", algorithms=[by_name, by_ref], datasets=["sonar"],
                         runs=2, budget=Budget(n_gen=3), protocol="S000")
        one = run_study(spec, tmp_path / "one", progress=False)
        two = run_study(spec, tmp_path / "two", n_jobs=2, progress=False)
        stored = json.loads((tmp_path / "two" / "study.json").read_text())
        assert [a.get("reference") for a in stored["algorithms"]] == [by_name.reference, None]
    finally:
        unregister("RANDOM-SEARCH")
    assert len(one.finished()) == len(two.finished()) == 4
    _same_run_files(tmp_path / "one", tmp_path / "two")


def test_progress_lines_count_solutions_in_the_right_number():
    from pymoo_fs.studies.runner import _count

    assert _count(1, "solution") == "1 solution"
    assert _count(0, "solution") == "0 solutions"
    assert _count(12, "solution") == "12 solutions"


def test_a_session_records_its_workers_command_and_checkout(done):
    session = json.loads((done / "provenance.json").read_text())["sessions"][-1]
    assert session["workers"] == 1 and session["n_jobs"] == 1
    assert isinstance(session["command"], str) and session["command"]
    assert "git_commit" in session


def test_the_eta_sums_each_pending_runs_algorithm_mean():
    import io

    from pymoo_fs.studies.runner import _duration, _Progress

    keys = [RunKey("d", a, r) for a in ("FAST", "SLOW") for r in range(3)]
    bar = _Progress(6, 0, False, io.StringIO(), pending=keys)
    assert bar.left() is None
    bar.done(keys[0], {"features": [[0]], "n_eval": 1}, 2.0)
    assert bar.left() == 5 * 2.0  # nothing of SLOW yet: every pending run at the mean
    bar.done(keys[3], {"features": [[0]], "n_eval": 1}, 60.0)
    assert bar.left() == 2 * 2.0 + 2 * 60.0
    bar.workers = 2
    assert bar.left() == (2 * 2.0 + 2 * 60.0) / 2
    assert (_duration(30), _duration(600), _duration(6000)) == ("30 s", "10 min", "1 h 40 min")
