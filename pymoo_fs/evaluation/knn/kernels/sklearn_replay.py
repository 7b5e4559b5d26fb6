"""A compiled replay of scikit-learn's ``KNeighborsClassifier.predict`` for the rows that
the rounding bound cannot certify: its brute force and its kd-tree, step for step.

:func:`exact_fold_rows` predicts rows exactly as ``KNeighborsClassifier`` (``algorithm=
"auto"``) does: where it takes brute force (more than 15 selected features, or
``k >= n_train // 2``) by :func:`_sk_brute_rows`, which replays
``sklearn.metrics._pairwise_distances_reduction.ArgKmin`` (Euclidean, float64, dense: the same
operands, row norms by scipy's ``ddot``, chunks, ``dgemm`` calls, sum order, heap, and the
static split of the chunks over its OpenMP threads); where it takes a kd-tree by the same
reduced distances (:func:`_kd_row`) and, where equal distances straddle the k-th place with
different labels, by replaying the tree itself (:func:`kd_lazy`, split as the queries reach
its nodes, :func:`kd_query`, :func:`kd_settle`; :func:`kd_build` splits every node).
:func:`exact_rows` runs it over a batch of masks.

For the regression path, :func:`exact_regression_rows` gives scikit-learn's neighbours of
chosen rows *in its order* (``KNeighborsRegressor.predict`` sums their targets in that order):
the same brute force and kd-tree, every row's heap then sorted by :func:`simultaneous_sort`
(``sklearn/utils/_sorting.pyx``, not stable: it decides the order among equal distances).

**Versioned against scikit-learn.** What is replayed is scikit-learn's *private*
implementation (``sklearn/metrics/_pairwise_distances_reduction/``,
``sklearn/neighbors/_binary_tree.pxi.tp``, ``_kd_tree.pyx.tp``, ``_partition_nodes.pyx``,
``sklearn/utils/_heap.pyx``, ``sklearn/utils/_sorting.pyx``) and libstdc++'s ``std::nth_element`` (``bits/stl_algo.h``), which
any release may change. It was written against scikit-learn :data:`WRITTEN_AGAINST` and
verified on the releases in :data:`VERIFIED_ON` (the self-check and the replay tests of
``tests/evaluation/knn/test_sklearn_replay.py``). On every release, listed or not, the
evaluator uses it only after :func:`pymoo_fs.evaluation.knn.selfcheck.settings` has compared
it with ``KNeighborsClassifier`` in the running process; where that check fails the rows'
folds are predicted by scikit-learn itself, so the scores stay exact, only slower.
"""

import numba as nb
import numpy as np

from .blas import ddot, dgemm, int32s
from .certify import argmax_first, kth_smallest
from .jit import kernel
from .structures import KDNodes

#: the scikit-learn release whose source this module transcribes
WRITTEN_AGAINST = "1.9.1"
#: scikit-learn releases on which the replay passed the self-check (1, 2 and 3 OpenMP threads)
#: and the tests of tests/evaluation/knn/test_sklearn_replay.py and tests/evaluation/test_knn.py
#: (numpy 2.4.6, scipy 1.17.1, numba 0.68.1); pyproject.toml asks for scikit-learn >= 1.6
VERIFIED_ON = ("1.6.1", "1.7.2", "1.8.0", "1.9.1")
#: scikit-learn releases on which the ordered neighbours of :func:`exact_regression_rows` (its
#: :func:`simultaneous_sort`, 1.9.1's introsort) passed the regression self-check
#: (:func:`pymoo_fs.evaluation.knn.selfcheck.regression_settings`, 1 and 2 OpenMP threads) and
#: tests/evaluation/knn/test_regress_replay.py; older releases' source shows a different sort
#: (a recursive quicksort), on which the self-check is expected to fail and the caller to
#: fall back to scikit-learn
REGRESSION_VERIFIED_ON = ("1.9.1",)
#: the initial value of scikit-learn's heaps (``DBL_MAX``)
DBL_MAX = np.finfo(np.float64).max


def verified(version):
    """Whether the replay was verified on scikit-learn ``version``.

    Parameters
    ----------
    version : str
        A scikit-learn version string (``sklearn.__version__``).

    Returns
    -------
    bool
        True when ``version`` is in :data:`VERIFIED_ON`. Informative only: the self-check
        (:mod:`pymoo_fs.evaluation.knn.selfcheck`) decides whether the replay is used.
    """
    return version in VERIFIED_ON


# ----------------------------------------------------------------- brute force
@kernel()
def heap_push(vals, idx, size, val, val_idx):
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


@kernel()
def _sk_norms(A, out):
    """Squared row norms as scikit-learn computes them: scipy's ``ddot`` per row."""
    m = A.shape[1]
    nn = np.array([m], dtype=np.int32)
    inc = np.ones(1, dtype=np.int32)
    for i in range(A.shape[0]):
        out[i] = ddot(nn.ctypes, A[i].ctypes, inc.ctypes, A[i].ctypes, inc.ctypes)


@kernel()
def _sk_middle(Xte, xs, xe, Xtr, ys, ye, mid):
    """scikit-learn's middle term ``-2 X_chunk Y_chunk^T`` (its ``_gemm`` call, scipy's dgemm)."""
    m = Xte.shape[1]
    ta = np.array([116], dtype=np.uint8)  # BLAS_Trans.Trans, passed as transb first (RowMajor)
    tn = np.array([110], dtype=np.uint8)  # BLAS_Trans.NoTrans
    dims = int32s(ye - ys, xe - xs, m, m, m, ye - ys)
    al = np.full(1, -2.0)
    be = np.zeros(1)
    dgemm(ta.ctypes, tn.ctypes, dims[0:].ctypes, dims[1:].ctypes, dims[2:].ctypes, al.ctypes,
          Xtr[ys:].ctypes, dims[3:].ctypes, Xte[xs:].ctypes, dims[4:].ctypes, be.ctypes,
          mid.ctypes, dims[5:].ctypes)


