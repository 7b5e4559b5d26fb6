"""Issue 24, defect 2: every first compilation of a pymoo-fs kernel is announced.

The announcements are once per process, so the scenarios run in two fresh interpreters,
compiling tiny numba functions that claim to live in pymoo-fs's kernel modules (nothing slow
compiles): the first imports pymoo-fs before numba, the second numba before pymoo-fs and loads
from the on-disk cache a kernel the first compiled.
"""

import os
import subprocess
import sys
import textwrap

import pytest

from pymoo_fs.compilation import FAMILIES, family_of

KERNELS = """
import logging, sys, warnings

def kernel(module, offset):
    def f(x):
        return x + offset
    f.__module__ = module
    return numba.njit(f)

def cached_kernel(module, source):
    namespace = {}
    exec(compile("def cached(x):\\n    return x * 3\\n", source, "exec"), namespace)
    namespace["cached"].__module__ = module
    return numba.njit(cache=True)(namespace["cached"])

KNN = "pymoo_fs.evaluation.knn.kernels.cv"
FLIPS = "pymoo_fs.evaluation.knn.kernels.flips"
FITB = "pymoo_fs.evaluation._fitb_kernels"
SU = "pymoo_fs.relevance._kernels"
SAMPLING = "pymoo_fs.algorithms._sampling"

def caught(call):
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        call()
    return [(w.category.__name__, str(w.message)) for w in seen]
"""

FIRST = """
import pymoo_fs
assert "numba" not in sys.modules, "importing pymoo_fs must not import numba"
import numba
from pymoo_fs import compilation
from pymoo_fs.cli import _compile_notice

logging.basicConfig(level=logging.INFO, stream=sys.stdout, format="LOG %(name)s %(message)s")
one = kernel(KNN, 1)
print("KNN", caught(lambda: (one(1), one(2))))          # compiled once, for ints
print("MORE", caught(lambda: (one(1.5), kernel(KNN, 2)(1))))
print("FLIPS", caught(lambda: kernel(FLIPS, 3)(1)))
with warnings.catch_warnings(record=True) as seen:
    warnings.simplefilter("always")
    kernel(FITB, 8)(1.5)  # the line that called the kernel: this script's
print("WHERE", [(w.filename, w.lineno) for w in seen])
print("OTHER", caught(lambda: kernel("somebody_else", 4)(1)))
print("CACHED", caught(lambda: cached_kernel(SAMPLING, SOURCE)(2)))
heard = []
def with_handler():
    with compilation.announce_to(heard.append):
        kernel(FITB, 5)(1)
print("HANDLER", caught(with_handler), heard)
def command_line():
    with _compile_notice():
        kernel(SU, 6)(1)
        kernel(SU, 7)(1)
print("CLI", caught(command_line))
print("ANNOUNCED", compilation.announced())
"""

SECOND = """
import numba
import pymoo_fs
print("CACHED", caught(lambda: cached_kernel(SAMPLING, SOURCE)(2)))
print("SU", caught(lambda: kernel(SU, 1)(1)))
"""

WARNING = "KernelCompilationWarning"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("compilation")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp / "cache")}
    source = f"SOURCE = {str(tmp / 'kernel_source.py')!r}\n"
    (tmp / "kernel_source.py").write_text("def cached(x):\n    return x * 3\n")
    out = []
    for script in (FIRST, SECOND):
        done = subprocess.run([sys.executable, "-c", source + KERNELS + textwrap.dedent(script)],
                              capture_output=True, text=True, timeout=600, env=env)
        assert done.returncode == 0, done.stderr
        lines = {}
        for line in done.stdout.splitlines():
            key, _, rest = line.partition(" ")
            lines.setdefault(key, []).append(rest)
        out.append((lines, done.stderr))
    return out


def test_families_by_module():
    assert family_of("pymoo_fs.evaluation.knn.kernels.flips") == \
        "the KNN evaluator's one-feature flip kernels"
    assert family_of("pymoo_fs.evaluation.knn.kernels.rows") == "the KNN evaluator's kernels"
    assert family_of("pymoo_fs.evaluation._fitb_kernels") == "the FIT-B evaluator's kernels"
    assert family_of("pymoo_fsx.kernels") is None and family_of("numba.np") is None
    assert FAMILIES[-1][0] == "pymoo_fs."  # every other pymoo-fs kernel has a family


def test_python_api_warns_at_every_first_compilation(runs):
    (lines, _), _ = runs
    knn = eval(lines["KNN"][0])
    assert len(knn) == 1 and knn[0][0] == WARNING  # one kernel, one signature: said once
    assert knn[0][1].startswith("compiling the KNN evaluator's kernels (first use")
    more = [message for _, message in eval(lines["MORE"][0])]
    assert [m.split(" (first use")[0] for m in more] == [
        "compiling more of the KNN evaluator's kernels (f, other argument types)",
        "compiling more of the KNN evaluator's kernels (f)"]
    assert eval(lines["FLIPS"][0])[0][1].startswith(
        "compiling the KNN evaluator's one-feature flip kernels")
    assert eval(lines["OTHER"][0]) == []  # not pymoo-fs's
    assert [w[0] for w in eval(lines["CACHED"][0])] == [WARNING]  # compiled: announced


def test_the_warning_points_at_the_call_that_compiled(runs):
    (lines, _), _ = runs
    ((filename, lineno),) = eval(lines["WHERE"][0])
    assert filename == "<string>" and lineno > 1  # not pymoo_fs/compilation.py or numba


def test_logging_records_the_start_and_the_end(runs):
    (lines, _), _ = runs
    logged = lines["LOG"]
    assert logged[0].startswith("pymoo_fs.compilation compiling the KNN evaluator's kernels")
    assert logged[1].startswith("pymoo_fs.compilation compiled the KNN evaluator's kernels in ")
    assert logged[1].endswith(" s")
    assert len(logged) == 2 * 9  # KNN three times, flips, FIT-B twice, sampling, SU twice


def test_a_handler_replaces_the_warning(runs):
    (lines, _), _ = runs
    assert lines["HANDLER"] == ["[] [\"more of the FIT-B evaluator's kernels (f)\"]"]


def test_the_command_line_prints_a_line_per_compilation_instead_of_warning(runs):
    (lines, stderr), _ = runs
    assert lines["CLI"] == ["[]"]
    assert [line for line in stderr.splitlines() if line.startswith("compiling")] == [
        "compiling the symmetric-uncertainty kernels (once per installation; this can take a "
        "minute or more) ...",
        "compiling more of the symmetric-uncertainty kernels (f) (once per installation; this "
        "can take a minute or more) ..."]
    assert len(eval(lines["ANNOUNCED"][0])) == 5  # families


def test_listening_starts_when_numba_comes_first_and_a_cached_kernel_says_nothing(runs):
    _, (lines, _) = runs
    assert eval(lines["CACHED"][0]) == []  # loaded from the disk cache: nothing compiled
    su = eval(lines["SU"][0])
    assert len(su) == 1 and su[0][1].startswith("compiling the symmetric-uncertainty kernels")
