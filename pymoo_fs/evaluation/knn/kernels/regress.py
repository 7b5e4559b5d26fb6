"""Certified neighbour lists of CV rows for KNN regression (:func:`regress_batch`).

A vote needs a row's k nearest as a *set*; a mean needs their targets *in scikit-learn's
order* (the floating-point sum depends on it). These kernels find each row's k + 1 nearest from
a mask's Gram matrix as the classification kernels do (:func:`.gram.gram_scratch`, the same
reduced distances ``e_j = sq_j - 2 G_qj``, :func:`.certify.insert`, :func:`.certify.pair_bound`:
the bound of :func:`.rows.predict_rows`) and certify a row when

* its set is sure: the (k+1)-th nearest is farther than the k-th by more than twice the row's
  largest pair bound ``e2`` (a row of a fold with only k training samples has no (k+1)-th), and
* its order is sure where it matters: every two consecutive neighbours are more than ``e2``
  apart or have the same target (then scikit-learn's order, by its own distances inside the
  bounds, carries the same targets in the same order), unless ``any_order`` (integer-valued
  targets whose sums of k are exact in any order: only the set matters; a row whose set the
  first test leaves open then takes the vote's band test, :func:`.certify.certify`, with the
  target codes as labels).

The caller (:class:`pymoo_fs.evaluation.knn.regression.RegressionRows`) averages the targets
of certified rows as scikit-learn does and settles the rest.
"""

import numba as nb
import numpy as np

from .bounds import U64, gamma_jit
from .certify import certify, insert, pair_bound
from .gram import gram_scratch
from .jit import kernel


@kernel()
def regress_rows(G, sq, m2, r2, eps, g_sk, folds, any_order, lo, hi, nbr, unc, u, s):
    """Each row ``r`` in ``lo:hi``: its k nearest training samples of its fold, in order of
    our distance (ties by index), into ``nbr[r]``, and ``unc[r]`` where they or their order
    could differ from scikit-learn's (see the module's notes).

    Parameters
    ----------
    G : float64 (n, n)
        Gram matrix of the mask's centred columns; ``sq`` its diagonal, ``m2``/``r2`` the
        squared centred and raw row norms over the mask's columns (:func:`.gram.gram_scratch`).
    eps, g_sk : float
        The matrix's error coefficient and scikit-learn's (``gamma_{|S|+2}``), as in
        :func:`.rows.predict_rows`.
    folds : Folds
        ``folds.y`` holds the target codes (equal codes: equal targets).
    any_order : bool
        Targets whose sums are exact in any order (only the set is tested).
    lo, hi : int
        The rows to do.
    nbr : int64 (R, k)
    unc : bool (R,)
    u, s : float64 (n,), float
        A one-column update of ``G``: the rows are those of ``G + s u u^T`` (a flip of the
        centred column ``u``: ``s = 1`` adds it, ``-1`` removes it; ``sq``, ``m2``, ``r2`` and
        ``eps`` are then the flipped mask's). ``s = 0``: ``G`` itself (``G_qj + 0`` is
        ``G_qj`` exactly).
    """
    n = G.shape[0]
    k = folds.k
    K = k + 1
    codes = folds.y
    bd = np.empty(K)
    bi = np.empty(K, dtype=np.int64)
    e = np.empty(n)
    Lb = np.empty(n)
    Ub = np.empty(n)
    lab = np.empty(n, dtype=np.int64)
    tmp = np.empty(K)
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    e_ours = eps + 8.0 * U64
    m_max = 0.0
    a_max = 0.0
    for j in range(n):
        m_max = max(m_max, np.sqrt(m2[j]))
        a_max = max(a_max, np.sqrt(r2[j]))
    for r in range(lo, hi):
        q = folds.row_q[r]
        Gq = G[q]
        cf = folds.cand[folds.row_f[r]]
        su = s * u[q]
        for j in range(n):
            v = sq[j] - 2.0 * (Gq[j] + su * u[j])
            e[j] = v if cf[j] else np.inf
        cnt = 0
        gate = np.inf
        for j in range(n):
            if e[j] < gate:
                cnt = insert(bd, bi, cnt, K, e[j], j)
                if cnt == K:
                    gate = bd[K - 1]
        for i in range(min(k, cnt)):
            nbr[r, i] = bi[i]
        sq_q = sq[q]
        e2 = 2.0 * pair_bound(e_ours, g_sk, np.sqrt(m2[q]), m_max, np.sqrt(r2[q]), a_max)
        ok = cnt >= k
        if ok and cnt == K:
            ok = sq_q + bd[k] > sq_q + bd[k - 1] + e2
            if not ok and any_order:
                # only the targets' multiset matters: the vote's band test with the target
                # codes as labels (the band straddling the k-th place shares one target, or
                # holds exactly the missing places; then any choice of scikit-learn's carries
                # the targets of ours), over the candidates within reach, as predict_rows
                thr = (sq_q + bd[k] + 1.5 * e2) * (1.0 + 1e-9)
                mq = np.sqrt(m2[q])
                aq = np.sqrt(r2[q])
                c = 0
                for j in range(n):
                    d = sq_q + e[j]
                    if d <= thr:
                        b = pair_bound(e_ours, g_sk, mq, np.sqrt(m2[j]), aq, np.sqrt(r2[j]))
                        Lb[c] = d - b
                        Ub[c] = d + b
                        lab[c] = codes[j]
                        c += 1
                counts[:] = 0
                ok = certify(Lb, Ub, lab, c, k, counts, tmp)[0]
        if ok and not any_order:
            for i in range(k - 1):
                if codes[bi[i]] != codes[bi[i + 1]] and \
                        not sq_q + bd[i + 1] > sq_q + bd[i] + e2:
                    ok = False
                    break
        unc[r] = not ok


