"""numba compilation of the kernels, with one on-disk cache stamp for every kernel module.

numba caches a compiled function (``cache=True``) under a stamp of *its own* source file: the
cached machine code is reloaded as long as that one file is unchanged, even where a function
it calls (compiled into its machine code, inlined or not), a BLAS intrinsic it lowers or a
constant it reads lives in another file that has changed since. Kernels spread over several
files could therefore run stale machine code.

:func:`kernel` is ``numba.njit(cache=True)`` except that the stamp of every kernel's cache
index also holds :func:`source_hash`, a SHA-256 of every module of this package (the ``*.py``
files beside this one). numba drops an index whose stamp differs, so editing any kernel
module recompiles every kernel on its next call, whichever file the kernel lives in. Every
numba function and intrinsic of the KNN evaluator must therefore live in this package and be
compiled through :func:`kernel` (``tests/evaluation/knn/test_kernel_cache.py`` checks both,
and shows that an edit of one module reaches a cached kernel of another while numba's own
stamp would keep the stale code).

The stamp is computed once per process; a cache entry is written only while the sources on
disk still hash to it, so a module edited while a process runs cannot be cached under the
stamp of the sources it was not compiled from. Where numba's caching classes cannot be
extended (a numba whose internals changed), the kernels are compiled without a disk cache
(a warning says so): slower starts, never stale code.

**Where the cache lives.** numba files a kernel's cache beside its source (``__pycache__``),
under a name made from the source file's path, so every installation (each venv or clone)
would compile its own, and a read-only installation none (numba's "no locator available").
Unless ``NUMBA_CACHE_DIR`` is set (numba's rule then) or ``PYMOO_FS_KERNEL_CACHE=local``, the
kernels are cached in a per-user directory instead (:func:`shared_cache_dir`), one folder per
:func:`cache_key`: the kernels' source hash, the Python ABI, the machine, and the versions of
numba, llvmlite, numpy, scipy and scikit-learn. Two installations of the same sources with the
same libraries share the compiled kernels; any other difference gets a folder of its own, and
the index's stamp is the source hash alone (numba's own modification-time stamp would differ
between installations of the same file). ``PYMOO_FS_KERNEL_CACHE=<directory>`` moves it. The
three most recently used folders are kept; older ones are removed.
"""

import functools
import hashlib
import inspect
import os
import platform
import shutil
import sys
import tempfile
import warnings
from pathlib import Path

import numba as nb

#: the directory of the kernel modules whose sources make the stamp
KERNEL_DIR = Path(__file__).resolve().parent


