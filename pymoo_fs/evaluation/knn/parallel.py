"""Threads of the KNN evaluator: numba's threading layer, the default thread count, BLAS.

The evaluator's kernels are numba ``prange`` loops. Three rules keep them fast and safe on a
shared machine, under ``fork``, with Python threads and in joblib/loky and Dask workers
(measured in ``benchmarks/contention.md``; the user guide's "Running many runs at once" page):

**The threading layer** (:func:`ensure_threading_layer`). numba's default order picks TBB, then
GNU OpenMP, then its own workqueue. GNU OpenMP is not fork-safe: a child of a fork-based
``multiprocessing`` pool whose parent ran a parallel kernel dies with "fork() called from a
process already using GNU OpenMP" and the pool waits forever; and its threads spin at every
barrier, so beside other busy processes a parallel region waits for a thread that is not
running (musk1's flips 15-35x slower than one thread at load 3.5-4.5). Unless the user chose a
layer (``NUMBA_THREADING_LAYER`` or ``numba.config.THREADING_LAYER``) or numba already started
one, pymoo-fs asks numba for its ``"forksafe"`` layer before the first kernel runs: TBB (fork-
and thread-safe, work-stealing; the ``tbb`` package, whose library pymoo-fs loads from the
environment's ``lib`` folder where numba would not find it), else workqueue (fork-safe; not
thread-safe, so kernel calls are then serialised by a lock, :data:`_LAUNCH`).

**The default thread count** (:func:`default_threads`). An evaluator made without
``n_threads`` uses, for each call, the cores of this process's CPU affinity (capped by a
cgroup CPU quota) that other processes leave free: :class:`CoreMonitor` reads the busy time of
those CPUs (``/proc/stat``) and subtracts this process's own CPU time over the last 0.3 s
(sampled every 0.1 s); a core counts as taken once other processes use half of it or more on
average. Beside one or two busy processes on two cores, or as one of several processes of a
job array, the evaluator therefore runs on one thread, which was measured faster than two
there; on an idle machine it runs on all cores as before. Where ``/proc`` does not exist the
count is numba's. Small work is not sent to one thread: on an idle machine even two flips of
wine (356 row x flip visits) run 1.4x faster on two threads than on one
(``benchmarks/contention.py --small-work``), so only the load decides. ``PYMOO_FS_THREADS`` (an
integer) fixes the default count instead; an explicit ``n_threads`` is always used as given.

**BLAS** is held to one thread while a kernel runs (:class:`ParallelContext`): a
multi-threaded BLAS call inside a kernel was measured to slow its parallel loops several-fold
(OpenBLAS's workers keep spinning after the call). The hold is counted, so Python threads that
run kernels at the same time restore BLAS's setting only when the last one leaves.

None of this changes a score: the kernels' results do not depend on the thread count.
"""

import ctypes
import math
import os
import sys
import threading
import time
from pathlib import Path

__all__ = ["CoreMonitor", "ParallelContext", "default_threads", "ensure_threading_layer",
           "threading_layer"]

#: serialises kernel calls where the threading layer is not thread-safe (workqueue)
_LAUNCH = threading.RLock()
_layer_lock = threading.Lock()
_layer_checked = False
_layer_serial = False
_layer_known = None           # the started layer, once known (kernel calls skip the lock)


def _tbb_library():
    """The path of TBB's shared library installed by the ``tbb`` package, or None."""
    names = {"linux": "libtbb.so.12", "darwin": "libtbb.12.dylib", "win32": "tbb12.dll"}
    name = names.get(sys.platform)
    if name is None:
        return None
    candidates = [Path(sys.prefix) / "lib" / name, Path(sys.prefix) / "Library" / "bin" / name]
    try:
        from importlib.metadata import PackageNotFoundError, files

        try:
            for f in files("tbb") or ():
                if f.name == name:
                    candidates.insert(0, Path(f.locate()).resolve())
        except PackageNotFoundError:
            pass
    except ImportError:  # pragma: no cover - importlib.metadata is in the standard library
        pass
    for path in candidates:
        if path.is_file():
            return path
    return None


