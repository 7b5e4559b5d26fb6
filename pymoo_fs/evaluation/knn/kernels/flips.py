"""Single-feature flips of one mask, each answered from the mask's Gram matrix.

:func:`flip_tables` sorts each row's nearest candidates once and finds its *determined
window* (leading candidates whose label vote no choice of k of them can change);
:func:`flip_predict` answers every flip of the listed features from them, O(n^2) per flip at
worst and usually far less: a row whose k nearest stay inside its window after the flip is
answered without a scan (the move of sequential forward/backward selection and of local
searches).
"""

import numba as nb
import numpy as np

from .bounds import U64, gamma_jit
from .certify import argmax_first, certify, insert, pair_bound
from .jit import kernel


#: no seed for :func:`flip_tables`: every row's prefix is built from its candidates alone
NO_SEED = np.zeros((0, 0), dtype=np.int64)


@kernel(parallel=True)
def flip_tables(G, sq, folds, L, n_chunks, seed):
    """Each row's ``L`` nearest candidates in order, from a mask's Gram matrix ``G``.

    Each row keeps its ``L`` nearest candidates by insertion into a sorted list, ordered by
    (distance, index): equal distances in index order, and where equal distances straddle the
    ``L``-th place the smaller indices are kept. It then finds its determined window in them
    (:func:`_determined_window`); rows are split into ``n_chunks`` chunks over the threads.

    **Seeding.** The prefix is the ``L`` smallest (distance, index) pairs, whatever the order
    in which the candidates are inserted. With a ``seed`` (the ``order`` of an earlier call on
    the same folds, typically a mask differing by a feature or two), each row first inserts
    the candidates of its seed row, then scans all its candidates, skipping those: the list is
    then nearly full of near candidates from the start, so few later candidates pass the
    insertion test (each insertion shifts up to ``L`` entries; on isolet's training part, 1,092
    rows, most of a table's time without a seed). The result is the same with any seed, or
    none, bit for bit.

    Parameters
    ----------
    G : float64 (n, n)
        The base mask's Gram matrix (of the centred data).
    sq : float64 (n,)
        Its diagonal.
    folds : Folds
        The kernels' fold layout (``R`` rows).
    L : int
        Entries kept per row.
    n_chunks : int
        Chunks of rows over the threads.
    seed : int64 (R, Ls) or (0, 0)
        Candidates to insert first, per row, ``-1`` ending a row's list early (an earlier
        call's ``order``); any other number of rows than ``R`` (:data:`NO_SEED`) seeds
        nothing. Entries that are not candidates of the row, out of range or repeated are
        skipped.

    Returns
    -------
    order : int64 (R, L)
        The nearest candidates of each row by increasing base distance, padded with -1.
    dist : float64 (R, L)
        Their base squared distances, padded with +inf.
    complete : bool (R,)
        True when ``order`` holds all of the row's candidates.
    det_lab : int64 (R,)
        The label of the row's *determined window*, -1 when it has none (see
        :func:`_determined_window`).
    det_w : int64 (R,)
        The window's length (entries of ``order``).
    det_d : float64 (R,)
        A lower bound of the base distance of every candidate outside that window (+inf when
        the window holds all of the row's candidates).
    """
    n = G.shape[0]
    R = folds.row_q.size
    order = np.full((R, L), -1, dtype=np.int64)
    dist = np.full((R, L), np.inf)
    complete = np.empty(R, dtype=np.bool_)
    det_lab = np.empty(R, dtype=np.int64)
    det_w = np.zeros(R, dtype=np.int64)
    det_d = np.empty(R)
    seeded = seed.shape[0] == R and R > 0
    step = (R + n_chunks - 1) // n_chunks
    for chunk in nb.prange(n_chunks):
        counts = np.zeros(folds.n_classes, dtype=np.int64)
        seen = np.zeros(n if seeded else 0, dtype=np.bool_)
        for r in range(chunk * step, min(R, (chunk + 1) * step)):
            q = folds.row_q[r]
            cf = folds.cand[folds.row_f[r]]
            ds = dist[r]
            ids = order[r]
            cnt = 0
            n_cand = 0
            # the L-th entry once the list is full; a candidate enters when (v, j) < it
            worst = np.inf
            worst_j = n
            n_seed = 0
            if seeded:
                for p in range(seed.shape[1]):
                    j = seed[r, p]
                    if j < 0 or j >= n:
                        break
                    n_seed = p + 1
                    if not cf[j] or seen[j]:
                        continue
                    seen[j] = True
                    cnt, worst, worst_j = _offer(G, sq, q, j, ds, ids, cnt, L, worst, worst_j)
            for j in range(n):
                if cf[j]:
                    n_cand += 1
                    if seeded and seen[j]:
                        continue
                    cnt, worst, worst_j = _offer(G, sq, q, j, ds, ids, cnt, L, worst, worst_j)
            for p in range(n_seed):
                seen[seed[r, p]] = False
            complete[r] = n_cand <= L
            det_lab[r], det_w[r], det_d[r] = _determined_window(
                ids, ds, min(n_cand, L), n_cand <= L, folds.y, folds.k, counts)
    return order, dist, complete, det_lab, det_w, det_d


