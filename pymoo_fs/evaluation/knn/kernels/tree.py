"""Small subsets by tree: exact CV predictions of masks of at most 15 features, without a Gram
matrix.

For at most 15 selected features (and ``k < n_train // 2`` in every fold) scikit-learn's
``KNeighborsClassifier(algorithm="auto")`` takes a kd-tree. Its distances are plain sums of
squared differences in feature order; they are computed here bit for bit (as
:func:`.sklearn_replay._kd_row` and :func:`.sklearn_replay.kd_query` compute them), so a
row's k nearest are known exactly as soon as its k + 1 nearest candidates are found, by any
exact search. The cost does not grow with n^2:

* **one feature**: the samples sorted by the feature (read from the column's ranks, made once
  per evaluator: O(n) per mask); a row's nearest candidates are met walking left and right
  from it, in increasing distance (the squared difference grows monotonically along each
  walk, in floating point too: rounding is monotone), O(k) per row;
* **2 to 15 features**: a kd-tree over all n samples per mask (:func:`.sklearn_replay.kd_build`
  with leaves of :data:`LEAF`, the points stored in tree order), searched per row for its
  k + 1 nearest *candidates*: the training part of the row's fold, every other sample being
  skipped, so one tree serves every fold. A node is skipped when its box's lower bound
  (scikit-learn's ``min_rdist``, never above the distance of a point inside: the same
  subtractions of larger or equal magnitude, rounded monotonically) is not below the current
  (k+1)-th distance.

The vote is then scikit-learn's, unless equal distances straddle the k-th place with
different labels (found by a second search of the distance ``t`` of the k-th place, which
stops at the second label): there the order in which scikit-learn's tree meets the tied
candidates decides, and only those rows are settled by replaying the fold's own tree
(:func:`.sklearn_replay.kd_settle`, built as scikit-learn builds it, queried as it queries,
stopping as soon as nothing can change). There is no rounding band: the distances are
scikit-learn's own. Where at least a tenth of the rows of a subset size are such ties
(discrete data; the replayed builds are cheap), the search costs more than it saves and every
row is replayed (``direct``, the cost model's choice,
:data:`pymoo_fs.evaluation.knn.paths.DIRECT_TIES`). The evaluator uses this path only where
the replay passed its self-check (:mod:`pymoo_fs.evaluation.knn.selfcheck`), and only where
its cost model says it is cheaper than the Gram matrix (:mod:`pymoo_fs.evaluation.knn.paths`).
"""

import numba as nb
import numpy as np

from .certify import argmax_first, insert
from .jit import kernel
from .sklearn_replay import _kd_min_rdist, gather_keys, kd_build, kd_settle

#: points per leaf of the search tree (scikit-learn's own trees, replayed for ties, keep its
#: leaf_size of 30)
LEAF = 16
#: scikit-learn's KNeighborsClassifier takes a kd-tree for at most this many features
MAX_FEATURES = 15


# ----------------------------------------------------------------- one feature: sorted order
@kernel()
def _sorted_prep(X, ranks, col):
    """The feature's values ``v``, their increasing order ``order`` (equal values by index),
    the sorted values ``vs`` and each sample's position ``pos`` in that order, read from the
    column's ranks (no sort per mask)."""
    n = X.shape[0]
    v = np.empty(n)
    order = np.empty(n, dtype=np.int64)
    pos = np.empty(n, dtype=np.int64)
    for i in range(n):
        v[i] = X[i, col]
        pos[i] = ranks[col, i]
        order[pos[i]] = i
    vs = np.empty(n)
    for p in range(n):
        vs[p] = v[order[p]]
    return v, vs, order, pos


