"""Compiled (numba) kernels of the KNN wrapper evaluator.

They compute the same certified predictions as :mod:`pymoo_fs.evaluation._reference`:

* :func:`cv_predict_batch` scores a batch of masks, one thread per group of masks;
  :func:`cv_predict_one` scores one mask with its rows split over the threads. The caller
  holds BLAS to one thread.
* :func:`flip_tables` and :func:`flip_predict` answer all single-feature flips of one mask from
  its distance matrix, O(n^2) per flip at worst and usually far less.

Every kernel is compiled lazily on first call and cached on disk (``cache=True``); importing
this module compiles nothing. Memory per worker thread: one n x n float64 matrix plus the
gathered columns (n x |S|).

All numba code of the evaluator lives in this one module on purpose: numba invalidates a
cached function when its own source file changes, not when a function it calls from another
module does, so kernels split over several files could run stale machine code.

**BLAS, callable from cached kernels.** Two BLAS builds are usually at hand: numpy's bundled
OpenBLAS (ILP64, CBLAS interface under ``scipy_cblas_?syrk64_``) and scipy's
(``scipy.linalg.cython_blas``). The Gram matrix is one ``?syrk`` (half the work of a GEMM; on
this project's machines a full GEMM measured 35-40 % slower than SYRK plus mirroring). numpy's
OpenBLAS ``dsyrk`` measured 5-15 % faster than scipy's, so it is used when found; otherwise
scipy's, which every scipy provides.

A numba function holding a ctypes pointer cannot be cached (the address changes between
processes), so the addresses are registered with LLVM under fixed symbol names at import and
the kernels call the names. Both names are always registered, each with its own calling
convention (a stub stands in for a numpy BLAS that was not found), and which one to call is an
argument of the kernels (:data:`USE_NUMPY_BLAS`), never a compiled-in constant, so a cached
kernel is safe whichever BLAS the next process finds. Registration compiles nothing.
"""

import ctypes
import os

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
    """Addresses of numpy's bundled OpenBLAS ``cblas_dsyrk``/``cblas_ssyrk`` (ILP64), or None."""
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
        except (OSError, AttributeError):
            continue
        return d, s
    return None


def _unavailable(*args):  # pragma: no cover - never called: USE_NUMPY_BLAS is False then
    os.write(2, b"pymoo_fs: numpy's BLAS called but not available\n")
    os.abort()


_found = None if os.environ.get("PYMOO_FS_SCIPY_BLAS") else _numpy_cblas_addresses()
#: whether the kernels should call numpy's OpenBLAS (else scipy's); pass it to them
USE_NUMPY_BLAS = _found is not None
_stubs = (_syrk_prototype(ctypes.c_double)(_unavailable),
          _syrk_prototype(ctypes.c_float)(_unavailable))
_cblas_addresses = _found or tuple(ctypes.cast(f, ctypes.c_void_p).value for f in _stubs)
llvm.add_symbol("pymoo_fs_cblas_dsyrk", _cblas_addresses[0])
llvm.add_symbol("pymoo_fs_cblas_ssyrk", _cblas_addresses[1])
for _name in ("dsyrk", "ssyrk"):
    llvm.add_symbol(f"pymoo_fs_{_name}", _capsule_address(_name))


def _syrk_intrinsic(symbol):
    @intrinsic
    def call(typingctx, uplo, trans, n, k, alpha, a, lda, beta, c, ldc):
        sig = types.void(*([types.voidptr] * 10))

        def codegen(context, builder, signature, args):
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [_PTR] * 10), symbol)
            builder.call(fn, args)

        return sig, codegen

    return call