@kernel(inline="always")
def _offer(G, sq, q, j, ds, ids, cnt, L, worst, worst_j):
    """Offer candidate ``j`` to row ``q``'s sorted list ``(ds, ids)`` of length ``cnt``.

    Its base squared distance (clipped at 0) enters when the list is not full or the pair
    ``(distance, j)`` is smaller than the last entry ``(worst, worst_j)``; returns the new
    length and last entry (``worst`` stays +inf until the list holds ``L``)."""
    v = sq[q] + sq[j] - 2.0 * G[q, j]
    v = v if v > 0.0 else 0.0
    if v < worst or (v == worst and j < worst_j):
        cnt = _insert_pair(ds, ids, cnt, L, v, j)
        if cnt == L:
            worst = ds[L - 1]
            worst_j = ids[L - 1]
    return cnt, worst, worst_j


@kernel(inline="always")
def _insert_pair(ds, ids, cnt, L, v, j):
    """Insert ``(v, j)`` into the list ``(ds, ids)`` of length ``cnt`` sorted by (distance,
    index), dropping its last entry when it holds ``L``; the new length. Callers test that
    ``(v, j)`` is smaller than the last entry of a full list."""
    if cnt == L:
        p = L - 1
    else:
        p = cnt
        cnt += 1
    while p > 0 and (v < ds[p - 1] or (v == ds[p - 1] and j < ids[p - 1])):
        ds[p] = ds[p - 1]
        ids[p] = ids[p - 1]
        p -= 1
    ds[p] = v
    ids[p] = j
    return cnt