@kernel()
def _sorted_rows(v, vs, order, pos, folds, r_lo, r_hi, pred, unc, tie_t, tie_n):
    """Votes of rows ``r_lo:r_hi`` of a one-feature mask (see the module docstring); rows
    whose k-th place is a tie of mixed labels are flagged in ``unc`` with their k-th distance
    and the count of strictly nearer candidates (``tie_t``, ``tie_n``)."""
    n = v.size
    k = folds.k
    K = k + 1
    y = folds.y
    bd = np.empty(K)
    bi = np.empty(K, dtype=np.int64)
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    for r in range(r_lo, r_hi):
        q = folds.row_q[r]
        cf = folds.cand[folds.row_f[r]]
        xq = v[q]
        left = pos[q] - 1
        right = pos[q] + 1
        while left >= 0 and not cf[order[left]]:
            left -= 1
        while right < n and not cf[order[right]]:
            right += 1
        cnt = 0
        while cnt < K and (left >= 0 or right < n):
            dl = np.inf
            dr = np.inf
            if left >= 0:
                t = xq - vs[left]
                dl = t * t
            if right < n:
                t = xq - vs[right]
                dr = t * t
            if dl <= dr:
                bd[cnt] = dl
                bi[cnt] = order[left]
                left -= 1
                while left >= 0 and not cf[order[left]]:
                    left -= 1
            else:
                bd[cnt] = dr
                bi[cnt] = order[right]
                right += 1
                while right < n and not cf[order[right]]:
                    right += 1
            cnt += 1
        counts[:] = 0
        t_k = bd[k - 1] if cnt >= k else np.inf
        if cnt < K or bd[k] > t_k:
            for i in range(min(k, cnt)):
                counts[y[bi[i]]] += 1
            pred[r] = argmax_first(counts)
            continue
        # equal distances straddle the k-th place: the labels of every candidate at t_k
        first = -1
        mixed = False
        n_lt = 0
        for i in range(K):
            if bd[i] < t_k:
                n_lt += 1
            elif first == -1:
                first = y[bi[i]]
            elif y[bi[i]] != first:
                mixed = True
        while not mixed:
            dl = np.inf
            dr = np.inf
            if left >= 0:
                t = xq - vs[left]
                dl = t * t
            if right < n:
                t = xq - vs[right]
                dr = t * t
            if dl <= dr and dl == t_k:
                mixed = y[order[left]] != first
                left -= 1
                while left >= 0 and not cf[order[left]]:
                    left -= 1
            elif dr < dl and dr == t_k:
                mixed = y[order[right]] != first
                right += 1
                while right < n and not cf[order[right]]:
                    right += 1
            else:
                break
        if mixed:
            unc[r] = True
            tie_t[r] = t_k
            tie_n[r] = n_lt
            continue
        for i in range(k):
            if bd[i] < t_k:
                counts[y[bi[i]]] += 1
        counts[first] += k - n_lt
        pred[r] = argmax_first(counts)


# ----------------------------------------------------------------- 2 to 15 features: kd-tree
@kernel()
def _tree_prep(X, ranks, cols):
    """The mask's columns ``P`` (n, m), the search tree over them
    (:func:`.sklearn_replay.kd_build` with :data:`LEAF`) and ``Pp``, the points in tree
    order."""
    n = X.shape[0]
    m = cols.size
    P = np.empty((n, m))
    for i in range(n):
        for c in range(m):
            P[i, c] = X[i, cols[c]]
    idx, start, end, leaf, lo, hi = kd_build(P, LEAF, gather_keys(X, ranks, cols,
                                                                  np.arange(n)))
    Pp = np.empty((n, m))
    for i in range(n):
        for c in range(m):
            Pp[i, c] = P[idx[i], c]
    return P, Pp, idx, start, end, leaf, lo, hi


