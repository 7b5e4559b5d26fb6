"""A study's store is evidence: changed data, foreign and impossible run files, odd files.

The categories are those of :mod:`tests.bad_inputs.corpus`: a store resumed after its data,
its folder, ``PYMOO_FS_DATA`` or the working directory changed ("odd but valid": refused by
name, or stored as a new dataset when asked); run files of another study or with values no
run gives ("corrupt file", "out of range"); devices, pipes and non-UTF-8 manifests given as
data ("corrupt file", "wrong type").
"""

import json
import os
import re
import shutil
import warnings
from pathlib import Path

import numpy as np
import pytest

from pymoo_fs import cli
from pymoo_fs.datasets import load_dataset
from pymoo_fs.studies import (ResultStore, RunKey, StoreFileError, StudySpecError, load_study,
                              run_study)
from pymoo_fs.studies.identity import DataChangedError, ForeignRunError
from pymoo_fs.studies.protocols import data_fingerprint
from pymoo_fs.studies.report import load_results

SPEC = """name = "ev"
seed = 3
runs = 1
datasets = ["{dataset}"]
protocol = "S003"
[budget]
n_gen = 2
[[algorithms]]
name = "NSGA-II"
pop_size = 4
"""
KEY = RunKey("son", "NSGA-II", 0, 0)


