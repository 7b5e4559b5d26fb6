"""The CV kernels: certified predictions of every CV row of a batch of masks or of one mask.

:func:`cv_predict_batch` scores a batch of masks, one thread per group of masks;
:func:`cv_predict_one` scores one mask with its rows split over the threads. Each mask's Gram
matrix is computed from scratch or updated from a kept one (the *pool*, :mod:`.gram`); the
caller decides which (a :class:`~.structures.Plan`) and holds BLAS to one thread. Each row's
scan for its k + 1 nearest is bounded by the nearest it had under an earlier mask (the
*seeds*, see :func:`.rows.predict_rows`), which skips most insertions and changes no result.
Memory per worker thread: one n x n matrix plus the gathered columns (n x |S|).
"""

import numba as nb
import numpy as np

from .bounds import U64, gamma_jit
from .gram import delta_operands, gram_scratch, update_panels, update_vectors
from .jit import kernel
from .rows import predict_rows


@kernel()
def _mask_predict(data, folds, pool, plan, b, G, sq, m2, r2, AT, L, R, predict, pred, unc,
                  seeds, use_numpy_blas):
    """Gram matrix of mask ``b`` of ``plan`` into ``G`` (and ``sq``, ``m2``, ``r2``), from
    scratch or updated from pool slot ``plan.base[b]``, and with ``predict`` the certified
    votes of every row (``pred``, ``unc`` of the mask)."""
    n = G.shape[0]
    cols = plan.cols_flat[plan.cols_ptr[b]:plan.cols_ptr[b + 1]]
    g_sk = gamma_jit(cols.size + 2.0, U64)
    eps = plan.eps[b]
    base = plan.base[b]
    delta = plan.delta_flat[plan.delta_ptr[b]:plan.delta_ptr[b + 1]]
    if base < 0 or (base == plan.dest[b] and delta.size == 0):
        if base < 0:
            gram_scratch(data.Xgt, data.Xct, data.Xt, cols,
                         AT[: n * cols.size].reshape((cols.size, n)), G, sq, m2, r2,
                         use_numpy_blas)
        if predict:
            predict_rows(G, sq, m2, r2, eps, g_sk, data.Xc, cols, folds, folds.all_rows, pred,
                         unc, seeds)
        return
    touch = plan.touch_flat[plan.touch_ptr[b]:plan.touch_ptr[b + 1]]
    Lv = L[: n * delta.size].reshape((delta.size, n))
    Rv = R[: n * delta.size].reshape((delta.size, n))
    delta_operands(data.Xgt, delta, plan.n_add[b], Lv, Rv)
    update_vectors(data.Xct, data.Xt, pool, base, sq, m2, r2, delta, plan.n_add[b], touch)
    update_panels(pool.G[base], G, sq, m2, r2, Lv, Rv, 0, n, predict,
                  eps, g_sk, data.Xc, cols, folds, pred, unc, seeds, use_numpy_blas)


@kernel()
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


@kernel(parallel=True)
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
        Group ``g`` reads and writes ``seeds[g]`` (see :func:`.rows.predict_rows`).
    use_numpy_blas : bool
        :data:`.blas.USE_NUMPY_BLAS`.

    Returns
    -------
    pred : int64 (B, R)
    unc : bool (B, R)
        Rows the bound could not certify (for :func:`.sklearn_replay.exact_rows`).
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


@kernel(parallel=True)
def cv_predict_one(data, folds, pool, plan, n_chunks, seeds, use_numpy_blas):
    """Certified CV predictions of one mask (``plan`` of length 1), split over the threads.

    An update runs its panels (with their rows) in parallel; a matrix from scratch is one
    BLAS call, then its rows are split into ``n_chunks`` chunks (``seeds``: int64 (R, k + 2),
    see :func:`predict_rows`; the chunks own disjoint rows). Returns ``pred`` int64 (R,),
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
    g_sk = gamma_jit(cols.size + 2.0, U64)
    eps = plan.eps[0]
    base = plan.base[0]
    delta = plan.delta_flat[plan.delta_ptr[0]:plan.delta_ptr[1]]
    if base >= 0 and not (base == d and delta.size == 0):
        touch = plan.touch_flat[plan.touch_ptr[0]:plan.touch_ptr[1]]
        L = np.empty((delta.size, n), dtype=data.Xgt.dtype)
        Rm = np.empty((delta.size, n), dtype=data.Xgt.dtype)
        delta_operands(data.Xgt, delta, plan.n_add[0], L, Rm)
        update_vectors(data.Xct, data.Xt, pool, base, sq, m2, r2, delta, plan.n_add[0], touch)
        step = (n + n_chunks - 1) // n_chunks
        for c in nb.prange(n_chunks):
            update_panels(pool.G[base], G, sq, m2, r2, L, Rm, min(n, c * step),
                          min(n, (c + 1) * step), True, eps, g_sk, data.Xc, cols, folds, pred,
                          unc, seeds, use_numpy_blas)
    else:
        if base < 0:
            AT = np.empty((cols.size, n), dtype=data.Xgt.dtype)
            gram_scratch(data.Xgt, data.Xct, data.Xt, cols, AT, G, sq, m2, r2, use_numpy_blas)
        _rows_parallel(G, sq, m2, r2, eps, g_sk, data, cols, folds, n_chunks, pred, unc, seeds)
    n_unc = np.zeros(1, dtype=np.int64)
    n_unc[0] = unc.sum()
    return pred, unc, n_unc


@kernel(parallel=True)
def _rows_parallel(G, sq, m2, r2, eps, g_sk, data, cols, folds, n_chunks, pred, unc, seeds):
    R = folds.row_q.size
    step = (R + n_chunks - 1) // n_chunks
    for c in nb.prange(n_chunks):
        lo = c * step
        hi = min(R, lo + step)
        if lo < hi:
            predict_rows(G, sq, m2, r2, eps, g_sk, data.Xc, cols, folds, folds.all_rows[lo:hi],
                         pred, unc, seeds)