@kernel()
def _determined_window(ids, ds, m, whole, y, k, counts):
    """The determined window of one row's sorted prefix ``ids[:m]`` (base distances ``ds``).

    The window is the longest run of leading entries, at least ``k`` of them, in which one
    label ``c`` holds so many that whichever ``k`` of them vote, ``c`` gets more votes than
    any other label: with ``o`` entries of other labels in the window, ``k - o > o``. If a
    flip leaves every candidate that can be among the row's k nearest inside the window, the
    vote is ``c`` (see :func:`flip_predict`).

    Parameters
    ----------
    ids : int64 (L,)
        The row's prefix, by increasing base distance.
    ds : float64 (L,)
        Its base squared distances.
    m : int
        Valid entries (the row's candidates, at most ``L``).
    whole : bool
        True when the prefix holds all of the row's candidates.
    y : int64 (n,)
        Encoded labels.
    k : int
        Neighbours voting.
    counts : int64 (n_classes,)
        Scratch.

    Returns
    -------
    label : int
        ``c``, or -1 when the first ``k`` entries are not determined (or there are fewer).
    w : int
        The window's length (0 without one).
    bound : float
        A lower bound of the base distance of every candidate outside the window: the first
        one's distance, ``ds[L - 1]`` when the window runs to the end of an incomplete prefix
        (candidates beyond it are at least that far), +inf when it holds every candidate.
    """
    if m < k:
        return -1, 0, np.inf
    counts[:] = 0
    top = 0
    label = -1
    w = 0
    while w < m:
        c = y[ids[w]]
        counts[c] += 1
        top_w = max(top, counts[c])
        if k <= 2 * (w + 1 - top_w):
            break  # the entry at w breaks it (and every longer window)
        if counts[c] > top:
            label = c
        top = top_w
        w += 1
    # w entries form the window (the one at w, if any, broke it)
    if w < k:
        return -1, 0, np.inf
    if w < m:
        return label, w, ds[w]
    return label, w, (np.inf if whole else ds[ids.size - 1])


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
                 det_lab, det_w, det_d, n_chunks):
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

    **Determined rows.** Before any scan, a row whose vote the flip cannot change is answered
    in O(1) from its determined window (:func:`_determined_window`: the leading prefix
    entries, at least k, in which one label ``c`` outnumbers the others so that any k of them
    vote ``c``; ``det_d`` bounds the base distance of every candidate outside it). With ``T``
    the base distance of the row's k-th nearest and ``s`` its largest squared difference on
    the flipped feature, the k nearest candidates of the base are, after the flip, at most
    ``T + s`` (adding) or ``T`` (removing) in our arithmetic, so scikit-learn's k-th nearest
    distance is at most that plus ``e2 / 2``; a candidate outside the window is at least
    ``det_d`` (adding) or ``det_d - s`` (removing) in ours, at least that minus ``e2 / 2`` in
    scikit-learn's. When that exceeds the former, each of scikit-learn's k nearest (ties
    broken in any order) lies in the window and the vote is ``c``: scikit-learn's vote, which
    the scan certifies or leaves to the exact path. Rounding is monotone, so the computed
    ``T + s`` bounds every computed flipped distance of those k. Where this O(1) test fails,
    :func:`_window_holds` computes the k flipped distances themselves (``T`` exactly) and
    checks the entries past the window one by one until their lower bound passes. The tests
    use the largest pair bound of any row for ``e2`` (no square root per row); a row that is
    scanned takes its own. On isolet's training part (1,092 rows, KNN-5, 10 folds) with 200
    of 617 features, 60 % of the rows of an addition or a removal are answered by the O(1)
    test, 28 % more by :func:`_window_holds`, 12 % are scanned (most of them rows without a
    window).

    Parameters
    ----------
    G, sq, m2, r2, eps
        The base mask's Gram matrix, diagonal, union norms and error coefficient.
    cols : int64 (m,)
        Selected columns of the base mask, increasing.
    features : int64 (F,)
        Features to flip.
    order, dist, complete, det_lab, det_w, det_d
        From :func:`flip_tables` (``det_lab`` all -1 answers no row from its window: every
        row is scanned).
    n_chunks : int
        Features are split into this many chunks over the threads (each allocates its
        scratch arrays once).

    Returns
    -------
    pred : int64 (F, R)
    unc : bool (F, R)
    n_unc : int64 (F,)
    reach : int64 (6,)
        How far the removals' rows reached into their prefixes: rows of removals, those whose
        scan went past half of the prefix (or past all of it), those rescanned past the prefix;
        then the same three for the additions' rows (for the evaluator's choice of ``L``; see
        :meth:`~pymoo_fs.evaluation.knn.evaluator.KNNEvaluator._compute_flips`).
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
    reach = np.zeros((n_chunks, 6), dtype=np.int64)
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
                m_max = max(m_max, m2[j] + (xc[j] * xc[j] if add else 0.0))
                a_max = max(a_max, r2[j] + (x[j] * x[j] if add else 0.0))
            # the square roots of the largest squared norms are the largest norms, bit for bit
            # (sqrt is monotone and correctly rounded); a row's own norms are taken where it
            # is scanned, a candidate's where certify needs them
            m_max = np.sqrt(m_max)
            a_max = np.sqrt(a_max)
            m_new = cols.size + (1 if add else -1)
            g_sk = gamma_jit(m_new + 2.0, U64)
            sign = 1.0 if add else -1.0
            # the largest pair bound of any row (the determined windows' tests)
            e2_all = 2.0 * pair_bound(e_ours, g_sk, m_max, m_max, a_max, a_max)
            for r in range(R):
                q = folds.row_q[r]
                xq = x[q]
                s_f = max((xq - lo_f) ** 2, (hi_f - xq) ** 2)
                shrink = 0.0 if add else s_f
                if det_lab[r] >= 0:
                    # the determined window (Notes): O(1) where the flip cannot change the
                    # vote, else O(k) and a short look past the window
                    if add:
                        settled = det_d[r] > (dist[r, k - 1] + s_f) + e2_all
                    else:
                        settled = det_d[r] - s_f > dist[r, k - 1] + e2_all
                    if settled or _window_holds(dist[r], order[r], det_w[r], complete[r], x,
                                                xq, sign, shrink, k, e2_all):
                        pred[t, r] = det_lab[r]
                        continue
                mfq = np.sqrt(m2[q] + (xc[q] * xc[q] if add else 0.0))
                afq = np.sqrt(r2[q] + (xq * xq if add else 0.0))
                e2 = 2.0 * pair_bound(e_ours, g_sk, mfq, m_max, afq, a_max)
                ids = order[r]
                ds = dist[r]
                length = Lp
                cnt, stop, worst = _flip_scan(ds, ids, Lp, x, xq, sign, shrink, e2, bd, bi, K)
                if 2 * stop > Lp:
                    reach[ch, 1 + 3 * add] += 1
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
                        mfj = np.sqrt(m2[j] + (xc[j] * xc[j] if add else 0.0))
                        afj = np.sqrt(r2[j] + (x[j] * x[j] if add else 0.0))
                        b = pair_bound(e_ours, g_sk, mfq, mfj, afq, afj)
                        Lb[c] = dd - b
                        Ub[c] = dd + b
                        lab[c] = y[j]
                        c += dd - b <= top
                    ok, t_u = certify(Lb, Ub, lab, c, k, counts, tmp)
                    unc[t, r] = not ok
                    n_unc[t] += not ok
                pred[t, r] = argmax_first(counts)
            reach[ch, 3 * add] += R
            reach[ch, 2 + 3 * add] += n_rescans
    return pred, unc, n_unc, reach.sum(axis=0)


@kernel()
def _window_holds(ds, ids, w, whole, x, xq, sign, shrink, k, e2):
    """Whether every candidate that can be among a row's k nearest after the flip lies in its
    determined window (the first ``w`` entries of its prefix ``ids``, base distances ``ds``).

    ``T``, the largest flipped distance of the prefix's first ``k`` entries, bounds
    scikit-learn's k-th nearest distance by ``T + e2 / 2``, so a candidate can be among its k
    nearest only if our flipped distance is at most ``T + e2``. The entries past the window
    are checked in order until their lower bound ``ds[p] - shrink`` exceeds ``T + e2`` (all
    later ones too: ``ds`` increases, and candidates beyond the prefix are at least
    ``ds[-1]``); running off an incomplete prefix answers False.
    """
    T = 0.0
    for p in range(k):
        diff = xq - x[ids[p]]
        d = ds[p] + sign * (diff * diff)
        T = max(T, d)
    lim = T + e2
    for p in range(w, ids.size):
        db = ds[p]
        if db == np.inf or db - shrink > lim:
            return True
        diff = xq - x[ids[p]]
        d = db + sign * (diff * diff)
        if d <= lim:
            return False
    return whole


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
