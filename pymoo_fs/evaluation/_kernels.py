"""Compiled (numba) kernels of the KNN wrapper evaluator.

They compute the certified predictions that :mod:`pymoo_fs.evaluation._reference` states in
plain numpy, and the exact scikit-learn predictions of the rows that cannot be certified:

* :func:`cv_predict_batch` scores a batch of masks, one thread per group of masks;
  :func:`cv_predict_one` scores one mask with its rows split over the threads. Each mask's Gram
  matrix is computed from scratch or updated from a kept one (the *pool*, see
  :func:`_update_panels`); the caller decides which (``plan``) and holds BLAS to one thread.
  Each row's scan for its k + 1 nearest is bounded by the nearest it had under an earlier
  mask (the *seeds*, see :func:`_predict_rows`), which skips most insertions and changes no
  result.
* :func:`flip_tables` and :func:`flip_predict` answer all single-feature flips of one mask from
  its Gram matrix, O(n^2) per flip at worst and usually far less.
* :func:`exact_fold_rows` predicts rows exactly as scikit-learn's ``KNeighborsClassifier``
  does (:func:`_sk_brute_rows`, :func:`_kd_rows`), for rows the rounding bound cannot certify.

Arguments are grouped in small named tuples of arrays (:class:`Data`, :class:`Folds`,
:class:`Pool`, :class:`Plan`), which numba passes as structures. One certification routine,
:func:`_certify`, decides every row that the cheap test leaves open (batch, single mask,
float32 refinement and flips alike).

Every kernel is compiled lazily on first call and cached on disk (``cache=True``); importing
this module compiles nothing. Memory per worker thread: one n x n matrix plus the gathered
columns (n x |S|).

All numba code of the evaluator lives in this one module on purpose: numba invalidates a
cached function when its own source file changes, not when a function it calls from another
module does, so kernels split over several files could run stale machine code.

**BLAS, callable from cached kernels.** Two BLAS builds are usually at hand: numpy's bundled
OpenBLAS (ILP64, CBLAS interface under ``scipy_cblas_?syrk64_``) and scipy's
(``scipy.linalg.cython_blas``). The Gram matrix is one ``?syrk`` (half the work of a GEMM; on
this project's machines a full GEMM measured 35-40 % slower than SYRK plus mirroring). numpy's
OpenBLAS ``dsyrk`` measured 5-15 % faster than scipy's, so it is used when found; otherwise
scipy's, which every scipy provides. The exact path calls scipy's ``ddot`` and ``dgemm``
whatever is found, because they are the routines scikit-learn's own neighbour search calls.

A numba function holding a ctypes pointer cannot be cached (the address changes between
processes), so the addresses are registered with LLVM under fixed symbol names at import and
the kernels call the names. Every name is always registered, each with its own calling
convention (a stub stands in for a numpy BLAS that was not found), and which one to call is an
argument of the kernels (:data:`USE_NUMPY_BLAS`), never a compiled-in constant, so a cached
kernel is safe whichever BLAS the next process finds. Registration compiles nothing.
"""

import ctypes
import os
from collections import namedtuple

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numba as nb
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from scipy.linalg import cython_blas

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


_dsyrk = _fortran_intrinsic("pymoo_fs_dsyrk", 10)
_ssyrk = _fortran_intrinsic("pymoo_fs_ssyrk", 10)
_dgemm = _fortran_intrinsic("pymoo_fs_dgemm", 13)
_sgemm = _fortran_intrinsic("pymoo_fs_sgemm", 13)
_ddot = _fortran_intrinsic("pymoo_fs_ddot", 5, returns_double=True)
_cblas_dsyrk = _cblas_syrk_intrinsic("pymoo_fs_cblas_dsyrk", ir.DoubleType)
_cblas_ssyrk = _cblas_syrk_intrinsic("pymoo_fs_cblas_ssyrk", ir.FloatType)
_cblas_dgemm_tn = _cblas_gemm_tn_intrinsic("pymoo_fs_cblas_dgemm", ir.DoubleType)
_cblas_sgemm_tn = _cblas_gemm_tn_intrinsic("pymoo_fs_cblas_sgemm", ir.FloatType)


@nb.njit(cache=True)
def _int32s(*values):
    out = np.empty(len(values), dtype=np.int32)
    for i in range(len(values)):
        out[i] = values[i]
    return out


@nb.njit(cache=True)
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
    dims = _int32s(n, m, max(n, 1), max(n, 1))
    al = np.full(1, alpha, dtype=AT.dtype)
    be = np.full(1, beta, dtype=AT.dtype)
    if AT.itemsize == 8:
        _dsyrk(uplo.ctypes, trans.ctypes, dims[0:].ctypes, dims[1:].ctypes, al.ctypes,
               AT.ctypes, dims[2:].ctypes, be.ctypes, C.ctypes, dims[3:].ctypes)
    else:
        _ssyrk(uplo.ctypes, trans.ctypes, dims[0:].ctypes, dims[1:].ctypes, al.ctypes,
               AT.ctypes, dims[2:].ctypes, be.ctypes, C.ctypes, dims[3:].ctypes)


@nb.njit(cache=True)
def gram_t(AT, C, use_numpy_blas):
    """``C = AT^T AT`` (both triangles) for C-contiguous ``AT`` (m, n), into ``C`` (n, n).

    ``AT`` holds one selected feature per row (a contiguous copy of a column of the data), so
    gathering the columns of a mask is a sequence of contiguous copies. One ``?syrk`` computes
    the lower triangle (:func:`syrk_t`), which is then mirrored tile by tile.
    """
    syrk_t(AT, C, 1.0, 0.0, use_numpy_blas)
    _mirror_lower(C)


@nb.njit(cache=True)
def _gemm_tn(m, n, k, alpha, A, lda, B, ldb, beta, C, ldc, single, use_numpy_blas):
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
    dims = _int32s(n, m, k, ldb, lda, ldc)
    if single:
        al32 = np.full(1, alpha, dtype=np.float32)
        be32 = np.full(1, beta, dtype=np.float32)
        _sgemm(ta.ctypes, tb.ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes,
               al32.ctypes, B, dims[3:].ctypes, A, dims[4:].ctypes, be32.ctypes, C,
               dims[5:].ctypes)
    else:
        al = np.full(1, alpha)
        be = np.full(1, beta)
        _dgemm(ta.ctypes, tb.ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes,
               al.ctypes, B, dims[3:].ctypes, A, dims[4:].ctypes, be.ctypes, C,
               dims[5:].ctypes)


@nb.njit(cache=True)
def _mirror_lower(C):
    """Copy the lower triangle of a square C-ordered matrix onto its upper one, by tiles."""
    n = C.shape[0]
    tile = 64
    for i0 in range(0, n, tile):
        for j0 in range(0, i0 + 1, tile):
            for i in range(i0, min(i0 + tile, n)):
                for j in range(j0, min(j0 + tile, i)):
                    C[j, i] = C[i, j]


# ----------------------------------------------------------------- structures
#: the data, in the layouts the kernels read
Data = namedtuple("Data", [
    "Xgt",  # (D, n) centred, transposed, in the precision of the Gram products
    "Xct",  # (D, n) float64 centred, transposed
    "Xt",   # (D, n) float64 raw, transposed
    "X",    # (n, D) float64 raw (the exact path gathers scikit-learn's operands from it)
    "Xc",   # (n, D) float64 centred (exact distances of float32 band members)
])
#: the fold layout: test rows of every fold concatenated, each fold's training part
Folds = namedtuple("Folds", [
    "cand",       # bool (n_folds, n): training part of each fold
    "row_q",      # int64 (R,): query sample of each row (the folds' test parts, in order)
    "row_f",      # int64 (R,): fold of each row
    "bounds",     # int64 (n_folds + 1,): rows of fold f are bounds[f]:bounds[f + 1]
    "train",      # int64: the folds' training indices in scikit-learn's order, concatenated
    "train_ptr",  # int64 (n_folds + 1,)
    "y",          # int64 (n,): encoded labels
    "k",          # int: n_neighbors
    "n_classes",  # int
    "exact",      # int: 1 = settle uncertified rows by scikit-learn's arithmetic, 0 = leave them
    "sk_chunk",   # int: scikit-learn's pairwise_dist_chunk_size
    "sk_threads",  # int: scikit-learn's OpenMP thread count (its chunk-to-thread assignment)
    "srow",       # int64 (R,): rows sorted by query sample ...
    "srow_ptr",   # int64 (n + 1,): ... the rows of sample q are srow[srow_ptr[q]:srow_ptr[q+1]]
    "all_rows",   # int64 (R,): 0 .. R - 1
])
#: kept Gram matrices, one slot per kept mask
Pool = namedtuple("Pool", [
    "G",    # (P, n, n) Gram matrices of the centred data, both triangles, dtype of Data.Xgt
    "sq",   # (P, n) their diagonals
    "m2",   # (P, n) squared centred row norms over every feature the matrix ever held
    "r2",   # (P, n) the same for the raw rows
])
#: what to do for each mask of a batch
Plan = namedtuple("Plan", [
    "cols_flat", "cols_ptr",    # selected columns of mask b: cols_flat[cols_ptr[b]:cols_ptr[b+1]]
    "base",                     # int64 (B,): pool slot to update from, -1 = from scratch
    "dest",                     # int64 (B,): pool slot to write, -1 = a thread's scratch matrix
    "delta_flat", "delta_ptr",  # changed columns: the added ones first, then the removed ones
    "n_add",                    # int64 (B,)
    "touch_flat", "touch_ptr",  # columns the base matrix never held (they extend m2, r2)
    "eps",                      # float64 (B,): error coefficient of the resulting matrix
])