@kernel(parallel=True)
def regress_batch(data, folds, cols_flat, cols_ptr, eps, any_order, n_groups, use_numpy_blas):
    """Certified neighbour lists of every CV row of a batch of masks, each mask's Gram matrix
    from scratch, one thread per group of masks.

    Parameters
    ----------
    data : Data
        ``data.Xgt`` in float64.
    folds : Folds
        As in :func:`regress_rows`.
    cols_flat, cols_ptr : int64
        Selected columns of mask ``b``: ``cols_flat[cols_ptr[b]:cols_ptr[b + 1]]``.
    eps : float64 (B,)
        Error coefficient of each mask's matrix (:func:`.bounds.fresh_eps`).
    any_order : bool
    n_groups : int
        Masks are dealt to ``n_groups`` parallel groups.
    use_numpy_blas : bool

    Returns
    -------
    nbr : int64 (B, R, k)
        Each row's k nearest samples (indices into the data), in order of our distance.
    unc : bool (B, R)
        Rows whose neighbours or their order could differ from scikit-learn's.
    """
    n = data.X.shape[0]
    B = cols_ptr.size - 1
    R = folds.row_q.size
    nbr = np.zeros((B, R, folds.k), dtype=np.int64)
    unc = np.zeros((B, R), dtype=np.bool_)
    max_m = 1
    for b in range(B):
        max_m = max(max_m, cols_ptr[b + 1] - cols_ptr[b])
    for g in nb.prange(n_groups):
        AT = np.empty(n * max_m)
        G = np.empty((n, n))
        sq = np.empty(n)
        m2 = np.empty(n)
        r2 = np.empty(n)
        for b in range(g, B, n_groups):
            cols = cols_flat[cols_ptr[b]:cols_ptr[b + 1]]
            gram_scratch(data.Xgt, data.Xct, data.Xt, cols,
                         AT[: n * cols.size].reshape((cols.size, n)), G, sq, m2, r2,
                         use_numpy_blas)
            regress_rows(G, sq, m2, r2, eps[b], gamma_jit(cols.size + 2.0, U64), folds,
                         any_order, 0, R, nbr[b], unc[b], sq, 0.0)
    return nbr, unc