@kernel()
def _copy_middle(mid_w, pos, n_y, xs, xe, ys, ye, mid):
    """The chunk (xs:xe, ys:ye) of the wanted rows' middle terms ``mid_w`` (row ``pos[i]``,
    ``n_y`` columns) in the layout of :func:`_sk_middle` (rows not wanted are left: the
    reduction skips them)."""
    n_yc = ye - ys
    for i in range(xe - xs):
        p = pos[xs + i]
        if p >= 0:
            for j in range(n_yc):
                mid[i * n_yc + j] = mid_w[p * n_y + ys + j]


@kernel()
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
            heap_push(vals[h0 + i], idx[h0 + i], k, v, ys + j)


@kernel()
def _sk_brute_rows(X, cols, test, train, want, w0, k, chunk, n_threads, nbr, ints=False):
    """Neighbours of the wanted test rows exactly as scikit-learn's brute force finds them.

    Replays ``sklearn.metrics._pairwise_distances_reduction.ArgKmin`` (Euclidean, float64,
    dense): the same operands (``X[test][:, cols]`` and ``X[train][:, cols]``), the same row
    norms (scipy's ``ddot``), the same chunks and ``dgemm`` calls (scipy's), the same sum order,
    the same heap, and for ``parallel_on_Y`` the same static split of the chunks over its
    threads and the same merge order. ``nbr[i]`` receives the k neighbours (positions in
    ``train``) of test row ``i`` where ``want[w0 + i]``.

    With ``ints`` (the caller's promise: every value of the selected columns is an integer
    and ``4 m A^2 <= 2^53`` for ``m`` columns of largest magnitude ``A``, as
    :meth:`pymoo_fs.evaluation.knn.settle.RowSettler.integer_masks` finds), every product,
    partial sum and distance of scikit-learn's computation is an integer below 2^53, hence
    exact in any order: the middle terms of the wanted rows only are then formed, by one
    ``dgemm``, and the chunks, heaps and merges are replayed on them (binary data such as
    semeion leaves a fifth of its rows to this replay, and a chunk's product was formed for
    all of its rows).

    Returns the heaps' values, float64 ``(test.size, k)``: row ``i`` (where wanted) holds the
    reduced distances (squared, clipped at 0) of ``nbr[i]`` in the heap's layout, what
    ``ArgKmin`` sorts them by (:func:`simultaneous_sort`) before it returns them.
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
    if ints:
        # the wanted rows' middle terms at once (exact: integers), read chunk by chunk below
        pos = np.full(n_x, -1, dtype=np.int64)
        n_w = 0
        for i in range(n_x):
            if want[w0 + i]:
                pos[i] = n_w
                n_w += 1
        Xw = np.empty((max(n_w, 1), m))
        for i in range(n_x):
            if pos[i] >= 0:
                Xw[pos[i]] = Xte[i]
        mid_w = np.empty(max(n_w, 1) * n_y)
        if n_w:
            _sk_middle(Xw, 0, n_w, Xtr, 0, n_y, mid_w)
    vals = np.full((n_x, k), DBL_MAX)
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
                if ints:
                    _copy_middle(mid_w, pos, n_y, xs, xe, ys, ye, mid)
                else:
                    _sk_middle(Xte, xs, xe, Xtr, ys, ye, mid)
                _sk_reduce(Xn, Yn, mid, xs, xe, ys, ye, want, w0, vals, idx, xs, k)
            continue
        tv[:] = DBL_MAX
        ti[:] = -1
        q, rest = y_chunks // threads, y_chunks % threads
        for t in range(threads):  # libgomp's schedule(static): contiguous blocks
            lo = t * (q + 1) if t < rest else t * q + rest
            hi = lo + (q + 1 if t < rest else q)
            for yc in range(lo, hi):
                ys = yc * y_chunk
                ye = min(n_y, ys + y_chunk)
                if ints:
                    _copy_middle(mid_w, pos, n_y, xs, xe, ys, ye, mid)
                else:
                    _sk_middle(Xte, xs, xe, Xtr, ys, ye, mid)
                _sk_reduce(Xn, Yn, mid, xs, xe, ys, ye, want, w0, tv[t], ti[t], 0, k)
        for i in range(xs, xe):
            if want[w0 + i]:
                for t in range(threads):
                    for jj in range(k):
                        heap_push(vals[i], idx[i], k, tv[t, i - xs, jj], ti[t, i - xs, jj])
    for i in range(n_x):
        if want[w0 + i]:
            nbr[i, :] = idx[i, :]
    return vals


@kernel()
def _kd_row(X, cols, q, train, y, k, counts, d, tie):
    """Vote of test sample ``q`` as scikit-learn's kd-tree finds it, or False.

    The kd-tree's reduced distance is the plain sum of squared differences in feature order,
    reproduced here bit for bit; only the order in which it meets candidates at exactly equal
    distance (its traversal) is not. The vote is returned (added to ``counts``) unless equal
    distances straddle the k-th place with different labels; then ``tie[0]`` gets the k-th
    distance and ``tie[1]`` the number of candidates strictly nearer (what
    :func:`kd_query` needs to stop early).
    """
    for p in range(train.size):
        j = train[p]
        s = 0.0
        for c in range(cols.size):
            t = X[q, cols[c]] - X[j, cols[c]]
            s += t * t
        d[p] = s
    tmp = np.empty(k)
    t_k = kth_smallest(d, train.size, k, tmp)
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
        tie[0] = t_k
        tie[1] = n_lt
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
# with scikit-learn's KDTree, and the self-check compares the votes with
# KNeighborsClassifier before the replay is used.

#: scikit-learn's ``KNeighborsClassifier`` default ``leaf_size``
_KD_LEAF = 30


@kernel(inline="always")
def _kd_less(v, a, b):
    """The comparator of scikit-learn's ``partition_node_indices`` (by value, ties by index)
    on keys ``v`` that order the points as it does: ``v[a] < v[b]`` exactly where point ``a``
    has the smaller value, or the same value and the smaller index (:func:`kd_keys`). One
    integer comparison instead of two float ones and a branch: builds 1.2-1.45x faster
    (splice's 2,009 points, one feature: 131 -> 106 us; isolet's 982, two: 75 -> 65 us)."""
    return v[a] < v[b]


@kernel()
def kd_keys(P):
    """Keys of :func:`kd_build` (and :func:`kd_lazy`) computed from the points themselves:
    ``keys[c, i]`` the rank of point ``i`` in column ``c`` by value, ties by index (a stable
    sort).

    Parameters
    ----------
    P : float64 (n, m)

    Returns
    -------
    int32 (m, n)
    """
    n, m = P.shape
    keys = np.empty((m, n), dtype=np.int32)
    v = np.empty(n)
    for c in range(m):
        for i in range(n):
            v[i] = P[i, c]
        order = np.argsort(v, kind="mergesort")
        for r in range(n):
            keys[c, order[r]] = r
    return keys


@kernel()
def gather_keys(X, ranks, cols, rows):
    """Keys of :func:`kd_build` for the points ``X[rows][:, cols]`` from the ranks of the
    whole columns (``ranks[j, i]``: rank of sample ``i`` in column ``j``, ties by index):
    ``keys[c, p] = ranks[cols[c], rows[p]]``. They order the points as :func:`kd_keys`
    would when ``rows`` is increasing (then a smaller index in ``rows`` is a smaller sample);
    otherwise (a CV splitter whose training indices are not sorted) the points' own keys are
    computed (:func:`kd_keys`).

    Parameters
    ----------
    X : float64 (N, D)
    ranks : int32 (D, N)
        Only the rows ``cols`` are read (see
        :class:`pymoo_fs.evaluation.knn.layout.ColumnRanks`).
    cols : int64 (m,)
    rows : int64 (n,)

    Returns
    -------
    int32 (m, n)
    """
    n = rows.size
    increasing = True
    for p in range(1, n):
        increasing &= rows[p - 1] < rows[p]
    if not increasing:
        P = np.empty((n, cols.size))
        for p in range(n):
            for c in range(cols.size):
                P[p, c] = X[rows[p], cols[c]]
        return kd_keys(P)
    keys = np.empty((cols.size, n), dtype=np.int32)
    for c in range(cols.size):
        col = ranks[cols[c]]
        for p in range(n):
            keys[c, p] = col[rows[p]]
    return keys


@kernel()
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


@kernel()
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


@kernel()
def _nth_element(a, lo, hi, nth, v, above, below):
    """libstdc++'s ``std::nth_element(a + lo, a + nth, a + hi, comp)`` (introselect) with
    :func:`_kd_less`, with the same result step for step (its heap selection past the depth
    limit included), so that the order it leaves is the same.

    The keys ``v[a[i]]`` must be distinct (:func:`kd_keys`, :func:`gather_keys`: ranks, ties
    by index). Each partition is libstdc++'s ``__unguarded_partition``, computed without its
    data-dependent branches: one pass lists the positions of keys above the pivot
    (ascending, into ``above``) and below it (``below``); the scan from the left stops at
    exactly the former, the scan from the right at the latter, so the t-th swap exchanges
    the t-th of each list for as long as the first lies left of the second, and the cut is
    where the scans cross. ``above``, ``below``: int32 scratch of at least ``hi - lo``.
    Whole builds of splice-like 2,010 points measured 98 -> 56 us (one feature) and 154 -> 80
    us (three), each build on fresh keys (a benchmark that repeats one build lets the branch
    predictor learn its comparisons and hides the difference)."""
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
        # __unguarded_partition(first + 1, last, pivot = first), its swaps found by one
        # branch-free pass (the docstring)
        piv = v[a[first]]
        n_above = 0
        n_below = 0
        for p in range(first + 1, last):
            up = v[a[p]] > piv
            above[n_above] = p
            below[n_below] = p
            n_above += up
            n_below += 1 - up
        n_swap = 0
        while (n_swap < n_above and n_swap < n_below
               and above[n_swap] < below[n_below - 1 - n_swap]):
            n_swap += 1
        for w in range(n_swap):
            p_up = above[w]
            p_down = below[n_below - 1 - w]
            a[p_up], a[p_down] = a[p_down], a[p_up]
        # the left scan stops at the next key above the pivot or at the last swap's right
        # end, whichever comes first
        cut = above[n_swap] if n_swap < n_above else last
        if n_swap > 0 and below[n_below - n_swap] < cut:
            cut = below[n_below - n_swap]
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


@kernel()
def _kd_bounds(P, idx, s, e, i_node, lo, hi):
    """Bounds ``lo[i_node]``, ``hi[i_node]`` of the points ``idx[s:e]`` of a node."""
    # each feature's bounds in local accumulators (the same min and max, over the points in
    # the same order, as element-wise updates of lo and hi: 75 -> 61 us per build of 983
    # one-feature points)
    for c in range(P.shape[1]):
        b_lo = np.inf
        b_hi = -np.inf
        for i in range(s, e):
            val = P[idx[i], c]
            b_lo = min(b_lo, val)
            b_hi = max(b_hi, val)
        lo[i_node, c] = b_lo
        hi[i_node, c] = b_hi


@kernel()
def kd_lazy(P, leaf_size, keys):
    """scikit-learn's ``KDTree(P, leaf_size)`` (``sklearn/neighbors/_binary_tree.pxi.tp``),
    each node split only when first needed (:func:`kd_split`, :func:`kd_query`).

    A node's split reorders only its own points, and only after its parent's split, so
    splitting the nodes a query visits, in the order it visits them, leaves every node it
    reaches as the whole build would (:func:`kd_build` splits them all). A replay that settles
    a few rows, or rows whose k nearest are met early (discrete data: equal points), visits a
    part of the tree: splice's one-feature masks split 18 of 63 nodes per fold.

    Parameters
    ----------
    P : float64 (n, m)
        The points.
    leaf_size : int
        scikit-learn's ``leaf_size``.
    keys : int32 (m, n)
        Each column's order, by value, ties by index (:func:`kd_keys`, :func:`gather_keys`).

    Returns
    -------
    KDNodes
        ``idx`` (the point order), ``start``/``end`` and ``lo``/``hi`` (each node's range and
        bounds, set for the root and the children of every split node), ``split`` (bool: the
        node was split), with the points, the keys and the splits' scratch.
    """
    n, m = P.shape
    n_levels = int(np.log2(max(1.0, (n - 1) / leaf_size)) + 1)
    n_nodes = 2 ** n_levels - 1
    idx = np.arange(n)
    start = np.zeros(n_nodes, dtype=np.int64)
    end = np.zeros(n_nodes, dtype=np.int64)
    end[0] = n
    lo = np.empty((n_nodes, m))
    hi = np.empty((n_nodes, m))
    _kd_bounds(P, idx, 0, n, 0, lo, hi)
    return KDNodes(P, keys, idx, start, end, np.zeros(n_nodes, dtype=np.bool_), lo, hi,
                   np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32))


@kernel(inline="always")
def kd_is_leaf(t, i_node):
    """Whether node ``i_node`` of ``t`` (its range set) is a leaf: on the last level, or of
    fewer than 2 points (scikit-learn's rule, ``_binary_tree.pxi.tp``).

    Parameters
    ----------
    t : KDNodes
        A tree of :func:`kd_lazy`.
    i_node : int
        A node whose parent is split (or the root).

    Returns
    -------
    bool
    """
    return 2 * i_node + 1 >= t.start.size or t.end[i_node] - t.start[i_node] < 2


@kernel()
def kd_split(t, i_node):
    """Split node ``i_node`` of ``t`` as scikit-learn does (``_binary_tree.pxi.tp``,
    ``find_node_split_dim`` and ``partition_node_indices``): on the first dimension of
    largest spread, its points partitioned about their median by :func:`_nth_element`; then
    the children's ranges and bounds are set and ``t.split[i_node]``.

    Parameters
    ----------
    t : KDNodes
        A tree of :func:`kd_lazy`, changed in place (``idx`` within the node's range,
        ``start``, ``end``, ``lo``, ``hi`` of its children, ``split``).
    i_node : int
        A node that is not a leaf (:func:`kd_is_leaf`), not split yet, whose parent is split
        (or the root).
    """
    s = t.start[i_node]
    e = t.end[i_node]
    # find_node_split_dim: the first dimension of largest spread. Its max and min run over
    # the node's points like the bounds (min and max are exact), so the spread is hi - lo,
    # the same subtraction of the same values
    j_max = 0
    spread_max = 0.0
    for c in range(t.P.shape[1]):
        if t.hi[i_node, c] - t.lo[i_node, c] > spread_max:
            spread_max = t.hi[i_node, c] - t.lo[i_node, c]
            j_max = c
    n_mid = (e - s) // 2
    _nth_element(t.idx, s, e, s + n_mid, t.keys[j_max], t.above, t.below)
    c1 = 2 * i_node + 1
    t.start[c1] = s
    t.end[c1] = s + n_mid
    t.start[c1 + 1] = s + n_mid
    t.end[c1 + 1] = e
    _kd_bounds(t.P, t.idx, s, s + n_mid, c1, t.lo, t.hi)
    _kd_bounds(t.P, t.idx, s + n_mid, e, c1 + 1, t.lo, t.hi)
    t.split[i_node] = True


@kernel()
def kd_build(P, leaf_size, keys):
    """scikit-learn's ``KDTree(P, leaf_size)``, every node split (:func:`kd_lazy`,
    :func:`kd_split`): the point order ``idx``, each node's range ``start``/``end``, leaf
    flag and bounds ``lo``/``hi``. ``keys`` (int (m, n)): the points' order in each column, by
    value, ties by index (:func:`kd_keys`, or :func:`gather_keys` from ranks computed once)."""
    t = kd_lazy(P, leaf_size, keys)
    n_nodes = t.start.size
    leaf = np.zeros(n_nodes, dtype=np.bool_)
    # parents before children (the order of the splits of disjoint ranges does not matter)
    for i_node in range(n_nodes):
        if i_node == 0 or t.split[(i_node - 1) // 2]:
            if kd_is_leaf(t, i_node):
                leaf[i_node] = True
            else:
                kd_split(t, i_node)
    return t.idx, t.start, t.end, leaf, t.lo, t.hi


@kernel()
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


@kernel()
def kd_query(t, pt, k, vals, nbr, stack, lbs, t_stop=-1.0, n_lt=0):
    """scikit-learn's depth-first ``KDTree.query`` of one point on the tree ``t``
    (:func:`kd_lazy`; a node is split when the query first reaches it): its k nearest into
    ``nbr`` (positions in ``t.P``), met in the same order and kept by the same heap.

    It skips a node whose lower bound equals the heap's largest value, which scikit-learn
    visits: a push needs a distance strictly below the largest, a node's bound is never above
    the distance of a point inside it nor above its children's bounds (the same subtractions of
    larger or equal magnitude, rounded monotonically), so nothing in it could enter (tie-heavy
    data: splice's six-feature masks 6.7 -> 6.0 ms with every row replayed). For the same reason
    the query returns as soon as nothing can change any more (the neighbours are those of the
    whole query): once its heap holds k points at distance 0, and, with ``t_stop >= 0`` (the
    k-th smallest distance of the query, known exactly, and ``n_lt`` the number of points
    strictly nearer than it), as soon as the heap holds those ``n_lt`` points and its largest
    value is ``t_stop``: every point met later is at ``t_stop`` or farther. On data with many
    equal distances this skips the rest of the tied leaves, and the splits of the nodes never
    reached.
    """
    for i in range(k):
        vals[i] = np.inf
        nbr[i] = 0
    stack[0] = 0
    lbs[0] = _kd_min_rdist(t.lo, t.hi, 0, pt)
    top = 1
    m = pt.size
    P = t.P
    n_below = 0  # heap entries strictly below t_stop
    while top > 0:
        top -= 1
        i_node = stack[top]
        if lbs[top] >= vals[0]:
            continue
        if kd_is_leaf(t, i_node):
            for i in range(t.start[i_node], t.end[i_node]):
                j = t.idx[i]
                s = 0.0
                for c in range(m):
                    d = pt[c] - P[j, c]
                    s += d * d
                if s < vals[0]:
                    n_below += (s < t_stop) - (vals[0] < t_stop)
                    heap_push(vals, nbr, k, s, j)
                    if vals[0] == 0.0 or (vals[0] == t_stop and n_below == n_lt):
                        return
            continue
        if not t.split[i_node]:
            kd_split(t, i_node)
        i1 = 2 * i_node + 1
        i2 = i1 + 1
        lb1 = _kd_min_rdist(t.lo, t.hi, i1, pt)
        lb2 = _kd_min_rdist(t.lo, t.hi, i2, pt)
        # the nearer child first: pushed last
        if lb1 <= lb2:
            stack[top], lbs[top] = i2, lb2
            stack[top + 1], lbs[top + 1] = i1, lb1
        else:
            stack[top], lbs[top] = i1, lb1
            stack[top + 1], lbs[top + 1] = i2, lb2
        top += 2


@kernel()
def _equal_point_groups(X, cols, folds, lo, hi, unc):
    """The open rows ``lo:hi`` (``unc[r]``) of one fold in the order a replay of its tree
    queries them, and for each the earlier row whose query result it takes.

    A query depends only on the query point and the fold's tree, so rows of equal points
    (discrete data: many) are queried once: the open rows are grouped by a hash of their
    points' bits (FNV-1a over the selected columns) and a row whose point equals (value for
    value) the last queried row, when its hash equals that of the row before it, takes that
    row's result.

    Returns
    -------
    rows : int64 (n_open,)
        The open rows, in query order.
    same : int64 (n_open,)
        ``same[i]``: the row whose result ``rows[i]`` takes, or -1 (query it).
    """
    m = cols.size
    n_open = 0
    for r in range(lo, hi):
        n_open += unc[r]
    rows = np.empty(n_open, dtype=np.int64)
    keys = np.empty(n_open, dtype=np.int64)
    pt = np.empty(m)
    c_open = 0
    for r in range(lo, hi):
        if unc[r]:
            q = folds.row_q[r]
            for c in range(m):
                pt[c] = X[q, cols[c]]
            bits = pt.view(np.int64)
            h = np.int64(1469598103934665603)
            for c in range(m):
                h = (h ^ bits[c]) * np.int64(1099511628211)
            rows[c_open] = r
            keys[c_open] = h
            c_open += 1
    by_key = np.argsort(keys)
    order = np.empty(n_open, dtype=np.int64)
    same = np.full(n_open, -1, dtype=np.int64)
    prev = -1
    for i in range(n_open):
        r = rows[by_key[i]]
        order[i] = r
        if prev >= 0 and keys[by_key[i]] == keys[by_key[i - 1]]:
            eq = True
            q = folds.row_q[r]
            qp = folds.row_q[prev]
            for c in range(m):
                eq = eq and X[q, cols[c]] == X[qp, cols[c]]
            if eq:
                same[i] = prev
                continue
        prev = r
    return order, same


@kernel()
def _fold_tree(X, ranks, cols, train):
    """The lazy replay (:func:`kd_lazy`) of the ``KDTree`` scikit-learn builds on the fold's
    training points ``X[train][:, cols]`` (``leaf_size`` 30), with the traversal stack and
    bounds :func:`kd_query` needs."""
    m = cols.size
    P = np.empty((train.size, m))
    for p in range(train.size):
        for c in range(m):
            P[p, c] = X[train[p], cols[c]]
    t = kd_lazy(P, _KD_LEAF, gather_keys(X, ranks, cols, train))
    stack = np.empty(2 * t.start.size + 2, dtype=np.int64)
    lbs = np.empty(2 * t.start.size + 2)
    return t, stack, lbs


@kernel()
def kd_settle(X, ranks, cols, train, folds, lo, hi, pred, unc, tie_t, tie_n):
    """Rows ``lo:hi`` (one fold) still open in ``unc``: their votes from the fold's kd-tree,
    built as scikit-learn builds it (the nodes the queries reach, :func:`kd_lazy`) and
    queried as it queries (:func:`kd_query`). ``tie_t[r - lo]``, ``tie_n[r - lo]``: row r's
    k-th distance and the number of candidates strictly nearer (the query's early stop;
    ``tie_t < 0``: none).

    ``ranks`` (int32 (D, n)): each column's ranks, ties by index (at least the rows
    ``cols``), from which the tree's keys are gathered (:func:`gather_keys`).

    Rows of equal points are queried once (:func:`_equal_point_groups`).
    """
    k = folds.k
    m = cols.size
    rows, same = _equal_point_groups(X, cols, folds, lo, hi, unc)
    t, stack, lbs = _fold_tree(X, ranks, cols, train)
    pt = np.empty(m)
    vals = np.empty(k)
    nbr = np.empty(k, dtype=np.int64)
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    for i in range(rows.size):
        r = rows[i]
        if same[i] >= 0:
            pred[r] = pred[same[i]]
            unc[r] = False
            continue
        q = folds.row_q[r]
        for c in range(m):
            pt[c] = X[q, cols[c]]
        kd_query(t, pt, k, vals, nbr, stack, lbs, tie_t[r - lo], tie_n[r - lo])
        counts[:] = 0
        for j in range(k):
            counts[folds.y[train[nbr[j]]]] += 1
        pred[r] = argmax_first(counts)
        unc[r] = False


@kernel(inline="always")
def sk_takes_brute(m, k, n_train):
    """Whether scikit-learn's ``KNeighbors*`` (``algorithm="auto"``, Euclidean) searches a
    fold of ``n_train`` training samples by brute force for ``m`` columns and ``k``
    neighbours (more than 15 columns, or ``k >= n_train // 2``) rather than by kd-tree."""
    return m > 15 or k >= n_train // 2


@kernel()
def _open_fold(folds, f, unc):
    """Fold ``f``'s rows ``lo:hi``, its training indices, and whether any of its rows is
    open in ``unc``."""
    lo = folds.bounds[f]
    hi = folds.bounds[f + 1]
    todo = False
    for r in range(lo, hi):
        todo |= unc[r]
    return lo, hi, folds.train[folds.train_ptr[f]:folds.train_ptr[f + 1]], todo


@kernel()
def exact_fold_rows(X, ranks, cols, folds, pred, unc, ints=False):
    """Settle the uncertified rows of one mask by scikit-learn's own arithmetic.

    For every fold holding rows with ``unc[r]``: where scikit-learn's ``KNeighborsClassifier``
    (``algorithm="auto"``) takes brute force (more than 15 selected features, or
    ``k >= n_train // 2``) the neighbours are found by :func:`_sk_brute_rows`; where it takes a
    kd-tree, by :func:`_kd_row`, and where equal distances straddle the k-th place with
    different labels (the tree's order decides them) by replaying the tree: the fold's
    ``KDTree`` is built as scikit-learn builds it, the nodes the queries reach
    (:func:`kd_lazy`), and each such row is queried as scikit-learn queries it
    (:func:`kd_query`, in :func:`kd_settle`). ``pred`` gets the vote and
    ``unc`` is cleared; with ``folds.exact == 0`` nothing is done (the caller asks
    scikit-learn). ``ranks``: as in :func:`kd_settle`; ``ints``: as in
    :func:`_sk_brute_rows` (integer-valued columns, exact distances).
    """
    if folds.exact == 0:
        return
    k = folds.k
    counts = np.zeros(folds.n_classes, dtype=np.int64)
    for f in range(folds.bounds.size - 1):
        lo, hi, train, todo = _open_fold(folds, f, unc)
        if not todo:
            continue
        test = folds.row_q[lo:hi]
        if sk_takes_brute(cols.size, k, train.size):
            nbr = np.empty((hi - lo, k), dtype=np.int64)
            _sk_brute_rows(X, cols, test, train, unc, lo, k, folds.sk_chunk, folds.sk_threads,
                           nbr, ints)
            for r in range(lo, hi):
                if unc[r]:
                    counts[:] = 0
                    for jj in range(k):
                        counts[folds.y[train[nbr[r - lo, jj]]]] += 1
                    pred[r] = argmax_first(counts)
                    unc[r] = False
        else:
            d = np.empty(train.size)
            tie = np.empty(2)
            tie_t = np.full(hi - lo, -1.0)
            tie_n = np.zeros(hi - lo, dtype=np.int64)
            ties = False
            for r in range(lo, hi):
                if unc[r]:
                    counts[:] = 0
                    if _kd_row(X, cols, folds.row_q[r], train, folds.y, k, counts, d, tie):
                        pred[r] = argmax_first(counts)
                        unc[r] = False
                    else:
                        ties = True
                        tie_t[r - lo] = tie[0]
                        tie_n[r - lo] = int(tie[1])
            if ties:
                # equal distances straddle the k-th place: the tree's order decides
                kd_settle(X, ranks, cols, train, folds, lo, hi, pred, unc, tie_t, tie_n)


@kernel(parallel=True)
def exact_rows(X, ranks, cols_flat, cols_ptr, folds, pred, unc, ints):
    """:func:`exact_fold_rows` for every mask ``b`` (columns
    ``cols_flat[cols_ptr[b]:cols_ptr[b + 1]]``, increasing) with open rows in ``unc[b]``;
    ``ints[b]`` (bool): its columns are integer-valued with exact distances
    (:func:`_sk_brute_rows`).

    Kept apart from the batch kernels so that it is compiled only when a row needs it.
    """
    for b in nb.prange(cols_ptr.size - 1):
        todo = False
        for r in range(unc.shape[1]):
            todo |= unc[b, r]
        if todo:
            exact_fold_rows(X, ranks, cols_flat[cols_ptr[b]:cols_ptr[b + 1]], folds, pred[b],
                            unc[b], ints[b])


# ----------------------------------------------------------------- scikit-learn's sort
# KNeighborsRegressor's prediction is the mean of the neighbours' targets in the order
# kneighbors returns them: each row's heap sorted by scikit-learn's simultaneous_sort
# (sklearn/utils/_sorting.pyx, an introsort that is not stable), on the reduced distances:
# ArgKmin sorts its heaps of squared distances (clipped at 0) before it converts them
# (_argkmin.pyx.tp: _parallel_on_X_prange_iter_finalize, _parallel_on_Y_finalize, then
# compute_exact_distances only when distances are returned), KDTree.query its
# NeighborsHeap of rdist (squared distances) with sort_results=True (NeighborsHeap._sort,
# _binary_tree.pxi.tp). The order among exactly equal distances is the sort's.


@kernel(inline="always")
def _sort_swap(values, indices, i, j):
    """``swap`` of ``sklearn/utils/_sorting.pyx``: entries i and j of both arrays."""
    values[i], values[j] = values[j], values[i]
    indices[i], indices[j] = indices[j], indices[i]


@kernel()
def _insertion_sort(values, indices, s, n):
    """``insertion_sort`` of ``sklearn/utils/_sorting.pyx`` on ``[s, s + n)``."""
    for i in range(1, n):
        temp_val = values[s + i]
        temp_idx = indices[s + i]
        j = i
        while j > 0 and values[s + j - 1] > temp_val:
            values[s + j] = values[s + j - 1]
            indices[s + j] = indices[s + j - 1]
            j -= 1
        values[s + j] = temp_val
        indices[s + j] = temp_idx


@kernel()
def _sift_down(values, indices, s, start, end):
    """``sift_down`` of ``sklearn/utils/_sorting.pyx`` on the heap ``[s, s + end)``."""
    root = start
    while True:
        child = root * 2 + 1
        maxind = root
        if child < end and values[s + maxind] < values[s + child]:
            maxind = child
        if child + 1 < end and values[s + maxind] < values[s + child + 1]:
            maxind = child + 1
        if maxind == root:
            break
        _sort_swap(values, indices, s + root, s + maxind)
        root = maxind


@kernel()
def _heapsort(values, indices, s, n):
    """``heapsort`` of ``sklearn/utils/_sorting.pyx`` on ``[s, s + n)`` (n > 15 here)."""
    start = (n - 2) // 2
    end = n
    while True:
        _sift_down(values, indices, s, start, end)
        if start == 0:
            break
        start -= 1
    end = n - 1
    while end > 0:
        _sort_swap(values, indices, s, s + end)
        _sift_down(values, indices, s, 0, end)
        end = end - 1


@kernel()
def _inplace_median3(values, indices, s, n):
    """``inplace_median3`` of ``sklearn/utils/_sorting.pyx`` on ``[s, s + n)``: the
    smallest of the first, middle and last values moved first, the median last (returned),
    the largest to the middle."""
    pivot_idx = n // 2
    if values[s] > values[s + n - 1]:
        _sort_swap(values, indices, s, s + n - 1)
    if values[s + n - 1] > values[s + pivot_idx]:
        _sort_swap(values, indices, s + n - 1, s + pivot_idx)
        if values[s] > values[s + n - 1]:
            _sort_swap(values, indices, s, s + n - 1)
    return values[s + n - 1]


@kernel()
def simultaneous_sort(values, indices, n):
    """scikit-learn's ``simultaneous_sort`` (``sklearn/utils/_sorting.pyx``, scikit-learn
    1.9.1, ``use_three_way_partition=False`` as ``ArgKmin`` and ``NeighborsHeap._sort`` call
    it): the first ``n`` values sorted ascending, the indices moved with them, entry for
    entry as scikit-learn moves them (the sort is not stable: the order it leaves among equal
    values is what this replays).

    ``introsort_2way``: while more than 15 entries remain, a median-of-three pivot
    (``inplace_median3``), a two-way partition, the left part sorted (scikit-learn recurses)
    and the loop continued on the right part; past a depth of ``2 * int(log2(n))`` a heapsort;
    an insertion sort of the last 15 or fewer entries. The recursion on the left part is a
    stack here: the left and the right parts are disjoint and each one's sort depends only on
    its own entries and depth, so the order in which they are sorted changes nothing.

    Parameters
    ----------
    values : float64 (>= n,)
        Changed in place.
    indices : int64 (>= n,)
        Changed in place, with ``values``.
    n : int
    """
    if n == 0:
        return
    stack_s = np.empty(n + 1, dtype=np.int64)
    stack_n = np.empty(n + 1, dtype=np.int64)
    stack_d = np.empty(n + 1, dtype=np.int64)
    stack_s[0] = 0
    stack_n[0] = n
    stack_d[0] = 2 * int(np.log2(n))
    top = 1
    while top > 0:
        top -= 1
        s = stack_s[top]
        size = stack_n[top]
        maxd = stack_d[top]
        sorted_ = False
        while size > 15:
            if maxd <= 0:  # max depth limit exceeded ("gone quadratic")
                _heapsort(values, indices, s, size)
                sorted_ = True
                break
            maxd -= 1
            pivot = _inplace_median3(values, indices, s, size)
            i = 1  # the median3 step ensures values[0] <= pivot
            j = size - 2  # and values[-1] >= pivot
            while True:
                while i <= j and values[s + i] < pivot:
                    i += 1
                while i <= j and values[s + j] > pivot:
                    j -= 1
                if i >= j:
                    break
                _sort_swap(values, indices, s + i, s + j)
                i += 1
                j -= 1
            pivot_idx = i
            _sort_swap(values, indices, s + pivot_idx, s + size - 1)
            # scikit-learn's recursive call on the left side, with the decremented depth
            stack_s[top] = s
            stack_n[top] = pivot_idx
            stack_d[top] = maxd
            top += 1
            # continue with the right side
            s += pivot_idx + 1
            size -= pivot_idx + 1
        if not sorted_:
            _insertion_sort(values, indices, s, size)


@kernel()
def exact_regression_rows(X, ranks, cols, folds, open_rows, nbr):
    """scikit-learn's ordered neighbours of the open rows of one mask, for the regression path.

    For every fold holding rows with ``open_rows[r]``, ``nbr[r, :k]`` receives the sample
    indices (into ``X``: ``train[pos]``) of the neighbours that
    ``KNeighborsRegressor(k).fit(X[train][:, cols], .).kneighbors(X[test][:, cols],
    return_distance=False)`` (``algorithm="auto"``) returns for row r, in its order. Where
    scikit-learn takes brute force (more than 15 columns, or ``k >= n_train // 2``), the heaps
    of :func:`_sk_brute_rows` (``ArgKmin``: its chunks, threads and merges) are sorted by
    :func:`simultaneous_sort` on their reduced distances; where it takes a kd-tree, every
    open row is queried in full on the fold's lazily built tree (:func:`_fold_tree`,
    :func:`kd_query`; rows of equal points once, :func:`_equal_point_groups`) and its heap
    sorted the same way. With ``folds.exact == 0`` nothing is done.

    Parameters
    ----------
    X : float64 (n, D)
    ranks : int32 (D, n)
        Each column's ranks, ties by index, at least for ``cols``
        (:class:`pymoo_fs.evaluation.knn.layout.ColumnRanks`).
    cols : int64 (m,)
        The mask's columns, increasing, ``m >= 1``.
    folds : Folds
        The kernels' fold layout (``sk_chunk``, ``sk_threads``: scikit-learn's
        ``pairwise_dist_chunk_size`` and OpenMP thread count; ``y`` is not read).
    open_rows : bool (R,)
        The rows to replay (not changed).
    nbr : int64 (R, >= k)
        Written in columns ``:k`` of the open rows only.
    """
    if folds.exact == 0:
        return
    k = folds.k
    m = cols.size
    for f in range(folds.bounds.size - 1):
        lo, hi, train, todo = _open_fold(folds, f, open_rows)
        if not todo:
            continue
        if sk_takes_brute(m, k, train.size):
            pos = np.empty((hi - lo, k), dtype=np.int64)
            vals = _sk_brute_rows(X, cols, folds.row_q[lo:hi], train, open_rows, lo, k,
                                  folds.sk_chunk, folds.sk_threads, pos)
            for r in range(lo, hi):
                if open_rows[r]:
                    simultaneous_sort(vals[r - lo], pos[r - lo], k)
                    for j in range(k):
                        nbr[r, j] = train[pos[r - lo, j]]
            continue
        rows, same = _equal_point_groups(X, cols, folds, lo, hi, open_rows)
        t, stack, lbs = _fold_tree(X, ranks, cols, train)
        pt = np.empty(m)
        vals = np.empty(k)
        pos = np.empty(k, dtype=np.int64)
        for i in range(rows.size):
            r = rows[i]
            if same[i] >= 0:
                for j in range(k):
                    nbr[r, j] = nbr[same[i], j]
                continue
            q = folds.row_q[r]
            for c in range(m):
                pt[c] = X[q, cols[c]]
            kd_query(t, pt, k, vals, pos, stack, lbs)
            simultaneous_sort(vals, pos, k)
            for j in range(k):
                nbr[r, j] = train[pos[j]]


@kernel(parallel=True)
def exact_regression_batch(X, ranks, cols_flat, cols_ptr, folds, open_rows, nbr):
    """:func:`exact_regression_rows` for every mask ``b`` (columns
    ``cols_flat[cols_ptr[b]:cols_ptr[b + 1]]``, increasing) with open rows in
    ``open_rows[b]`` (bool (B, R)), into ``nbr[b]`` (int64 (B, R, >= k)), the masks over the
    threads."""
    for b in nb.prange(cols_ptr.size - 1):
        todo = False
        for r in range(open_rows.shape[1]):
            todo |= open_rows[b, r]
        if todo:
            exact_regression_rows(X, ranks, cols_flat[cols_ptr[b]:cols_ptr[b + 1]], folds,
                                  open_rows[b], nbr[b])