_U64 = np.finfo(np.float64).eps / 2
_U32 = float(np.finfo(np.float32).eps) / 2
_SAFETY = 4.0
_DBL_MAX = np.finfo(np.float64).max
#: most rows per panel of an incremental update: a few hundred rows keep each GEMM efficient
#: (a panel of 32 repacked the right operand 40 times per matrix on mfeat: 15-20 % slower)
_PANEL = 256


@nb.njit(cache=True, inline="always")
def _gamma(m, u):
    """Safety factor times ``gamma_m = m u / (1 - m u)`` (Higham's dot-product bound)."""
    return _SAFETY * m * u / (1.0 - m * u)


# ----------------------------------------------------------------- Gram matrices
@nb.njit(cache=True)
def _gram_scratch(Xgt, Xct, Xt, cols, AT, G, sq, m2, r2, use_numpy_blas):
    """G = Gram matrix of the selected centred columns (both triangles), its diagonal ``sq``,
    and the squared centred and raw row norms over the selected columns (``m2``, ``r2``).

    ``Xgt`` (D, n) is the centred data transposed in the precision of ``G``; ``AT`` (|S|, n)
    receives its selected rows.
    """
    n = G.shape[0]
    for c in range(cols.size):
        AT[c, :] = Xgt[cols[c], :]
    gram_t(AT, G, use_numpy_blas)
    for i in range(n):
        sq[i] = G[i, i]
        m2[i] = 0.0
        r2[i] = 0.0
    for c in range(cols.size):
        xc = Xct[cols[c]]
        x = Xt[cols[c]]
        for i in range(n):
            m2[i] += xc[i] * xc[i]
            r2[i] += x[i] * x[i]


@nb.njit(cache=True)
def _delta_operands(Xgt, delta, n_add, L, R):
    """``L`` = the changed centred columns (transposed, in the precision of ``Xgt`` and of the
    Gram matrices), ``R`` = the same with removed ones negated, so that
    ``G_new = G_base + L^T R``."""
    for c in range(delta.size):
        L[c, :] = Xgt[delta[c], :]
        if c < n_add:
            R[c, :] = L[c, :]
        else:
            R[c, :] = -L[c, :]


@nb.njit(cache=True)
def _update_vectors(Xct, Xt, pool, base, dest_sq, dest_m2, dest_r2, delta, n_add, touch):
    """``sq``, ``m2`` and ``r2`` of an update (see :func:`_update_panels`); may be in place.

    ``sq`` (the diagonal) is updated in float64 from the changed columns ``delta`` (the added
    ones first) whatever the precision of the matrices. ``m2`` and ``r2`` grow by the columns
    in ``touch`` that the base matrix never held: they bound the row norms over every feature
    the chain of updates touched (see Notes of :func:`_predict_rows`).
    """
    n = dest_sq.size
    for i in range(n):
        dest_sq[i] = pool.sq[base, i]
        dest_m2[i] = pool.m2[base, i]
        dest_r2[i] = pool.r2[base, i]
    # column by column: each row's sum runs over the columns in the same order as a loop over
    # columns per row would, reading contiguous rows of ``Xct``
    for c in range(delta.size):
        x = Xct[delta[c]]
        if c < n_add:
            for i in range(n):
                dest_sq[i] += x[i] * x[i]
        else:
            for i in range(n):
                dest_sq[i] -= x[i] * x[i]
    for c in range(touch.size):
        xc = Xct[touch[c]]
        x = Xt[touch[c]]
        for i in range(n):
            dest_m2[i] += xc[i] * xc[i]
            dest_r2[i] += x[i] * x[i]


@nb.njit(cache=True)
def _update_panels(Gb, G, sq, m2, r2, L, R, i_lo, i_hi, predict, eps, g_sk, Xc, cols, folds,
                   pred, unc, seeds, use_numpy_blas):
    """Rows ``[i_lo, i_hi)`` of ``G = Gb + L^T R`` (see :func:`_delta_operands`), cost
    O(n^2 |delta|); ``G`` may be ``Gb`` itself (in place).

    The rows go in panels of at most :data:`_PANEL`: each is copied from the base matrix (unless
    in place) and updated by one GEMM, and, with ``predict``, the rows of its samples are
    predicted right away (:func:`_predict_rows`; ``sq``, ``m2``, ``r2`` must be complete).
    """
    n = G.shape[0]
    k = L.shape[0]
    same = Gb.ctypes.data == G.ctypes.data
    single = G.itemsize == 4
    for i0 in range(i_lo, i_hi, _PANEL):
        i1 = min(i_hi, i0 + _PANEL)
        if not same:
            for i in range(i0, i1):
                G[i, :] = Gb[i, :]
        if k > 0:
            _gemm_tn(i1 - i0, n, k, 1.0, L[:, i0:].ctypes, n, R.ctypes, n, 1.0, G[i0:].ctypes, n,
                     single, use_numpy_blas)
        if predict:
            rows = folds.srow[folds.srow_ptr[i0]:folds.srow_ptr[i1]]
            _predict_rows(G, sq, m2, r2, eps, g_sk, Xc, cols, folds, rows, pred, unc, seeds)


# ----------------------------------------------------------------- row predictions
@nb.njit(cache=True, inline="always")
def _insert(bd, bi, cnt, K, d, j):
    """Insert (d, j) into the sorted top-K lists of length cnt; strict < keeps earlier ties.

    Callers test ``d < bd[K - 1]`` themselves before calling when the lists are full: the call
    passes arrays, and doing it for every candidate costs more than the whole scan.
    """
    if cnt == K:
        p = K - 1
    else:
        p = cnt
        cnt += 1
    while p > 0 and d < bd[p - 1]:
        bd[p] = bd[p - 1]
        bi[p] = bi[p - 1]
        p -= 1
    bd[p] = d
    bi[p] = j
    return cnt


@nb.njit(cache=True, inline="always")
def _argmax_first(counts):
    best = 0
    for c in range(1, counts.size):
        if counts[c] > counts[best]:
            best = c
    return best


@nb.njit(cache=True)
def _kth_smallest(v, cnt, k, tmp):
    """The k-th smallest (1-based) of ``v[:cnt]`` (``cnt >= k``); ``tmp`` has room for k."""
    c = 0
    for p in range(cnt):
        x = v[p]
        if c < k:
            q = c
            c += 1
        elif x < tmp[k - 1]:
            q = k - 1
        else:
            continue
        while q > 0 and x < tmp[q - 1]:
            tmp[q] = tmp[q - 1]
            q -= 1
        tmp[q] = x
    return tmp[k - 1]