def _cblas_syrk_intrinsic(symbol, real):
    """Lower triangle of ``C = A^T A`` (row-major CBLAS, ILP64) for ``A`` (k, n), ``C`` (n, n)."""
    nb_real = types.float64 if real is ir.DoubleType else types.float32

    @intrinsic
    def call(typingctx, n, k, a, lda, c, ldc):
        sig = types.void(types.int64, types.int64, types.voidptr, types.int64, types.voidptr,
                         types.int64)

        def codegen(context, builder, signature, args):
            fnty = ir.FunctionType(ir.VoidType(), [_I32, _I32, _I32, _I64, _I64, real(), _PTR,
                                                   _I64, real(), _PTR, _I64])
            fn = cgutils.get_or_insert_function(builder.module, fnty, symbol)
            n_, k_, a_, lda_, c_, ldc_ = args
            one = context.get_constant(nb_real, 1.0)
            zero = context.get_constant(nb_real, 0.0)
            row_major, lower, trans = (ir.Constant(_I32, v) for v in (101, 122, 112))
            builder.call(fn, [row_major, lower, trans, n_, k_, one, a_, lda_, zero, c_, ldc_])

        return sig, codegen

    return call


_dsyrk = _syrk_intrinsic("pymoo_fs_dsyrk")
_ssyrk = _syrk_intrinsic("pymoo_fs_ssyrk")
_cblas_dsyrk = _cblas_syrk_intrinsic("pymoo_fs_cblas_dsyrk", ir.DoubleType)
_cblas_ssyrk = _cblas_syrk_intrinsic("pymoo_fs_cblas_ssyrk", ir.FloatType)


@nb.njit(cache=True)
def gram_t(AT, C, use_numpy_blas):
    """``C = AT^T AT`` for a C-contiguous ``AT`` (m, n), float64 or float32, into ``C`` (n, n).

    ``AT`` holds one selected feature per row (a contiguous copy of a column of the data), so
    gathering the columns of a mask is a sequence of contiguous copies. One ``?syrk`` (numpy's
    OpenBLAS with ``use_numpy_blas``, :data:`USE_NUMPY_BLAS`; else scipy's) computes the lower
    triangle, which is then mirrored tile by tile. BLAS threading is whatever the caller set
    (threadpoolctl).
    """
    m, n = AT.shape
    if use_numpy_blas:
        if AT.itemsize == 8:
            _cblas_dsyrk(n, m, AT.ctypes, max(n, 1), C.ctypes, max(n, 1))
        else:
            _cblas_ssyrk(n, m, AT.ctypes, max(n, 1), C.ctypes, max(n, 1))
        _mirror_lower(C)
        return
    uplo = np.array([ord("U")], dtype=np.uint8)  # Fortran upper = C-order lower
    trans = np.array([ord("N")], dtype=np.uint8)  # AT is the Fortran (n, m) matrix A
    nn = np.array([n], dtype=np.int32)
    kk = np.array([m], dtype=np.int32)
    lda = np.array([max(n, 1)], dtype=np.int32)
    ldc = np.array([max(n, 1)], dtype=np.int32)
    one = np.ones(1, dtype=AT.dtype)
    zero = np.zeros(1, dtype=AT.dtype)
    if AT.itemsize == 8:
        _dsyrk(uplo.ctypes, trans.ctypes, nn.ctypes, kk.ctypes, one.ctypes, AT.ctypes,
               lda.ctypes, zero.ctypes, C.ctypes, ldc.ctypes)
    else:
        _ssyrk(uplo.ctypes, trans.ctypes, nn.ctypes, kk.ctypes, one.ctypes, AT.ctypes,
               lda.ctypes, zero.ctypes, C.ctypes, ldc.ctypes)
    _mirror_lower(C)


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


# ----------------------------------------------------------------- CV kernels
_U64 = np.finfo(np.float64).eps / 2
_U32 = float(np.finfo(np.float32).eps) / 2
_SAFETY = 4.0


@nb.njit(cache=True, inline="always")
def _gamma(m, u):
    """Safety factor times ``gamma_m = m u / (1 - m u)`` (Higham's dot-product bound)."""
    return _SAFETY * m * u / (1.0 - m * u)


