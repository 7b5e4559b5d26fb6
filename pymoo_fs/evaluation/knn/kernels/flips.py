"""Single-feature flips of one mask, each answered from the mask's Gram matrix.

:func:`flip_tables` sorts each row's nearest candidates once; :func:`flip_predict` answers
every flip of the listed features from them, O(n^2) per flip at worst and usually far less
(the move of sequential forward/backward selection and of local searches).
"""

import numba as nb
import numpy as np

from .bounds import U64, gamma_jit
from .certify import argmax_first, certify, insert, pair_bound
from .jit import kernel


@kernel(parallel=True)
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
                        cnt = insert(ds, ids, cnt, L, v, j)
                        if cnt == L:
                            worst = ds[L - 1]
            complete[r] = n_cand <= L
    return order, dist, complete


@kernel()
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
WINDOW_AFTER = 8


@kernel()
def _norm_order(aS2, x, nu, perm, nus):
    """``nu`` = the rows' norms without the feature ``x``, ``perm`` their increasing order and
    ``nus = nu[perm]``, in place."""
    for j in range(nu.size):
        v = aS2[j] - x[j] * x[j]
        nu[j] = np.sqrt(v) if v > 0.0 else 0.0
    perm[:] = np.argsort(nu)
    for p in range(nu.size):
        nus[p] = nu[perm[p]]


@kernel(parallel=True)
def flip_predict(data, folds, G, sq, m2, r2, eps, cols, features, order, dist, complete,
                 n_chunks):
    """Certified (and where needed exact) CV predictions of the masks obtained by flipping
    each listed feature of the mask with selected columns ``cols``.

    Flipping feature ``f`` changes every squared distance by ``+-(x_f[i] - x_f[j])^2``. Each
    row scans its candidates by increasing base distance and stops once no unseen candidate
    can enter the k + 1 nearest or the rounding band: when adding, distances only grow, so the
    base distance bounds them from below; when removing, they shrink by at most the row's
    largest squared difference on ``f``. A row whose scan runs past its sorted prefix is
    rescanned over all its candidates. Rows the cheap test leaves open go to
    :func:`.certify.certify` with the scanned candidates whose lower bound is at most
    ``worst + E/2`` (``worst`` the (k+1)-th smallest flipped distance, ``E`` twice the row's
    largest pair bound, so every other candidate's lower bound exceeds every kept one's upper
    bound: surely out); those it cannot certify are flagged in ``unc`` (for
    :func:`.sklearn_replay.exact_rows` with the flipped masks).

    **The norm window of removals.** When removing ``f`` the row's shrink bound is loose where
    ``f`` spans a range much wider than the row's neighbour distances: on the heavy-tailed
    reproduction 87 % of a removal's rows ran past their prefix (0 % of an addition's, 1.4 %
    on sonar). With ``nu_j`` the norm of row j over the base columns without ``f``, the
    triangle inequality gives a flipped distance of at least ``(nu_j - nu_q)^2``, and a
    candidate's lower bound is at least that minus ``E``; so only candidates with
    ``|nu_j - nu_q| <= sqrt(worst + 1.5 E)`` (widened by the rounding of ``nu``) can matter,
    ``worst`` being the prefix's (k+1)-th best. After :data:`WINDOW_AFTER` full rescans of
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
    e_ours = eps + gamma_jit(4.0, U64) + 8.0 * U64
    # squared raw norms over the base mask's columns, for the norm window of removals (Notes)
    aS2 = np.zeros(n)
    for c in range(cols.size):
        xs = data.Xt[cols[c]]
        for j in range(n):
            aS2[j] += xs[j] * xs[j]
    tol_nu = 2.0 * np.sqrt(gamma_jit(cols.size + 4.0, U64) * aS2.max()) if n else 0.0
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
            g_sk = gamma_jit(m_new + 2.0, U64)
            sign = 1.0 if add else -1.0
            for r in range(R):
                q = folds.row_q[r]
                xq = x[q]
                e2 = 2.0 * pair_bound(e_ours, g_sk, mf[q], m_max, af[q], a_max)
                shrink = 0.0 if add else max((xq - lo_f) ** 2, (hi_f - xq) ** 2)
                ids = order[r]
                ds = dist[r]
                length = Lp
                cnt, stop, worst = _flip_scan(ds, ids, Lp, x, xq, sign, shrink, e2, bd, bi, K)
                if stop == Lp and not complete[r] and ds[Lp - 1] - shrink <= worst + e2:
                    # the prefix did not settle the row: scan all its candidates, or when
                    # removing those in the norm window
                    n_rescans += 1
                    if add or n_rescans <= WINDOW_AFTER:
                        seq = everyone
                    else:
                        if n_rescans == WINDOW_AFTER + 1:
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
                    # one's upper bound) is surely out: only the others go to certify
                    top = worst + 0.5 * e2
                    c = 0
                    for p in range(stop):
                        j = ids[p]
                        diff = xq - x[j]
                        dd = ds[p] + sign * (diff * diff)
                        dd = dd if dd > 0.0 else 0.0
                        b = pair_bound(e_ours, g_sk, mf[q], mf[j], af[q], af[j])
                        Lb[c] = dd - b
                        Ub[c] = dd + b
                        lab[c] = y[j]
                        c += dd - b <= top
                    ok, t_u = certify(Lb, Ub, lab, c, k, counts, tmp)
                    unc[t, r] = not ok
                    n_unc[t] += not ok
                pred[t, r] = argmax_first(counts)
    return pred, unc, n_unc


@kernel()
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
            cnt = insert(bd, bi, cnt, K, d, j)
            if cnt == K:
                worst = bd[K - 1]
    return cnt, length, worst
