"""The evaluator's threads on a shared machine: numba's threading layer, fork-based pools,
Python threads sharing one evaluator, the default thread count and BLAS's setting."""

import json
import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.evaluation.knn import parallel
from pymoo_fs.evaluation.knn.parallel import CoreMonitor, ParallelContext, default_threads

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _python(code, env=None, timeout=600):
    """Run ``code`` in a fresh interpreter (the repository first on its path)."""
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")]), **(env or {})}
    for name, value in (env or {}).items():
        if value is None:
            environ.pop(name, None)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=environ, timeout=timeout, cwd=ROOT)


LAYER = """
import numba
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import KNNEvaluator
d = load_dataset("sonar")
KNNEvaluator(d.X, d.y, cv=5).score(d.X[:2] > 0.2)
print(numba.threading_layer())
"""


def test_the_default_layer_is_fork_safe():
    out = _python(LAYER, env={"NUMBA_THREADING_LAYER": None})
    assert out.returncode == 0, out.stderr
    layer = out.stdout.split()[-1]
    assert layer in ("tbb", "workqueue")
    if parallel._tbb_library() is not None:
        assert layer == "tbb"  # the tbb package is installed: its library is loaded


def test_a_layer_the_user_chose_is_kept():
    out = _python(LAYER, env={"NUMBA_THREADING_LAYER": "workqueue"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "workqueue"


@pytest.mark.skipif(parallel._tbb_library() is None, reason="the tbb package is not installed")
def test_a_users_tbb_layer_finds_the_library_of_the_tbb_package():
    # numba alone looks for libtbb on the system's library path, not in a venv's lib
    out = _python(LAYER, env={"NUMBA_THREADING_LAYER": "tbb"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "tbb"


@pytest.mark.skipif(sys.platform != "linux", reason="fork is the default start method on Linux")
def test_fork_pools_after_a_run_in_the_parent_finish():
    # compiled here first, so that the child interpreter loads the kernels from the disk cache
    # and the timeout measures a hang, not a compilation
    sys.path.insert(0, str(HERE))
    try:
        import _fork_script

        _fork_script.run_seed(0)
        _fork_script.Elementwise()._evaluate(np.ones(60, dtype=bool), {})
    finally:
        sys.path.remove(str(HERE))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(ROOT), os.environ.get("PYTHONPATH", "")])}
    env.pop("NUMBA_THREADING_LAYER", None)
    out = subprocess.run([sys.executable, str(HERE / "_fork_script.py"), "120"],
                         capture_output=True, text=True, env=env, timeout=300, cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines())
    assert set(lines) >= {"parent", "layer", "pool", "starmap"}
    assert "unsafe" not in out.stderr
    # the children's runs are the same runs as in the parent
    assert json.loads(lines["pool"]) == [_fork_script_runs(s) for s in (1, 2, 3)]


def _fork_script_runs(seed):
    sys.path.insert(0, str(HERE))
    try:
        import _fork_script

        return _fork_script.run_seed(seed)
    finally:
        sys.path.remove(str(HERE))


@pytest.fixture(scope="module")
def sonar():
    return load_dataset("sonar")


def test_python_threads_share_one_evaluator(sonar):
    rng = np.random.default_rng(3)
    batches = [rng.random((6, sonar.n_features)) < 0.4 for _ in range(8)]
    bases = [rng.random(sonar.n_features) < 0.5 for _ in range(4)]
    alone = KNNEvaluator(sonar.X, sonar.y, cv=5)
    want = [alone.score(b) for b in batches] + [alone.score_flips(b) for b in bases]
    shared = KNNEvaluator(sonar.X, sonar.y, cv=5)
    jobs = [(shared.score, b) for b in batches] + [(shared.score_flips, b) for b in bases]
    with ThreadPoolExecutor(4) as pool:
        got = list(pool.map(lambda job: job[0](job[1]), jobs))
    for w, g in zip(want, got):
        np.testing.assert_array_equal(w, g)
    assert shared.n_evaluations + shared.n_cache_hits == \
        alone.n_evaluations + alone.n_cache_hits


WORKQUEUE_THREADS = """
import numpy as np
from concurrent.futures import ThreadPoolExecutor
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import KNNEvaluator
d = load_dataset("sonar")
evs = [KNNEvaluator(d.X, d.y, cv=5, n_threads=2) for _ in range(3)]
rng = np.random.default_rng(0)
masks = rng.random((10, d.n_features)) < 0.5
with ThreadPoolExecutor(3) as pool:
    out = list(pool.map(lambda ev: ev.score(masks).tolist(), evs))
assert out[0] == out[1] == out[2]
import numba
print(numba.threading_layer(), "ok")
"""


def test_workqueue_calls_from_python_threads_take_turns():
    # numba's workqueue layer aborts the process on concurrent launches; the evaluator holds a
    # lock around its kernels under that layer
    out = _python(WORKQUEUE_THREADS, env={"NUMBA_THREADING_LAYER": "workqueue"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-2:] == ["workqueue", "ok"]


def test_an_evaluator_pickles_without_its_lock(sonar):
    import pickle

    ev = KNNEvaluator(sonar.X, sonar.y, cv=5)
    ev.score(np.ones(sonar.n_features, dtype=bool))
    copy = pickle.loads(pickle.dumps(ev))
    assert copy._call_lock is not ev._call_lock
    np.testing.assert_array_equal(copy.score(sonar.X[:3] > 0.3), ev.score(sonar.X[:3] > 0.3))


# ---------------------------------------------------------------- the default thread count
class _Fake(CoreMonitor):
    """A monitor fed with made-up ``/proc/stat`` samples: (wall, busy ticks, own cpu s)."""

    def __init__(self, cpus, samples, running=1):
        self._samples = list(samples)
        self._running = running
        super().__init__(window=0.25)
        self.cpus = list(range(cpus))
        self._tick = 100.0

    def _sample(self):
        wall, busy, own = self._samples.pop(0)
        return wall, busy, own, self._running


def _free(monitor, at):
    import time

    real = time.perf_counter
    try:
        time.perf_counter = lambda: at
        return monitor.free()
    finally:
        time.perf_counter = real


def test_core_monitor_counts_the_cores_others_use():
    # 2 cpus; over 1 s the cpus were busy 200 ticks (2 cores), 1 s of it ours: one core taken
    m = _Fake(2, [(0.0, 0, 0.0), (1.0, 200, 1.0)])
    assert _free(m, 1.0) == 1
    # nobody else: both cores free
    m = _Fake(2, [(0.0, 0, 0.0), (1.0, 190, 1.9)])
    assert _free(m, 1.0) == 2
    # others use 0.4 of a core on average: below TAKEN, the core stays ours; 0.6 takes it
    m = _Fake(2, [(0.0, 0, 0.0), (1.0, 140, 1.0)])
    assert _free(m, 1.0) == 2
    m = _Fake(2, [(0.0, 0, 0.0), (1.0, 160, 1.0)])
    assert _free(m, 1.0) == 1
    # two busy processes beside us on 4 cpus: two cores left
    m = _Fake(4, [(0.0, 0, 0.0), (1.0, 300, 1.0)])
    assert _free(m, 1.0) == 2
    # never below one
    m = _Fake(2, [(0.0, 0, 0.0), (1.0, 200, 0.0)])
    assert _free(m, 1.0) == 1


def test_core_monitor_waits_for_a_window():
    # a call before the window has passed keeps the last measurement (the first sample's
    # running tasks: 3, so two others and two cores taken)
    m = _Fake(4, [(0.0, 0, 0.0)], running=3)
    assert _free(m, 0.1) == 2
    assert m._samples == []


def test_core_monitor_spreads_one_noisy_window_over_its_horizon():
    # 2 cpus, a sample every window (1 s here), horizon 3 windows; nobody else, but the third
    # window's ticks read 0.6 of a core of others (tick error): over the horizon that is 0.2,
    # and both cores stay ours
    samples = [(0.0, 0, 0.0), (1.0, 200, 2.0), (2.0, 400, 4.0), (3.0, 600, 5.4)]
    m = _Fake(2, samples)
    m.window, m.horizon = 1.0, 3.0
    assert [_free(m, t) for t in (1.0, 2.0, 3.0)] == [2, 2, 2]
    assert m._others == pytest.approx((600 / 100 - 5.4) / 3.0)
    # a lasting load is seen: from the third window on another process takes a whole core
    m = _Fake(2, samples[:3] + [(3.0, 600, 5.0), (4.0, 800, 6.0), (5.0, 1000, 7.0)])
    m.window, m.horizon = 1.0, 3.0
    assert [_free(m, t) for t in (1.0, 2.0, 3.0, 4.0, 5.0)] == [2, 2, 2, 1, 1]
    # the measurement spans the horizon: the 5 s sample is compared with the 2 s one
    assert m._others == pytest.approx((1000 - 400) / 100 / 3.0 - (7.0 - 4.0) / 3.0)


def test_cgroup_quota_is_read_at_most_once_a_second(monkeypatch):
    from pymoo_fs.evaluation.knn import parallel

    reads = []
    monkeypatch.setattr(parallel, "_read_quota", lambda: reads.append(1) or 3)
    monkeypatch.setattr(parallel, "_quota_cache", None)
    clock = [100.0]
    monkeypatch.setattr(parallel.time, "perf_counter", lambda: clock[0])
    assert [parallel._quota_cores() for _ in range(5)] == [3] * 5
    assert len(reads) == 1
    clock[0] += parallel._QUOTA_EVERY
    assert parallel._quota_cores() == 3
    assert len(reads) == 2


def test_pymoo_fs_threads_fixes_the_default(monkeypatch):
    import numba

    monkeypatch.setenv("PYMOO_FS_THREADS", "1")
    assert default_threads() == 1
    monkeypatch.setenv("PYMOO_FS_THREADS", "999")
    assert default_threads() == numba.config.NUMBA_NUM_THREADS
    for bad in ("0", "two", "-1"):
        monkeypatch.setenv("PYMOO_FS_THREADS", bad)
        with pytest.raises(ValueError, match="PYMOO_FS_THREADS"):
            default_threads()


def test_default_threads_stay_within_numba_and_the_cpus():
    import numba

    n = default_threads()
    assert 1 <= n <= numba.config.NUMBA_NUM_THREADS
    assert n <= len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else True


def test_scores_do_not_depend_on_the_threads(sonar, monkeypatch):
    rng = np.random.default_rng(5)
    masks = rng.random((12, sonar.n_features)) < 0.3
    base = rng.random(sonar.n_features) < 0.5
    results = []
    for threads in (1, 2, None):
        ev = KNNEvaluator(sonar.X, sonar.y, cv=5, n_threads=threads)
        results.append((ev.score(masks), ev.score_flips(base)))
    for scores, flips in results[1:]:
        np.testing.assert_array_equal(scores, results[0][0])
        np.testing.assert_array_equal(flips, results[0][1])


def test_blas_is_restored_when_the_last_thread_leaves():
    with ParallelContext(1):
        pass  # the BLAS libraries' controllers, cached by the first context

    def blas():
        return [lib.get_num_threads() for lib in ParallelContext._blas]

    def visit():
        with ParallelContext(1):
            pass

    before = blas()
    with ParallelContext(1):
        inside = blas()
        t = threading.Thread(target=visit)  # enters and leaves while this context holds
        t.start()
        t.join(10)
        still = blas()
    assert all(n == 1 for n in inside + still)
    assert blas() == before


def _score_in_worker(X, y, masks):
    import numba

    from pymoo_fs.evaluation import KNNEvaluator

    return KNNEvaluator(X, y, cv=5).score(masks), numba.threading_layer()


def test_loky_workers_score_as_the_parent(sonar):
    from joblib import Parallel, delayed

    rng = np.random.default_rng(9)
    batches = [rng.random((5, sonar.n_features)) < 0.5 for _ in range(4)]
    want = [KNNEvaluator(sonar.X, sonar.y, cv=5).score(b) for b in batches]
    got = Parallel(n_jobs=2, backend="loky")(
        delayed(_score_in_worker)(sonar.X, sonar.y, b) for b in batches)
    for w, (g, layer) in zip(want, got):
        np.testing.assert_array_equal(w, g)
        assert layer in ("tbb", "workqueue")
