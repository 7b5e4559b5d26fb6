"""Gram matrices of masks: from scratch (:func:`gram_scratch`) or updated from a kept one
(:func:`update_panels`), with the row norms the certification bounds read.

The planner (:mod:`pymoo_fs.evaluation.knn.planner`) decides which; :mod:`.cv` runs it.
"""

from .blas import gemm_tn, gram_t
from .jit import kernel
from .rows import predict_rows

#: most rows per panel of an incremental update: a few hundred rows keep each GEMM efficient
#: (a panel of 32 repacked the right operand 40 times per matrix on mfeat: 15-20 % slower)
PANEL = 256


@kernel()
def gram_scratch(Xgt, Xct, Xt, cols, AT, G, sq, m2, r2, use_numpy_blas):
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


@kernel()
def delta_operands(Xgt, delta, n_add, L, R):
    """``L`` = the changed centred columns (transposed, in the precision of ``Xgt`` and of the
    Gram matrices), ``R`` = the same with removed ones negated, so that
    ``G_new = G_base + L^T R``."""
    for c in range(delta.size):
        L[c, :] = Xgt[delta[c], :]
        if c < n_add:
            R[c, :] = L[c, :]
        else:
            R[c, :] = -L[c, :]


@kernel()
def update_vectors(Xct, Xt, pool, base, dest_sq, dest_m2, dest_r2, delta, n_add, touch):
    """``sq``, ``m2`` and ``r2`` of an update (see :func:`update_panels`); may be in place.

    ``sq`` (the diagonal) is updated in float64 from the changed columns ``delta`` (the added
    ones first) whatever the precision of the matrices. ``m2`` and ``r2`` grow by the columns
    in ``touch`` that the base matrix never held: they bound the row norms over every feature
    the chain of updates touched (see Notes of :func:`predict_rows`).
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


@kernel()
def update_panels(Gb, G, sq, m2, r2, L, R, i_lo, i_hi, predict, eps, g_sk, Xc, cols, folds,
                  pred, unc, seeds, use_numpy_blas):
    """Rows ``[i_lo, i_hi)`` of ``G = Gb + L^T R`` (see :func:`delta_operands`), cost
    O(n^2 |delta|); ``G`` may be ``Gb`` itself (in place).

    The rows go in panels of at most :data:`PANEL`: each is copied from the base matrix (unless
    in place) and updated by one GEMM, and, with ``predict``, the rows of its samples are
    predicted right away (:func:`predict_rows`; ``sq``, ``m2``, ``r2`` must be complete).
    """
    n = G.shape[0]
    k = L.shape[0]
    same = Gb.ctypes.data == G.ctypes.data
    single = G.itemsize == 4
    for i0 in range(i_lo, i_hi, PANEL):
        i1 = min(i_hi, i0 + PANEL)
        if not same:
            for i in range(i0, i1):
                G[i, :] = Gb[i, :]
        if k > 0:
            gemm_tn(i1 - i0, n, k, 1.0, L[:, i0:].ctypes, n, R.ctypes, n, 1.0, G[i0:].ctypes, n,
                    single, use_numpy_blas)
        if predict:
            rows = folds.srow[folds.srow_ptr[i0]:folds.srow_ptr[i1]]
            predict_rows(G, sq, m2, r2, eps, g_sk, Xc, cols, folds, rows, pred, unc, seeds)
