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
"""

import functools
import hashlib
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
            super().__init__(py_func)
            self._locator = _StampedLocator(self._locator, process_stamp())

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
