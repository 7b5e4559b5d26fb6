"""Synthetic data with shapes that stress the evaluator."""

import numpy as np

from pymoo_fs._validation import check_positive_int, check_seed

__all__ = ["make_heavy_tailed", "make_relevant_regression"]


def make_heavy_tailed(n_samples: int = 450, n_features: int = 100,
                      random_state: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Two-class series whose rows span five orders of magnitude, min-max scaled.

    Each row is a random walk around 1 (a smooth series), a Gaussian bump in the middle
    features pushed up for class 1 and down for class 0, multiplied by a per-row scale
    ``10^U(-0.2, 5.2)``; every column is then min-max scaled to [0, 1], as the study protocols
    do. Common in real series data, this shape leaves most rows with tiny norms next to a few
    huge ones, which is where a row-wide rounding bound certifies badly (the evaluator issue's
    reproduction, 450 x 100).

    Parameters
    ----------
    n_samples : int, default=450
    n_features : int, default=100
    random_state : int, default=0
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    X : ndarray of float64, shape (n_samples, n_features)
        Values in [0, 1].
    y : ndarray of int64, shape (n_samples,)
        Labels 0 and 1.

    Raises
    ------
    ValueError
        If a size is not a positive int or ``random_state`` is not a valid seed.

    Examples
    --------
    >>> from pymoo_fs.datasets import make_heavy_tailed
    >>> X, y = make_heavy_tailed()
    >>> X.shape, float(X.min()), float(X.max())
    ((450, 100), 0.0, 1.0)
    """
    n = check_positive_int("n_samples", n_samples)
    d = check_positive_int("n_features", n_features)
    rng = np.random.default_rng(check_seed("random_state", random_state))
    scale = 10 ** rng.uniform(-0.2, 5.2, n)
    base = np.cumsum(rng.normal(size=(n, d)), axis=1) * 0.05 + 1
    y = rng.integers(0, 2, n)
    bump = np.exp(-0.5 * ((np.arange(d) - d / 2) / 8) ** 2)
    X = (base + np.where(y[:, None] == 1, 0.3, -0.3) * bump) * scale[:, None]
    span = np.ptp(X, axis=0)
    return (X - X.min(axis=0)) / np.where(span > 0, span, 1.0), y.astype(np.int64)


def make_relevant_regression(n_samples: int = 200, n_features: int = 20, n_relevant: int = 4,
                             noise: float = 0.1, random_state: int = 0):
    """Regression data whose target depends on a known subset of the features only.

    The features are independent uniform values on [0, 1]; the target is a smooth,
    non-linear function of the ``n_relevant`` relevant ones (chosen at random among the
    columns), ``y = sum_j sin(2 pi x_j) + x_j`` over them, plus Gaussian noise of standard
    deviation ``noise``. The other features are pure noise, so a wrapper selector with KNN
    should keep exactly the relevant ones (each irrelevant one blurs the neighbourhoods).

    Parameters
    ----------
    n_samples : int, default=200
    n_features : int, default=20
    n_relevant : int, default=4
        Number of relevant features, at most ``n_features``.
    noise : float, default=0.1
        Standard deviation of the Gaussian noise added to the target, ``>= 0``.
    random_state : int, default=0
        Seed of ``numpy.random.default_rng``.

    Returns
    -------
    dataset : RegressionDataset
        ``X`` (n_samples, n_features) in [0, 1], ``y`` float64, ``relevant`` the sorted
        indices of the relevant features, ``name`` ``"relevant_regression"``.

    Raises
    ------
    ValueError
        If a size is not a positive int, ``n_relevant > n_features``, ``noise`` is negative
        or ``random_state`` is not a valid seed.

    Examples
    --------
    >>> from pymoo_fs.datasets import make_relevant_regression
    >>> data = make_relevant_regression(n_features=10, n_relevant=3)
    >>> data.X.shape, data.relevant.tolist()
    ((200, 10), [5, 6, 9])
    """
    from pymoo_fs._validation import check_real
    from pymoo_fs.datasets.regression import RegressionDataset

    n = check_positive_int("n_samples", n_samples)
    d = check_positive_int("n_features", n_features)
    r = check_positive_int("n_relevant", n_relevant)
    if r > d:
        raise ValueError(f"n_relevant={r} exceeds n_features={d}")
    noise = check_real("noise", noise, low=0.0)
    rng = np.random.default_rng(check_seed("random_state", random_state))
    relevant = np.sort(rng.choice(d, size=r, replace=False))
    X = rng.random((n, d))
    Z = X[:, relevant]
    y = (np.sin(2 * np.pi * Z) + Z).sum(axis=1) + noise * rng.normal(size=n)
    return RegressionDataset(X=X, y=y, feature_names=[f"x{j}" for j in range(d)],
                             name="relevant_regression",
                             citation="synthetic (pymoo_fs.datasets.make_relevant_regression)",
                             relevant=relevant)