def ensure_threading_layer():
    """Choose numba's threading layer before any kernel runs (once per process).

    Unless numba has started its threads already, this loads TBB's library from the
    environment where the ``tbb`` package installed it (numba looks for it on the system's
    library path only), so that a user's ``NUMBA_THREADING_LAYER=tbb`` works in a venv too;
    and unless the user chose a layer (``NUMBA_THREADING_LAYER`` set, or
    ``numba.config.THREADING_LAYER`` other than ``"default"``), it sets
    ``numba.config.THREADING_LAYER = "forksafe"``: TBB where it loads, else numba's workqueue.
    Whatever layer the process ends up with, kernel calls are serialised by a lock where it is
    not thread-safe (workqueue).

    Returns
    -------
    str or None
        The layer numba will use or uses (``"tbb"``, ``"omp"``, ``"workqueue"``), or None
        where numba has not started its threads yet and the choice is numba's.

    Notes
    -----
    The choice holds for the whole process (numba has one threading layer), so other numba
    code of the process uses it too. [A] pymoo-fs's policy, measured in
    ``benchmarks/contention.md``; numba's layers and their safety: numba's documentation,
    "The Threading Layers".
    """
    global _layer_checked, _layer_serial, _layer_known
    if _layer_known is not None:  # numba's layer is started and fixed for the process
        return _layer_known
    with _layer_lock:
        if not _layer_checked:
            import numba
            from numba.np.ufunc import parallel

            layer = str(numba.config.THREADING_LAYER).lower()
            chosen = "NUMBA_THREADING_LAYER" in os.environ or layer != "default"
            if not parallel._is_initialized:
                if layer not in ("omp", "workqueue"):  # TBB may be asked for: findable
                    lib = _tbb_library()
                    if lib is not None:
                        try:
                            ctypes.CDLL(str(lib), mode=getattr(ctypes, "RTLD_GLOBAL", 0))
                        except OSError:
                            pass
                if not chosen:
                    numba.config.THREADING_LAYER = "forksafe"
            _layer_checked = True
        layer = threading_layer()
        _layer_serial = layer in (None, "workqueue")
        _layer_known = layer  # None until a kernel has started numba's threads
        return layer


def threading_layer():
    """numba's threading layer in this process, or None where it has not started yet.

    Returns
    -------
    str or None
        ``"tbb"``, ``"omp"`` or ``"workqueue"``.
    """
    import numba

    try:
        return numba.threading_layer()
    except ValueError:  # no parallel kernel has run yet
        return None


_QUOTA_EVERY = 1.0            # seconds between two readings of the cgroup quota
_quota_cache = None           # (perf_counter of the reading, its value)


def _quota_cores():
    """Cores allowed by a cgroup CPU quota, read at most once every :data:`_QUOTA_EVERY`
    seconds (a reading costs about 30 us, a kernel call of small work not much more)."""
    global _quota_cache
    now = time.perf_counter()
    cached = _quota_cache
    if cached is not None and now - cached[0] < _QUOTA_EVERY:
        return cached[1]
    value = _read_quota()
    _quota_cache = (now, value)
    return value


def _read_quota():
    """Cores allowed by a cgroup CPU quota (v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``), or
    None where none is set or readable."""
    try:
        text = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if text and text[0] != "max":
            return max(1, math.ceil(int(text[0]) / int(text[1])))
    except (OSError, ValueError, IndexError):
        pass
    try:
        quota = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read_text())
        period = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text())
        if quota > 0 and period > 0:
            return max(1, math.ceil(quota / period))
    except (OSError, ValueError):
        pass
    return None