@kernel()
def _mask_gram(data, cols, use_numpy_blas):
    """One mask's Gram matrix from scratch, its diagonal and row norms
    (:func:`.gram.gram_scratch`), in new arrays."""
    n = data.X.shape[0]
    AT = np.empty((cols.size, n))
    G = np.empty((n, n))
    sq = np.empty(n)
    m2 = np.empty(n)
    r2 = np.empty(n)
    gram_scratch(data.Xgt, data.Xct, data.Xt, cols, AT, G, sq, m2, r2, use_numpy_blas)
    return G, sq, m2, r2


@kernel(parallel=True)
def regress_one(data, folds, cols, eps, any_order, n_chunks, use_numpy_blas):
    """:func:`regress_batch` of one mask (columns ``cols``), its rows split into ``n_chunks``
    parallel chunks. Returns ``nbr`` int64 (R, k) and ``unc`` bool (R,)."""
    R = folds.row_q.size
    nbr = np.zeros((R, folds.k), dtype=np.int64)
    unc = np.zeros(R, dtype=np.bool_)
    G, sq, m2, r2 = _mask_gram(data, cols, use_numpy_blas)
    g_sk = gamma_jit(cols.size + 2.0, U64)
    step = (R + n_chunks - 1) // n_chunks
    for c in nb.prange(n_chunks):
        lo = min(R, c * step)
        hi = min(R, lo + step)
        regress_rows(G, sq, m2, r2, eps, g_sk, folds, any_order, lo, hi, nbr, unc, sq, 0.0)
    return nbr, unc


@kernel(parallel=True)
def regress_flips(data, folds, cols, feats, eps, eps_flip, any_order, n_threads,
                  use_numpy_blas):
    """Certified neighbour lists of every CV row of each one-feature flip of a mask, from the
    mask's Gram matrix.

    Flipping feature ``f`` (centred column ``u``) turns the Gram matrix ``G`` into
    ``G + s u u^T`` (``s = 1`` adds ``f``, ``-1`` removes it) and the diagonal into
    ``sq + s u^2`` (in float64, as :func:`.gram.update_vectors`), so each flip's rows cost
    O(n) each (:func:`regress_rows` with the update) instead of a new matrix. The bound: the
    flipped entries err by at most the base matrix's ``eps`` plus :func:`.bounds.update_eps`
    of one column (``eps_flip``), relative to the norms over the base's columns and ``f``
    (for a removal the base's norms, a superset).

    Parameters
    ----------
    data : Data
        ``data.Xgt`` in float64.
    folds : Folds
    cols : int64 (m,)
        The base mask's columns (``m >= 1``).
    feats : int64 (F,)
        The flipped features (none of which empties the mask).
    eps, eps_flip : float
        The base matrix's error coefficient, and that of a flipped one.
    any_order : bool
    n_threads : int
        The flips are dealt to this many parallel groups.
    use_numpy_blas : bool

    Returns
    -------
    nbr : int64 (F, R, k)
    unc : bool (F, R)
        As :func:`regress_batch` returns them for the flipped masks.
    """
    n = data.X.shape[0]
    R = folds.row_q.size
    F = feats.size
    nbr = np.zeros((F, R, folds.k), dtype=np.int64)
    unc = np.zeros((F, R), dtype=np.bool_)
    G, sq, m2, r2 = _mask_gram(data, cols, use_numpy_blas)
    inside = np.zeros(data.Xt.shape[0], dtype=np.bool_)
    for c in range(cols.size):
        inside[cols[c]] = True
    for g in nb.prange(n_threads):
        sq_f = np.empty(n)
        m2_f = np.empty(n)
        r2_f = np.empty(n)
        for i in range(g, F, n_threads):
            f = feats[i]
            u = data.Xgt[f]
            x = data.Xt[f]
            s = -1.0 if inside[f] else 1.0
            m = cols.size - 1 if inside[f] else cols.size + 1
            for j in range(n):
                sq_f[j] = sq[j] + s * (u[j] * u[j])
                m2_f[j] = m2[j] if inside[f] else m2[j] + u[j] * u[j]
                r2_f[j] = r2[j] if inside[f] else r2[j] + x[j] * x[j]
            regress_rows(G, sq_f, m2_f, r2_f, eps + eps_flip,
                         gamma_jit(m + 2.0, U64), folds, any_order, 0, R, nbr[i], unc[i], u, s)
    return nbr, unc