@kernel()
def _search(Pp, idx, start, end, leaf, lo, hi, pt, cf, K, bd, bi, stack, lbs):
    """The K nearest candidates (``cf``) of ``pt``, by increasing distance into ``bd``,
    ``bi`` (sample indices); returns how many were found (K unless there are fewer) and how
    many distances were computed."""
    m = pt.size
    cnt = 0
    n_dist = 0
    worst = np.inf
    stack[0] = 0
    lbs[0] = _kd_min_rdist(lo, hi, 0, pt)
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if lbs[top] >= worst:
            continue
        if leaf[node]:
            for i in range(start[node], end[node]):
                j = idx[i]
                if cf[j]:
                    n_dist += 1
                    s = 0.0
                    for c in range(m):
                        t = pt[c] - Pp[i, c]
                        s += t * t
                    if s < worst:
                        cnt = insert(bd, bi, cnt, K, s, j)
                        if cnt == K:
                            worst = bd[K - 1]
            continue
        c1 = 2 * node + 1
        c2 = c1 + 1
        lb1 = _kd_min_rdist(lo, hi, c1, pt)
        lb2 = _kd_min_rdist(lo, hi, c2, pt)
        if lb1 <= lb2:  # the nearer child on top of the stack
            stack[top], lbs[top] = c2, lb2
            stack[top + 1], lbs[top + 1] = c1, lb1
        else:
            stack[top], lbs[top] = c1, lb1
            stack[top + 1], lbs[top + 1] = c2, lb2
        top += 2
    return cnt, n_dist


@kernel()
def _tie_mixed(Pp, idx, start, end, leaf, lo, hi, pt, cf, t_k, y, first, stack, lbs):
    """Whether some candidate at distance exactly ``t_k`` has a label other than ``first``
    (stops at the first one)."""
    m = pt.size
    stack[0] = 0
    lbs[0] = _kd_min_rdist(lo, hi, 0, pt)
    top = 1
    while top > 0:
        top -= 1
        node = stack[top]
        if lbs[top] > t_k:
            continue
        if leaf[node]:
            for i in range(start[node], end[node]):
                j = idx[i]
                if cf[j] and y[j] != first:
                    s = 0.0
                    for c in range(m):
                        t = pt[c] - Pp[i, c]
                        s += t * t
                    if s == t_k:
                        return True
            continue
        c1 = 2 * node + 1
        stack[top], lbs[top] = c1, _kd_min_rdist(lo, hi, c1, pt)
        stack[top + 1], lbs[top + 1] = c1 + 1, _kd_min_rdist(lo, hi, c1 + 1, pt)
        top += 2
    return False


@kernel()
def _point_keys(P, folds, r_lo, r_hi):
    """Rows ``r_lo:r_hi`` ordered by a hash of (fold, query point bits): rows of one fold with
    equal points (discrete data) come together."""
    keys = np.empty(r_hi - r_lo, dtype=np.int64)
    for r in range(r_lo, r_hi):
        bits = P[folds.row_q[r]].view(np.int64)
        h = np.int64(1469598103934665603) ^ folds.row_f[r]
        for c in range(bits.size):
            h = (h ^ bits[c]) * np.int64(1099511628211)
        keys[r - r_lo] = h
    return keys, np.argsort(keys)