@nb.njit(cache=True)
def _gram_of(Xgt, cols, AT, G, sq, use_numpy_blas):
    """G = Gram matrix of the selected centred columns; sq = its diagonal (float64).

    ``Xgt`` (D, n) is the centred data transposed, in the precision of the product; ``AT``
    (|S|, n) receives the selected rows of it.
    """
    for c in range(cols.size):
        AT[c, :] = Xgt[cols[c], :]
    gram_t(AT, G, use_numpy_blas)
    for i in range(G.shape[0]):
        sq[i] = G[i, i]


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
def _predict_rows(G, sq, raw, Xc, cols, cand, row_q, row_f, y, k, u_gram, r_lo, r_hi, pred,
                  amb, counts, band, d64, e):
    """Certified KNN votes of rows [r_lo, r_hi) from the Gram matrix ``G`` of centred data.

    ``sq`` is the diagonal of ``G``; ``raw`` bounds the squared uncentred row norms that
    scikit-learn's computation sees (the full-row norms bound those of any mask). ``G`` is
    float64 or float32 (unit roundoff ``u_gram``). Each row's reduced distances
    ``e_j = sq_j - 2 G_qj`` (``+inf`` outside the fold's training part) are written to the
    scratch row ``e`` by a vectorisable loop, then scanned for the k + 1 smallest; the squared
    distance is ``d_j = sq_q + e_j``. A row whose k-th and (k+1)-th nearest lie within the
    rounding band is settled by the band's labels (float64), or, for a float32 ``G``, by
    recomputing the band members' distances exactly in float64 first. Rows still undecided are
    flagged in ``amb`` for scikit-learn. ``counts``, ``band``, ``d64``, ``e`` are scratch arrays
    (n_classes,), (n,), (n,), (n,).
    """
    n = G.shape[0]
    m = cols.size
    K = k + 1
    bd = np.empty(K)
    bi = np.empty(K, dtype=np.int64)
    g64 = _gamma(m + 2.0, _U64)
    g_ours = g64 if u_gram == _U64 else _gamma(m + 3.0, u_gram)
    a_max = 0.0
    b_max = 0.0
    for j in range(n):
        a_max = max(a_max, np.sqrt(raw[j]))
        b_max = max(b_max, np.sqrt(max(sq[j], 0.0)))
    for r in range(r_lo, r_hi):
        q = row_q[r]
        Gq = G[q]
        cf = cand[row_f[r]]
        for j in range(n):
            v = sq[j] - 2.0 * Gq[j]
            e[j] = v if cf[j] else np.inf
        cnt = 0
        worst = np.inf
        for j in range(n):
            if e[j] < worst:
                cnt = _insert(bd, bi, cnt, K, e[j], j)
                if cnt == K:
                    worst = bd[K - 1]
        amb[r] = False
        for c in range(counts.size):
            counts[c] = 0
        sq_q = sq[q]
        a = np.sqrt(raw[q]) + a_max
        b = np.sqrt(max(sq_q, 0.0)) + b_max
        e2 = 2.0 * (g64 * a * a + g_ours * b * b)
        t = sq_q + bd[k - 1]
        if cnt < K or sq_q + bd[k] > t + e2:
            for i in range(k):
                counts[y[bi[i]]] += 1
        elif u_gram == _U64:
            for i in range(k):
                counts[y[bi[i]]] += 1
            amb[r] = _mixed_band(e, sq_q, y, t - e2, t + e2)
        else:
            e64 = 2.0 * g64 * (a * a + b * b)
            amb[r] = _refine(e, sq_q, Xc, cols, y, q, k, t - e2, t + e2, e64, counts, band, d64)
        pred[r] = _argmax_first(counts)


