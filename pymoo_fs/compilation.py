"""Saying when pymoo-fs compiles its numba kernels: every first compilation in a process.

The evaluators, the symmetric-uncertainty filters and a sampler run numba kernels. numba builds
a kernel on its first call, unless its on-disk cache already holds it: on a new machine or
after an upgrade the KNN evaluator's kernels take about a minute, its one-feature flip kernels
and its replay of scikit-learn's neighbour search a minute or more each, and nothing would be
said meanwhile. This module listens to numba's ``"numba:compile"`` event, which numba
broadcasts exactly when a function is compiled (never when it is loaded from the disk cache),
and announces every first compilation of a pymoo-fs kernel in the process (a kernel called
from another compiles with it; numba compiles a kernel again for new argument types, e.g. the
float64 path after the float32 one, which can take as long):

- the first of a family of kernels (the KNN evaluator's, its one-feature flip kernels, its
  replay of scikit-learn, FIT-B's, ...) as ``compiling the KNN evaluator's kernels``, each
  later one of the same family as ``compiling more of the KNN evaluator's kernels
  (cv_predict_batch, other argument types)``;
- through :mod:`logging`, on the logger ``"pymoo_fs.compilation"``: an ``INFO`` record when a
  compilation starts and another, with the seconds it took, when it is done;
- and, unless a handler is installed with :func:`announce_to`, as a
  :class:`KernelCompilationWarning` (Python's default filter shows each message once;
  ``warnings.simplefilter("ignore", KernelCompilationWarning)`` silences them).

The command line (``pymoo-fs``) installs a handler that prints one line per compilation on
stderr instead of the warning.

:func:`install` starts listening; importing :mod:`pymoo_fs` calls it. It does not import
numba: if numba is not imported yet, the listener is registered the moment it is (an import
hook that removes itself), so importing pymoo-fs stays as fast as it was. Nothing here imports
from the rest of :mod:`pymoo_fs`, so every layer may use it.
"""

import contextlib
import importlib.util
import logging
import sys
import threading
import time
import warnings

__all__ = ["FAMILIES", "KernelCompilationWarning", "announce_to", "announced",
           "compile_seconds", "ensure_cache_dir", "family_of", "install"]

logger = logging.getLogger("pymoo_fs.compilation")

#: (module prefix, what is compiled): a kernel belongs to the first family whose prefix its
#: module starts with
FAMILIES = (
    ("pymoo_fs.evaluation.knn.kernels.flips", "the KNN evaluator's one-feature flip kernels"),
    ("pymoo_fs.evaluation.knn.kernels.sklearn_replay",
     "the KNN evaluator's replay of scikit-learn's neighbour search (for ties)"),
    ("pymoo_fs.evaluation.knn.kernels", "the KNN evaluator's kernels"),
    ("pymoo_fs.evaluation._fitb_kernels", "the FIT-B evaluator's kernels"),
    ("pymoo_fs.relevance", "the symmetric-uncertainty kernels"),
    ("pymoo_fs.algorithms", "the algorithms' sampling kernel"),
    ("pymoo_fs.", "pymoo-fs kernels"),
)

_lock = threading.Lock()
_announced = []          # families announced, in order
_kernels = {}            # dispatcher -> argument types compiled (pymoo-fs kernels only)
_handlers = []           # innermost last; see announce_to
_installed = False
_local = threading.local()
_spent = [0.0, 0.0]      # wall and CPU seconds of every outermost numba compilation so far


class KernelCompilationWarning(UserWarning):
    """A family of pymoo-fs's numba kernels is being compiled (once; then cached on disk)."""


def family_of(module):
    """The family of kernels defined in a module, or None for a module outside pymoo-fs.

    Parameters
    ----------
    module : str
        A dotted module name (a kernel's ``__module__``).

    Returns
    -------
    family : str or None
        The description of :data:`FAMILIES` whose prefix ``module`` starts with (the first
        that fits), or None.

    Examples
    --------
    >>> from pymoo_fs.compilation import family_of
    >>> family_of("pymoo_fs.evaluation.knn.kernels.flips")
    "the KNN evaluator's one-feature flip kernels"
    >>> family_of("sklearn.neighbors") is None
    True
    """
    for prefix, description in FAMILIES:
        if module.startswith(prefix):
            return description
    return None


