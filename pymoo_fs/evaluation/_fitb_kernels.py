"""Compiled kernels of the FIT-B evaluator (numba, serial, cached on disk).

All distances are integer Manhattan (L1) sums of the quantised data, so a matrix updated
column by column equals the matrix computed from scratch exactly, whatever the order of the
updates. :mod:`pymoo_fs.evaluation._fitb_reference` states in plain numpy what they compute.

- :func:`apply_columns`: add (or subtract) the L1 contributions of some columns to a matrix;
- :func:`update_matrix`: turn the matrix of one mask into the matrix of another;
- :func:`fitb_stats`: per instance, the 1-NN prediction across folds, the distance to the
  nearest instance of another class and to the farthest of the same class;
- :func:`fitb_flip_stats`: the same for the matrix with one column added or removed, without
  materialising it;
- :func:`summary`: the sums FIT-B needs from those statistics;
- :func:`nearest_key`: the stored mask closest in Hamming distance to a mask.
"""

import numba as nb
import numpy as np

_INT64_MAX = np.iinfo(np.int64).max


@nb.njit(cache=True)
def apply_columns(M, q_t, columns, signs):
    """``M[i, j] += signs[c] * |q_t[columns[c], i] - q_t[columns[c], j]|`` for every column.

    Parameters
    ----------
    M : int64 (n, n)
        Symmetric L1 matrix, updated in place (whole rows: contiguous loops vectorise, which
        measured faster than updating one triangle and mirroring it).
    q_t : int64 (D, n)
        Quantised data, one row per feature.
    columns : int64 (c,)
    signs : int64 (c,)
        +1 to add a feature, -1 to remove it.
    """
    n = M.shape[0]
    for c in range(columns.size):
        q = q_t[columns[c]]
        s = signs[c]
        for i in range(n):
            qi = q[i]
            row = M[i]
            for j in range(n):
                row[j] += s * abs(qi - q[j])


@nb.njit(cache=True)
def update_matrix(M, q_t, old_mask, new_mask):
    """Turn the L1 matrix of ``old_mask`` into that of ``new_mask`` in place.

    Returns
    -------
    n_columns : int
        Columns added or removed.
    """
    n = M.shape[0]
    changed = 0
    for f in range(old_mask.size):
        if old_mask[f] == new_mask[f]:
            continue
        s = 1 if new_mask[f] else -1
        q = q_t[f]
        for i in range(n):
            qi = q[i]
            row = M[i]
            for j in range(n):
                row[j] += s * abs(qi - q[j])
        changed += 1
    return changed


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
def fitb_stats(M, y, fold):
    """1-NN predictions across folds and the between/within distances of each instance.

    Parameters
    ----------
    M : int64 (n, n)
        L1 matrix of a feature subset.
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
        best, who = _INT64_MAX, -1
        low, high = _INT64_MAX, 0
        for j in range(n):
            if j == i:
                continue
            d = row[j]
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


@nb.njit(cache=True)
def fitb_flip_stats(M, q, sign, y, fold):
    """:func:`fitb_stats` of ``M + sign * |q[i] - q[j]|`` (one feature added or removed)."""
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
            d = row[j] + sign * abs(qi - q[j])
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
