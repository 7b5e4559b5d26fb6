"""Certified KNN votes of CV rows from a mask's Gram matrix (:func:`predict_rows`).

Every path that has a Gram matrix (a batch, one mask, a panel of an incremental update)
predicts its rows here; the vote of a row that the cheap test leaves open goes to
:func:`.certify.certify`.
"""

import numpy as np

from .bounds import U64, gamma_jit
from .certify import argmax_first, certify, insert, pair_bound
from .jit import kernel

# columns per block of :func:`gate_blocks` (a constant: its count loop vectorises), and the
# row length from which the scan of predict_rows uses it (mfeat's PSO run: 2.1-2.3 to 1.7-1.9 s
# of row predictions; on musk1's rows of 333 the counts cost more than they save)
GATE_BLOCK = 64
GATE_BLOCKED = 1024


@kernel()
def gate_blocks(e, gate, ids):
    """Indices j with ``e[j] < gate`` into ``ids`` (increasing); returns their count. Blocks
    of :data:`GATE_BLOCK` entries with none under the gate (a vectorised count) are skipped:
    on long rows with a tight gate most are."""
    n = e.size
    c = 0
    nfull = n - n % GATE_BLOCK
    for j0 in range(0, nfull, GATE_BLOCK):
        below = 0
        for j in range(j0, j0 + GATE_BLOCK):
            below += e[j] < gate
        if below == 0:
            continue
        for j in range(j0, j0 + GATE_BLOCK):
            ids[c] = j
            c += e[j] < gate
    for j in range(nfull, n):
        ids[c] = j
        c += e[j] < gate
    return c


@kernel()
def predict_rows(G, sq, m2, r2, eps, g_sk, Xc, cols, folds, rows, pred, unc, seeds):
    """Certified KNN votes of the listed rows from the Gram matrix ``G`` of centred data.

    Each row's reduced distances ``e_j = sq_j - 2 G_qj`` (``+inf`` outside the fold's training
    part) are written to a scratch row by a vectorisable loop, then scanned for the k + 1
    smallest; the squared distance is ``d_j = sq_q + e_j``. ``pred[r]`` gets the vote; ``unc[r]``
    is True where the vote could differ from scikit-learn's (for
    :func:`.sklearn_replay.exact_fold_rows`).

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
    :func:`certify` looks at every candidate with its own ``E_qj`` (tight where row norms differ
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

    **The band's candidates.** A row the cheap test leaves open goes to :func:`certify` with
    the candidates whose distance is at most ``thr = (d_(k+1) + 1.5 e2)(1 + 1e-9)``
    (``d_(k+1)`` its (k+1)-th nearest, ``e2`` twice its largest pair bound), not with every
    candidate of its fold; each kept one's own bound costs two square roots. This changes no
    outcome: every pair bound is at most ``e2 / 2``, so the (k+1)-th smallest lower bound
    ``T_L`` and the k-th smallest upper bound ``T_U`` are at most ``d_(k+1) + e2 / 2`` (the
    k + 1 nearest alone reach them), and a candidate past ``thr`` has a lower bound above that
    (with a relative margin of 1e-9 against rounding): it is neither surely in nor in the band,
    adds nothing to the vote and is not re-measured. On gas6 (1,610 training rows, 64 of 128
    features, float32) most rows are left open by float32's band, and the pass over every
    candidate, with two square roots each, made float32 batches half as fast as float64 ones.
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
    e_ours = eps + 8.0 * U64
    e64 = gamma_jit(cols.size + 4.0, U64)
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
        if n >= GATE_BLOCKED:
            c = gate_blocks(e, gate, ids)
        else:
            c = 0
            for j in range(n):
                ids[c] = j
                c += e[j] < gate
        cnt = 0
        for p in range(c):
            j = ids[p]
            if e[j] < gate:
                cnt = insert(bd, bi, cnt, K, e[j], j)
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
        e2 = 2.0 * pair_bound(e_ours, g_sk, mq, m_max, aq, a_max)
        t = sq_q + bd[k - 1]
        if cnt < K or sq_q + bd[k] > t + e2:
            for i in range(k):
                counts[y[bi[i]]] += 1
        else:
            # only candidates within reach of the k nearest (Notes, "The band's candidates")
            thr = (sq_q + bd[k] + 1.5 * e2) * (1.0 + 1e-9)
            c = 0
            for j in range(n):
                d = sq_q + e[j]
                if cf[j] and d <= thr:
                    b = pair_bound(e_ours, g_sk, mq, np.sqrt(m2[j]), aq, np.sqrt(r2[j]))
                    Lb[c] = d - b
                    Ub[c] = d + b
                    lab[c] = y[j]
                    ids[c] = j
                    c += 1
            ok, t_u = certify(Lb, Ub, lab, c, k, counts, tmp)
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
                        b = pair_bound(e64, g_sk, mq, np.sqrt(m2[j]), aq, np.sqrt(r2[j]))
                        Lb[c2] = s - b
                        Ub[c2] = s + b
                        lab[c2] = lab[p]
                        c2 += 1
                counts[:] = 0
                ok, t_u = certify(Lb, Ub, lab, c2, k, counts, tmp)
            unc[r] = not ok
        pred[r] = argmax_first(counts)
