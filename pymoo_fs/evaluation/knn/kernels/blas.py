"""BLAS callable from cached kernels: the Gram products and scikit-learn's own routines.

Two BLAS builds are usually at hand: numpy's bundled OpenBLAS (ILP64, CBLAS interface under
``scipy_cblas_?syrk64_``) and scipy's (``scipy.linalg.cython_blas``). The Gram matrix is one
``?syrk`` (half the work of a GEMM; on this project's machines a full GEMM measured 35-40 %
slower than SYRK plus mirroring), or with few columns one ``?gemm`` (:data:`GEMM_MAX_COLS`).
numpy's OpenBLAS ``dsyrk`` measured 5-15 % faster than scipy's, so it is used when found;
otherwise scipy's, which every scipy provides. The exact
path (:mod:`.sklearn_replay`) calls scipy's ``ddot`` and ``dgemm`` whatever is found, because
they are the routines scikit-learn's own neighbour search calls.

A numba function holding a ctypes pointer cannot be cached (the address changes between
processes), so the addresses are registered with LLVM under fixed symbol names when this
module is imported, and the kernels call the names. Every name is always registered, each
with its own calling convention (a stub stands in for a numpy BLAS that was not found), and
which one to call is an argument of the kernels (:data:`USE_NUMPY_BLAS`), never a
compiled-in constant, so a cached kernel is safe whichever BLAS the next process finds.
Registration compiles nothing; every module that calls these intrinsics imports this one, so
the symbols exist before any cached kernel is loaded.
"""

import ctypes
import os

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from scipy.linalg import cython_blas

from .jit import kernel

_I32 = ir.IntType(32)
_I64 = ir.IntType(64)
_PTR = ir.IntType(8).as_pointer()


def _capsule_address(name):
    capsule = cython_blas.__pyx_capi__[name]
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, get_name(capsule))


def _syrk_prototype(real):
    i64 = ctypes.c_int64
    return ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_int, ctypes.c_int, i64, i64, real,
                            ctypes.c_void_p, i64, real, ctypes.c_void_p, i64)


def _numpy_cblas_addresses():
    """Addresses of numpy's bundled OpenBLAS ``cblas_?syrk`` and ``cblas_?gemm`` (ILP64)."""
    try:
        from threadpoolctl import threadpool_info

        paths = [i["filepath"] for i in threadpool_info() if i.get("internal_api") == "openblas"]
    except Exception:  # pragma: no cover - threadpoolctl is a dependency
        return None
    for path in paths:
        if "numpy" not in path:
            continue
        try:
            lib = ctypes.CDLL(path)
            d = ctypes.cast(lib.scipy_cblas_dsyrk64_, ctypes.c_void_p).value
            s = ctypes.cast(lib.scipy_cblas_ssyrk64_, ctypes.c_void_p).value
            g = ctypes.cast(lib.scipy_cblas_dgemm64_, ctypes.c_void_p).value
            sg = ctypes.cast(lib.scipy_cblas_sgemm64_, ctypes.c_void_p).value
        except (OSError, AttributeError):
            continue
        return d, s, g, sg
    return None


def _unavailable(*args):  # pragma: no cover - never called: USE_NUMPY_BLAS is False then
    os.write(2, b"pymoo_fs: numpy's BLAS called but not available\n")
    os.abort()


_found = None if os.environ.get("PYMOO_FS_SCIPY_BLAS") else _numpy_cblas_addresses()
#: whether the kernels should call numpy's OpenBLAS (else scipy's); pass it to them
USE_NUMPY_BLAS = _found is not None
_stubs = (_syrk_prototype(ctypes.c_double)(_unavailable),
          _syrk_prototype(ctypes.c_float)(_unavailable),
          ctypes.CFUNCTYPE(None)(_unavailable), ctypes.CFUNCTYPE(None)(_unavailable))