@nb.njit(cache=True)
def _certify(L, U, lab, cnt, k, counts, tmp):
    """Certify one row's k-nearest-neighbour vote from intervals around its distances.

    Candidate ``p`` (label ``lab[p]``) has scikit-learn distance in ``[L[p], U[p]]``. With
    ``T_U`` the k-th smallest upper bound and ``T_L`` the (k+1)-th smallest lower bound, a
    candidate with ``U < T_L`` is among scikit-learn's k nearest whatever the rounding and the
    tie order (at most k candidates can come before it), and one with ``L > T_U`` is not (k
    others surely come before it). The rest form the band. The vote is certified when the band
    holds exactly the missing places, or all its members share one label. Adds the vote to
    ``counts`` when certified; returns ``(certified, T_U)``. This is the one rounding-band test
    of every path (:func:`_reference.band_flags` states it in numpy).
    """
    if cnt <= k:
        for p in range(cnt):
            counts[lab[p]] += 1
        return True, np.inf
    t_u = _kth_smallest(U, cnt, k, tmp)
    t_l = _kth_smallest(L, cnt, k + 1, tmp)
    n_in = 0
    n_band = 0
    first = -1
    mixed = False
    for p in range(cnt):
        if U[p] < t_l:
            n_in += 1
        elif L[p] <= t_u:
            n_band += 1
            if first == -1:
                first = lab[p]
            elif lab[p] != first:
                mixed = True
    need = k - n_in
    if need > 0 and n_band > need and mixed:
        return False, t_u
    for p in range(cnt):
        if U[p] < t_l:
            counts[lab[p]] += 1
        elif need > 0 and L[p] <= t_u and n_band == need:
            counts[lab[p]] += 1
    if need > 0 and n_band > need:
        counts[first] += need
    return True, t_u


# columns per block of :func:`_gate_blocks` (a constant: its count loop vectorises), and the
# row length from which the scan of _predict_rows uses it (mfeat's PSO run: 2.1-2.3 to 1.7-1.9 s
# of row predictions; on musk1's rows of 333 the counts cost more than they save)
_GATE_BLOCK = 64
_GATE_BLOCKED = 1024


@nb.njit(cache=True)
def _gate_blocks(e, gate, ids):
    """Indices j with ``e[j] < gate`` into ``ids`` (increasing); returns their count. Blocks
    of :data:`_GATE_BLOCK` entries with none under the gate (a vectorised count) are skipped:
    on long rows with a tight gate most are."""
    n = e.size
    c = 0
    nfull = n - n % _GATE_BLOCK
    for j0 in range(0, nfull, _GATE_BLOCK):
        below = 0
        for j in range(j0, j0 + _GATE_BLOCK):
            below += e[j] < gate
        if below == 0:
            continue
        for j in range(j0, j0 + _GATE_BLOCK):
            ids[c] = j
            c += e[j] < gate
    for j in range(nfull, n):
        ids[c] = j
        c += e[j] < gate
    return c


@nb.njit(cache=True, inline="always")
def _pair_bound(e_ours, g_sk, mq, mj, aq, aj):
    """Bound of |our squared distance - scikit-learn's| for one pair (see _predict_rows)."""
    return e_ours * (mq + mj) ** 2 + g_sk * (aq + aj) ** 2


@nb.njit(cache=True)
def _predict_rows(G, sq, m2, r2, eps, g_sk, Xc, cols, folds, rows, pred, unc, seeds):
    """Certified KNN votes of the listed rows from the Gram matrix ``G`` of centred data.

    Each row's reduced distances ``e_j = sq_j - 2 G_qj`` (``+inf`` outside the fold's training
    part) are written to a scratch row by a vectorisable loop, then scanned for the k + 1
    smallest; the squared distance is ``d_j = sq_q + e_j``. ``pred[r]`` gets the vote; ``unc[r]``
    is True where the vote could differ from scikit-learn's (for :func:`exact_fold_rows`).

    Notes
    -----
    **The bound.** With ``M_i^2 = m2[i]`` and ``A_i^2 = r2[i]`` (squared centred and raw norms of
    row i over every feature the matrix ever held, a superset of the mask), our distance differs
    from scikit-learn's by at most ``E_ij = (eps + 8u) (M_i + M_j)^2 + g_sk (A_i + A_j)^2``:
    ``eps`` bounds the error of ``G`` and ``sq`` relative to ``M_i M_j`` (``gamma_{|S|+2}`` from
    scratch, more along a chain of updates), ``8u`` the centring and the two operations of
    ``d_j``, and ``g_sk = gamma_{|S|+2}`` scikit-learn's own computation (Higham's dot-product
    bound; it also covers the direct sums of its kd-tree). A row is settled at once when its
    (k+1)-th nearest is farther than its k-th by more than twice the largest ``E_qj``; otherwise
    :func:`_certify` looks at every candidate with its own ``E_qj`` (tight where row norms differ
    by orders of magnitude). For a float32 ``G`` the candidates that survive are re-measured in
    float64 directly and certified again.

    **Seeds.** ``seeds[r]`` (int64, k + 1 entries, or -1) holds the k + 1 nearest candidates
    row ``r`` had for an earlier mask (written back here). They are distinct candidates of the
    row's fold, so the (k+1)-th smallest reduced distance is at most ``lim``, the largest of
    theirs under this mask, and no candidate above ``lim`` can be among the k + 1 nearest. The
    scan skips those without inserting them: the kept list, ties in index order included, is
    exactly that of the full scan, and the insertions (mispredicted branches, the cost of the
    scan on varied data) fall from about 26-29 to 10-12 per row on musk1 and sonar. A
    branch-free pass first lists the candidates under the gate (with seeds about 16 of 333 per
    row on a random musk1 batch; without, every candidate of the fold) and only those go
    through the insertion loop, in index order (6 % off a musk1 batch against the branching
    scan of every candidate). Any
    content of ``seeds`` gives the same result; only the speed depends on it. ``seeds[r, k + 1]``
    counts the times row ``r``'s float32 band was re-measured in float64 (the evaluator's
    choice of precision reads it).
    """
    n = G.shape[0]
    k = folds.k
    K = k + 1
    bd = np.empty(K)
    bi = np.empty(K, dtype=np.int64)
    e = np.empty(n)
    Lb = np.empty(n)
    Ub = np.empty(n)
    lab = np.empty(n, dtype=np.int64)
    ids = np.empty(n, dtype=np.int64)
    tmp = np.empty(K)
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    f32 = G.itemsize == 4
    e_ours = eps + 8.0 * _U64
    e64 = _gamma(cols.size + 4.0, _U64)
    m_max = 0.0
    a_max = 0.0
    for j in range(n):
        m_max = max(m_max, np.sqrt(m2[j]))
        a_max = max(a_max, np.sqrt(r2[j]))
    y = folds.y
    for r in rows:
        q = folds.row_q[r]
        Gq = G[q]
        cf = folds.cand[folds.row_f[r]]
        for j in range(n):
            v = sq[j] - 2.0 * Gq[j]
            e[j] = v if cf[j] else np.inf
        # gate = min(K-th best so far, the smallest float above lim): e < gate <=> both hold
        lim = np.inf
        if seeds[r, 0] >= 0:
            lim = e[seeds[r, 0]]
            for p in range(1, K):
                lim = max(lim, e[seeds[r, p]])
        gate = np.nextafter(lim, np.inf)
        # branch-free list of the candidates under the gate (without seeds: every candidate of
        # the fold), then insert those only
        if n >= _GATE_BLOCKED:
            c = _gate_blocks(e, gate, ids)
        else:
            c = 0
            for j in range(n):
                ids[c] = j
                c += e[j] < gate
        cnt = 0
        for p in range(c):
            j = ids[p]
            if e[j] < gate:
                cnt = _insert(bd, bi, cnt, K, e[j], j)
                if cnt == K:
                    gate = min(gate, bd[K - 1])
        if cnt == K:
            for p in range(K):
                seeds[r, p] = bi[p]
        unc[r] = False
        counts[:] = 0
        sq_q = sq[q]
        mq = np.sqrt(m2[q])
        aq = np.sqrt(r2[q])
        e2 = 2.0 * _pair_bound(e_ours, g_sk, mq, m_max, aq, a_max)
        t = sq_q + bd[k - 1]
        if cnt < K or sq_q + bd[k] > t + e2:
            for i in range(k):
                counts[y[bi[i]]] += 1
        else:
            c = 0
            for j in range(n):
                if cf[j]:
                    d = sq_q + e[j]
                    b = _pair_bound(e_ours, g_sk, mq, np.sqrt(m2[j]), aq, np.sqrt(r2[j]))
                    Lb[c] = d - b
                    Ub[c] = d + b
                    lab[c] = y[j]
                    ids[c] = j
                    c += 1
            ok, t_u = _certify(Lb, Ub, lab, c, k, counts, tmp)
            if not ok and f32:
                # float32 products: re-measure the candidates not surely out in float64
                seeds[r, K] += 1
                c2 = 0
                for p in range(c):
                    if Lb[p] <= t_u:
                        j = ids[p]
                        s = 0.0
                        for cc in range(cols.size):
                            diff = Xc[q, cols[cc]] - Xc[j, cols[cc]]
                            s += diff * diff
                        b = _pair_bound(e64, g_sk, mq, np.sqrt(m2[j]), aq, np.sqrt(r2[j]))
                        Lb[c2] = s - b
                        Ub[c2] = s + b
                        lab[c2] = lab[p]
                        c2 += 1
                counts[:] = 0
                ok, t_u = _certify(Lb, Ub, lab, c2, k, counts, tmp)
            unc[r] = not ok
        pred[r] = _argmax_first(counts)


