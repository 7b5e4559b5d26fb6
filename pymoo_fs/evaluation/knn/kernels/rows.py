"""Certified KNN votes of CV rows from a mask's Gram matrix (:func:`predict_rows`).

Every path that has a Gram matrix (a batch, one mask, a panel of an incremental update)
predicts its rows here; the vote of a row that the cheap test leaves open goes to
:func:`.certify.certify`.
"""

import numpy as np

from .bounds import U64, gamma_jit
from .certify import argmax_first, certify, insert, pair_bound
from .jit import kernel

# residue groups of the group gate (:func:`fill_groups`; a constant: the loop over the groups
# vectorises), and the row length from which predict_rows uses it
GATE_GROUPS = 32
GATE_GROUPED = 1024


@kernel()
def fill_groups(sq, Gq, cf, e, gm):
    """A row's reduced distances ``e_j = sq_j - 2 Gq_j`` (``+inf`` where ``cf`` is False) and
    ``gm[g]``, the smallest ``e_j`` over ``j % GATE_GROUPS == g`` (``+inf`` for none).

    Groups by residue, not by contiguous blocks: each step updates the :data:`GATE_GROUPS`
    minima at once, a loop without a carried dependency (a block's own minimum is a chain of
    dependent comparisons, about four times slower on isolet's rows of 1,092).
    """
    n = e.size
    for g in range(GATE_GROUPS):
        gm[g] = np.inf
    nf = n - n % GATE_GROUPS
    for i0 in range(0, nf, GATE_GROUPS):
        for g in range(GATE_GROUPS):
            j = i0 + g
            v = sq[j] - 2.0 * Gq[j]
            v = v if cf[j] else np.inf
            e[j] = v
            gm[g] = v if v < gm[g] else gm[g]
    for j in range(nf, n):
        v = sq[j] - 2.0 * Gq[j]
        v = v if cf[j] else np.inf
        e[j] = v
        g = j - nf
        gm[g] = v if v < gm[g] else gm[g]


@kernel()
def kth_group_min(gm, K, tmp):
    """The K-th smallest of ``gm`` (:data:`GATE_GROUPS` values; ``+inf`` where K is larger
    than that), without branches: each value passes down the sorted ``tmp`` (K entries) by a
    min and a max per place (a branching insertion mispredicts on most of these values)."""
    for p in range(K):
        tmp[p] = np.inf
    for g in range(GATE_GROUPS):
        x = gm[g]
        for p in range(K):
            lo = min(tmp[p], x)
            x = max(tmp[p], x)
            tmp[p] = lo
    return tmp[K - 1]


@kernel()
def scan_groups(e, gm, gate, sel, bd, bi, K):
    """Insert every entry of ``e`` under ``gate`` into the sorted top-K lists ``bd``, ``bi``,
    in index order, the gate shrinking to the K-th kept once K are kept; returns how many are
    kept (at most K). Only the residue groups whose minimum ``gm`` is under the gate are
    visited (``sel``: scratch for :data:`GATE_GROUPS` group numbers); the lists are those of
    a scan of every entry in index order (strict ``<`` keeps the earlier of equal ones)."""
    n = e.size
    ns = 0
    for g in range(GATE_GROUPS):
        sel[ns] = g
        ns += gm[g] < gate
    cnt = 0
    for i0 in range(0, n, GATE_GROUPS):
        for s in range(ns):
            j = i0 + sel[s]
            if j < n and e[j] < gate:
                cnt = insert(bd, bi, cnt, K, e[j], j)
                if cnt == K:
                    gate = min(gate, bd[K - 1])
    return cnt


@kernel()
def band_groups(e, gm, sq_q, thr, sel, ids):
    """Indices j with ``sq_q + e[j] <= thr`` into ``ids``, increasing; returns their count.
    A residue group is skipped where ``sq_q + gm[g] > thr``: a rounded sum does not decrease
    as its operand grows, so then no member qualifies (``e`` and ``gm`` as from
    :func:`fill_groups`, ``+inf`` outside the fold; ``sel``: scratch for the groups)."""
    n = e.size
    ns = 0
    for g in range(GATE_GROUPS):
        sel[ns] = g
        ns += sq_q + gm[g] <= thr
    c = 0
    for i0 in range(0, n, GATE_GROUPS):
        for s in range(ns):
            j = i0 + sel[s]
            if j < n and sq_q + e[j] <= thr:
                ids[c] = j
                c += 1
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

    **The group gate.** Rows of at least :data:`GATE_GROUPED` entries split their candidates
    into :data:`GATE_GROUPS` groups by index residue (:func:`fill_groups`, in the same pass
    that writes ``e``). The K-th smallest group minimum is the reduced distance of one of K
    distinct candidates, so the row's (k+1)-th nearest is at most that far, and it tightens
    the gate as ``lim`` does; only groups whose minimum is under the gate are visited
    (:func:`scan_groups`), in index order, so the kept list is again that of the full scan.
    Where the seeds come from an unrelated mask (a batch of random masks), their gate lists
    about 126 of isolet's 1,092 candidates per row and this one about 6.4 (for K = 6 and 32
    groups, the expected count is about ``-32 ln(1 - K / 33)``). A row the cheap test leaves
    open lists its band's candidates from the groups within reach only
    (:func:`band_groups`). On batches of 30 random masks at 10 % of the features (one
    thread), the rows' part of a batch fell from 1.25 to 0.70 ms per mask on isolet, 1.8 to
    0.86 on mfeat and 2.9 to 1.48 on gas6 (``benchmarks/large_n.md``).

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
    gm = np.empty(GATE_GROUPS)
    sel = np.empty(GATE_GROUPS, dtype=np.int64)
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
        if n >= GATE_GROUPED:
            # the reduced distances and each residue group's minimum, then the gate from the
            # K-th smallest group minimum as well (Notes, "The group gate")
            fill_groups(sq, Gq, cf, e, gm)
        else:
            for j in range(n):
                v = sq[j] - 2.0 * Gq[j]
                e[j] = v if cf[j] else np.inf
        # gate = min(K-th best so far, the smallest float above lim): e < gate <=> both hold
        lim = np.inf
        if seeds[r, 0] >= 0:
            lim = e[seeds[r, 0]]
            for p in range(1, K):
                lim = max(lim, e[seeds[r, p]])
        if n >= GATE_GROUPED:
            lim = min(lim, kth_group_min(gm, K, tmp))
            gate = np.nextafter(lim, np.inf)
            cnt = scan_groups(e, gm, gate, sel, bd, bi, K)
        else:
            gate = np.nextafter(lim, np.inf)
            # branch-free list of the candidates under the gate (without seeds: every
            # candidate of the fold), then insert those only
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
            if n >= GATE_GROUPED:
                # the same candidates, listed from the groups within reach only
                c = band_groups(e, gm, sq_q, thr, sel, ids)
            else:
                c = 0  # (e is +inf outside the fold: never within reach)
                for j in range(n):
                    if sq_q + e[j] <= thr:
                        ids[c] = j
                        c += 1
            for p in range(c):
                j = ids[p]
                d = sq_q + e[j]
                b = pair_bound(e_ours, g_sk, mq, np.sqrt(m2[j]), aq, np.sqrt(r2[j]))
                Lb[p] = d - b
                Ub[p] = d + b
                lab[p] = y[j]
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