_cblas_addresses = _found or tuple(ctypes.cast(f, ctypes.c_void_p).value for f in _stubs)
llvm.add_symbol("pymoo_fs_cblas_dsyrk", _cblas_addresses[0])
llvm.add_symbol("pymoo_fs_cblas_ssyrk", _cblas_addresses[1])
llvm.add_symbol("pymoo_fs_cblas_dgemm", _cblas_addresses[2])
llvm.add_symbol("pymoo_fs_cblas_sgemm", _cblas_addresses[3])
# scipy's BLAS: the fallback for the Gram products, and the routines scikit-learn itself calls
# (its brute-force neighbour search uses scipy's ddot and dgemm), for the exact path
for _name in ("dsyrk", "ssyrk", "dgemm", "sgemm", "ddot"):
    llvm.add_symbol(f"pymoo_fs_{_name}", _capsule_address(_name))


def _fortran_codegen(symbol, n_args, returns_double):
    def codegen(context, builder, signature, args):
        llret = ir.DoubleType() if returns_double else ir.VoidType()
        fn = cgutils.get_or_insert_function(
            builder.module, ir.FunctionType(llret, [_PTR] * n_args), symbol)
        return builder.call(fn, args)

    return codegen


def _fortran_intrinsic(symbol, n_args, returns_double=False):
    """A call of the Fortran BLAS routine ``symbol``, every argument by pointer."""
    ret = types.float64 if returns_double else types.void
    sig = ret(*([types.voidptr] * n_args))
    codegen = _fortran_codegen(symbol, n_args, returns_double)
    # an intrinsic needs its parameters spelled out (no *args)
    names = ", ".join(f"a{i}" for i in range(n_args))
    scope = {}
    exec(f"def call(typingctx, {names}):\n    return sig, codegen\n",  # noqa: S102
         {"sig": sig, "codegen": codegen}, scope)
    return intrinsic(scope["call"])


def _cblas_syrk_intrinsic(symbol, real):
    """Lower triangle of ``C = alpha A^T A + beta C`` (row-major CBLAS, ILP64), ``A`` (k, n)."""

    @intrinsic
    def call(typingctx, n, k, alpha, a, lda, beta, c, ldc):
        nb_real = types.float64 if real is ir.DoubleType else types.float32
        sig = types.void(types.int64, types.int64, nb_real, types.voidptr, types.int64, nb_real,
                         types.voidptr, types.int64)

        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.VoidType(), [_I32, _I32, _I32, _I64, _I64, real(), _PTR,
                                                   _I64, real(), _PTR, _I64])
            fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
            n_, k_, alpha_, a_, lda_, beta_, c_, ldc_ = args
            row_major, lower, trans = (ir.Constant(_I32, v) for v in (101, 122, 112))
            builder.call(fn, [row_major, lower, trans, n_, k_, alpha_, a_, lda_, beta_, c_, ldc_])

        return sig, codegen

    return call


def _cblas_gemm_tn_intrinsic(symbol, real):
    """Row-major ``C (m, n) = alpha A^T B + beta C`` for ``A`` (k, m), ``B`` (k, n) (ILP64)."""

    @intrinsic
    def call(typingctx, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc):
        nb_real = types.float64 if real is ir.DoubleType else types.float32
        sig = types.void(types.int64, types.int64, types.int64, nb_real, types.voidptr,
                         types.int64, types.voidptr, types.int64, nb_real, types.voidptr,
                         types.int64)

        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.VoidType(), [_I32, _I32, _I32, _I64, _I64, _I64, real(),
                                                   _PTR, _I64, _PTR, _I64, real(), _PTR, _I64])
            fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
            m_, n_, k_, al, a_, lda_, b_, ldb_, be, c_, ldc_ = args
            row_major, trans, notrans = (ir.Constant(_I32, v) for v in (101, 112, 111))
            builder.call(fn, [row_major, trans, notrans, m_, n_, k_, al, a_, lda_, b_, ldb_, be,
                              c_, ldc_])

        return sig, codegen

    return call


