"""Ctrl-C (SIGINT) during ``pymoo-fs compare``: exit 130, the message, nothing half-written.

Each test starts the command in a subprocess, waits for a line on its stderr that marks the
moment (the compilation notice, a finished run, a staged figure) and then sends SIGINT as a
terminal's Ctrl-C would. The output directory holds the comparison's files of an earlier
command beforehand; afterwards they must be exactly as they were (finished runs are stored
beside them, so the same command resumes), with no temporary file left.
"""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

MESSAGE = "pymoo-fs compare: interrupted; "
#: the end of each line announcing the first compilation of a family of kernels
NOTICE = "; this can take a minute or more) ..."  # "(once per ...; this can ...)"


def _notices(stderr):
    """The compilation notices printed, one line per family of kernels."""
    return [line for line in stderr.splitlines() if line.endswith(NOTICE)]
SMALL = ["--dataset", "sonar", "--runs", "1", "--generations", "3", "--pop-size", "6",
         "--folds", "3"]
OLD = {"results.csv": b"old results\n", "fronts.csv": b"old fronts\n", "fronts.png": b"old png"}

DRIVER = """
import sys
import time
from pathlib import Path

from pymoo_fs import cli, comparison

go = Path(sys.argv[1])
front_files = comparison._front_files


def slow_files(results):
    files = front_files(results)
    figure = files["fronts.png"]

    def slow_figure(path):
        figure(path)  # saved into the staging directory
        sys.stderr.write("figure staged\\n")
        sys.stderr.flush()
        while not go.exists():
            time.sleep(0.02)

    files["fronts.png"] = slow_figure
    return files


comparison._front_files = slow_files
sys.exit(cli.main(sys.argv[2:]))
"""


class Command:
    """A ``pymoo-fs`` subprocess whose stderr is read line by line."""

    def __init__(self, args, env=None, script=None):
        head = [sys.executable, "-c", script] if script else [sys.executable, "-m", "pymoo_fs"]
        self.proc = subprocess.Popen(head + list(args), stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True,
                                     env=dict(os.environ, **(env or {})))
        self.lines = []
        self.watchdog = threading.Timer(500, self.proc.kill)  # never hang the suite
        self.watchdog.start()

    def wait_for(self, fragment):
        """Read stderr up to the first line holding ``fragment``; fail if it never comes."""
        for line in self.proc.stderr:
            self.lines.append(line)
            if fragment in line:
                return line
        pytest.fail(f"the command ended without printing {fragment!r}:\n{''.join(self.lines)}")

    def interrupt(self):
        self.proc.send_signal(signal.SIGINT)

    def finish(self):
        out, err = self.proc.communicate()
        self.watchdog.cancel()
        return self.proc.returncode, out, "".join(self.lines) + err


def _old_outputs(out, args=SMALL):
    """The files of an earlier comparison with the same arguments (and no run stored yet)."""
    from pymoo_fs.cli import build_parser
    from pymoo_fs.comparison import compare_spec
    from pymoo_fs.studies import ResultStore

    a = build_parser().parse_args(["compare", *args])
    spec = compare_spec(a.dataset, a.algorithms.split(","), a.runs, a.generations, a.pop_size,
                        a.seed, a.n_neighbors, int(a.folds), a.test_size)
    out.mkdir(parents=True, exist_ok=True)
    ResultStore(out).write_spec(spec.as_dict())
    for name, content in OLD.items():
        (out / name).write_bytes(content)


def _assert_old_outputs_untouched(out):
    assert set(OLD) <= {p.name for p in out.iterdir()}
    for name, content in OLD.items():
        assert (out / name).read_bytes() == content
    assert not [p for p in out.rglob("*") if ".pymoo-fs-write-" in str(p) or
                p.name.endswith(".tmp")]


def _assert_interrupted(status, stdout, stderr):
    assert status == 130, stderr
    assert any(line.startswith(MESSAGE) for line in stderr.splitlines()), stderr
    for symptom in ("Traceback", "SystemError", "KeyboardInterrupt"):
        assert symptom not in stderr, stderr
    assert stdout == ""


