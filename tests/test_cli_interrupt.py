"""Ctrl-C (SIGINT) during ``pymoo-fs compare``: exit 130, the message, nothing half-written.

Each test starts the command in a subprocess, waits for a line on its stderr that marks the
moment (the compilation notice, a finished run, a staged figure) and then sends SIGINT as a
terminal's Ctrl-C would. The output directory holds the files of an earlier run beforehand;
afterwards they must be exactly as they were, with nothing added beside them.
"""

import os
import signal
import subprocess
import sys
import threading
import time

import pytest

MESSAGE = "pymoo-fs compare: interrupted; nothing written"
NOTICE = "compiling the evaluator's kernels (once; about a minute) ..."
SMALL = ["--dataset", "sonar", "--runs", "1", "--generations", "3", "--pop-size", "6",
         "--folds", "3"]
OLD = {"results.csv": b"old results\n", "fronts.csv": b"old fronts\n", "fronts.png": b"old png"}

DRIVER = """
import sys
import time
from pathlib import Path

from pymoo_fs import cli, comparison

go = Path(sys.argv[1])
plot_fronts = comparison.plot_fronts


def slow_plot(*args, **kwargs):
    figure = plot_fronts(*args, **kwargs)  # saved into the staging directory
    sys.stderr.write("figure staged\\n")
    sys.stderr.flush()
    while not go.exists():
        time.sleep(0.02)
    return figure


comparison.plot_fronts = slow_plot
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


def _old_outputs(out):
    out.mkdir(parents=True, exist_ok=True)
    for name, content in OLD.items():
        (out / name).write_bytes(content)


def _assert_old_outputs_untouched(out):
    assert sorted(p.name for p in out.iterdir()) == sorted(OLD)
    for name, content in OLD.items():
        assert (out / name).read_bytes() == content


def _assert_interrupted(status, stdout, stderr):
    assert status == 130, stderr
    assert MESSAGE in stderr.splitlines()
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
    assert stderr.count(NOTICE) == 1
    assert not (tmp_path / "new").exists()  # the directories it made are gone again

    # a full run compiles whatever is still missing (if anything), announcing it at most once
    again = Command(["compare", *SMALL, "--out", str(out)], env=env)
    status, stdout, stderr = again.finish()
    assert status == 0, stderr
    assert stderr.count(NOTICE) <= 1
    assert sorted(p.name for p in out.iterdir()) == ["fronts.csv", "fronts.png", "results.csv"]
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
    _old_outputs(out)
    command = Command(["compare", "--dataset", "sonar", "--runs", "40", "--generations", "100",
                       "--pop-size", "6", "--folds", "3", "--out", str(out)])
    first = command.wait_for("[1/")
    total = first.split("/", 1)[1].split("]", 1)[0]
    time.sleep(delay)
    command.interrupt()
    status, stdout, stderr = command.finish()
    _assert_interrupted(status, stdout, stderr)
    assert f"[{total}/{total}]" not in stderr
    _assert_old_outputs_untouched(out)


def test_ctrl_c_while_the_outputs_are_written_leaves_the_previous_ones(tmp_path):
    out = tmp_path / "results"
    _old_outputs(out)
    go = tmp_path / "go"
    command = Command([str(go), "compare", *SMALL, "--out", str(out)], script=DRIVER)
    command.wait_for("figure staged")
    # mid-write: both CSV files and the figure are staged, the old outputs still in place
    (staging,) = [p for p in out.iterdir() if p.name not in OLD]
    assert sorted(p.name for p in staging.iterdir()) == ["fronts.csv", "fronts.png",
                                                         "results.csv"]
    _assert_old_outputs_untouched_but(out, staging)
    command.interrupt()
    time.sleep(0.2)
    go.touch()
    status, stdout, stderr = command.finish()
    _assert_interrupted(status, stdout, stderr)
    _assert_old_outputs_untouched(out)


def _assert_old_outputs_untouched_but(out, extra):
    for name, content in OLD.items():
        assert (out / name).read_bytes() == content
    assert sorted(p.name for p in out.iterdir()) == sorted([*OLD, extra.name])