@nb.njit(cache=True)
def _mixed_band(e, sq_q, y, lo, hi):
    """True when the candidates with distance ``sq_q + e_j`` in [lo, hi] carry several labels."""
    first = -1
    for j in range(e.size):
        d = sq_q + e[j]
        if lo <= d <= hi:
            if first == -1:
                first = y[j]
            elif y[j] != first:
                return True
    return False


@nb.njit(cache=True)
def _refine(e, sq_q, Xc, cols, y, q, k, lo, hi, e64, counts, band, d64):
    """Settle a row from a float32 Gram matrix with exact float64 distances of its band.

    Candidates below ``lo`` are surely among the k nearest; the rest of the k come from the
    band [lo, hi], ranked by float64 distances computed directly. Adds the k neighbours' labels
    to ``counts``; returns True when even float64 cannot certify the vote.
    """
    n_in = 0
    nb_ = 0
    for j in range(e.size):
        d = sq_q + e[j]
        if d < lo:
            counts[y[j]] += 1
            n_in += 1
        elif d <= hi:
            band[nb_] = j
            nb_ += 1
    for i in range(nb_):
        j = band[i]
        s = 0.0
        for c in range(cols.size):
            diff = Xc[q, cols[c]] - Xc[j, cols[c]]
            s += diff * diff
        d64[i] = s
    order = np.argsort(d64[:nb_], kind="mergesort")
    need = k - n_in
    for i in range(need):
        counts[y[band[order[i]]]] += 1
    t64 = d64[order[need - 1]]
    if nb_ == need or d64[order[need]] > t64 + e64:
        return False
    first = -1
    for i in range(nb_):
        if t64 - e64 <= d64[i] <= t64 + e64:
            lab = y[band[i]]
            if first == -1:
                first = lab
            elif lab != first:
                return True
    return False


@nb.njit(parallel=True, cache=True)
def cv_predict_batch(Xgt, Xc, raw, cols_flat, cols_ptr, cand, row_q, row_f, y, k, n_classes,
                     n_groups, use_numpy_blas):
    """Certified CV predictions of a batch of masks, parallel over groups of masks.

    Parameters
    ----------
    Xgt : float64 or float32 (D, n)
        Column-centred data, transposed, in the precision of the Gram products.
    Xc : float64 (n, D)
        Column-centred data (exact distances of float32 band members).
    raw : float64 (n,)
        Squared norms of the raw data rows (bound of scikit-learn's norms).
    cols_flat, cols_ptr : int64
        Selected columns of mask b are ``cols_flat[cols_ptr[b]:cols_ptr[b + 1]]`` (non-empty).
    cand : bool (n_folds, n)
        Training part of each fold.
    row_q, row_f : int64 (R,)
        Query sample and fold of each row.
    y : int64 (n,)
    k, n_classes, n_groups : int
    use_numpy_blas : bool
        :data:`pymoo_fs.evaluation._blas.USE_NUMPY_BLAS`.

    Returns
    -------
    pred : int64 (B, R)
    amb : bool (B, R)
    """
    n = Xc.shape[0]
    B = cols_ptr.size - 1
    R = row_q.size
    u_gram = _U64 if Xgt.itemsize == 8 else _U32
    pred = np.empty((B, R), dtype=np.int64)
    amb = np.empty((B, R), dtype=np.bool_)
    max_m = 0
    for b in range(B):
        max_m = max(max_m, cols_ptr[b + 1] - cols_ptr[b])
    for g in nb.prange(n_groups):
        buf = np.empty(n * max_m, dtype=Xgt.dtype)
        G = np.empty((n, n), dtype=Xgt.dtype)
        sq = np.empty(n)
        counts = np.zeros(n_classes, dtype=np.int64)
        band = np.empty(n, dtype=np.int64)
        d64 = np.empty(n)
        e = np.empty(n)
        for b in range(g, B, n_groups):
            cols = cols_flat[cols_ptr[b]:cols_ptr[b + 1]]
            _gram_of(Xgt, cols, buf[: n * cols.size].reshape((cols.size, n)), G, sq,
                     use_numpy_blas)
            _predict_rows(G, sq, raw, Xc, cols, cand, row_q, row_f, y, k, u_gram, 0, R,
                          pred[b], amb[b], counts, band, d64, e)
    return pred, amb


