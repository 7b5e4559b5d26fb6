"""Compiled kernels of the FIT-B evaluator (numba, serial, cached on disk).

All distances are integer Manhattan (L1) sums of the quantised data, so a matrix updated
column by column equals the matrix computed from scratch exactly, whatever the order of the
updates. :mod:`pymoo_fs.evaluation._fitb_reference` states in plain numpy what they compute.

- :func:`update_matrix`: turn the matrix of one mask into the matrix of another, adding or
  subtracting the L1 contributions of the columns where they differ, four columns per pass
  (whole rows: contiguous loops vectorise, which measured faster than updating one triangle
  and mirroring it; four columns per pass measured 1.4-1.6x one for moves of 1-4 columns
  and 2.1-2.8x for 40-500, `benchmarks/fitb_update.py`);
- :func:`fitb_flip_stats`: per instance, the 1-NN prediction across folds, the distance to
  the nearest instance of another class and to the farthest of the same class, for a matrix
  or that matrix with one column added or removed (without materialising it);
- :func:`summary`: the sums FIT-B needs from those statistics; :func:`evaluate` both at once;
- :func:`rebuild`: a stored matrix from another one (or from zeros);
- :func:`nearest_key`: the stored mask closest in Hamming distance to a mask;
- :func:`locate`: the store's slot of a mask's matrix (found, or built by :func:`rebuild`
  from the nearest stored one); :func:`locate_evaluate`: that and :func:`evaluate` in one
  call (one dispatch per mask instead of three).
"""

import numba as nb
import numpy as np

_INT64_MAX = np.iinfo(np.int64).max


@nb.njit(cache=True)
def update_matrix(M, q_t, old_mask, new_mask):
    """Turn the L1 matrix of ``old_mask`` into that of ``new_mask`` in place.

    The added columns are applied first, then the removed ones, four columns per pass over the
    matrix: a pass adds (or subtracts) the sum of four columns' contributions, so each entry is
    loaded and stored once per four columns, and no entry is multiplied by a sign (AVX2 has no
    int64 multiply). Integer sums: the result is the same whatever the grouping, and no
    intermediate entry exceeds the final matrix of ``old_mask | new_mask``.

    Returns
    -------
    n_columns : int
        Columns added or removed.
    """
    D = old_mask.size
    added = np.empty(D, dtype=np.int64)
    removed = np.empty(D, dtype=np.int64)
    n_added = n_removed = 0
    for f in range(D):
        if old_mask[f] != new_mask[f]:
            if new_mask[f]:
                added[n_added] = f
                n_added += 1
            else:
                removed[n_removed] = f
                n_removed += 1
    _apply_columns(M, q_t, added, n_added, True)
    _apply_columns(M, q_t, removed, n_removed, False)
    return n_added + n_removed


@nb.njit(cache=True)
def _apply_columns(M, q_t, columns, count, add):
    """Add (``add``) or subtract the L1 contributions of ``q_t[columns[:count]]`` to ``M``."""
    n = M.shape[0]
    t = 0
    while t + 3 < count:
        a, b, c, d = q_t[columns[t]], q_t[columns[t + 1]], q_t[columns[t + 2]], q_t[columns[t + 3]]
        for i in range(n):
            ai, bi, ci, di = a[i], b[i], c[i], d[i]
            row = M[i]
            if add:
                for j in range(n):
                    row[j] += ((abs(ai - a[j]) + abs(bi - b[j]))
                               + (abs(ci - c[j]) + abs(di - d[j])))
            else:
                for j in range(n):
                    row[j] -= ((abs(ai - a[j]) + abs(bi - b[j]))
                               + (abs(ci - c[j]) + abs(di - d[j])))
        t += 4
    while t < count:
        a = q_t[columns[t]]
        for i in range(n):
            ai = a[i]
            row = M[i]
            if add:
                for j in range(n):
                    row[j] += abs(ai - a[j])
            else:
                for j in range(n):
                    row[j] -= abs(ai - a[j])
        t += 1


@nb.njit(cache=True)
def rebuild(matrices, slot, base, q_t, base_mask, mask):
    """Matrix ``slot`` := matrix ``base`` (zeros if ``base < 0``) turned into that of ``mask``.

    Returns
    -------
    n_columns : int
        Columns added or removed.
    """
    M = matrices[slot]
    if base < 0:
        M[:, :] = 0
    elif base != slot:
        M[:, :] = matrices[base]
    return update_matrix(M, q_t, base_mask, mask)


@nb.njit(cache=True)
def locate(matrices, keys, masks, stamps, n_stored, clock, hint, q_t, mask):
    """Slot of the matrix of ``mask`` in the store: stored, or built from the nearest one.

    The store is ``matrices`` (C, n, n), ``keys`` (C, W) (``mask`` packed 64 features per
    word), ``masks`` (C, D) and ``stamps`` (C,) (the clock at each slot's last use); its first
    ``n_stored`` slots are in use. The stored key nearest to ``mask``'s in Hamming distance
    is found by :func:`nearest_key`, scanning from slot ``hint``. An equal key is reused.
    Otherwise the next unused slot (or, with none, the least recently used, the first of equal
    stamps) gets the nearest stored matrix turned into ``mask``'s when that costs fewer
    columns than ``mask`` has features, else ``mask``'s matrix from zeros.

    Returns
    -------
    slot, n_stored, clock, n_columns : int
        The slot, the store's new size and clock (one tick per call), and the columns added
        or removed (0 for a stored mask).
    """
    D = mask.size
    key = np.zeros(keys.shape[1], dtype=np.uint64)
    size = 0
    for f in range(D):
        if mask[f]:
            key[f >> 6] |= np.uint64(1) << np.uint64(f & 63)
            size += 1
    near, dist = nearest_key(keys, n_stored, key, hint if hint < n_stored else 0)
    clock += 1
    if near >= 0 and dist == 0:
        stamps[near] = clock
        return near, n_stored, clock, 0
    if n_stored < keys.shape[0]:
        slot = n_stored
        n_stored += 1
    else:
        slot = np.argmin(stamps)
    if near >= 0 and dist < size:
        n_columns = rebuild(matrices, slot, near, q_t, masks[near], mask)
    else:
        n_columns = rebuild(matrices, slot, -1, q_t, np.zeros(D, dtype=np.bool_), mask)
    keys[slot] = key
    masks[slot] = mask
    stamps[slot] = clock
    return slot, n_stored, clock, n_columns


