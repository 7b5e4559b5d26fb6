"""The one atomic writer: single files and sets of files are whole or absent, never half."""

import json
import signal

import pytest

from pymoo_fs import _files
from pymoo_fs._files import commit_files, csv_text, json_text, write_atomic, write_json_atomic

NAMES = ("results.csv", "fronts.csv", "fronts.png")


def _writers(tag=b"new"):
    return {name: (lambda path, name=name: path.write_bytes(tag + name.encode()))
            for name in NAMES}


def test_write_atomic_replaces_and_leaves_no_temporary_file(tmp_path):
    path = write_atomic(tmp_path / "a" / "b.txt", "first")
    assert path.read_text() == "first"
    write_atomic(path, b"second")
    assert path.read_bytes() == b"second"
    assert [p.name for p in path.parent.iterdir()] == ["b.txt"]


def test_a_failed_write_keeps_the_old_file(tmp_path, monkeypatch):
    path = write_atomic(tmp_path / "x.json", "old")

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(_files.os, "replace", fail)
    with pytest.raises(OSError, match="No space"):
        write_atomic(path, "new")
    assert path.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_json_is_deterministic_and_exact():
    obj = {"b": [0.1 + 0.2, 1e-300], "a": float("nan")}
    text = json_text(obj)
    assert text == '{"a":NaN,"b":[0.30000000000000004,1e-300]}\n'
    assert json_text(json.loads(text)) == text


def test_csv_text_writes_floats_exactly():
    assert csv_text(["x", "y"], [[0.1 + 0.2, "a b"]]) == "x,y\r\n0.30000000000000004,a b\r\n"


def test_write_json_atomic(tmp_path):
    write_json_atomic(tmp_path / "r.json", {"k": 1})
    assert (tmp_path / "r.json").read_text() == '{"k":1}\n'


def test_commit_files_checks_four_times_then_replaces_all_three(tmp_path):
    for name in NAMES:
        (tmp_path / name).write_bytes(b"old")
    calls = []
    paths = commit_files(tmp_path, _writers(), check=lambda: calls.append(1))
    assert len(calls) == 4
    assert paths == {name: tmp_path / name for name in NAMES}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(NAMES)
    assert all((tmp_path / n).read_bytes() == b"new" + n.encode() for n in NAMES)


@pytest.mark.parametrize("stop_at", [1, 2, 3, 4])
def test_commit_files_stopped_by_check_leaves_the_previous_files(tmp_path, stop_at):
    old = {name: b"old " + name.encode() for name in NAMES}
    for name, content in old.items():
        (tmp_path / name).write_bytes(content)
    calls = []

    def check():
        calls.append(sorted(p.name for p in tmp_path.iterdir()))
        if len(calls) == stop_at:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        commit_files(tmp_path, _writers(), check=check)
    assert len(calls) == stop_at
    # while writing, only a staging directory appeared beside the old files
    assert all(len(names) == 4 and set(old) < set(names) for names in calls)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(old)
    assert all((tmp_path / name).read_bytes() == content for name, content in old.items())


def test_commit_files_holds_ctrl_c_back_until_all_files_are_in_place(tmp_path, monkeypatch):
    replace = _files.os.replace
    moved = []

    def replace_then_signal(src, dst):
        replace(src, dst)
        moved.append(dst)
        if len(moved) == 1:
            signal.raise_signal(signal.SIGINT)  # Python's own handler: KeyboardInterrupt

    monkeypatch.setattr(_files.os, "replace", replace_then_signal)
    # a process started in the background by a non-interactive shell ignores SIGINT: install
    # Python's own handler for the test, whatever the runner inherited
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        before = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            commit_files(tmp_path, _writers())
        assert signal.getsignal(signal.SIGINT) is before
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert len(moved) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(NAMES)


def test_commit_files_refuses_a_directory_in_place_of_a_file(tmp_path):
    (tmp_path / "results.csv").write_bytes(b"old")
    (tmp_path / "fronts.png").mkdir()
    with pytest.raises(IsADirectoryError, match=r"fronts\.png: it is a directory"):
        commit_files(tmp_path, _writers())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fronts.png", "results.csv"]
    assert (tmp_path / "results.csv").read_bytes() == b"old"