@nb.njit(parallel=True, cache=True)
def cv_predict_one(Xgt, Xc, raw, cols, cand, row_q, row_f, y, k, n_classes, n_chunks,
                   use_numpy_blas):
    """Certified CV predictions of one mask, rows split over the threads.

    Returns ``pred`` int64 (R,) and ``amb`` bool (R,); parameters as :func:`cv_predict_batch`.
    """
    n = Xc.shape[0]
    R = row_q.size
    u_gram = _U64 if Xgt.itemsize == 8 else _U32
    G = np.empty((n, n), dtype=Xgt.dtype)
    sq = np.empty(n)
    _gram_of(Xgt, cols, np.empty((cols.size, n), dtype=Xgt.dtype), G, sq, use_numpy_blas)
    pred = np.empty(R, dtype=np.int64)
    amb = np.empty(R, dtype=np.bool_)
    step = (R + n_chunks - 1) // n_chunks
    for c in nb.prange(n_chunks):
        lo = c * step
        hi = min(R, lo + step)
        if lo < hi:
            counts = np.zeros(n_classes, dtype=np.int64)
            band = np.empty(n, dtype=np.int64)
            d64 = np.empty(n)
            e = np.empty(n)
            _predict_rows(G, sq, raw, Xc, cols, cand, row_q, row_f, y, k, u_gram, lo, hi,
                          pred, amb, counts, band, d64, e)
    return pred, amb


@nb.njit(parallel=True, cache=True)
def flip_tables(Xct, X, cols, cand, row_q, row_f, L, n_chunks, use_numpy_blas):
    """Base distances of one mask, and each row's ``L`` nearest candidates in order.

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
    G : float64 (n, n)
        Gram matrix of the mask's centred columns (for rows scanned past their prefix).
    sq, raw : float64 (n,)
        Centred and raw squared row norms over the mask's columns.
    """
    n = Xct.shape[1]
    m = cols.size
    R = row_q.size
    sq = np.zeros(n)
    raw = np.zeros(n)
    G = np.zeros((n, n))
    if m > 0:
        _gram_of(Xct, cols, np.empty((m, n)), G, sq, use_numpy_blas)
        for i in range(n):
            r = 0.0
            for c in range(m):
                r += X[i, cols[c]] ** 2
            raw[i] = r
    order = np.full((R, L), -1, dtype=np.int64)
    dist = np.full((R, L), np.inf)
    complete = np.empty(R, dtype=np.bool_)
    step = (R + n_chunks - 1) // n_chunks
    for chunk in nb.prange(n_chunks):
        for r in range(chunk * step, min(R, (chunk + 1) * step)):
            q = row_q[r]
            cf = cand[row_f[r]]
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
    return order, dist, complete, G, sq, raw


@nb.njit(cache=True)
def _base_row(G, sq, cand, q, f, idx, d):
    """Candidates of row (q, f) in index order and their base squared distances; count."""
    c = 0
    for j in range(G.shape[0]):
        if cand[f, j]:
            v = sq[q] + sq[j] - 2.0 * G[q, j]
            d[c] = v if v > 0.0 else 0.0
            idx[c] = j
            c += 1
    return c


