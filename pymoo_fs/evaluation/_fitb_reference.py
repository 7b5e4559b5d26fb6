"""Plain-numpy statement of what the FIT-B kernels compute (the tests compare against it).

The quantised data ``Q`` (int64, n x D) of :class:`~pymoo_fs.evaluation.FitBEvaluator` and a
mask give the L1 matrix of the subset; from it, FIT-B as Tran et al. (2019) define it (Eq. 6-11):
balanced accuracy of 1-NN across the inner folds, and the sigmoid of the difference between
the mean distance to the nearest instance of another class and the mean distance to the
farthest instance of the same class.

References
----------
B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.
"""

import numpy as np
from sklearn.metrics import balanced_accuracy_score


def l1_matrix(Q, mask):
    """Integer L1 distances between all rows of ``Q[:, mask]`` (n, n), column by column."""
    n = Q.shape[0]
    M = np.zeros((n, n), dtype=np.int64)
    for f in np.flatnonzero(mask):
        M += np.abs(Q[:, f][:, None] - Q[:, f][None, :])
    return M


def stats(M, y, fold):
    """1-NN predictions (lowest index on ties), nearest other-class and farthest same-class."""
    n = M.shape[0]
    other = np.arange(n)[None, :] != np.arange(n)[:, None]
    same = (y[:, None] == y[None, :]) & other
    candidates = fold[:, None] != fold[None, :]
    big = np.iinfo(np.int64).max
    pred = y[np.argmin(np.where(candidates, M, big), axis=1)]
    nearest_other = np.where(~same & other, M, big).min(axis=1)
    farthest_same = np.where(same, M, 0).max(axis=1)
    return pred, nearest_other, farthest_same


def fitness(Q, mask, y, fold, step, mu, balanced_accuracy, distance):
    """FIT-B of one mask from scratch (numpy and scikit-learn only).

    ``balanced_accuracy`` is ``"pooled"`` (one confusion matrix over all folds) or
    ``"per_fold"`` (mean of the folds' balanced accuracies); ``distance`` is ``"averaged"``
    (L1 divided by the number of selected features) or ``"sum"``.
    """
    k = int(np.count_nonzero(mask))
    if k == 0:
        return 0.0
    M = l1_matrix(Q, mask)
    pred, nearest_other, farthest_same = stats(M, y, fold)
    if balanced_accuracy == "pooled":
        acc = balanced_accuracy_score(y, pred)
    else:
        acc = np.mean([balanced_accuracy_score(y[fold == f], pred[fold == f])
                       for f in np.unique(fold)])
    scale = step / k if distance == "averaged" else step
    n = y.size
    d_b = float(nearest_other.sum()) * scale / n
    d_w = float(farthest_same.sum()) * scale / n
    return mu * float(acc) + (1.0 - mu) / (1.0 + np.exp(-5.0 * (d_b - d_w)))


def fitness_float(X, mask, y, fold, mu):
    """FIT-B on unquantised float data, the paper's formulas with the code's averaging."""
    Xs = X[:, mask]
    M = np.abs(Xs[:, None, :] - Xs[None, :, :]).sum(axis=2) / Xs.shape[1]
    n = y.size
    other = ~np.eye(n, dtype=bool)
    same = (y[:, None] == y[None, :]) & other
    pred = y[np.argmin(np.where(fold[:, None] != fold[None, :], M, np.inf), axis=1)]
    d_b = np.where(~same & other, M, np.inf).min(axis=1).mean()
    d_w = np.where(same, M, 0.0).max(axis=1).mean()
    return mu * balanced_accuracy_score(y, pred) + (1 - mu) / (1 + np.exp(-5 * (d_b - d_w)))
