"""The kernels' disk cache across files: an edit of any kernel module recompiles every kernel.

numba stamps a cached function with its own source file only; the kernels span several files,
so :mod:`pymoo_fs.evaluation.knn.kernels.jit` stamps every kernel with a hash of all of them.
These tests check that every numba function of the evaluator is a kernel under that stamp,
and show in fresh processes that an edit of one module reaches a cached kernel of another
(while numba's own stamp keeps running the stale machine code).
"""

import ast
import importlib
import inspect
import os
import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from numba.core.dispatcher import Dispatcher
from numba.core.extending import _Intrinsic

import pymoo_fs
from pymoo_fs.evaluation import knn
from pymoo_fs.evaluation.knn import kernels
from pymoo_fs.evaluation.knn.kernels import jit


def _modules(package):
    return [importlib.import_module(m.name)
            for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".")]


def _referenced_globals(func):
    """Global names a function's code (nested code included) reads, with their values."""
    names, todo = set(), [func.__code__]
    while todo:
        code = todo.pop()
        names.update(code.co_names)
        todo += [c for c in code.co_consts if inspect.iscode(c)]
    return {n: func.__globals__[n] for n in names if n in func.__globals__}


def test_every_numba_function_of_the_evaluator_is_a_kernel_under_the_common_stamp():
    kernel_objects = [v for m in _modules(kernels) for v in vars(m).values()]
    dispatchers = [v for v in kernel_objects if isinstance(v, Dispatcher)]
    assert len(dispatchers) > 40
    for module in _modules(knn):
        for value in vars(module).values():
            if isinstance(value, Dispatcher):
                assert Path(inspect.getfile(value.py_func)).parent == jit.KERNEL_DIR, value
            elif isinstance(value, _Intrinsic):
                assert any(value is v for v in kernel_objects), value
    for disp in dispatchers:
        assert isinstance(disp._cache, jit.KernelCache), disp
        stamp = disp._cache._impl.locator.get_source_stamp()
        assert stamp[1] == jit.process_stamp() == jit.source_hash()
        # what a kernel calls is compiled into it: it must live under the same stamp
        for name, value in _referenced_globals(disp.py_func).items():
            if isinstance(value, Dispatcher):
                assert Path(inspect.getfile(value.py_func)).parent == jit.KERNEL_DIR, name
            elif isinstance(value, _Intrinsic):
                assert any(value is v for v in kernel_objects), name