@kernel()
def _tree_rows(P, Pp, idx, start, end, leaf, lo, hi, folds, r_lo, r_hi, pred, unc, tie_t,
               tie_n):
    """Votes of rows ``r_lo:r_hi`` of a mask of 2 to 15 features from its search tree; ties
    of mixed labels at the k-th place are flagged as in :func:`_sorted_rows`. A row whose fold
    and query point equal the previous row's (in the order of :func:`_point_keys`) takes its
    outcome: the search depends on nothing else. Returns the number of distances the searches
    computed."""
    k = folds.k
    K = k + 1
    y = folds.y
    m = P.shape[1]
    bd = np.empty(K)
    bi = np.empty(K, dtype=np.int64)
    stack = np.empty(2 * start.size + 2, dtype=np.int64)
    lbs = np.empty(2 * start.size + 2)
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    visits = 0
    keys, order = _point_keys(P, folds, r_lo, r_hi)
    prev = -1
    for i in range(r_hi - r_lo):
        r = r_lo + order[i]
        q = folds.row_q[r]
        if prev >= 0 and keys[order[i]] == keys[order[i - 1]] \
                and folds.row_f[r] == folds.row_f[prev]:
            same = True
            qp = folds.row_q[prev]
            for c in range(m):
                same = same and P[q, c] == P[qp, c]
            if same:
                pred[r] = pred[prev]
                unc[r] = unc[prev]
                tie_t[r] = tie_t[prev]
                tie_n[r] = tie_n[prev]
                continue
        prev = r
        cf = folds.cand[folds.row_f[r]]
        pt = P[q]
        cnt, n_dist = _search(Pp, idx, start, end, leaf, lo, hi, pt, cf, K, bd, bi, stack,
                              lbs)
        visits += n_dist
        counts[:] = 0
        t_k = bd[k - 1] if cnt >= k else np.inf
        if cnt < K or bd[k] > t_k:
            for j in range(min(k, cnt)):
                counts[y[bi[j]]] += 1
            pred[r] = argmax_first(counts)
            continue
        n_lt = 0
        first = -1
        for j in range(k):
            if bd[j] < t_k:
                n_lt += 1
            elif first == -1:
                first = y[bi[j]]
        if _tie_mixed(Pp, idx, start, end, leaf, lo, hi, pt, cf, t_k, y, first, stack, lbs):
            unc[r] = True
            tie_t[r] = t_k
            tie_n[r] = n_lt
            pred[r] = -1
            continue
        for j in range(k):
            if bd[j] < t_k:
                counts[y[bi[j]]] += 1
        counts[first] += k - n_lt
        pred[r] = argmax_first(counts)
    return visits


# ----------------------------------------------------------------- ties, masks, batches
@kernel()
def _settle_fold(X, ranks, cols, folds, f, pred, unc, tie_t, tie_n):
    """Rows of fold ``f`` flagged in ``unc``: replayed on the fold's own kd-tree; their
    count."""
    lo = folds.bounds[f]
    hi = folds.bounds[f + 1]
    n_open = 0
    for r in range(lo, hi):
        n_open += unc[r]
    if n_open:
        train = folds.train[folds.train_ptr[f]:folds.train_ptr[f + 1]]
        kd_settle(X, ranks, cols, train, folds, lo, hi, pred, unc, tie_t[lo:hi],
                  tie_n[lo:hi])
    return n_open


@kernel()
def _open_all(unc, tie_t, tie_n):
    """Every row open for the replay, with no early stop (a direct replay)."""
    unc[:] = True
    tie_t[:] = -1.0
    tie_n[:] = 0


@kernel()
def _mask_rows(X, ranks, cols, folds, pred, unc, tie_t, tie_n, direct):
    """Every row's vote of one mask, ties settled; returns the number of tied rows and of
    the distances the searches computed (0 for one feature). With ``direct``, no search:
    every row is replayed on its fold's tree (for masks of sizes with many tied rows)."""
    R = folds.row_q.size
    unc[:] = False
    visits = 0
    if direct:
        _open_all(unc, tie_t, tie_n)
    elif cols.size == 1:
        v, vs, order, pos = _sorted_prep(X, ranks, cols[0])
        _sorted_rows(v, vs, order, pos, folds, 0, R, pred, unc, tie_t, tie_n)
    else:
        P, Pp, idx, start, end, leaf, lo, hi = _tree_prep(X, ranks, cols)
        visits = _tree_rows(P, Pp, idx, start, end, leaf, lo, hi, folds, 0, R, pred, unc,
                            tie_t, tie_n)
    n_tie = 0
    for f in range(folds.bounds.size - 1):
        n_tie += _settle_fold(X, ranks, cols, folds, f, pred, unc, tie_t, tie_n)
    return n_tie, visits