def source_hash(directory=KERNEL_DIR):
    """SHA-256 (hex) of every ``*.py`` file of ``directory``, names and contents, sorted.

    Parameters
    ----------
    directory : path-like, default=:data:`KERNEL_DIR`
        The directory of the kernel modules.

    Returns
    -------
    str
        64 hexadecimal digits; any edit, addition, removal or renaming of a module changes it.
    """
    digest = hashlib.sha256()
    for path in sorted(Path(directory).glob("*.py")):
        data = path.read_bytes()
        digest.update(path.name.encode() + b"\0" + len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


@functools.lru_cache(maxsize=None)
def process_stamp():
    """str: :func:`source_hash` of the kernel modules, computed once in this process."""
    return source_hash()


#: folders of the per-user cache kept (the most recently used)
KEEP_FOLDERS = 3


def cache_key():
    """str: the per-user cache folder's name for this process's kernels and libraries.

    20 hexadecimal digits of a SHA-256 over :func:`process_stamp`, the Python ABI
    (``sys.implementation.cache_tag`` and ``sys.abiflags``), the machine and operating system,
    and the versions of numba, llvmlite, numpy, scipy and scikit-learn.
    """
    import llvmlite
    import numpy
    import scipy
    import sklearn

    parts = [process_stamp(), sys.implementation.cache_tag, getattr(sys, "abiflags", ""),
             platform.machine(), sys.platform, nb.__version__, llvmlite.__version__,
             numpy.__version__, scipy.__version__, sklearn.__version__]
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()[:20]


def _user_cache_root():
    if sys.platform == "win32":
        base = os.environ.get("LOCALAPPDATA") or str(Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = str(Path.home() / "Library" / "Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "pymoo-fs" / "kernels"


@functools.lru_cache(maxsize=None)
def shared_cache_dir():
    """The per-user folder of the kernels' disk cache, or None for numba's own locations.

    None where ``NUMBA_CACHE_DIR`` is set, ``PYMOO_FS_KERNEL_CACHE`` is ``"local"``, or the
    folder cannot be made writable. Otherwise ``PYMOO_FS_KERNEL_CACHE`` (a directory) or the
    user's cache directory (``$XDG_CACHE_HOME`` or ``~/.cache`` on Linux) + ``pymoo-fs/kernels``,
    then :func:`cache_key`. Folders beyond the :data:`KEEP_FOLDERS` most recently used are
    removed.

    Returns
    -------
    pathlib.Path or None
    """
    if os.environ.get("NUMBA_CACHE_DIR"):
        return None
    chosen = os.environ.get("PYMOO_FS_KERNEL_CACHE", "").strip()
    if chosen.lower() == "local":
        return None
    root = Path(chosen).expanduser() if chosen else _user_cache_root()
    folder = root / cache_key()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
        os.utime(folder)  # most recently used
    except OSError:
        return None
    try:
        others = sorted((p for p in root.iterdir() if p.is_dir() and p != folder),
                        key=lambda p: p.stat().st_mtime, reverse=True)
        for old in others[KEEP_FOLDERS - 1:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass
    return folder


class _SharedLocator:
    """A kernel's cache in :func:`shared_cache_dir`, stamped by the sources' hash alone."""

    def __init__(self, folder, lineno, stamp):
        self._folder = str(folder)
        self._lineno = lineno
        self._stamp = stamp

    def ensure_cache_path(self):
        os.makedirs(self._folder, exist_ok=True)

    def get_cache_path(self):
        return self._folder

    def get_disambiguator(self):
        return str(self._lineno)

    def get_source_stamp(self):
        return ("pymoo-fs kernel sources", self._stamp)


class _StampedLocator:
    """numba's cache locator of one function, its source stamp extended by
    :func:`process_stamp` (everything else is the locator numba chose)."""

    def __init__(self, inner, stamp):
        self._inner = inner
        self._stamp = stamp

    def ensure_cache_path(self):
        self._inner.ensure_cache_path()

    def get_cache_path(self):
        return self._inner.get_cache_path()

    def get_disambiguator(self):
        return self._inner.get_disambiguator()

    def get_source_stamp(self):
        return (self._inner.get_source_stamp(), self._stamp)


def _kernel_cache_class():
    """numba's ``FunctionCache`` with the stamped locator, or None where it cannot be made."""
    try:
        from numba.core.caching import CompileResultCacheImpl, FunctionCache
    except ImportError:  # pragma: no cover - a numba whose caching module changed
        return None

    class KernelCacheImpl(CompileResultCacheImpl):
        def __init__(self, py_func):
            shared = shared_cache_dir()
            try:
                super().__init__(py_func)
            except RuntimeError:  # no locator: a read-only installation
                if shared is None:
                    raise
                self._lineno = py_func.__code__.co_firstlineno
            if shared is None:
                self._locator = _StampedLocator(self._locator, process_stamp())
                return
            self._locator = _SharedLocator(shared, self._lineno, process_stamp())
            modname = os.path.splitext(os.path.basename(inspect.getfile(py_func)))[0]
            qualname = getattr(py_func, "__qualname__", py_func.__name__)
            self._filename_base = self.get_filename_base(f"{modname}.{qualname}",
                                                         getattr(sys, "abiflags", ""))

    class KernelCache(FunctionCache):
        """numba's function cache whose index stamp covers every kernel module."""

        _impl_class = KernelCacheImpl

        def _save_overload(self, sig, data):
            # sources edited since this process hashed them: the code compiled now may come
            # from either version, so it is not stored under either stamp
            if source_hash() != process_stamp():
                return
            super()._save_overload(sig, data)

    return KernelCache


#: the cache class of every kernel (None: numba's caching could not be extended)
KernelCache = _kernel_cache_class()


def kernel(**options):
    """Decorator: ``numba.njit(**options)`` cached on disk under the kernels' common stamp.

    Parameters
    ----------
    **options
        numba's ``njit`` options (``parallel``, ``inline``, ...); ``cache`` is not one of them:
        every kernel is cached, under :class:`KernelCache`.

    Returns
    -------
    callable
        The decorator; it returns numba's dispatcher. Nothing is compiled before the first
        call.

    Raises
    ------
    TypeError
        If ``cache`` is given.
    """
    if "cache" in options:
        raise TypeError("kernel() caches every kernel; do not pass cache")

    def decorate(func):
        dispatcher = nb.njit(**options)(func)
        if KernelCache is None:  # pragma: no cover - see the module docstring
            warnings.warn("numba's cache cannot be extended here: the KNN kernels are compiled "
                          "in every process", RuntimeWarning, stacklevel=2)
            return dispatcher
        try:
            dispatcher._cache = KernelCache(dispatcher.py_func)
        except RuntimeError:  # pragma: no cover - no writable cache directory: numba's rule
            pass
        return dispatcher

    return decorate