# ----------------------------------------------------------------- the exact path
@nb.njit(cache=True)
def _heap_push(vals, idx, size, val, val_idx):
    """scikit-learn's ``heap_push`` (``sklearn/utils/_heap.pyx``): fixed-size max-heap."""
    if val >= vals[0]:
        return
    vals[0] = val
    idx[0] = val_idx
    cur = 0
    while True:
        left = 2 * cur + 1
        right = left + 1
        if left >= size:
            break
        elif right >= size:
            if vals[left] > val:
                swap = left
            else:
                break
        elif vals[left] >= vals[right]:
            if val < vals[left]:
                swap = left
            else:
                break
        else:
            if val < vals[right]:
                swap = right
            else:
                break
        vals[cur] = vals[swap]
        idx[cur] = idx[swap]
        cur = swap
    vals[cur] = val
    idx[cur] = val_idx


@nb.njit(cache=True)
def _sk_norms(A, out):
    """Squared row norms as scikit-learn computes them: scipy's ``ddot`` per row."""
    m = A.shape[1]
    nn = np.array([m], dtype=np.int32)
    inc = np.ones(1, dtype=np.int32)
    for i in range(A.shape[0]):
        out[i] = _ddot(nn.ctypes, A[i].ctypes, inc.ctypes, A[i].ctypes, inc.ctypes)


@nb.njit(cache=True)
def _sk_middle(Xte, xs, xe, Xtr, ys, ye, mid):
    """scikit-learn's middle term ``-2 X_chunk Y_chunk^T`` (its ``_gemm`` call, scipy's dgemm)."""
    m = Xte.shape[1]
    ta = np.array([116], dtype=np.uint8)  # BLAS_Trans.Trans, passed as transb first (RowMajor)
    tn = np.array([110], dtype=np.uint8)  # BLAS_Trans.NoTrans
    dims = _int32s(ye - ys, xe - xs, m, m, m, ye - ys)
    al = np.full(1, -2.0)
    be = np.zeros(1)
    _dgemm(ta.ctypes, tn.ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes, al.ctypes,
           Xtr[ys:].ctypes, dims[3:].ctypes, Xte[xs:].ctypes, dims[4:].ctypes, be.ctypes,
           mid.ctypes, dims[5:].ctypes)


@nb.njit(cache=True)
def _sk_reduce(Xn, Yn, mid, xs, xe, ys, ye, want, w0, vals, idx, h0, k):
    """Push chunk (xs:xe, ys:ye) into the rows' heaps (row xs + i in heap h0 + i) exactly as
    scikit-learn's ``EuclideanArgKmin64._compute_and_reduce_distances_on_chunks`` does."""
    n_y = ye - ys
    for i in range(xe - xs):
        if not want[w0 + xs + i]:
            continue
        for j in range(n_y):
            v = (Xn[xs + i] + mid[i * n_y + j]) + Yn[ys + j]
            v = v if v > 0.0 else 0.0
            _heap_push(vals[h0 + i], idx[h0 + i], k, v, ys + j)


@nb.njit(cache=True)
def _sk_brute_rows(X, cols, test, train, want, w0, k, chunk, n_threads, nbr):
    """Neighbours of the wanted test rows exactly as scikit-learn's brute force finds them.

    Replays ``sklearn.metrics._pairwise_distances_reduction.ArgKmin`` (Euclidean, float64,
    dense): the same operands (``X[test][:, cols]`` and ``X[train][:, cols]``), the same row
    norms (scipy's ``ddot``), the same chunks and ``dgemm`` calls (scipy's), the same sum order,
    the same heap, and for ``parallel_on_Y`` the same static split of the chunks over its
    threads and the same merge order. ``nbr[i]`` receives the k neighbours (positions in
    ``train``) of test row ``i`` where ``want[w0 + i]``.
    """
    m = cols.size
    n_x = test.size
    n_y = train.size
    Xte = np.empty((n_x, m))
    Xtr = np.empty((n_y, m))
    for i in range(n_x):
        for c in range(m):
            Xte[i, c] = X[test[i], cols[c]]
    for i in range(n_y):
        for c in range(m):
            Xtr[i, c] = X[train[i], cols[c]]
    Xn = np.empty(n_x)
    Yn = np.empty(n_y)
    _sk_norms(Xtr, Yn)
    _sk_norms(Xte, Xn)
    x_chunk = min(n_x, chunk)
    y_chunk = min(n_y, chunk)
    x_chunks = n_x // x_chunk + (n_x % x_chunk != 0)
    y_chunks = n_y // y_chunk + (n_y % y_chunk != 0)
    on_y = not (n_y < n_x or 4 * chunk * n_threads < n_x)
    threads = min(y_chunks if on_y else x_chunks, n_threads)
    mid = np.empty(x_chunk * y_chunk)
    vals = np.full((n_x, k), _DBL_MAX)
    idx = np.zeros((n_x, k), dtype=np.int64)
    tv = np.empty((threads, x_chunk, k))
    ti = np.empty((threads, x_chunk, k), dtype=np.int64)
    for xc in range(x_chunks):
        xs = xc * x_chunk
        xe = min(n_x, xs + x_chunk)
        any_wanted = False
        for i in range(xs, xe):
            any_wanted |= want[w0 + i]
        if not any_wanted:
            continue
        if not on_y:
            for yc in range(y_chunks):
                ys = yc * y_chunk
                ye = min(n_y, ys + y_chunk)
                _sk_middle(Xte, xs, xe, Xtr, ys, ye, mid)
                _sk_reduce(Xn, Yn, mid, xs, xe, ys, ye, want, w0, vals, idx, xs, k)
            continue
        tv[:] = _DBL_MAX
        ti[:] = -1
        q, rest = y_chunks // threads, y_chunks % threads
        for t in range(threads):  # libgomp's schedule(static): contiguous blocks
            lo = t * (q + 1) if t < rest else t * q + rest
            hi = lo + (q + 1 if t < rest else q)
            for yc in range(lo, hi):
                ys = yc * y_chunk
                ye = min(n_y, ys + y_chunk)
                _sk_middle(Xte, xs, xe, Xtr, ys, ye, mid)
                _sk_reduce(Xn, Yn, mid, xs, xe, ys, ye, want, w0, tv[t], ti[t], 0, k)
        for i in range(xs, xe):
            if want[w0 + i]:
                for t in range(threads):
                    for jj in range(k):
                        _heap_push(vals[i], idx[i], k, tv[t, i - xs, jj], ti[t, i - xs, jj])
    for i in range(n_x):
        if want[w0 + i]:
            nbr[i, :] = idx[i, :]


@nb.njit(cache=True)
def _kd_row(X, cols, q, train, y, k, counts, d):
    """Vote of test sample ``q`` as scikit-learn's kd-tree finds it, or False.

    The kd-tree's reduced distance is the plain sum of squared differences in feature order,
    reproduced here bit for bit; only the order in which it meets candidates at exactly equal
    distance (its traversal) is not. The vote is returned (added to ``counts``) unless equal
    distances straddle the k-th place with different labels.
    """
    for p in range(train.size):
        j = train[p]
        s = 0.0
        for c in range(cols.size):
            t = X[q, cols[c]] - X[j, cols[c]]
            s += t * t
        d[p] = s
    tmp = np.empty(k)
    t_k = _kth_smallest(d, train.size, k, tmp)
    n_lt = 0
    n_eq = 0
    first = -1
    mixed = False
    for p in range(train.size):
        if d[p] < t_k:
            n_lt += 1
        elif d[p] == t_k:
            n_eq += 1
            if first == -1:
                first = y[train[p]]
            elif y[train[p]] != first:
                mixed = True
    if n_lt + n_eq > k and mixed:
        return False
    for p in range(train.size):
        if d[p] < t_k or (d[p] == t_k and n_lt + n_eq == k):
            counts[y[train[p]]] += 1
    if n_lt + n_eq > k:
        counts[first] += k - n_lt
    return True