def announced():
    """The families of kernels this process has announced compiling.

    Returns
    -------
    families : list of str
        In the order they were announced.
    """
    with _lock:
        return list(_announced)


@contextlib.contextmanager
def announce_to(handler):
    """Send the announcements to ``handler`` instead of the warning, while the block runs.

    Parameters
    ----------
    handler : callable
        Called as ``handler(what)`` when a compilation starts, with what is compiled: the
        family for its first kernel (``"the KNN evaluator's one-feature flip kernels"``),
        ``"more of <family> (<kernel>)"`` or ``"more of <family> (<kernel>, other argument
        types)"`` for the later ones. The ``logging`` records are written as always.

    Yields
    ------
    None

    Examples
    --------
    >>> from pymoo_fs.compilation import announce_to
    >>> with announce_to(lambda family: print("compiling", family)):
    ...     pass  # a first compilation here would print instead of warning
    """
    with _lock:
        _handlers.append(handler)
    try:
        yield
    finally:
        with _lock:
            _handlers.remove(handler)


def compile_seconds():
    """Seconds this process has spent compiling numba functions since :func:`install`.

    Every outermost compilation counts (a kernel's callees compile inside it), pymoo-fs's and
    any other numba function's, whether announced or not; loading a kernel from numba's disk
    cache is not a compilation and does not count. A study's run subtracts the seconds spent
    while it ran from its own (:func:`pymoo_fs.studies.runner.execute_run`).

    Returns
    -------
    wall, cpu : float
        Wall-clock seconds and CPU seconds of the compiling threads.

    Examples
    --------
    >>> from pymoo_fs.compilation import compile_seconds
    >>> wall, cpu = compile_seconds()
    >>> wall >= 0 and cpu >= 0
    True
    """
    with _lock:
        return _spent[0], _spent[1]


def install():
    """Listen to numba's compilations from now on, in this process (idempotent).

    Registers a listener of numba's ``"numba:compile"`` event at once when numba is imported
    already; otherwise installs an import hook that registers it right after numba's import
    and removes itself. Where numba's event API is missing, nothing is announced.
    """
    global _installed
    with _lock:
        if _installed:
            return
        _installed = True
    ensure_cache_dir()
    if "numba" in sys.modules:
        _register()
    else:
        sys.meta_path.insert(0, _AfterNumbaImport())


def _register():
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover - numba's event API exists since 0.55
        return

    class Listener(event.Listener):
        def on_start(self, ev):
            depth = getattr(_local, "depth", 0)
            _local.depth = depth + 1
            if depth == 0:  # the outermost compilation: the kernel that was called
                _local.clock = (time.perf_counter(), time.thread_time())
                _local.started = _start(ev)

        def on_end(self, ev):
            _local.depth = getattr(_local, "depth", 1) - 1
            clock = getattr(_local, "clock", None)
            if _local.depth == 0 and clock is not None:
                _local.clock = None
                wall, cpu = time.perf_counter() - clock[0], time.thread_time() - clock[1]
                with _lock:
                    _spent[0] += wall
                    _spent[1] += cpu
            started = getattr(_local, "started", None)
            if _local.depth == 0 and started is not None:
                _local.started = None
                what, start = started
                logger.info("compiled %s in %.1f s", what, time.perf_counter() - start)

    event.register("numba:compile", Listener())