@nb.njit(cache=True)
def locate_evaluate(matrices, keys, masks, stamps, n_stored, clock, hint, q_t, mask, zeros, y,
                    fold, n_classes):
    """:func:`locate` then :func:`evaluate` of the slot's matrix, in one call.

    Returns
    -------
    slot, n_stored, clock, n_columns : int
        As :func:`locate`.
    pred, correct, total_other, total_same
        As :func:`evaluate`.
    """
    slot, n_stored, clock, n_columns = locate(matrices, keys, masks, stamps, n_stored, clock,
                                              hint, q_t, mask)
    pred, correct, total_other, total_same = evaluate(matrices[slot], zeros, 0, y, fold,
                                                      n_classes)
    return slot, n_stored, clock, n_columns, pred, correct, total_other, total_same


@nb.njit(cache=True)
def evaluate(M, q, sign, y, fold, n_classes):
    """Predictions, correct predictions per class and the exact distance sums of one subset.

    :func:`fitb_flip_stats` followed by :func:`summary` in one call.
    """
    pred, nearest_other, farthest_same = fitb_flip_stats(M, q, sign, y, fold)
    correct, total_other, total_same = summary(pred, nearest_other, farthest_same, y,
                                               n_classes)
    return pred, correct, total_other, total_same


@nb.njit(cache=True)
def summary(pred, nearest_other, farthest_same, y, n_classes):
    """Correct predictions per class and the int64 sums of the two distances (exact)."""
    correct = np.zeros(n_classes, dtype=np.int64)
    total_other = 0
    total_same = 0
    for i in range(y.size):
        if pred[i] == y[i]:
            correct[y[i]] += 1
        total_other += nearest_other[i]
        total_same += farthest_same[i]
    return correct, total_other, total_same


@nb.njit(cache=True)
def fitb_flip_stats(M, q, sign, y, fold):
    """1-NN predictions across folds and the between/within distances of each instance.

    For the L1 matrix ``M + sign * |q[i] - q[j]|``: ``M`` itself with ``sign = 0``, one feature
    (column ``q``) added with ``sign = 1`` or removed with ``sign = -1``, without
    materialising the new matrix.

    Parameters
    ----------
    M : int64 (n, n)
        L1 matrix of a feature subset.
    q : int64 (n,)
        The flipped feature's quantised column (ignored when ``sign = 0``).
    sign : int
    y : int64 (n,)
        Class codes.
    fold : int64 (n,)
        Inner fold of each instance; an instance's candidate neighbours are the instances of
        the other folds.

    Returns
    -------
    pred : int64 (n,)
        Class of the nearest candidate; equal distances go to the lowest index.
    nearest_other : int64 (n,)
        Distance to the nearest instance of another class (int64 max if none).
    farthest_same : int64 (n,)
        Distance to the farthest other instance of the same class (0 if none).
    """
    n = M.shape[0]
    pred = np.empty(n, dtype=np.int64)
    nearest_other = np.empty(n, dtype=np.int64)
    farthest_same = np.empty(n, dtype=np.int64)
    for i in range(n):
        row = M[i]
        qi = q[i]
        best, who = _INT64_MAX, -1
        low, high = _INT64_MAX, 0
        for j in range(n):
            if j == i:
                continue
            d = row[j] + sign * abs(qi - q[j]) if sign != 0 else row[j]
            if y[j] == y[i]:
                if d > high:
                    high = d
            elif d < low:
                low = d
            if fold[j] != fold[i] and d < best:
                best, who = d, j
        pred[i] = y[who]
        nearest_other[i] = low
        farthest_same[i] = high
    return pred, nearest_other, farthest_same


@nb.njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2))
                                               & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return (x * np.uint64(0x0101010101010101)) >> np.uint64(56)


@nb.njit(cache=True)
def nearest_key(keys, n_keys, key, start):
    """Index and Hamming distance of the stored key closest to ``key`` (-1 if none).

    Parameters
    ----------
    keys : uint64 (K, W)
        Packed masks; the first ``n_keys`` rows are in use.
    n_keys : int
    key : uint64 (W,)
    start : int
        Row scanned first (the most recently used): a close first match lets the scan of
        every other row stop after a word or two. Ties go to the first row scanned.
    """
    best, who = np.int64(_INT64_MAX), -1
    for t in range(n_keys):
        k = (start + t) % n_keys
        d = np.int64(0)
        row = keys[k]
        for w in range(key.size):
            d += np.int64(_popcount(row[w] ^ key[w]))
            if d >= best:
                break
        if d < best:
            best, who = d, k
            if d == 0:
                break
    return who, best