@kernel(parallel=True)
def tree_predict_batch(X, ranks, cols_flat, cols_ptr, folds, n_groups, direct):
    """Exact CV predictions of a batch of masks of 1 to 15 features.

    Parameters
    ----------
    X : float64 (n, D)
        The evaluator's data (raw: scikit-learn's operands).
    ranks : int32 (D, n)
        Each column's ranks, ties by index, at least for the masks' columns
        (:class:`pymoo_fs.evaluation.knn.layout.ColumnRanks`): the kd-trees' keys.
    cols_flat, cols_ptr : int64
        Selected columns of mask b: ``cols_flat[cols_ptr[b]:cols_ptr[b + 1]]``, increasing.
    folds : Folds
        The kernels' fold layout (every fold's training part larger than ``2 k``).
    n_groups : int
        Masks are dealt to ``n_groups`` parallel groups, one thread each.
    direct : bool (B,)
        Masks whose rows are all replayed on their folds' trees, without the search (the
        cost model's choice where many rows tie: discrete data).

    Returns
    -------
    pred : int64 (B, R)
        Every row's vote, exactly scikit-learn's.
    n_tie : int64 (B,)
        Rows settled by replaying the fold's kd-tree, per mask (R for a direct one).
    visits : int64 (B,)
        Distances the tree searches computed, per mask (0 for one feature; the cost model
        reads them).
    """
    B = cols_ptr.size - 1
    R = folds.row_q.size
    pred = np.empty((B, R), dtype=np.int64)
    n_tie = np.zeros(B, dtype=np.int64)
    visits = np.zeros(B, dtype=np.int64)
    for g in nb.prange(n_groups):
        unc = np.zeros(R, dtype=np.bool_)
        tie_t = np.empty(R)
        tie_n = np.empty(R, dtype=np.int64)
        for b in range(g, B, n_groups):
            n_tie[b], visits[b] = _mask_rows(X, ranks, cols_flat[cols_ptr[b]:cols_ptr[b + 1]],
                                             folds, pred[b], unc, tie_t, tie_n, direct[b])
    return pred, n_tie, visits


@kernel(parallel=True)
def tree_predict_one(X, ranks, cols, folds, n_chunks, direct):
    """Exact CV predictions of one mask of 1 to 15 features, its rows (and then its folds'
    ties) split over the threads; returns ``pred`` int64 (1, R), ``n_tie`` and ``visits``
    int64 (1,) as :func:`tree_predict_batch` (``direct``: a bool, as there)."""
    R = folds.row_q.size
    pred = np.empty((1, R), dtype=np.int64)
    unc = np.zeros(R, dtype=np.bool_)
    tie_t = np.empty(R)
    tie_n = np.empty(R, dtype=np.int64)
    step = (R + n_chunks - 1) // n_chunks
    chunk_visits = np.zeros(n_chunks, dtype=np.int64)
    if direct:
        _open_all(unc, tie_t, tie_n)
    elif cols.size == 1:
        v, vs, order, pos = _sorted_prep(X, ranks, cols[0])
        for c in nb.prange(n_chunks):
            _sorted_rows(v, vs, order, pos, folds, min(R, c * step), min(R, (c + 1) * step),
                         pred[0], unc, tie_t, tie_n)
    else:
        P, Pp, idx, start, end, leaf, lo, hi = _tree_prep(X, ranks, cols)
        for c in nb.prange(n_chunks):
            chunk_visits[c] = _tree_rows(P, Pp, idx, start, end, leaf, lo, hi, folds,
                                         min(R, c * step), min(R, (c + 1) * step), pred[0],
                                         unc, tie_t, tie_n)
    n_folds = folds.bounds.size - 1
    per_fold = np.zeros(n_folds, dtype=np.int64)
    for f in nb.prange(n_folds):
        per_fold[f] = _settle_fold(X, ranks, cols, folds, f, pred[0], unc, tie_t, tie_n)
    n_tie = np.zeros(1, dtype=np.int64)
    n_tie[0] = per_fold.sum()
    visits = np.zeros(1, dtype=np.int64)
    visits[0] = chunk_visits.sum()
    return pred, n_tie, visits
