"""Compiled sampling helpers of the swarms (numba): the randomness comes from the caller."""

import numba as nb
import numpy as np


@nb.njit(cache=True)
def floyd(n, u):
    """``u.size`` distinct indices of ``range(n)``, uniformly: Floyd's algorithm.

    Parameters
    ----------
    n : int
        Population size (at least ``u.size``).
    u : float64 (m,)
        ``m`` uniform draws in [0, 1), one per index chosen (from the caller's generator).

    Returns
    -------
    chosen : int64 (m,)
        In the order chosen. Every m-subset is equally likely (R. W. Floyd's algorithm, in
        J. Bentley, "Programming pearls: a sample of brilliance", CACM 30(9), 1987).
    """
    m = u.size
    taken = np.zeros(n, dtype=np.bool_)
    chosen = np.empty(m, dtype=np.int64)
    for t in range(m):
        j = n - m + t
        r = int(u[t] * (j + 1))
        if r > j:  # guard against u == 1.0 after rounding
            r = j
        pick = j if taken[r] else r
        taken[pick] = True
        chosen[t] = pick
    return chosen