@nb.njit(parallel=True, cache=True)
def flip_predict(Xt, Xct, features, adding, order, dist, complete, G, sq, raw, m, cand, row_q,
                 row_f, y, k, n_classes):
    """Certified CV predictions of the masks obtained by flipping each listed feature.

    Flipping feature ``f`` changes every squared distance by ``+-(x_f[i] - x_f[j])^2``. Each
    row scans its candidates by increasing base distance and stops once no unseen candidate
    can enter the k + 1 nearest or the rounding band: when adding, distances only grow, so the
    base distance bounds them from below; when removing, they shrink by at most the row's
    largest squared difference on ``f``. A row whose scan runs past its sorted prefix (rare)
    is rescanned over all its candidates.

    Parameters
    ----------
    Xt, Xct : float64 (D, n)
        Raw and centred data, transposed (one feature's values contiguous).
    features : int64 (F,)
        Features to flip.
    adding : bool (F,)
        True where the feature is not in the mask (the flip adds it).
    order, dist, complete, G, sq, raw
        From :func:`flip_tables`.
    m : int
        Size of the base mask.

    Returns
    -------
    pred : int64 (F, R)
    amb : bool (F, R)
    """
    n = Xt.shape[1]
    R = row_q.size
    L = order.shape[1]
    nF = features.size
    pred = np.empty((nF, R), dtype=np.int64)
    amb = np.empty((nF, R), dtype=np.bool_)
    raw_max = 0.0
    sq_max = 0.0
    for j in range(n):
        raw_max = max(raw_max, raw[j])
        sq_max = max(sq_max, sq[j])
    # union mask S | {f} has at most m + 1 features; one more for the flip's own rounding
    gam = _gamma(m + 4.0, _U64)
    for t in nb.prange(nF):
        f = features[t]
        add = adding[t]
        x = Xt[f]
        xc = Xct[f]
        K = k + 1
        bd = np.empty(K)
        bi = np.empty(K, dtype=np.int64)
        counts = np.zeros(n_classes, dtype=np.int64)
        idx = np.empty(n, dtype=np.int64)
        dfull = np.empty(n)
        lo_f = np.inf
        hi_f = -np.inf
        xc_max = 0.0
        x_max = 0.0
        for j in range(n):
            lo_f = min(lo_f, x[j])
            hi_f = max(hi_f, x[j])
            xc_max = max(xc_max, xc[j] * xc[j])
            x_max = max(x_max, x[j] * x[j])
        # norms of the union mask bound both the added and the removed case
        a_max = np.sqrt(raw_max + (x_max if add else 0.0))
        b_max = np.sqrt(sq_max + (xc_max if add else 0.0))
        sign = 1.0 if add else -1.0
        for r in range(R):
            q = row_q[r]
            xq = x[q]
            a = np.sqrt(raw[q] + (xq * xq if add else 0.0)) + a_max
            b = np.sqrt(sq[q] + (xc[q] * xc[q] if add else 0.0)) + b_max
            e2 = 2.0 * gam * (a * a + b * b)
            shrink = 0.0 if add else max((xq - lo_f) ** 2, (hi_f - xq) ** 2)
            ids = order[r]
            ds = dist[r]
            cnt, stop, worst = _flip_scan(ds, ids, L, x, xq, sign, shrink, e2, bd, bi, K)
            if stop == L and not complete[r] and ds[L - 1] - shrink <= worst + e2:
                # the prefix did not settle the row: scan all its candidates
                c = _base_row(G, sq, cand, q, row_f[r], idx, dfull)
                ids = idx
                ds = dfull
                cnt, stop, worst = _flip_scan(ds, ids, c, x, xq, sign, shrink, np.inf, bd,
                                              bi, K)
            for c in range(n_classes):
                counts[c] = 0
            for i in range(k):
                counts[y[bi[i]]] += 1
            pred[t, r] = _argmax_first(counts)
            amb[t, r] = False
            if cnt == K:
                tk = bd[k - 1]
                if bd[k] <= tk + e2:
                    first = -1
                    for p in range(stop):
                        j = ids[p]
                        diff = xq - x[j]
                        d = ds[p] + sign * (diff * diff)
                        if d < 0.0:
                            d = 0.0
                        if tk - e2 <= d <= tk + e2:
                            if first == -1:
                                first = y[j]
                            elif y[j] != first:
                                amb[t, r] = True
                                break
    return pred, amb


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