@pytest.mark.slow  # compiles every kernel into a fresh cache (about a minute of CPU)
def test_ctrl_c_during_compilation_exits_130_and_the_notice_shows_once(tmp_path):
    # a fresh numba cache forces the first compilation, which the command announces
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    out = tmp_path / "new" / "results"
    command = Command(["compare", *SMALL, "--out", str(out)], env=env)
    command.wait_for(NOTICE)
    command.interrupt()
    status, stdout, stderr = command.finish()
    _assert_interrupted(status, stdout, stderr)
    notices = _notices(stderr)
    assert notices and len(notices) == len(set(notices))  # each family announced once
    assert all(line.startswith("compiling ") for line in notices)
    assert not (out / "runs").exists()  # stopped before the first run

    # a full run compiles whatever is still missing, announcing each family at most once
    again = Command(["compare", *SMALL, "--out", str(out)], env=env)
    status, stdout, stderr = again.finish()
    assert status == 0, stderr
    assert len(_notices(stderr)) == len(set(_notices(stderr)))
    assert {"fronts.csv", "fronts.png", "results.csv"} <= {p.name for p in out.iterdir()}
    # everything is in the on-disk cache now: nothing to compile, nothing said
    third = Command(["compare", *SMALL, "--out", str(out)], env=env)
    status, stdout, stderr = third.finish()
    assert status == 0, stderr
    assert NOTICE not in stderr


def test_second_ctrl_c_during_compilation_stops_at_once(tmp_path):
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "numba-cache")}
    out = tmp_path / "results"
    _old_outputs(out)
    command = Command(["compare", *SMALL, "--out", str(out)], env=env)
    command.wait_for(NOTICE)
    command.interrupt()
    command.wait_for("stopping at the next safe point")
    command.interrupt()
    status, stdout, stderr = command.finish()
    _assert_interrupted(status, stdout, stderr)
    _assert_old_outputs_untouched(out)


@pytest.mark.parametrize("delay", [0.0, 0.15, 0.6])
def test_ctrl_c_during_the_runs_exits_130_without_a_traceback(tmp_path, delay):
    # 40 runs of 100 generations per algorithm: tens of seconds, interrupted a moment after
    # the first run, while a compiled kernel is likely running
    out = tmp_path / "results"
    args = ["--dataset", "sonar", "--runs", "40", "--generations", "100", "--pop-size", "6",
            "--folds", "3"]
    _old_outputs(out, args)
    command = Command(["compare", *args, "--out", str(out)])
    first = command.wait_for("[1/")
    total = first.split("/", 1)[1].split("]", 1)[0]
    time.sleep(delay)
    command.interrupt()
    status, stdout, stderr = command.finish()
    _assert_interrupted(status, stdout, stderr)
    assert f"[{total}/{total}]" not in stderr
    stored = len(list((out / "runs").rglob("*.json")))
    assert f"interrupted; {stored} of {total} runs are stored in" in stderr
    _assert_old_outputs_untouched(out)


def test_ctrl_c_while_the_outputs_are_written_leaves_the_previous_ones(tmp_path):
    out = tmp_path / "results"
    _old_outputs(out)
    go = tmp_path / "go"
    command = Command([str(go), "compare", *SMALL, "--out", str(out)], script=DRIVER)
    command.wait_for("figure staged")
    # mid-write: both CSV files and the figure are staged, the old outputs still in place
    (staging,) = [p for p in out.iterdir() if p.name.startswith(".pymoo-fs-write-")]
    assert sorted(p.name for p in staging.iterdir()) == ["fronts.csv", "fronts.png",
                                                         "results.csv"]
    for name, content in OLD.items():
        assert (out / name).read_bytes() == content
    command.interrupt()
    time.sleep(0.2)
    go.touch()
    status, stdout, stderr = command.finish()
    _assert_interrupted(status, stdout, stderr)
    _assert_old_outputs_untouched(out)
