"""Selection consistency across runs: per-feature frequencies and the Q-measure.

Both as Butler-Yeoman et al. (2015, §5.5) define them.

References
----------
T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
size-controlled approach", AusDM 2015, Conferences in Research and Practice in
Information Technology 168.
"""

import numpy as np

__all__ = ["q_measure", "selection_frequency"]


def selection_frequency(masks):
    """How often each feature was selected over runs, scaled to [0, 1].

    Parameters
    ----------
    masks : array-like of bool, shape (n_runs, n_features)
        The subset each run selected (one mask per run, e.g. a single-objective run's gbest).

    Returns
    -------
    frequency : ndarray of float64, shape (n_features,)
        The fraction of the runs that selected each feature: 0 never, 1 in every run
        (Butler-Yeoman et al. 2015, §5.5: "the number of times that each feature is selected ...
        scaled to [0, 1]").

    Raises
    ------
    ValueError
        If ``masks`` is not a non-empty 2-D array of 0/1 values.

    Examples
    --------
    >>> from pymoo_fs.analysis import selection_frequency
    >>> selection_frequency([[1, 1, 0, 0], [1, 0, 1, 0]])
    array([1. , 0.5, 0.5, 0. ])
    """
    masks = np.asarray(masks)
    if masks.ndim != 2 or masks.shape[0] == 0 or masks.shape[1] == 0:
        raise ValueError(f"masks must be a non-empty 2-D array (n_runs, n_features), got shape "
                         f"{masks.shape}")
    if masks.dtype != bool and not np.isin(masks, (0, 1)).all():
        raise ValueError("masks must hold booleans or 0/1 values")
    return masks.astype(bool).mean(axis=0)


def q_measure(frequency):
    """Butler-Yeoman et al.'s (2015) Q-measure of selection consistency (higher is more consistent).

    Parameters
    ----------
    frequency : array-like of float, shape (n_features,)
        Selection frequencies, e.g. from :func:`selection_frequency`.

    Returns
    -------
    q : float
        ``Q = sum_i | f_i / sum_j f_j - 1/n |`` with ``n`` the number of features: 0 when every
        feature is selected equally often (indiscriminate selection), approaching
        ``2 (1 - k/n)`` when the same ``k`` features are always selected.

    Raises
    ------
    ValueError
        If ``frequency`` is not a non-empty 1-D array of non-negative finite values with a
        positive sum (no feature ever selected).

    References
    ----------
    T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
    size-controlled approach", AusDM 2015, CRPIT 168, §5.5.1 and Table 5.

    Examples
    --------
    >>> from pymoo_fs.analysis import q_measure
    >>> q_measure([1.0, 0.5, 0.5, 0.0])  # |0.5-0.25| + 0 + 0 + |0-0.25|
    0.5
    >>> round(q_measure([0.3, 0.3, 0.3]), 12)  # uniform: no consistency
    0.0
    """
    f = np.asarray(frequency, dtype=float)
    if f.ndim != 1 or f.size == 0 or not np.all(np.isfinite(f)) or np.any(f < 0):
        raise ValueError("frequency must be a non-empty 1-D array of non-negative finite values")
    total = f.sum()
    if total <= 0:
        raise ValueError("frequency sums to 0: no feature was ever selected")
    return float(np.abs(f / total - 1.0 / f.size).sum())