dsyrk = _fortran_intrinsic("pymoo_fs_dsyrk", 10)
ssyrk = _fortran_intrinsic("pymoo_fs_ssyrk", 10)
dgemm = _fortran_intrinsic("pymoo_fs_dgemm", 13)
sgemm = _fortran_intrinsic("pymoo_fs_sgemm", 13)
ddot = _fortran_intrinsic("pymoo_fs_ddot", 5, returns_double=True)
_cblas_dsyrk = _cblas_syrk_intrinsic("pymoo_fs_cblas_dsyrk", ir.DoubleType)
_cblas_ssyrk = _cblas_syrk_intrinsic("pymoo_fs_cblas_ssyrk", ir.FloatType)
_cblas_dgemm_tn = _cblas_gemm_tn_intrinsic("pymoo_fs_cblas_dgemm", ir.DoubleType)
_cblas_sgemm_tn = _cblas_gemm_tn_intrinsic("pymoo_fs_cblas_sgemm", ir.FloatType)


@kernel()
def int32s(*values):
    """The values as an int32 array (BLAS integer arguments are passed by pointer)."""
    out = np.empty(len(values), dtype=np.int32)
    for i in range(len(values)):
        out[i] = values[i]
    return out


@kernel()
def syrk_t(AT, C, alpha, beta, use_numpy_blas):
    """Lower triangle of ``C = alpha AT^T AT + beta C`` for C-contiguous ``AT`` (m, n).

    float64 or float32 (``C`` of the same dtype, (n, n), C-contiguous). numpy's OpenBLAS with
    ``use_numpy_blas`` (:data:`USE_NUMPY_BLAS`), else scipy's. BLAS threading is whatever the
    caller set (threadpoolctl). The upper triangle is left as it was.
    """
    m, n = AT.shape
    if use_numpy_blas:
        if AT.itemsize == 8:
            _cblas_dsyrk(n, m, np.float64(alpha), AT.ctypes, max(n, 1), np.float64(beta),
                         C.ctypes, max(n, 1))
        else:
            _cblas_ssyrk(n, m, np.float32(alpha), AT.ctypes, max(n, 1), np.float32(beta),
                         C.ctypes, max(n, 1))
        return
    uplo = np.array([ord("U")], dtype=np.uint8)  # Fortran upper = C-order lower
    trans = np.array([ord("N")], dtype=np.uint8)  # AT is the Fortran (n, m) matrix A
    dims = int32s(n, m, max(n, 1), max(n, 1))
    al = np.full(1, alpha, dtype=AT.dtype)
    be = np.full(1, beta, dtype=AT.dtype)
    if AT.itemsize == 8:
        dsyrk(uplo.ctypes, trans.ctypes, dims[0:].ctypes, dims[1:].ctypes, al.ctypes,
              AT.ctypes, dims[2:].ctypes, be.ctypes, C.ctypes, dims[3:].ctypes)
    else:
        ssyrk(uplo.ctypes, trans.ctypes, dims[0:].ctypes, dims[1:].ctypes, al.ctypes,
              AT.ctypes, dims[2:].ctypes, be.ctypes, C.ctypes, dims[3:].ctypes)


#: rows and columns of the blocks :func:`mirror_lower` copies through a buffer
MIRROR_BLOCK = 16


#: most selected columns (float32, float64) for which :func:`gram_t` is one full GEMM: with
#: few columns the product is bound by writing the n x n result, not by its multiply-adds, and
#: one GEMM that writes it once beats SYRK plus the mirror's second pass over it (one thread,
#: n from 150 to 2,233, GEMM over SYRK plus mirror: float32 0.36-0.45 of the time at 4 columns,
#: 0.81-0.91 at 20, 0.87-1.05 at 24; float64 0.50-0.73 at 4, 0.59-0.88 at 8, 0.63-1.00 at 12)
GEMM_MAX_COLS = (20, 8)


