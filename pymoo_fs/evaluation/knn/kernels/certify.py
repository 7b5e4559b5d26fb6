"""One row's vote and its certification: the small routines every prediction path shares.

:func:`certify` is the one rounding-band test of every path (batch, single mask, float32
refinement and flips); :func:`insert` keeps a row's k + 1 nearest, :func:`argmax_first` votes
as scikit-learn does (a vote tie goes to the smallest class index), :func:`pair_bound` is the
bound of one pair's distance.
"""

import numpy as np

from .jit import kernel


@kernel(inline="always")
def insert(bd, bi, cnt, K, d, j):
    """Insert (d, j) into the sorted top-K lists of length cnt; strict < keeps earlier ties.

    Callers test ``d < bd[K - 1]`` themselves before calling when the lists are full: the call
    passes arrays, and doing it for every candidate costs more than the whole scan.
    """
    if cnt == K:
        p = K - 1
    else:
        p = cnt
        cnt += 1
    while p > 0 and d < bd[p - 1]:
        bd[p] = bd[p - 1]
        bi[p] = bi[p - 1]
        p -= 1
    bd[p] = d
    bi[p] = j
    return cnt


@kernel(inline="always")
def argmax_first(counts):
    """Index of the largest count, the smallest index among equal ones (numpy's ``argmax``)."""
    best = 0
    for c in range(1, counts.size):
        if counts[c] > counts[best]:
            best = c
    return best


@kernel()
def kth_smallest(v, cnt, k, tmp):
    """The k-th smallest (1-based) of ``v[:cnt]`` (``cnt >= k``); ``tmp`` has room for k."""
    c = 0
    for p in range(cnt):
        x = v[p]
        if c < k:
            q = c
            c += 1
        elif x < tmp[k - 1]:
            q = k - 1
        else:
            continue
        while q > 0 and x < tmp[q - 1]:
            tmp[q] = tmp[q - 1]
            q -= 1
        tmp[q] = x
    return tmp[k - 1]


@kernel()
def certify(L, U, lab, cnt, k, counts, tmp):
    """Certify one row's k-nearest-neighbour vote from intervals around its distances.

    Candidate ``p`` (label ``lab[p]``) has scikit-learn distance in ``[L[p], U[p]]``. With
    ``T_U`` the k-th smallest upper bound and ``T_L`` the (k+1)-th smallest lower bound, a
    candidate with ``U < T_L`` is among scikit-learn's k nearest whatever the rounding and the
    tie order (at most k candidates can come before it), and one with ``L > T_U`` is not (k
    others surely come before it). The rest form the band. The vote is certified when the band
    holds exactly the missing places, or all its members share one label. Adds the vote to
    ``counts`` when certified; returns ``(certified, T_U)``. This is the one rounding-band test
    of every path (:func:`~pymoo_fs.evaluation.knn.reference.band_flags` states it in numpy).
    """
    if cnt <= k:
        for p in range(cnt):
            counts[lab[p]] += 1
        return True, np.inf
    t_u = kth_smallest(U, cnt, k, tmp)
    t_l = kth_smallest(L, cnt, k + 1, tmp)
    n_in = 0
    n_band = 0
    first = -1
    mixed = False
    for p in range(cnt):
        if U[p] < t_l:
            n_in += 1
        elif L[p] <= t_u:
            n_band += 1
            if first == -1:
                first = lab[p]
            elif lab[p] != first:
                mixed = True
    need = k - n_in
    if need > 0 and n_band > need and mixed:
        return False, t_u
    for p in range(cnt):
        if U[p] < t_l:
            counts[lab[p]] += 1
        elif need > 0 and L[p] <= t_u and n_band == need:
            counts[lab[p]] += 1
    if need > 0 and n_band > need:
        counts[first] += need
    return True, t_u


@kernel(inline="always")
def pair_bound(e_ours, g_sk, mq, mj, aq, aj):
    """Bound of |our squared distance - scikit-learn's| for one pair (see predict_rows)."""
    return e_ours * (mq + mj) ** 2 + g_sk * (aq + aj) ** 2