def _start(ev):
    """Announce the compilation of a pymoo-fs kernel; return (what, start time) or None."""
    data = ev.data or {}
    dispatcher = data.get("dispatcher")
    function = getattr(dispatcher, "py_func", None)
    module = getattr(function, "__module__", None) or ""
    family = family_of(module)
    if family is None:
        return None
    name = getattr(function, "__name__", "?")
    signature = str(data.get("args"))
    with _lock:
        compiled = _kernels.setdefault(dispatcher, set())
        if signature in compiled:
            return None
        again = bool(compiled)
        compiled.add(signature)
        if family in _announced:
            what = f"more of {family} ({name}{', other argument types' if again else ''})"
        else:
            _announced.append(family)
            what = family
        handler = _handlers[-1] if _handlers else None
    message = (f"compiling {what} (first use with this numba and these sources; numba caches "
               f"them on disk afterwards; this can take a minute or more)")
    logger.info(message)
    if handler is not None:
        handler(what)
    else:
        warnings.warn(message, KernelCompilationWarning, stacklevel=_caller_level())
    return what, time.perf_counter()


def _caller_level():
    """The ``stacklevel`` of the first frame outside numba and this module: the code whose
    call of a kernel set the compilation off (a pymoo-fs evaluator, or the user's)."""
    frame, level = sys._getframe(1), 1
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not (module == __name__ or module.startswith(("numba.", "contextlib"))
                or module == "numba"):
            return level
        frame, level = frame.f_back, level + 1
    return 2


class _AfterNumbaImport:
    """A one-shot import hook: registers the listener right after numba is imported."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname != "numba":
            return None
        with contextlib.suppress(ValueError):
            sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        execute = spec.loader.exec_module

        def exec_module(module):
            execute(module)
            _register()

        spec.loader.exec_module = exec_module
        return spec


def _writable(directory):
    """Whether a directory can be written, or created under its nearest existing parent."""
    import os

    path = os.path.abspath(directory)
    while not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            return False
        path = parent
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


def ensure_cache_dir():
    """Give numba a writable directory for pymoo-fs's kernels where it would find none.

    numba caches a kernel beside its source (``__pycache__``) or, where that folder cannot be
    written (a read-only install), in the user's cache (``~/.cache/numba``); where neither can
    be written, defining the kernel fails with numba's "cannot cache function ...: no locator
    available". Here, when ``NUMBA_CACHE_DIR`` is not set and neither place is writable,
    ``NUMBA_CACHE_DIR`` is set to a folder of the system's temporary directory
    (``pymoo-fs-numba-UID``; the kernels are compiled again after it is emptied).

    Returns
    -------
    directory : str or None
        The directory chosen, or None where nothing was changed.

    Raises
    ------
    RuntimeError
        When no directory can be written at all (nor one named by ``NUMBA_CACHE_DIR``): the
        message names the folders tried and says to set ``NUMBA_CACHE_DIR`` to a writable one.
    """
    import os
    import tempfile

    package = os.path.dirname(os.path.abspath(__file__))
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        if _writable(given):
            return None
        tried = [given]
    else:
        home = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"),
                                                                ".cache")
        user = os.path.join(home, "numba")
        if _writable(os.path.join(package, "__pycache__")) or _writable(user):
            return None
        tried = [os.path.join(package, "__pycache__"), user]
    fallback = os.path.join(tempfile.gettempdir(), f"pymoo-fs-numba-{_uid()}")
    if not _writable(fallback):
        raise RuntimeError(
            f"numba cannot cache pymoo-fs's kernels: {', '.join(tried + [fallback])} cannot "
            "be written; set NUMBA_CACHE_DIR to a writable directory")
    os.environ["NUMBA_CACHE_DIR"] = fallback
    numba_config = sys.modules.get("numba.core.config")
    if numba_config is not None:  # numba read its configuration already
        numba_config.CACHE_DIR = fallback
    warnings.warn(f"{', '.join(tried)} cannot be written: numba caches pymoo-fs's kernels in "
                  f"{fallback} (set NUMBA_CACHE_DIR to choose the folder)", UserWarning,
                  stacklevel=2)
    return fallback


def _uid():
    import os

    return os.getuid() if hasattr(os, "getuid") else os.environ.get("USERNAME", "user")