def _write_csv(path, X, labels):
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = [",".join([f"f{i}" for i in range(X.shape[1])] + ["class"])]
    lines += [",".join([repr(float(v)) for v in row] + [str(c)]) for row, c in zip(X, labels)]
    path.write_text("\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def sonar10():
    data = load_dataset("sonar")
    return data.X[:, :8].copy(), data.classes[data.y]


@pytest.fixture
def copy(sonar10, tmp_path):
    """A finished study on ``data/son.csv`` beside its spec (made anew for each test: a copy
    elsewhere would read its data from another folder, which a resume refuses)."""
    base = tmp_path / "s"
    _write_csv(base / "data" / "son.csv", *sonar10)
    (base / "ev.toml").write_text(SPEC.format(dataset="data/son.csv"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_study(load_study(base / "ev.toml"), base / "out", progress=False)
    return base


def _mtimes(directory):
    return {p: p.stat().st_mtime_ns for p in (directory / "runs").rglob("*.json")}


# ------------------------------------------------------------------ data identity
def test_the_store_records_each_datasets_fingerprint_with_the_study_and_every_run(copy):
    study = json.loads((copy / "out" / "study.json").read_text())
    fp = study["data"]["son"]
    assert fp["source"] == str((copy / "data" / "son.csv").resolve())
    assert (fp["n_samples"], fp["n_features"], fp["n_classes"]) == (208, 8, 2)
    assert fp["sha256"] == data_fingerprint(load_dataset(copy / "data" / "son.csv"))["sha256"]
    record = ResultStore(copy / "out").read_run(KEY)
    assert record["data_sha256"] == fp["sha256"] and record["seed"] > 0
    assert record["config"]["study_seed"] == 3 and record["config"]["params"] == {"pop_size": 4}


def test_a_fingerprint_tells_one_value_apart_and_ignores_the_format(sonar10, tmp_path):
    X, labels = sonar10
    _write_csv(tmp_path / "a.csv", X, labels)
    _write_csv(tmp_path / "sub" / "a.csv", X, labels)
    Y = X.copy()
    Y[5, 3] = np.nextafter(Y[5, 3], 2)
    _write_csv(tmp_path / "b.csv", Y, labels)
    a, a2, b = (data_fingerprint(load_dataset(tmp_path / p)) for p in
                ("a.csv", "sub/a.csv", "b.csv"))
    assert a["sha256"] == a2["sha256"] and a["source"] != a2["source"]
    assert a["sha256"] != b["sha256"]
    flipped = labels.copy()
    flipped[0] = "R" if flipped[0] == "M" else "M"
    _write_csv(tmp_path / "c.csv", X, flipped)
    assert data_fingerprint(load_dataset(tmp_path / "c.csv"))["sha256"] != a["sha256"]


def test_an_edited_data_file_is_refused_by_name(copy, sonar10):
    X, labels = sonar10
    X = X.copy()
    X[0, 0] += 0.25
    _write_csv(copy / "data" / "son.csv", X, labels)
    before = _mtimes(copy / "out")
    with pytest.raises(DataChangedError) as info:
        run_study(load_study(copy / "ev.toml"), copy / "out", progress=False)
    message = str(info.value)
    assert "dataset 'son'" in message and "the content" in message
    assert str((copy / "data" / "son.csv").resolve()) in message and "son-2" in message
    assert _mtimes(copy / "out") == before


def test_the_command_line_refuses_changed_data_in_one_line(copy, sonar10, capsys):
    X, labels = sonar10
    _write_csv(copy / "data" / "son.csv", X[::2], labels[::2])
    with pytest.raises(SystemExit) as info:
        cli.main(["study", str(copy / "ev.toml"), "--out", str(copy / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and len(err.strip().splitlines()) == 1
    assert "dataset 'son'" in err and "samples 208 -> 104" in err and "--data-change new" in err


def test_changed_data_stored_as_a_new_dataset_when_asked(copy, sonar10):
    X, labels = sonar10
    _write_csv(copy / "data" / "son.csv", X[:, ::-1].copy(), labels)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        store = run_study(load_study(copy / "ev.toml"), copy / "out", progress=False,
                          data_change="new")
    assert {k.dataset for k in store.finished()} == {"son", "son-2"}
    study = json.loads((copy / "out" / "study.json").read_text())
    assert study["data"]["son"]["sha256"] != study["data"]["son-2"]["sha256"]
    before = _mtimes(copy / "out")
    run_study(load_study(copy / "ev.toml"), copy / "out", progress=False, data_change="new")
    assert _mtimes(copy / "out") == before  # the same new data: the same name, nothing redone
    results = load_results(copy / "out")
    assert results.datasets == ["son", "son-2"] and not results.missing


def test_another_pymoo_fs_data_is_refused_and_a_moved_copy_accepted_when_asked(
        sonar10, tmp_path, monkeypatch):
    X, labels = sonar10
    _write_csv(tmp_path / "one" / "son.csv", X, labels)
    _write_csv(tmp_path / "two" / "son.csv", X[:, :6].copy(), labels)
    _write_csv(tmp_path / "three" / "son.csv", X, labels)
    spec = SPEC.format(dataset="son")
    monkeypatch.setenv("PYMOO_FS_DATA", str(tmp_path / "one"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_study(load_study(spec), tmp_path / "out", progress=False)
    monkeypatch.setenv("PYMOO_FS_DATA", str(tmp_path / "two"))
    with pytest.raises(DataChangedError, match=r"dataset 'son'.*features 8 -> 6.*one.*two"):
        run_study(load_study(spec), tmp_path / "out", progress=False)
    monkeypatch.setenv("PYMOO_FS_DATA", str(tmp_path / "three"))
    with pytest.raises(DataChangedError, match=r"the source file changed.*--data-change moved"):
        run_study(load_study(spec), tmp_path / "out", progress=False)
    with pytest.warns(UserWarning, match="the same data is now read from"):
        run_study(load_study(spec), tmp_path / "out", progress=False, data_change="moved")
    study = json.loads((tmp_path / "out" / "study.json").read_text())
    assert study["data"]["son"]["source"] == str((tmp_path / "three" / "son.csv").resolve())


def test_relative_paths_resolve_against_the_spec_folder_not_the_working_directory(
        copy, sonar10, tmp_path, monkeypatch):
    elsewhere = tmp_path / "elsewhere"
    _write_csv(elsewhere / "data" / "son.csv", sonar10[0][:, :5].copy(), sonar10[1])
    monkeypatch.chdir(elsewhere)  # holds another data/son.csv: not the spec's
    spec = load_study(copy / "ev.toml")
    assert spec.datasets == (str(copy / "data" / "son.csv"),)
    before = _mtimes(copy / "out")
    run_study(spec, copy / "out", progress=False)
    assert _mtimes(copy / "out") == before
    text = SPEC.format(dataset="data/son.csv")  # TOML text: relative to the working directory
    with pytest.raises(DataChangedError, match="dataset 'son'"):
        run_study(load_study(text), copy / "out", progress=False)


def test_a_store_without_fingerprints_adopts_the_data_on_its_first_resume(copy):
    study_path = copy / "out" / "study.json"
    study = json.loads(study_path.read_text())
    study.pop("data")
    study_path.write_text(json.dumps(study))
    run_path = ResultStore(copy / "out").run_path(KEY)
    record = json.loads(run_path.read_text())
    record.pop("data_sha256")
    run_path.write_text(json.dumps(record))
    with pytest.warns(UserWarning, match=r"holds no data fingerprints.*'son'.*recorded"):
        run_study(load_study(copy / "ev.toml"), copy / "out", progress=False)
    assert "son" in json.loads(study_path.read_text())["data"]
    assert load_results(copy / "out").records[0]["run"] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # adopted once: no second notice
        run_study(load_study(copy / "ev.toml"), copy / "out", progress=False)


def test_a_dataset_table_with_name_and_path_uses_the_name(copy):
    table = f'[{{ name = "mine", path = "{copy}/data/son.csv" }}]'
    spec = load_study(SPEC.replace('["{dataset}"]', table))
    assert spec.dataset_name(spec.datasets[0]) == "mine"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        store = run_study(spec, copy / "named", progress=False)
    assert [k.dataset for k in store.finished()] == ["mine"]
    with pytest.raises(StudySpecError, match=r"key 'datasets.1.name'.*letters"):
        load_study(SPEC.replace('["{dataset}"]', '[{ name = "a b", path = "x.csv" }]'),
                   validate=False)


# ------------------------------------------------------------------ run identity and sanity
def _edit_run(directory, **fields):
    path = ResultStore(directory).run_path(KEY)
    record = json.loads(path.read_text())
    for name, value in fields.items():
        if callable(value):
            value(record)
        else:
            record[name] = value
    path.write_text(json.dumps(record))
    return path


@pytest.mark.parametrize("field, value", [
    ("seed", 12345),
    ("config", lambda r: r["config"].update(study_seed=4)),
    ("config", lambda r: r["config"]["params"].update(pop_size=5)),
    ("data_sha256", "0" * 64),
])
def test_a_run_file_of_another_study_is_refused_by_study_and_report(copy, field, value, capsys):
    path = _edit_run(copy / "out", **{field: value})
    with pytest.raises(ForeignRunError, match=rf"{path}.*its {field}") as info:
        run_study(load_study(copy / "ev.toml"), copy / "out", progress=False)
    assert info.value.path == path
    with pytest.raises(ForeignRunError, match=rf"{path}.*its {field}"):
        load_results(copy / "out")
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["report", str(copy / "out"), "--no-tsne"])
    err = capsys.readouterr().err
    assert exit_info.value.code == 2 and str(path) in err and field in err


IMPOSSIBLE = [
    ("error -3", lambda r: r["F_train"][0].__setitem__(0, -3.0), r"error -3\.0, outside"),
    ("error 1.5", lambda r: r["F_test"][0].__setitem__(0, 1.5), r"error 1\.5, outside"),
    ("ratio 0", lambda r: r["F_train"][0].__setitem__(1, 0.0), r"selection ratio 0\.0"),
    ("ratio 1.2", lambda r: r["F_train"][0].__setitem__(1, 1.2), r"selection ratio 1\.2"),
    ("ratio off", lambda r: r["F_train"][0].__setitem__(1, 1 / 3), r"its mask selects"),
    ("hv 1.15", lambda r: r["trace"]["best"].__setitem__(0, 1.15), r"hypervolume 1\.15"),
    ("score 2", lambda r: r["score_test"].__setitem__(0, 2.0), r"score_test holds 2\.0"),
    ("nan objective", lambda r: r["F_test"][0].__setitem__(0, float("nan")),
     r"not a finite number"),
    ("empty front", lambda r: r.update(features=[], F_train=[], F_test=[], score_train=[],
                                       score_test=[]), r"no solution \(an empty front\)"),
    ("width", lambda r: r.update(n_features=9), r"n_features is 9.*holds 8 features"),
]


@pytest.mark.parametrize("edit, pattern", [c[1:] for c in IMPOSSIBLE],
                         ids=[c[0] for c in IMPOSSIBLE])
def test_impossible_values_are_refused_by_the_report_and_redone_by_the_study(copy, edit,
                                                                             pattern):
    intact = ResultStore(copy / "out").run_path(KEY).read_bytes()
    path = _edit_run(copy / "out", _=edit)
    with pytest.raises(StoreFileError, match=pattern) as info:
        load_results(copy / "out")
    assert info.value.path == path
    with pytest.warns(UserWarning, match=rf"run file {path} is damaged.*{pattern}"):
        run_study(load_study(copy / "ev.toml"), copy / "out", progress=False)
    assert path.read_bytes() == intact


# ------------------------------------------------------------------ odd files given as data
@pytest.mark.parametrize("path, words", [("/dev/null", "a character device")])
def test_a_device_given_as_a_dataset_is_named_as_such(path, words):
    if not os.path.exists(path):
        pytest.skip(f"no {path}")
    with pytest.raises(ValueError, match=rf"{path} is not a regular file but {words}"):
        load_dataset(path)


def test_a_named_pipe_given_as_a_dataset_is_named_as_such(tmp_path):
    fifo = tmp_path / "data.csv"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match=rf"{fifo} is not a regular file but a named pipe"):
        load_dataset(str(fifo))


def test_pymoo_fs_data_naming_a_file_says_so(tmp_path, monkeypatch):
    (tmp_path / "x.csv").write_text("a,b\n1,0\n2,1\n")
    monkeypatch.setenv("PYMOO_FS_DATA", str(tmp_path / "x.csv"))
    with pytest.raises(ValueError, match=r"PYMOO_FS_DATA=.*x\.csv' names a file, not a "
                                         r"directory"):
        load_dataset("nosuchdataset")


def test_a_manifest_that_is_not_utf8_is_named(sonar10, tmp_path):
    _write_csv(tmp_path / "son.csv", *sonar10)
    (tmp_path / "MANIFEST.tsv").write_bytes(b"file\tcitation\nson.csv\t\xff\xfe caf\xe9\n")
    with pytest.raises(ValueError, match=r"MANIFEST\.tsv is not UTF-8 text"):
        load_dataset(tmp_path / "son.csv")


def test_a_report_whose_data_is_gone_says_its_tsne_views_are_left_out(copy, tmp_path):
    from pymoo_fs.studies.report import write_report

    (copy / "data" / "son.csv").unlink()
    with pytest.warns(UserWarning, match=r"dataset 'son': its t-SNE views are left out: its "
                                         r"data cannot be read \(file not found"):
        write_report(copy / "out", tmp_path / "report")
    assert (tmp_path / "report" / "report.md").is_file()


# ------------------------------------------------------------------ nothing left behind
SLOW = """name = "slow"
seed = 1
runs = 4
datasets = ["sonar"]
protocol = "S003"
[budget]
n_gen = 400
[[algorithms]]
name = "NSGA-II"
pop_size = 10
"""


def _workers_started(proc, n, timeout=240):
    """The process ids below ``proc`` once ``n`` of them run (loky's workers and its tracker)."""
    import time

    from pymoo_fs._signals import _descendants

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and proc.poll() is None:
        found = _descendants(proc.pid)
        if len(found) >= n:
            time.sleep(1.0)  # let them start computing
            return _descendants(proc.pid)
        time.sleep(0.1)
    pytest.fail(f"the workers of {proc.args} never started")


def _alive(pids):
    from pymoo_fs._signals import _alive as alive

    return [pid for pid in pids if alive(pid)]


@pytest.mark.parametrize("signame, group, dask", [("SIGTERM", False, False),
                                                  ("SIGTERM", True, False),
                                                  ("SIGHUP", False, False),
                                                  ("SIGTERM", False, True)],
                         ids=["SIGTERM", "SIGTERM-group", "SIGHUP", "SIGTERM-dask"])
def test_a_terminated_study_with_workers_leaves_no_worker_alive(tmp_path, signame, group,
                                                                dask):
    import signal
    import subprocess
    import sys
    import time

    spec = tmp_path / "slow.toml"
    spec.write_text(SLOW)
    out = tmp_path / "out"
    if dask:
        pytest.importorskip("distributed")
    scheduler = ["--scheduler", "local"] if dask else []
    proc = subprocess.Popen([sys.executable, "-m", "pymoo_fs", "study", str(spec), "--out",
                             str(out), "--jobs", "2", "--quiet", *scheduler],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        workers = _workers_started(proc, 3 if dask else 2)  # Dask: two workers, a tracker
        number = getattr(signal, signame)
        if group:
            os.killpg(proc.pid, number)
        else:
            proc.send_signal(number)
        _, err = proc.communicate(timeout=60)
        time.sleep(5)
        assert not _alive(workers), (workers, err)
        assert proc.returncode == 128 + number, err
        assert f"stopped by {signame}" in err and "runs are stored in" in err, err
        assert "Traceback" not in err
        assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


LIBRARY = """
import sys
from pymoo_fs.studies import load_study, run_study
run_study(load_study(sys.argv[1]), sys.argv[2], n_jobs=2, progress=False)
"""


def test_run_study_with_workers_stops_them_on_sigterm_outside_the_command_line(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    spec = tmp_path / "slow.toml"
    spec.write_text(SLOW)
    proc = subprocess.Popen([sys.executable, "-c", LIBRARY, str(spec), str(tmp_path / "out")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        workers = _workers_started(proc, 2)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=60)
        time.sleep(5)
        assert proc.returncode == -signal.SIGTERM  # ended as the signal ends a process
        assert not _alive(workers)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def test_temporaries_of_a_killed_process_are_swept_and_a_live_ones_kept(tmp_path):
    import subprocess
    import sys

    from pymoo_fs._files import commit_files

    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()
    stale = tmp_path / f".pymoo-fs-write-{dead}-abcd1234"
    old = tmp_path / ".pymoo-fs-write-k2j3h4g5"  # an earlier version's name: no process id
    live = tmp_path / f".pymoo-fs-write-{os.getpid()}-zzzz"
    partial = tmp_path / f".results.csv.{dead}.tmp"
    for d in (stale, old, live):
        d.mkdir()
        (d / "fronts.png").write_bytes(b"half")
    partial.write_text("half")
    commit_files(tmp_path, {"a.txt": lambda p: p.write_text("a")})
    assert not stale.exists() and not old.exists() and not partial.exists()
    assert live.is_dir() and (tmp_path / "a.txt").read_text() == "a"
    store_dir = tmp_path / "study"
    (store_dir / "runs" / "x" / "A").mkdir(parents=True)
    left = store_dir / "runs" / "x" / "A" / f".run-000_fold-00.json.{dead}.tmp"
    left.write_text("{")
    ResultStore(store_dir)
    assert not left.exists()


@pytest.mark.parametrize("signame", ["SIGTERM", "SIGHUP"])
def test_a_signal_while_compare_writes_leaves_no_staging_directory(tmp_path, signame):
    import signal

    from ..test_cli_interrupt import DRIVER, OLD, SMALL, Command, _old_outputs

    out = tmp_path / "results"
    _old_outputs(out)
    command = Command([str(tmp_path / "go"), "compare", *SMALL, "--out", str(out)],
                      script=DRIVER)
    command.wait_for("figure staged")
    assert [p for p in out.iterdir() if p.name.startswith(".pymoo-fs-write-")]
    command.proc.send_signal(getattr(signal, signame))
    status, stdout, stderr = command.finish()
    assert status == 128 + getattr(signal, signame), stderr
    assert f"stopped by {signame}" in stderr and "Traceback" not in stderr
    assert not [p for p in out.rglob("*") if ".pymoo-fs-write-" in str(p)
                or p.name.endswith(".tmp")]
    for name, content in OLD.items():
        assert (out / name).read_bytes() == content


# ------------------------------------------------------------------ unclear errors, one line
def test_a_full_disk_under_study_is_one_line_naming_the_file_and_what_is_stored(
        copy, monkeypatch, capsys):
    import errno

    from pymoo_fs.studies import store as store_module

    real = store_module.write_json_atomic

    def full(path, obj):
        if "runs" in Path(path).parts:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return real(path, obj)

    monkeypatch.setattr(store_module, "write_json_atomic", full)
    (copy / "ev.toml").write_text(SPEC.format(dataset="data/son.csv").replace("runs = 1",
                                                                              "runs = 2"))
    with pytest.raises(SystemExit) as info:
        cli.main(["study", str(copy / "ev.toml"), "--out", str(copy / "out"), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert info.value.code == 1 and len(err) == 1, err
    assert "run-001_fold-00.json: No space left on device; free space on that disk" in err[0]
    assert "1 of 2 runs are stored in" in err[0] and "then run the same command" in err[0]


def test_a_file_size_limit_under_study_is_one_line(copy, tmp_path):
    import resource
    import subprocess
    import sys

    def limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (400, 400))

    proc = subprocess.run([sys.executable, "-m", "pymoo_fs", "study", str(copy / "ev.toml"),
                           "--out", str(tmp_path / "other"), "--quiet"], preexec_fn=limit,
                          capture_output=True, text=True, timeout=300)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode in (1, 2) and "Traceback" not in proc.stderr, proc.stderr
    assert "File too large" in lines[-1] and str(tmp_path / "other") in lines[-1], lines


def test_compare_to_a_full_stdout_is_one_line(tmp_path):
    import subprocess
    import sys

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full")
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "pymoo_fs", "compare", "--dataset",
                               "sonar", "--runs", "1", "--generations", "2", "--pop-size", "4",
                               "--algorithms", "nsga2", "--out", str(tmp_path / "c")],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    assert lines[-1].startswith("pymoo-fs compare: error: cannot write standard output: No "
                                "space left on device; redirect the output"), lines
    assert (tmp_path / "c" / "results.csv").is_file()


def test_a_truncated_download_is_named_with_its_url_and_sizes(tmp_path):
    import http.server
    import threading

    from pymoo_fs.datasets import fetch_datasets

    from ..datasets.test_fetch import CASES, _setup

    table, _ = _setup(tmp_path, {"csv": CASES["csv"]})

    class Cut(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"f0,cla")
            self.wfile.flush()
            self.close_connection = True

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Cut)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        with pytest.raises(OSError, match=r"cannot download http://127\.0\.0\.1:\d+/.*part%200"
                                          r"\.bin: the download was cut short after 6 of 1000 "
                                          r"bytes; nothing written"):
            fetch_datasets("toy_csv", tmp_path / "data",
                           mirror=f"http://127.0.0.1:{server.server_port}", sources=table)
    finally:
        server.shutdown()
    assert not (tmp_path / "data" / "toy_csv.csv.gz").exists()


def test_datasets_fetch_into_a_pymoo_fs_data_that_is_a_file_names_the_variable(
        tmp_path, monkeypatch, capsys):
    (tmp_path / "f").write_text("x")
    monkeypatch.setenv("PYMOO_FS_DATA", str(tmp_path / "f"))
    with pytest.raises(SystemExit) as info:
        cli.main(["datasets", "fetch", "wine"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and "PYMOO_FS_DATA" in err and "is a file" in err


def test_a_read_only_install_without_a_writable_cache_gets_a_temporary_one(monkeypatch):
    import numba.core.config

    from pymoo_fs import compilation

    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(numba.core.config, "CACHE_DIR", numba.core.config.CACHE_DIR)
    monkeypatch.setattr(compilation, "_writable", lambda d: "pymoo-fs-numba" in d)
    with pytest.warns(UserWarning, match=r"__pycache__, .*numba cannot be written: numba "
                                         r"caches pymoo-fs's kernels in .*pymoo-fs-numba"):
        chosen = compilation.ensure_cache_dir()
    assert os.environ["NUMBA_CACHE_DIR"] == chosen == numba.core.config.CACHE_DIR
    monkeypatch.setattr(compilation, "_writable", lambda d: False)
    with pytest.raises(RuntimeError, match="set NUMBA_CACHE_DIR to a writable directory"):
        compilation.ensure_cache_dir()


# ------------------------------------------------------------------ every registered algorithm
def _every_algorithm_spec(data, seed, n_obj):
    from pymoo_fs.algorithms import algorithm_names
    from pymoo_fs.algorithms.registry import n_objectives

    tables = "".join(f'[[algorithms]]\nname = "{n}"\npop_size = 5\n\n'
                     for n in algorithm_names() if n_objectives(n) == n_obj)
    return (f'name = "all{n_obj}"\nseed = {seed}\nruns = 1\ndatasets = ["{data}"]\n'
            f'protocol = "{"S003" if n_obj == 2 else "S000"}"\n[budget]\nn_gen = 2\n\n{tables}')


@pytest.fixture(scope="module")
def every_algorithm(sonar10, tmp_path_factory):
    """Studies of every registered algorithm (one run each), seeds 1 and 2, per objective
    count: {(n_obj, seed): directory}."""
    base = tmp_path_factory.mktemp("every")
    _write_csv(base / "son.csv", *sonar10)
    out = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n_obj in (1, 2):
            for seed in (1, 2):
                spec = load_study(_every_algorithm_spec(base / "son.csv", seed, n_obj))
                out[n_obj, seed] = (spec, base / f"s{n_obj}-{seed}")
                run_study(spec, out[n_obj, seed][1], progress=False)
    return out


def _labels():
    from pymoo_fs.algorithms import algorithm_names
    from pymoo_fs.algorithms.registry import n_objectives

    return [(n, n_objectives(n)) for n in algorithm_names()]


@pytest.mark.parametrize("label, n_obj", _labels(), ids=[n for n, _ in _labels()])
def test_every_algorithms_run_file_is_its_own_and_a_foreign_or_impossible_one_is_refused(
        every_algorithm, label, n_obj, tmp_path):
    spec, done = every_algorithm[n_obj, 1]
    _, other = every_algorithm[n_obj, 2]
    key = RunKey("son", label, 0, 0)
    record = ResultStore(done).read_run(key)
    assert record["config"]["algorithm"] == label and record["config"]["study_seed"] == 1
    assert record["config"]["params"] == {"pop_size": 5} and isinstance(record["seed"], int)
    assert record["data_sha256"] == json.loads((done / "study.json").read_text())[
        "data"]["son"]["sha256"]
    # a run file of the same study with another seed, copied in: refused by name
    copy = tmp_path / "copy"
    shutil.copytree(done, copy)
    target = ResultStore(copy).run_path(key)
    shutil.copyfile(ResultStore(other).run_path(key), target)
    named = re.escape(str(target))
    with pytest.raises(ForeignRunError, match=rf"{named}.*its seed"):
        run_study(spec, copy, progress=False)
    with pytest.raises(ForeignRunError, match=rf"{named}.*its seed"):
        load_results(copy)
    # a score no accuracy gives: refused by the report, redone by the study
    shutil.copyfile(ResultStore(done).run_path(key), target)
    _edit_run_at(target, lambda r: r["score_test"].__setitem__(0, 2.0))
    with pytest.raises(StoreFileError, match=r"score_test holds 2\.0, outside \[0, 1\]"):
        load_results(copy)
    with pytest.warns(UserWarning, match=rf"{named} is damaged"):
        run_study(spec, copy, progress=False)
    assert target.read_bytes() == ResultStore(done).run_path(key).read_bytes()


def _edit_run_at(path, edit):
    record = json.loads(path.read_text())
    edit(record)
    path.write_text(json.dumps(record))


# ------------------------------------------------------------------ pandas inputs
@pytest.mark.parametrize("kind", ["Int64", "Float64", "double[pyarrow]", "int64[pyarrow]"])
def test_the_knn_evaluator_takes_the_frames_the_selector_takes(kind):
    pd = pytest.importorskip("pandas")
    if "pyarrow" in kind:
        pytest.importorskip("pyarrow")
    from pymoo_fs.evaluation import KNNEvaluator

    data = load_dataset("sonar")
    values = np.round(data.X[:, :6] * 100) if kind.startswith("int") or kind == "Int64" \
        else data.X[:, :6]
    frame = pd.DataFrame(values).astype(kind)
    mask = np.array([1, 0, 1, 1, 0, 1], dtype=bool)
    expected = KNNEvaluator(values, data.y, cv=5).score(mask)
    assert KNNEvaluator(frame, data.y, cv=5).score(mask) == expected
    holed = frame.copy()
    holed.iloc[4, 2] = pd.NA
    with pytest.raises(ValueError, match=r"X contains 1 NaN .*columns \[2\]"):
        KNNEvaluator(holed, data.y)
    with pytest.raises(ValueError, match=r"X must be numeric: column\(s\) s are not"):
        KNNEvaluator(frame.assign(s="a"), data.y)


def test_missing_string_labels_are_named_by_the_selector_and_the_evaluator():
    pd = pytest.importorskip("pandas")
    from pymoo_fs.evaluation import KNNEvaluator
    from pymoo_fs.selector import SwarmFeatureSelector

    data = load_dataset("sonar")
    y = pd.Series(data.classes[data.y], dtype="string")
    y[[3, 7]] = pd.NA
    with pytest.raises(ValueError, match=r"y holds 2 missing label\(s\) \(rows \[3, 7\]"):
        SwarmFeatureSelector(algorithm="nsga2", pop_size=4, n_gen=2).fit(data.X, y)
    with pytest.raises(ValueError, match=r"y holds 2 missing label\(s\) \(pd\.NA, rows "
                                         r"\[3, 7\]\)"):
        KNNEvaluator(data.X, y)


@pytest.mark.parametrize("scoring", ["neg_log_loss", "neg_brier_score", "r2",
                                     "matthews_corrcoef"])
def test_scorers_whose_values_are_not_in_the_unit_interval_are_refused(scoring):
    from sklearn.tree import DecisionTreeClassifier

    from pymoo_fs.evaluation import EstimatorEvaluator
    from pymoo_fs.evaluation.base import REGRESSION_SCORINGS
    from pymoo_fs.selector import SwarmFeatureSelector

    data = load_dataset("sonar")
    with pytest.raises(ValueError, match=rf"scoring='{scoring}' gives values outside \[0, 1\]"):
        EstimatorEvaluator(data.X, data.y, DecisionTreeClassifier(random_state=0),
                           scoring=scoring)
    if scoring in REGRESSION_SCORINGS:
        return  # without an estimator, a regression scoring is the selector's regression mode
    with pytest.raises(ValueError, match=rf"scoring='{scoring}' gives values outside"):
        SwarmFeatureSelector(algorithm="nsga2", pop_size=4, n_gen=2,
                             scoring=scoring).fit(data.X, data.y)


def test_a_callable_scorer_returning_a_value_outside_the_unit_interval_is_refused():
    from sklearn.metrics import make_scorer
    from sklearn.tree import DecisionTreeClassifier

    from pymoo_fs.evaluation import EstimatorEvaluator

    data = load_dataset("sonar")
    ev = EstimatorEvaluator(data.X, data.y, DecisionTreeClassifier(random_state=0), cv=3,
                            scoring=make_scorer(lambda a, b: -2.5))
    with pytest.raises(ValueError, match=r"gives -2\.5, outside \[0, 1\]"):
        ev.score(np.ones(data.n_features, dtype=bool))