class CoreMonitor:
    """The cores of this process's CPUs that other processes leave free, measured.

    Over a window of at least ``window`` seconds, the busy time of the CPUs in this process's
    affinity set (``/proc/stat``: user, nice, system, irq, softirq and steal ticks) minus this
    process's own CPU time (:func:`time.process_time`) is the other processes' load on them,
    in cores. A sample is taken at most once a ``window``; the load is measured from the
    oldest sample of the last ``horizon`` seconds (at least the sample before) to the newest,
    so that the tick counts' error is spread over several windows. :meth:`free` is the number
    of those CPUs minus the cores that load takes (a core counts as taken at :attr:`TAKEN` of
    it), at least 1. Between samples the last measurement stands. Before the first window has
    passed, the other processes' load is the count of running tasks in ``/proc/stat``
    (``procs_running``) less this thread.

    Parameters
    ----------
    window : float, default=0.1
        Seconds between two samples.
    horizon : float, default=0.3
        Seconds the measurement spans (at least one window). ``/proc/stat`` counts in ticks of
        10 ms per CPU: over one window of 0.1 s on 2 CPUs the others' load is known to about
        0.2 cores, over 0.3 s to about 0.07, well inside :attr:`TAKEN`. A job array's
        processes settle on their share within a horizon or two (measured in
        ``benchmarks/contention.md``).

    Attributes
    ----------
    TAKEN : float
        The other processes' average use of a core (0.5) from which it counts as taken.
    available : bool
        Whether ``/proc/stat`` could be read (Linux); where False, :meth:`free` returns the
        CPUs of the affinity set.
    """

    TAKEN = 0.5

    def __init__(self, window=0.1, horizon=0.3):
        self.window = float(window)
        self.horizon = max(float(horizon), self.window)
        try:
            self.cpus = sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):  # not Linux
            self.cpus = list(range(os.cpu_count() or 1))
        self._lock = threading.Lock()
        self._tick = float(os.sysconf("SC_CLK_TCK")) if hasattr(os, "sysconf") else 100.0
        self._last = None           # (wall, busy ticks of our cpus, own cpu seconds)
        self._history = []          # older samples within the horizon, oldest first
        self._others = 0.0          # other processes' load on our cpus, in cores
        sample = self._sample()
        self.available = sample is not None
        if sample is not None:
            self._last = sample[:3]
            self._others = max(0.0, float(sample[3] - 1))

    def _sample(self):
        try:
            with open("/proc/stat", "rb") as f:
                text = f.read().decode("ascii", "replace")
        except OSError:
            return None
        wanted = {f"cpu{c}" for c in self.cpus}
        busy = 0
        running = 1
        for line in text.splitlines():
            parts = line.split()
            if not parts:
                continue
            if parts[0] in wanted and len(parts) >= 8:
                v = [int(x) for x in parts[1:9]] + [0] * max(0, 9 - len(parts))
                busy += v[0] + v[1] + v[2] + v[5] + v[6] + v[7]
            elif parts[0] == "procs_running":
                running = int(parts[1])
        return time.perf_counter(), busy, time.process_time(), running

    def free(self):
        """Cores of this process's CPUs that other processes leave free (at least 1).

        Returns
        -------
        int
        """
        n = len(self.cpus)
        if not self.available:
            return n
        with self._lock:
            now = time.perf_counter()
            if self._last is not None and now - self._last[0] >= self.window:
                sample = self._sample()
                if sample is not None:
                    history = self._history
                    history.append(self._last)
                    # the oldest sample within the horizon, or the one before the newest
                    while len(history) > 1 and sample[0] - history[1][0] >= self.horizon:
                        history.pop(0)
                    first = history[0]
                    wall = sample[0] - first[0]
                    busy = (sample[1] - first[1]) / self._tick / wall
                    own = (sample[2] - first[2]) / wall
                    self._others = max(0.0, busy - own)
                    self._last = sample[:3]
            taken = math.floor(self._others + 1.0 - self.TAKEN)
            return max(1, n - taken)


_monitor = None
_monitor_lock = threading.Lock()


