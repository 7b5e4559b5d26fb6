"""Compiled symmetric uncertainty of binned features (numba, cached on disk).

Plain loops in Weka's order of operations (``ContingencyTables.symmetricalUncertainty``):
:func:`su_against` computes SU between every feature and one other binned variable.
"""

import math

import numba as nb
import numpy as np

#: Weka's ``Utils.SMALL``: entropies (unnormalised, in nats) within it of 0 count as 0
_SMALL = 1e-6


@nb.njit(cache=True, inline="always")
def _nlogn(c):
    return c * math.log(c) if c > 0.0 else 0.0


@nb.njit(cache=True)
def _su_of_table(table, n_rows, n_cols):
    """SU of a contingency table (rows x cols), Weka's formula; 0 if either entropy is 0."""
    total = 0.0
    col_entropy = 0.0
    for j in range(n_cols):
        s = 0.0
        for i in range(n_rows):
            s += table[i, j]
        col_entropy += _nlogn(s)
        total += s
    col_entropy -= _nlogn(total)
    row_entropy = 0.0
    conditional = 0.0
    for i in range(n_rows):
        s = 0.0
        for j in range(n_cols):
            s += table[i, j]
            conditional += _nlogn(table[i, j])
        row_entropy += _nlogn(s)
    conditional -= row_entropy
    row_entropy -= _nlogn(total)
    gain = col_entropy - conditional
    if abs(col_entropy) < _SMALL or abs(row_entropy) < _SMALL:
        return 0.0
    return 2.0 * (gain / (col_entropy + row_entropy)) + 0.0  # never -0.0


@nb.njit(cache=True)
def su_against(codes_t, n_bins, features, other, n_other):
    """SU between each listed feature (rows) and one binned variable (columns).

    Parameters
    ----------
    codes_t : int64 (D, n)
        Bin codes, one row per feature.
    n_bins : int64 (D,)
    features : int64 (k,)
        Features to score.
    other : int64 (n,)
        Codes of the other variable (the class, or a feature).
    n_other : int
        Its number of values.

    Returns
    -------
    su : float64 (k,)
    """
    n = codes_t.shape[1]
    largest = 1
    for f in features:
        largest = max(largest, n_bins[f])
    table = np.zeros((largest, n_other))
    out = np.empty(features.size)
    for k in range(features.size):
        f = features[k]
        rows = n_bins[f]
        table[:rows, :] = 0.0
        codes = codes_t[f]
        for i in range(n):
            table[codes[i], other[i]] += 1.0
        out[k] = _su_of_table(table, rows, n_other)
    return out


@nb.njit(cache=True)
def _su_pair(a, na, b, nb_, table):
    table[:na, :nb_] = 0.0
    for i in range(a.size):
        table[a[i], b[i]] += 1.0
    return _su_of_table(table, na, nb_)


@nb.njit(cache=True)
def redundant_marks(features, relevance, row_of, pairs, codes_t, n_bins):
    """Marks of the features made redundant by an earlier unmarked one (AMSO's rule).

    ``features`` are in decreasing relevance; an unmarked ``features[a]`` marks each later
    unmarked ``features[b]`` with ``SU(a, b) > relevance[b]``. A pair involving a feature
    without a row (``row_of < 0``: zero relevance) has SU 1. ``pairs`` (float32, R x R) holds
    the SU between the features with rows; when it is empty (0 x 0) SU is computed from the
    codes.
    """
    k = features.size
    marked = np.zeros(k, dtype=np.bool_)
    largest = 1
    for f in features:
        largest = max(largest, n_bins[f])
    table = np.zeros((largest, largest))
    for a in range(k - 1):
        if marked[a]:
            continue
        fa = features[a]
        ra = row_of[fa]
        for b in range(a + 1, k):
            if marked[b]:
                continue
            fb = features[b]
            rb = row_of[fb]
            if ra < 0 or rb < 0:
                s = np.float32(1.0)
            elif pairs.shape[0] > 0:
                s = pairs[ra, rb]
            else:
                s = np.float32(_su_pair(codes_t[fa], n_bins[fa], codes_t[fb], n_bins[fb],
                                        table))
            if s > relevance[fb]:
                marked[b] = True
    return marked