def test_kernel_modules_import_nothing_of_pymoo_fs_outside_their_package():
    # constants and types a kernel reads are compiled in too: they must come from a module
    # whose source is part of the stamp
    for path in sorted(jit.KERNEL_DIR.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and not node.level:
                assert not node.module.startswith("pymoo_fs"), (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("pymoo_fs") for a in node.names), path.name


def test_the_stamp_changes_with_any_kernel_module(tmp_path):
    copy = tmp_path / "kernels"
    shutil.copytree(jit.KERNEL_DIR, copy, ignore=shutil.ignore_patterns("__pycache__"))
    base = jit.source_hash(copy)
    assert base == jit.source_hash(jit.KERNEL_DIR)
    seen = {base}
    for path in sorted(copy.glob("*.py")):
        text = path.read_bytes()
        path.write_bytes(text + b"# an edit\n")
        seen.add(jit.source_hash(copy))
        path.write_bytes(text)
        assert jit.source_hash(copy) == base
    assert len(seen) == 1 + len(list(copy.glob("*.py")))
    (copy / "new_kernels.py").write_text("")
    assert jit.source_hash(copy) not in seen
    with pytest.raises(TypeError, match="do not pass cache"):
        jit.kernel(cache=False)


# A cached kernel of sklearn_replay (the kd-tree branch's vote) that calls certify's
# kth_smallest; sample 0 at 0 with training samples at 1, 2, 3, 4 (labels 0, 1, 1, 1), k = 2:
# the two nearest vote [1, 1]. Printed: the counts, cache hits and misses of the call.
_RUN = """
import sys
import numba
import numpy as np
if sys.argv[1] == "numba":  # numba's own stamp: the kernel's file only
    from pymoo_fs.evaluation.knn.kernels import jit
    jit.kernel = lambda **options: numba.njit(cache=True, **options)
from pymoo_fs.evaluation.knn.kernels import sklearn_replay as replay
counts = np.zeros(2, np.int64)
X = np.arange(5.0)[:, None]
replay._kd_row(X, np.array([0]), 0, np.arange(1, 5), np.array([0, 0, 1, 1, 1]), 2, counts,
               np.empty(4), np.empty(2))
stats = replay._kd_row.stats
print(counts.tolist(), sum(stats.cache_hits.values()), sum(stats.cache_misses.values()))
"""

# the edit: certify's kth_smallest replaced by one that finds nothing (every vote is empty)
_EDIT = '''


@kernel()
def kth_smallest(v, cnt, k, tmp):
    return -1.0
'''


def _run(src, cache, stamp):
    env = dict(os.environ, PYTHONPATH=str(src), NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run([sys.executable, "-c", _RUN, stamp], capture_output=True, text=True,
                         env=env, cwd=src)
    assert out.returncode == 0, out.stderr
    counts, hits, misses = out.stdout.strip().rsplit(" ", 2)
    return counts, int(hits), int(misses)


def test_an_edit_of_one_kernel_module_recompiles_a_cached_kernel_of_another(tmp_path):
    src = tmp_path / "src"
    shutil.copytree(Path(pymoo_fs.__file__).parent, src / "pymoo_fs",
                    ignore=shutil.ignore_patterns("__pycache__"))
    ours, plain = tmp_path / "cache_kernel", tmp_path / "cache_numba"
    assert _run(src, ours, "kernel") == ("[1, 1]", 0, 1)  # compiled and cached
    assert _run(src, ours, "kernel") == ("[1, 1]", 1, 0)  # loaded from the disk cache
    assert _run(src, plain, "numba") == ("[1, 1]", 0, 1)
    certify = src / "pymoo_fs" / "evaluation" / "knn" / "kernels" / "certify.py"
    certify.write_text(certify.read_text() + _EDIT)
    # the common stamp: the edit in certify.py recompiles sklearn_replay's kernel
    assert _run(src, ours, "kernel") == ("[0, 0]", 0, 1)
    # numba's own stamp: sklearn_replay.py is unchanged, so the stale machine code runs
    assert _run(src, plain, "numba") == ("[1, 1]", 1, 0), (
        "numba now notices edits of called functions in other files: see kernels/jit.py")


def _run_shared(src, cache):
    env = dict(os.environ, PYTHONPATH=str(src), PYMOO_FS_KERNEL_CACHE=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    out = subprocess.run([sys.executable, "-c", _RUN, "kernel"], capture_output=True,
                         text=True, env=env, cwd=src)
    assert out.returncode == 0, out.stderr
    counts, hits, misses = out.stdout.strip().rsplit(" ", 2)
    return counts, int(hits), int(misses)


def test_installations_of_the_same_sources_share_the_per_user_cache(tmp_path):
    copies = []
    for name in ("venv_a", "venv_b"):
        shutil.copytree(Path(pymoo_fs.__file__).parent, tmp_path / name / "pymoo_fs",
                        ignore=shutil.ignore_patterns("__pycache__"))
        copies.append(tmp_path / name)
    cache = tmp_path / "user_cache"
    assert _run_shared(copies[0], cache) == ("[1, 1]", 0, 1)  # compiled and cached
    assert _run_shared(copies[1], cache) == ("[1, 1]", 1, 0)  # the other copy loads it
    # nothing in the copies' own folders: the cache is the user's
    assert not list(copies[1].rglob("*.nbi"))
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 1
    # an edit makes a folder of its own: the edited copy never loads the other's kernels
    certify = copies[1] / "pymoo_fs" / "evaluation" / "knn" / "kernels" / "certify.py"
    certify.write_text(certify.read_text() + _EDIT)
    assert _run_shared(copies[1], cache) == ("[0, 0]", 0, 1)
    assert _run_shared(copies[0], cache) == ("[1, 1]", 1, 0)
    assert len([p for p in cache.iterdir() if p.is_dir()]) == 2


def test_the_cache_key_covers_the_libraries(monkeypatch):
    import numpy

    key = jit.cache_key()
    monkeypatch.setattr(numpy, "__version__", numpy.__version__ + ".post-test")
    assert jit.cache_key() != key


def test_numba_cache_dir_and_local_keep_numba_locations(monkeypatch):
    jit.shared_cache_dir.cache_clear()
    try:
        monkeypatch.setenv("NUMBA_CACHE_DIR", "/tmp/somewhere")
        assert jit.shared_cache_dir() is None
        jit.shared_cache_dir.cache_clear()
        monkeypatch.delenv("NUMBA_CACHE_DIR")
        monkeypatch.setenv("PYMOO_FS_KERNEL_CACHE", "local")
        assert jit.shared_cache_dir() is None
    finally:
        jit.shared_cache_dir.cache_clear()