@kernel()
def gram_t(AT, C, use_numpy_blas):
    """``C = AT^T AT`` (both triangles) for C-contiguous ``AT`` (m, n), into ``C`` (n, n).

    ``AT`` holds one selected feature per row (a contiguous copy of a column of the data), so
    gathering the columns of a mask is a sequence of contiguous copies. One ``?syrk`` computes
    the lower triangle (:func:`syrk_t`), which is then mirrored tile by tile; up to
    :data:`GEMM_MAX_COLS` columns one ``?gemm`` computes both triangles at once instead. Its
    two triangles need not agree to the last bit (each entry is its own dot product); every
    bound the kernels use holds for any order of summation, and nothing reads an entry
    through its mirror image.
    """
    m = AT.shape[0]
    n = AT.shape[1]
    single = C.itemsize == 4
    if m <= (GEMM_MAX_COLS[0] if single else GEMM_MAX_COLS[1]):
        gemm_tn(n, n, m, 1.0, AT.ctypes, max(n, 1), AT.ctypes, max(n, 1), 0.0, C.ctypes,
                max(n, 1), single, use_numpy_blas)
        return
    syrk_t(AT, C, 1.0, 0.0, use_numpy_blas)
    mirror_lower(C)


@kernel()
def gemm_tn(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, single, use_numpy_blas):
    """Row-major ``C (m, n) = alpha A^T B + beta C``; ``A`` (k, m), ``B`` (k, n).

    ``A``, ``B`` and ``C`` are passed as pointers (``.ctypes``) with their leading dimensions;
    all three are float32 with ``single``, else float64.
    """
    if use_numpy_blas:
        if single:
            _cblas_sgemm_tn(m, n, k, np.float32(alpha), A, lda, B, ldb, np.float32(beta), C, ldc)
        else:
            _cblas_dgemm_tn(m, n, k, np.float64(alpha), A, lda, B, ldb, np.float64(beta), C,
                            ldc)
        return
    # column-major view: C^T (n, m) = B^T (n, k) A (k, m)
    ta = np.array([ord("N")], dtype=np.uint8)
    tb = np.array([ord("T")], dtype=np.uint8)
    dims = int32s(n, m, k, ldb, lda, ldc)
    if single:
        al32 = np.full(1, alpha, dtype=np.float32)
        be32 = np.full(1, beta, dtype=np.float32)
        sgemm(ta.ctypes, tb.ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes,
              al32.ctypes, B, dims[3:].ctypes, A, dims[4:].ctypes, be32.ctypes, C,
              dims[5:].ctypes)
    else:
        al = np.full(1, alpha)
        be = np.full(1, beta)
        dgemm(ta.ctypes, tb.ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes,
              al.ctypes, B, dims[3:].ctypes, A, dims[4:].ctypes, be.ctypes, C,
              dims[5:].ctypes)


@kernel()
def mirror_lower(C):
    """Copy the lower triangle of a square C-ordered matrix onto its upper one.

    By blocks of :data:`MIRROR_BLOCK` squared: each block below the diagonal is read row by
    row into a small buffer, transposed, then written row by row above it, so both sides
    touch a few cache lines at a time (an element loop over 64 x 64 tiles wrote one element
    per cache line down a column: 0.79 against 0.55-0.60 ms per float32 matrix of gas6's
    1,610 training rows, 3.8 against 1.2 ms of splice's 2,233, after a SYRK; one thread).
    Blocks on the diagonal or in the last rows go element by element.
    """
    n = C.shape[0]
    buf = np.empty((MIRROR_BLOCK, MIRROR_BLOCK), dtype=C.dtype)
    for i0 in range(0, n, MIRROR_BLOCK):
        full = i0 + MIRROR_BLOCK <= n
        for j0 in range(0, i0 + 1, MIRROR_BLOCK):
            if full and j0 + MIRROR_BLOCK <= i0:
                for a in range(MIRROR_BLOCK):
                    for b in range(MIRROR_BLOCK):
                        buf[b, a] = C[i0 + a, j0 + b]
                for b in range(MIRROR_BLOCK):
                    for a in range(MIRROR_BLOCK):
                        C[j0 + b, i0 + a] = buf[b, a]
            else:
                for i in range(i0, min(i0 + MIRROR_BLOCK, n)):
                    for j in range(j0, min(j0 + MIRROR_BLOCK, i)):
                        C[j, i] = C[i, j]