# ----------------------------------------------------------------- scikit-learn's kd-tree
# Which of several candidates at equal distance scikit-learn's kd-tree keeps depends on the
# order it meets them: the tree's point order (left by libstdc++'s std::nth_element at every
# split), its depth-first traversal (nearer child first, a node skipped when its lower bound
# exceeds the current k-th distance) and its heap (a candidate enters only when strictly
# nearer than the k-th). The functions below replay the three (sklearn/neighbors/
# _binary_tree.pxi.tp, _kd_tree.pyx.tp, _partition_nodes.pyx, sklearn/utils/_heap.pyx,
# libstdc++'s bits/stl_algo.h); the tests compare the point order and the neighbour sets
# with scikit-learn's KDTree, and _exact's self-check compares the votes with
# KNeighborsClassifier before the replay is used.

#: scikit-learn's ``KNeighborsClassifier`` default ``leaf_size``
_KD_LEAF = 30


@nb.njit(cache=True, inline="always")
def _kd_less(v, a, b):
    """The comparator of scikit-learn's ``partition_node_indices``: by value, ties by index."""
    return a < b if v[a] == v[b] else v[a] < v[b]


@nb.njit(cache=True)
def _adjust_heap(a, first, hole, length, value, v):
    """libstdc++'s ``std::__adjust_heap`` (then ``__push_heap``) on ``a[first:]``."""
    top = hole
    second = hole
    while second < (length - 1) // 2:
        second = 2 * (second + 1)
        if _kd_less(v, a[first + second], a[first + second - 1]):
            second -= 1
        a[first + hole] = a[first + second]
        hole = second
    if (length & 1) == 0 and second == (length - 2) // 2:
        second = 2 * (second + 1)
        a[first + hole] = a[first + second - 1]
        hole = second - 1
    parent = (hole - 1) // 2
    while hole > top and _kd_less(v, a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value


@nb.njit(cache=True)
def _heap_select(a, first, middle, last, v):
    """libstdc++'s ``std::__heap_select``: ``__make_heap`` of ``[first, middle)``, then every
    later element smaller than the top replaces it (``__pop_heap``)."""
    length = middle - first
    if length >= 2:
        parent = (length - 2) // 2
        while True:
            _adjust_heap(a, first, parent, length, a[first + parent], v)
            if parent == 0:
                break
            parent -= 1
    for i in range(middle, last):
        if _kd_less(v, a[i], a[first]):
            value = a[i]
            a[i] = a[first]
            _adjust_heap(a, first, 0, length, value, v)


@nb.njit(cache=True)
def _nth_element(a, lo, hi, nth, v):
    """libstdc++'s ``std::nth_element(a + lo, a + nth, a + hi, comp)`` (introselect) with
    :func:`_kd_less`, step for step (its heap selection past the depth limit included), so
    that the order it leaves is the same."""
    if lo == hi or nth == hi:
        return
    n = hi - lo
    lg = 0
    while (n >> (lg + 1)) > 0:
        lg += 1
    depth = 2 * lg
    first = lo
    last = hi
    while last - first > 3:
        if depth == 0:
            _heap_select(a, first, nth + 1, last, v)
            a[first], a[nth] = a[nth], a[first]
            return
        depth -= 1
        # __unguarded_partition_pivot: median of (first + 1, mid, last - 1) moved to first
        mid = first + (last - first) // 2
        x, y_, z = first + 1, mid, last - 1
        if _kd_less(v, a[x], a[y_]):
            if _kd_less(v, a[y_], a[z]):
                m = y_
            elif _kd_less(v, a[x], a[z]):
                m = z
            else:
                m = x
        elif _kd_less(v, a[x], a[z]):
            m = x
        elif _kd_less(v, a[y_], a[z]):
            m = z
        else:
            m = y_
        a[first], a[m] = a[m], a[first]
        # __unguarded_partition(first + 1, last, pivot = first)
        i = first + 1
        j = last
        piv = a[first]
        while True:
            while _kd_less(v, a[i], piv):
                i += 1
            j -= 1
            while _kd_less(v, piv, a[j]):
                j -= 1
            if not i < j:
                break
            a[i], a[j] = a[j], a[i]
            i += 1
        cut = i
        if cut <= nth:
            first = cut
        else:
            last = cut
    # __insertion_sort(first, last)
    for i in range(first + 1, last):
        val = a[i]
        if _kd_less(v, val, a[first]):
            for t in range(i, first, -1):
                a[t] = a[t - 1]
            a[first] = val
        else:
            t = i
            while _kd_less(v, val, a[t - 1]):
                a[t] = a[t - 1]
                t -= 1
            a[t] = val


@nb.njit(cache=True)
def _kd_build(P, leaf_size):
    """scikit-learn's ``KDTree(P, leaf_size)`` (``sklearn/neighbors/_binary_tree.pxi.tp``):
    the point order ``idx``, each node's range ``start``/``end``, leaf flag and bounds
    ``lo``/``hi``."""
    n, m = P.shape
    n_levels = int(np.log2(max(1.0, (n - 1) / leaf_size)) + 1)
    n_nodes = 2 ** n_levels - 1
    idx = np.arange(n)
    start = np.zeros(n_nodes, dtype=np.int64)
    end = np.zeros(n_nodes, dtype=np.int64)
    leaf = np.zeros(n_nodes, dtype=np.bool_)
    lo = np.empty((n_nodes, m))
    hi = np.empty((n_nodes, m))
    v = np.empty(n)
    stack = np.empty((2 * n_levels + 2, 3), dtype=np.int64)
    stack[0, 0] = 0
    stack[0, 1] = 0
    stack[0, 2] = n
    top = 1
    while top > 0:
        top -= 1
        i_node, s, e = stack[top, 0], stack[top, 1], stack[top, 2]
        start[i_node] = s
        end[i_node] = e
        for c in range(m):
            lo[i_node, c] = np.inf
            hi[i_node, c] = -np.inf
        for i in range(s, e):
            for c in range(m):
                val = P[idx[i], c]
                lo[i_node, c] = min(lo[i_node, c], val)
                hi[i_node, c] = max(hi[i_node, c], val)
        if 2 * i_node + 1 >= n_nodes or e - s < 2:
            leaf[i_node] = True
            continue
        # find_node_split_dim: the first dimension of largest spread
        j_max = 0
        spread_max = 0.0
        for c in range(m):
            mx = P[idx[s], c]
            mn = mx
            for i in range(s + 1, e):
                val = P[idx[i], c]
                mx = max(mx, val)
                mn = min(mn, val)
            if mx - mn > spread_max:
                spread_max = mx - mn
                j_max = c
        for i in range(s, e):
            v[idx[i]] = P[idx[i], j_max]  # the comparator reads the node's points only
        n_mid = (e - s) // 2
        _nth_element(idx, s, e, s + n_mid, v)
        # children: the left one is processed first (the order does not change the result)
        stack[top, 0] = 2 * i_node + 2
        stack[top, 1] = s + n_mid
        stack[top, 2] = e
        stack[top + 1, 0] = 2 * i_node + 1
        stack[top + 1, 1] = s
        stack[top + 1, 2] = s + n_mid
        top += 2
    return idx, start, end, leaf, lo, hi


@nb.njit(cache=True)
def _kd_min_rdist(lo, hi, i_node, pt):
    """scikit-learn's ``min_rdist`` of the kd-tree (p = 2), in its operation order."""
    r = 0.0
    for c in range(pt.size):
        d_lo = lo[i_node, c] - pt[c]
        d_hi = pt[c] - hi[i_node, c]
        d = (d_lo + abs(d_lo)) + (d_hi + abs(d_hi))
        h = 0.5 * d
        r += h * h
    return r


@nb.njit(cache=True)
def _kd_query(P, idx, start, end, leaf, lo, hi, pt, k, vals, nbr, stack, lbs):
    """scikit-learn's depth-first ``KDTree.query`` of one point: its k nearest into ``nbr``
    (positions in ``P``), met in the same order and kept by the same heap."""
    for i in range(k):
        vals[i] = np.inf
        nbr[i] = 0
    stack[0] = 0
    lbs[0] = _kd_min_rdist(lo, hi, 0, pt)
    top = 1
    m = pt.size
    while top > 0:
        top -= 1
        i_node = stack[top]
        lb = lbs[top]
        if lb > vals[0]:
            continue
        if leaf[i_node]:
            for i in range(start[i_node], end[i_node]):
                j = idx[i]
                s = 0.0
                for c in range(m):
                    t = pt[c] - P[j, c]
                    s += t * t
                _heap_push(vals, nbr, k, s, j)
            continue
        i1 = 2 * i_node + 1
        i2 = i1 + 1
        lb1 = _kd_min_rdist(lo, hi, i1, pt)
        lb2 = _kd_min_rdist(lo, hi, i2, pt)
        # the nearer child first: pushed last
        if lb1 <= lb2:
            stack[top], lbs[top] = i2, lb2
            stack[top + 1], lbs[top + 1] = i1, lb1
        else:
            stack[top], lbs[top] = i1, lb1
            stack[top + 1], lbs[top + 1] = i2, lb2
        top += 2


@nb.njit(cache=True)
def _kd_settle(X, cols, train, folds, lo, hi, pred, unc):
    """Rows ``lo:hi`` (one fold) still open in ``unc``: their votes from the fold's kd-tree,
    built once as scikit-learn builds it and queried as it queries (:func:`_kd_build`,
    :func:`_kd_query`)."""
    k = folds.k
    P = np.empty((train.size, cols.size))
    for p in range(train.size):
        for c in range(cols.size):
            P[p, c] = X[train[p], cols[c]]
    idx, start, end, leaf, blo, bhi = _kd_build(P, _KD_LEAF)
    stack = np.empty(2 * start.size + 2, dtype=np.int64)
    lbs = np.empty(2 * start.size + 2)
    vals = np.empty(k)
    nbr = np.empty(k, dtype=np.int64)
    pt = np.empty(cols.size)
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    for r in range(lo, hi):
        if unc[r]:
            q = folds.row_q[r]
            for c in range(cols.size):
                pt[c] = X[q, cols[c]]
            _kd_query(P, idx, start, end, leaf, blo, bhi, pt, k, vals, nbr, stack, lbs)
            counts[:] = 0
            for i in range(k):
                counts[folds.y[train[nbr[i]]]] += 1
            pred[r] = _argmax_first(counts)
            unc[r] = False


@nb.njit(cache=True)
def exact_fold_rows(X, cols, folds, pred, unc):
    """Settle the uncertified rows of one mask by scikit-learn's own arithmetic.

    For every fold holding rows with ``unc[r]``: where scikit-learn's ``KNeighborsClassifier``
    (``algorithm="auto"``) takes brute force (more than 15 selected features, or
    ``k >= n_train // 2``) the neighbours are found by :func:`_sk_brute_rows`; where it takes a
    kd-tree, by :func:`_kd_row`, and where equal distances straddle the k-th place with
    different labels (the tree's order decides them) by replaying the tree: the fold's
    ``KDTree`` is built once as scikit-learn builds it (:func:`_kd_build`) and each such row
    is queried as scikit-learn queries it (:func:`_kd_query`). ``pred`` gets the vote and
    ``unc`` is cleared; with ``folds.exact == 0`` nothing is done (the caller asks
    scikit-learn).
    """
    if folds.exact == 0:
        return
    k = folds.k
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    for f in range(folds.bounds.size - 1):
        lo = folds.bounds[f]
        hi = folds.bounds[f + 1]
        todo = False
        for r in range(lo, hi):
            todo |= unc[r]
        if not todo:
            continue
        train = folds.train[folds.train_ptr[f]:folds.train_ptr[f + 1]]
        test = folds.row_q[lo:hi]
        if cols.size > 15 or k >= train.size // 2:
            nbr = np.empty((hi - lo, k), dtype=np.int64)
            _sk_brute_rows(X, cols, test, train, unc, lo, k, folds.sk_chunk, folds.sk_threads,
                           nbr)
            for r in range(lo, hi):
                if unc[r]:
                    counts[:] = 0
                    for jj in range(k):
                        counts[folds.y[train[nbr[r - lo, jj]]]] += 1
                    pred[r] = _argmax_first(counts)
                    unc[r] = False
        else:
            d = np.empty(train.size)
            ties = False
            for r in range(lo, hi):
                if unc[r]:
                    counts[:] = 0
                    if _kd_row(X, cols, folds.row_q[r], train, folds.y, k, counts, d):
                        pred[r] = _argmax_first(counts)
                        unc[r] = False
                    else:
                        ties = True
            if ties:
                # equal distances straddle the k-th place: the tree's order decides
                _kd_settle(X, cols, train, folds, lo, hi, pred, unc)


@nb.njit(parallel=True, cache=True)
def exact_rows(X, cols_flat, cols_ptr, folds, pred, unc):
    """:func:`exact_fold_rows` for every mask ``b`` (columns
    ``cols_flat[cols_ptr[b]:cols_ptr[b + 1]]``, increasing) with open rows in ``unc[b]``.

    Kept apart from the batch kernels so that it is compiled only when a row needs it.
    """
    for b in nb.prange(cols_ptr.size - 1):
        todo = False
        for r in range(unc.shape[1]):
            todo |= unc[b, r]
        if todo:
            exact_fold_rows(X, cols_flat[cols_ptr[b]:cols_ptr[b + 1]], folds, pred[b], unc[b])


# ----------------------------------------------------------------- CV kernels
@nb.njit(cache=True)
def _mask_predict(data, folds, pool, plan, b, G, sq, m2, r2, AT, L, R, predict, pred, unc,
                  seeds, use_numpy_blas):
    """Gram matrix of mask ``b`` of ``plan`` into ``G`` (and ``sq``, ``m2``, ``r2``), from
    scratch or updated from pool slot ``plan.base[b]``, and with ``predict`` the certified
    votes of every row (``pred``, ``unc`` of the mask)."""
    n = G.shape[0]
    cols = plan.cols_flat[plan.cols_ptr[b]:plan.cols_ptr[b + 1]]
    g_sk = _gamma(cols.size + 2.0, _U64)
    eps = plan.eps[b]
    base = plan.base[b]
    delta = plan.delta_flat[plan.delta_ptr[b]:plan.delta_ptr[b + 1]]
    if base < 0 or (base == plan.dest[b] and delta.size == 0):
        if base < 0:
            _gram_scratch(data.Xgt, data.Xct, data.Xt, cols,
                          AT[: n * cols.size].reshape((cols.size, n)), G, sq, m2, r2,
                          use_numpy_blas)
        if predict:
            _predict_rows(G, sq, m2, r2, eps, g_sk, data.Xc, cols, folds, folds.all_rows, pred,
                          unc, seeds)
        return
    touch = plan.touch_flat[plan.touch_ptr[b]:plan.touch_ptr[b + 1]]
    Lv = L[: n * delta.size].reshape((delta.size, n))
    Rv = R[: n * delta.size].reshape((delta.size, n))
    _delta_operands(data.Xgt, delta, plan.n_add[b], Lv, Rv)
    _update_vectors(data.Xct, data.Xt, pool, base, sq, m2, r2, delta, plan.n_add[b], touch)
    _update_panels(pool.G[base], G, sq, m2, r2, Lv, Rv, 0, n, predict,
                   eps, g_sk, data.Xc, cols, folds, pred, unc, seeds, use_numpy_blas)


@nb.njit(cache=True)
def _plan_sizes(plan):
    """Work-array sizes of a plan: most columns of a matrix from scratch, most changed columns
    of an update, and whether some mask has no pool slot (needs a scratch matrix). Arrays
    nobody needs stay at size 1: a fresh n x n array costs the kernel's page zeroing (about 5 %
    of a PSO run on mfeat, where every matrix is kept)."""
    max_m = 1
    max_d = 1
    unkept = False
    for b in range(plan.cols_ptr.size - 1):
        if plan.base[b] < 0:
            max_m = max(max_m, plan.cols_ptr[b + 1] - plan.cols_ptr[b])
        max_d = max(max_d, plan.delta_ptr[b + 1] - plan.delta_ptr[b])
        unkept = unkept or plan.dest[b] < 0
    return max_m, max_d, unkept


@nb.njit(parallel=True, cache=True)
def cv_predict_batch(data, folds, pool, plan, n_groups, predict, seeds, use_numpy_blas):
    """Certified (and where needed exact) CV predictions of a batch of masks.

    Parameters
    ----------
    data : Data
    folds : Folds
    pool : Pool
        Kept Gram matrices (in the precision of ``data.Xgt``); read at ``plan.base``, written
        at ``plan.dest`` (the caller makes sure no slot is both read and written in one batch).
    plan : Plan
        One entry per mask; masks without a ``dest`` slot use a scratch matrix of the thread.
    n_groups : int
        Masks are dealt to ``n_groups`` parallel groups, one thread each.
    predict : bool
        False builds the matrices only (for :meth:`KNNEvaluator.score_flips`).
    seeds : int64 (at least n_groups, R, k + 2)
        Group ``g`` reads and writes ``seeds[g]`` (see :func:`_predict_rows`).
    use_numpy_blas : bool
        :data:`USE_NUMPY_BLAS`.

    Returns
    -------
    pred : int64 (B, R)
    unc : bool (B, R)
        Rows the bound could not certify (for :func:`exact_rows`).
    n_unc : int64 (B,)
        Their count per mask.
    """
    n = data.X.shape[0]
    B = plan.cols_ptr.size - 1
    R = folds.row_q.size if predict else 0
    pred = np.empty((B, R), dtype=np.int64)
    unc = np.zeros((B, R), dtype=np.bool_)
    n_unc = np.zeros(B, dtype=np.int64)
    max_m, max_d, unkept = _plan_sizes(plan)
    n_t = n if unkept else 1
    for g in nb.prange(n_groups):
        AT = np.empty(n * max_m, dtype=data.Xgt.dtype)
        L = np.empty(n * max_d, dtype=data.Xgt.dtype)
        Rm = np.empty(n * max_d, dtype=data.Xgt.dtype)
        Gt = np.empty((n_t, n_t), dtype=data.Xgt.dtype)
        sqt = np.empty(n)
        m2t = np.empty(n)
        r2t = np.empty(n)
        for b in range(g, B, n_groups):
            d = plan.dest[b]
            cols = plan.cols_flat[plan.cols_ptr[b]:plan.cols_ptr[b + 1]]
            if d >= 0:
                _mask_predict(data, folds, pool, plan, b, pool.G[d], pool.sq[d], pool.m2[d],
                              pool.r2[d], AT, L, Rm, predict, pred[b], unc[b], seeds[g],
                              use_numpy_blas)
            else:
                _mask_predict(data, folds, pool, plan, b, Gt, sqt, m2t, r2t, AT, L, Rm, predict,
                              pred[b], unc[b], seeds[g], use_numpy_blas)
            if predict:
                for r in range(R):
                    n_unc[b] += unc[b, r]
    return pred, unc, n_unc


@nb.njit(parallel=True, cache=True)
def cv_predict_one(data, folds, pool, plan, n_chunks, seeds, use_numpy_blas):
    """Certified CV predictions of one mask (``plan`` of length 1), split over the threads.

    An update runs its panels (with their rows) in parallel; a matrix from scratch is one
    BLAS call, then its rows are split into ``n_chunks`` chunks (``seeds``: int64 (R, k + 2),
    see :func:`_predict_rows`; the chunks own disjoint rows). Returns ``pred`` int64 (R,),
    ``unc`` bool (R,) and ``n_unc`` as :func:`cv_predict_batch`.
    """
    n = data.X.shape[0]
    R = folds.row_q.size
    cols = plan.cols_flat[plan.cols_ptr[0]:plan.cols_ptr[1]]
    pred = np.empty(R, dtype=np.int64)
    unc = np.zeros(R, dtype=np.bool_)
    d = plan.dest[0]
    if d >= 0:
        G = pool.G[d]
        sq = pool.sq[d]
        m2 = pool.m2[d]
        r2 = pool.r2[d]
    else:
        G = np.empty((n, n), dtype=data.Xgt.dtype)
        sq = np.empty(n)
        m2 = np.empty(n)
        r2 = np.empty(n)
    g_sk = _gamma(cols.size + 2.0, _U64)
    eps = plan.eps[0]
    base = plan.base[0]
    delta = plan.delta_flat[plan.delta_ptr[0]:plan.delta_ptr[1]]
    if base >= 0 and not (base == d and delta.size == 0):
        touch = plan.touch_flat[plan.touch_ptr[0]:plan.touch_ptr[1]]
        L = np.empty((delta.size, n), dtype=data.Xgt.dtype)
        Rm = np.empty((delta.size, n), dtype=data.Xgt.dtype)
        _delta_operands(data.Xgt, delta, plan.n_add[0], L, Rm)
        _update_vectors(data.Xct, data.Xt, pool, base, sq, m2, r2, delta, plan.n_add[0], touch)
        step = (n + n_chunks - 1) // n_chunks
        for c in nb.prange(n_chunks):
            _update_panels(pool.G[base], G, sq, m2, r2, L, Rm, min(n, c * step),
                           min(n, (c + 1) * step), True, eps, g_sk, data.Xc, cols, folds, pred,
                           unc, seeds, use_numpy_blas)
    else:
        if base < 0:
            AT = np.empty((cols.size, n), dtype=data.Xgt.dtype)
            _gram_scratch(data.Xgt, data.Xct, data.Xt, cols, AT, G, sq, m2, r2, use_numpy_blas)
        _rows_parallel(G, sq, m2, r2, eps, g_sk, data, cols, folds, n_chunks, pred, unc, seeds)
    n_unc = np.zeros(1, dtype=np.int64)
    n_unc[0] = unc.sum()
    return pred, unc, n_unc


@nb.njit(parallel=True, cache=True)
def _rows_parallel(G, sq, m2, r2, eps, g_sk, data, cols, folds, n_chunks, pred, unc, seeds):
    R = folds.row_q.size
    step = (R + n_chunks - 1) // n_chunks
    for c in nb.prange(n_chunks):
        lo = c * step
        hi = min(R, lo + step)
        if lo < hi:
            _predict_rows(G, sq, m2, r2, eps, g_sk, data.Xc, cols, folds, folds.all_rows[lo:hi],
                          pred, unc, seeds)


# ----------------------------------------------------------------- flips
@nb.njit(parallel=True, cache=True)
def flip_tables(G, sq, folds, L, n_chunks):
    """Each row's ``L`` nearest candidates in order, from a mask's Gram matrix ``G``.

    Each row keeps its ``L`` nearest candidates by insertion into a sorted list (equal
    distances in index order); rows are split into ``n_chunks`` chunks over the threads.

    Returns
    -------
    order : int64 (R, L)
        The nearest candidates of each row by increasing base distance, padded with -1.
    dist : float64 (R, L)
        Their base squared distances, padded with +inf.
    complete : bool (R,)
        True when ``order`` holds all of the row's candidates.
    """
    n = G.shape[0]
    R = folds.row_q.size
    order = np.full((R, L), -1, dtype=np.int64)
    dist = np.full((R, L), np.inf)
    complete = np.empty(R, dtype=np.bool_)
    step = (R + n_chunks - 1) // n_chunks
    for chunk in nb.prange(n_chunks):
        for r in range(chunk * step, min(R, (chunk + 1) * step)):
            q = folds.row_q[r]
            cf = folds.cand[folds.row_f[r]]
            ds = dist[r]
            ids = order[r]
            cnt = 0
            n_cand = 0
            worst = np.inf
            for j in range(n):
                if cf[j]:
                    n_cand += 1
                    v = sq[q] + sq[j] - 2.0 * G[q, j]
                    v = v if v > 0.0 else 0.0
                    if v < worst:
                        cnt = _insert(ds, ids, cnt, L, v, j)
                        if cnt == L:
                            worst = ds[L - 1]
            complete[r] = n_cand <= L
    return order, dist, complete


@nb.njit(cache=True)
def _candidate_row(G, sq, cand, q, f, seq, idx, d):
    """The candidates of row (q, f) among ``seq``, in that order, and their base squared
    distances (into ``idx``, ``d``); count."""
    c = 0
    for j in seq:
        if cand[f, j]:
            v = sq[q] + sq[j] - 2.0 * G[q, j]
            d[c] = v if v > 0.0 else 0.0
            idx[c] = j
            c += 1
    return c


# full rescans of a removal's rows before the rest use the norm window (sorting the norms costs
# about as much as log2(n) full rescans; on sonar, 1.4 % of removal rows are rescanned and
# sorting at the first one made its flips 10 % slower)
_WINDOW_AFTER = 8


@nb.njit(cache=True)
def _norm_order(aS2, x, nu, perm, nus):
    """``nu`` = the rows' norms without the feature ``x``, ``perm`` their increasing order and
    ``nus = nu[perm]``, in place."""
    for j in range(nu.size):
        v = aS2[j] - x[j] * x[j]
        nu[j] = np.sqrt(v) if v > 0.0 else 0.0
    perm[:] = np.argsort(nu)
    for p in range(nu.size):
        nus[p] = nu[perm[p]]


@nb.njit(parallel=True, cache=True)
def flip_predict(data, folds, G, sq, m2, r2, eps, cols, features, order, dist, complete,
                 n_chunks):
    """Certified (and where needed exact) CV predictions of the masks obtained by flipping
    each listed feature of the mask with selected columns ``cols``.

    Flipping feature ``f`` changes every squared distance by ``+-(x_f[i] - x_f[j])^2``. Each
    row scans its candidates by increasing base distance and stops once no unseen candidate
    can enter the k + 1 nearest or the rounding band: when adding, distances only grow, so the
    base distance bounds them from below; when removing, they shrink by at most the row's
    largest squared difference on ``f``. A row whose scan runs past its sorted prefix is
    rescanned over all its candidates. Rows the cheap test leaves open go to :func:`_certify`
    with the scanned candidates whose lower bound is at most ``worst + E/2`` (``worst`` the
    (k+1)-th smallest flipped distance, ``E`` twice the row's largest pair bound, so every
    other candidate's lower bound exceeds every kept one's upper bound: surely out); those it
    cannot certify are flagged in ``unc`` (for :func:`exact_rows` with the flipped masks).

    **The norm window of removals.** When removing ``f`` the row's shrink bound is loose where
    ``f`` spans a range much wider than the row's neighbour distances: on the heavy-tailed
    reproduction 87 % of a removal's rows ran past their prefix (0 % of an addition's, 1.4 %
    on sonar). With ``nu_j`` the norm of row j over the base columns without ``f``, the
    triangle inequality gives a flipped distance of at least ``(nu_j - nu_q)^2``, and a
    candidate's lower bound is at least that minus ``E``; so only candidates with
    ``|nu_j - nu_q| <= sqrt(worst + 1.5 E)`` (widened by the rounding of ``nu``) can matter,
    ``worst`` being the prefix's (k+1)-th best. After :data:`_WINDOW_AFTER` full rescans of
    one removal, its norms are sorted once and each later rescan visits that window only
    (about 11 % of the row on the heavy-tailed reproduction: its flip kernel 1.8x faster).

    Parameters
    ----------
    G, sq, m2, r2, eps
        The base mask's Gram matrix, diagonal, union norms and error coefficient.
    cols : int64 (m,)
        Selected columns of the base mask, increasing.
    features : int64 (F,)
        Features to flip.
    order, dist, complete
        From :func:`flip_tables`.
    n_chunks : int
        Features are split into this many chunks over the threads (each allocates its
        scratch arrays once).

    Returns
    -------
    pred : int64 (F, R)
    unc : bool (F, R)
    n_unc : int64 (F,)
    """
    n = G.shape[0]
    R = folds.row_q.size
    Lp = order.shape[1]
    nF = features.size
    k = folds.k
    y = folds.y
    pred = np.empty((nF, R), dtype=np.int64)
    unc = np.zeros((nF, R), dtype=np.bool_)
    n_unc = np.zeros(nF, dtype=np.int64)
    in_base = np.zeros(data.Xt.shape[0], dtype=np.bool_)
    for c in range(cols.size):
        in_base[cols[c]] = True
    e_ours = eps + _gamma(4.0, _U64) + 8.0 * _U64
    # squared raw norms over the base mask's columns, for the norm window of removals (Notes)
    aS2 = np.zeros(n)
    for c in range(cols.size):
        xs = data.Xt[cols[c]]
        for j in range(n):
            aS2[j] += xs[j] * xs[j]
    tol_nu = 2.0 * np.sqrt(_gamma(cols.size + 4.0, _U64) * aS2.max()) if n else 0.0
    everyone = np.arange(n)
    # features in chunks: each chunk allocates its scratch once
    n_chunks = min(nF, n_chunks)
    step = (nF + n_chunks - 1) // n_chunks if n_chunks else 1
    for ch in nb.prange(n_chunks):
        K = k + 1
        bd = np.empty(K)
        bi = np.empty(K, dtype=np.int64)
        counts = np.zeros(folds.n_classes, dtype=np.int64)
        idx = np.empty(n, dtype=np.int64)
        dfull = np.empty(n)
        Lb = np.empty(n)
        Ub = np.empty(n)
        lab = np.empty(n, dtype=np.int64)
        tmp = np.empty(K)
        nu = np.empty(n)
        perm = np.empty(n, dtype=np.int64)
        nus = np.empty(n)
        mf = np.empty(n)
        af = np.empty(n)
        for t in range(ch * step, min(nF, (ch + 1) * step)):
            f = features[t]
            add = not in_base[f]
            x = data.Xt[f]
            xc = data.Xct[f]
            n_rescans = 0
            lo_f = np.inf
            hi_f = -np.inf
            m_max = 0.0
            a_max = 0.0
            for j in range(n):
                lo_f = min(lo_f, x[j])
                hi_f = max(hi_f, x[j])
                mf[j] = np.sqrt(m2[j] + (xc[j] * xc[j] if add else 0.0))
                af[j] = np.sqrt(r2[j] + (x[j] * x[j] if add else 0.0))
                m_max = max(m_max, mf[j])
                a_max = max(a_max, af[j])
            m_new = cols.size + (1 if add else -1)
            g_sk = _gamma(m_new + 2.0, _U64)
            sign = 1.0 if add else -1.0
            for r in range(R):
                q = folds.row_q[r]
                xq = x[q]
                e2 = 2.0 * _pair_bound(e_ours, g_sk, mf[q], m_max, af[q], a_max)
                shrink = 0.0 if add else max((xq - lo_f) ** 2, (hi_f - xq) ** 2)
                ids = order[r]
                ds = dist[r]
                length = Lp
                cnt, stop, worst = _flip_scan(ds, ids, Lp, x, xq, sign, shrink, e2, bd, bi, K)
                if stop == Lp and not complete[r] and ds[Lp - 1] - shrink <= worst + e2:
                    # the prefix did not settle the row: scan all its candidates, or when
                    # removing those in the norm window
                    n_rescans += 1
                    if add or n_rescans <= _WINDOW_AFTER:
                        seq = everyone
                    else:
                        if n_rescans == _WINDOW_AFTER + 1:
                            _norm_order(aS2, x, nu, perm, nus)
                        w = np.sqrt(worst + 1.5 * e2) * (1.0 + 1e-9) + tol_nu
                        seq = perm[np.searchsorted(nus, nu[q] - w):
                                   np.searchsorted(nus, nu[q] + w, side="right")]
                    length = _candidate_row(G, sq, folds.cand, q, folds.row_f[r], seq, idx,
                                            dfull)
                    ids = idx
                    ds = dfull
                    cnt, stop, worst = _flip_scan(ds, ids, length, x, xq, sign, shrink, np.inf,
                                                  bd, bi, K)
                counts[:] = 0
                if cnt < K or bd[k] > bd[k - 1] + e2:
                    for i in range(k):
                        counts[y[bi[i]]] += 1
                else:
                    # a candidate whose lower bound exceeds worst + e2 / 2 (at least every kept
                    # one's upper bound) is surely out: only the others go to _certify
                    top = worst + 0.5 * e2
                    c = 0
                    for p in range(stop):
                        j = ids[p]
                        diff = xq - x[j]
                        dd = ds[p] + sign * (diff * diff)
                        dd = dd if dd > 0.0 else 0.0
                        b = _pair_bound(e_ours, g_sk, mf[q], mf[j], af[q], af[j])
                        Lb[c] = dd - b
                        Ub[c] = dd + b
                        lab[c] = y[j]
                        c += dd - b <= top
                    ok, t_u = _certify(Lb, Ub, lab, c, k, counts, tmp)
                    unc[t, r] = not ok
                    n_unc[t] += not ok
                pred[t, r] = _argmax_first(counts)
    return pred, unc, n_unc


@nb.njit(cache=True)
def _flip_scan(ds, ids, length, x, xq, sign, shrink, e2, bd, bi, K):
    """Top-K of ``ds[p] + sign (xq - x[ids[p]])^2`` over ``p < length``.

    ``ds`` must be increasing when a finite ``e2`` is given: the scan stops at the first ``p``
    whose lower bound ``ds[p] - shrink`` exceeds the current K-th best plus ``e2``. Returns the
    count kept, the stop position and the K-th best.
    """
    cnt = 0
    worst = np.inf
    for p in range(length):
        db = ds[p]
        if db == np.inf or db - shrink > worst + e2:
            return cnt, p, worst
        j = ids[p]
        diff = xq - x[j]
        d = db + sign * (diff * diff)
        if d < 0.0:
            d = 0.0
        if d < worst:
            cnt = _insert(bd, bi, cnt, K, d, j)
            if cnt == K:
                worst = bd[K - 1]
    return cnt, length, worst