def _env_threads():
    value = os.environ.get("PYMOO_FS_THREADS")
    if value is None or value.strip() == "":
        return None
    try:
        n = int(value)
    except ValueError:
        raise ValueError(f"PYMOO_FS_THREADS must be a positive integer, got {value!r}") \
            from None
    if n < 1:
        raise ValueError(f"PYMOO_FS_THREADS must be a positive integer, got {value!r}")
    return n


def default_threads():
    """The thread count of an evaluator made without ``n_threads``, for its next call.

    ``PYMOO_FS_THREADS`` where set; else numba's thread count (``NUMBA_NUM_THREADS``, by
    default the CPUs of this process's affinity), capped by a cgroup CPU quota and by the
    cores other processes leave free (:class:`CoreMonitor`).

    Returns
    -------
    int
        At least 1.

    Raises
    ------
    ValueError
        If ``PYMOO_FS_THREADS`` is set to anything but a positive integer.
    """
    global _monitor
    import numba

    fixed = _env_threads()
    if fixed is not None:
        return min(fixed, numba.config.NUMBA_NUM_THREADS)
    n = numba.config.NUMBA_NUM_THREADS
    quota = _quota_cores()
    if quota is not None:
        n = min(n, quota)
    if n <= 1:
        return 1
    with _monitor_lock:
        if _monitor is None:
            _monitor = CoreMonitor()
    return max(1, min(n, _monitor.free()))


class ParallelContext:
    """Set numba's thread count and hold BLAS to one thread for one call.

    All parallelism comes from numba. A multi-threaded BLAS call inside a kernel was measured
    to slow the kernel's parallel loops several-fold: OpenBLAS's workers keep spinning after
    the call and compete with numba's threads. Both settings are restored on exit (BLAS's when
    the last of the threads inside a context leaves). Entering chooses numba's threading layer
    first (:func:`ensure_threading_layer`), and where that layer is not thread-safe
    (workqueue) holds a process-wide lock, so that Python threads calling kernels at once take
    turns instead of aborting the process.

    Parameters
    ----------
    threads : int
        numba threads for the call (at most ``numba.config.NUMBA_NUM_THREADS``).

    Examples
    --------
    >>> from pymoo_fs.evaluation.knn.parallel import ParallelContext
    >>> with ParallelContext(1):
    ...     pass
    """

    _blas = None
    _blas_lock = threading.Lock()
    _blas_holders = 0
    _blas_before: list = []

    def __init__(self, threads):
        self.threads = threads

    def __enter__(self):
        import numba

        ensure_threading_layer()
        self._serial = _layer_serial
        if self._serial:
            _LAUNCH.acquire()
        cls = ParallelContext
        with cls._blas_lock:
            if cls._blas is None:
                from threadpoolctl import ThreadpoolController

                # the BLAS libraries loaded now (numpy's and scipy's, which the kernels call)
                cls._blas = ThreadpoolController().select(user_api="blas").lib_controllers
            if cls._blas_holders == 0:
                # threadpoolctl's own limit() costs about 40 us a call; the controllers are
                # cached
                cls._blas_before = [lib.get_num_threads() for lib in cls._blas]
                for lib, before in zip(cls._blas, cls._blas_before):
                    if before is not None and before != 1:
                        lib.set_num_threads(1)
            cls._blas_holders += 1
        # numba's thread count is per (Python) thread
        self._numba_before = numba.get_num_threads()
        want = max(1, min(self.threads, numba.config.NUMBA_NUM_THREADS))
        if want != self._numba_before:
            numba.set_num_threads(want)
        return self

    def __exit__(self, *exc):
        import numba

        if numba.get_num_threads() != self._numba_before:
            numba.set_num_threads(self._numba_before)
        cls = ParallelContext
        with cls._blas_lock:
            cls._blas_holders -= 1
            if cls._blas_holders == 0:
                for lib, before in zip(cls._blas, cls._blas_before):
                    if before is not None and before != 1:
                        lib.set_num_threads(before)
        if self._serial:
            _LAUNCH.release()
        return False
