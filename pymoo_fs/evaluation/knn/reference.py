"""Plain-numpy statement of what the KNN evaluator's kernels compute.

These functions define the semantics that every faster backend must reproduce: for one feature
mask they build one squared-distance matrix over all samples, answer every fold from it and flag
the rows whose neighbour set cannot be certified against scikit-learn's own floating-point
computation (see :func:`band_flags`). They are kept as the readable, independently testable
specification and as the ``backend="numpy"`` fallback.
"""

import numpy as np


def rounding_bound(n_selected, norm_a, norm_b, cand_a, cand_b):
    """Bound on the difference between two computations of the same squared distance.

    Parameters
    ----------
    n_selected : int
        Number of selected features (the length of the dot products).
    norm_a : ndarray of float64, shape (r,)
        Euclidean norms of the query rows as scikit-learn sees them (uncentred).
    norm_b : ndarray of float64, shape (r,)
        Euclidean norms of the query rows as our computation sees them (centred).
    cand_a, cand_b : ndarray of float64, shape (n,)
        The same norms of the candidate neighbours.

    Returns
    -------
    E : ndarray of float64, shape (r, n)
        ``E[i, j]`` bounds ``|d_ours(i, j) - d_sklearn(i, j)|``.

    Notes
    -----
    A dot product of length ``m`` computed in floating point has an error of at most
    ``gamma_m |a| |b|`` with ``gamma_m = m u / (1 - m u)`` (Higham, *Accuracy and Stability of
    Numerical Algorithms*, 2nd ed., Eq. 3.5). ``|a|^2 + |b|^2 - 2 a.b`` therefore errs by at
    most ``gamma_{m+2} (|a| + |b|)^2``, which also bounds the direct sum of squared differences
    (kd-tree) since ``|a - b|^2 <= (|a| + |b|)^2``. The bound of our (centred) computation and
    the bound of scikit-learn's (uncentred) one are added, and a safety factor covers the
    rounding of the centring itself. The bound is per pair: where row norms differ by orders
    of magnitude (heavy-tailed data) a bound taken over the largest norm would leave many rows
    uncertified. ``gamma`` is :func:`~pymoo_fs.evaluation.knn.kernels.bounds.gamma`, the
    kernels' own.
    """
    # the bounds module compiles gamma for the kernels: importing it imports numba, which
    # importing this module (at ``import pymoo_fs.evaluation``) must not
    from pymoo_fs.evaluation.knn.kernels.bounds import U64, gamma

    g = gamma(n_selected + 2, U64)
    return g * ((norm_a[:, None] + cand_a[None, :]) ** 2
                + (norm_b[:, None] + cand_b[None, :]) ** 2)


def squared_distances(Xs, Qs=None):
    """Squared Euclidean distances via the Gram matrix, with their rounding bound.

    Parameters
    ----------
    Xs : ndarray of float64, shape (n, m)
        The selected columns of the reference samples (the candidates).
    Qs : ndarray of float64, shape (r, m), optional
        The selected columns of the query rows; default: ``Xs`` itself (all pairs).

    Returns
    -------
    D : ndarray of float64, shape (r, n)
        ``D[i, j] = |q_i - x_j|^2`` computed as ``|c_i|^2 + |c_j|^2 - 2 c_i.c_j`` on data centred
        by the column means of ``Xs`` (centring reduces cancellation), clipped at 0.
    E : ndarray of float64, shape (r, n)
        Per-pair bound of the difference to scikit-learn's computation (:func:`rounding_bound`).
    """
    mu = Xs.mean(axis=0)
    C = Xs - mu
    sq = np.einsum("ij,ij->i", C, C)
    raw = np.sqrt(np.einsum("ij,ij->i", Xs, Xs))
    if Qs is None:
        CQ, sq_q, raw_q = C, sq, raw
    else:
        CQ = Qs - mu
        sq_q = np.einsum("ij,ij->i", CQ, CQ)
        raw_q = np.sqrt(np.einsum("ij,ij->i", Qs, Qs))
    D = sq_q[:, None] + sq[None, :] - 2.0 * (CQ @ C.T)
    np.maximum(D, 0.0, out=D)
    E = rounding_bound(Xs.shape[1], raw_q, np.sqrt(sq_q), raw, np.sqrt(sq))
    return D, E


def knn_predict_rows(D_rows, E_rows, candidates, y_train, k, n_classes):
    """KNN predictions for query rows from their distances to all samples.

    Parameters
    ----------
    D_rows : ndarray of float64, shape (r, n)
        Squared distances of the query rows to the n samples.
    E_rows : ndarray of float64, shape (r, n)
        Rounding bound of each pair (:func:`rounding_bound`).
    candidates : ndarray of bool, shape (r, n)
        ``candidates[q, j]`` is True when sample ``j`` may be a neighbour of query ``q`` (it is in
        the training part of the query's fold).
    y_train : ndarray of int64, shape (n,)
        Encoded labels ``0 .. n_classes - 1`` of the samples.
    k : int
        Number of neighbours.
    n_classes : int
        Number of classes.

    Returns
    -------
    pred : ndarray of int64, shape (r,)
        Majority vote of the k nearest candidates; equal distances go to the lower sample index
        and equal votes to the smaller label (scikit-learn's rules).
    ambiguous : ndarray of bool, shape (r,)
        Rows whose vote could differ from scikit-learn's under rounding (:func:`band_flags`).
    """
    Dm = np.where(candidates, D_rows, np.inf)
    order = np.argsort(Dm, axis=1, kind="stable")
    nearest = order[:, :k]
    votes = np.zeros((Dm.shape[0], n_classes), dtype=np.int64)
    rows = np.repeat(np.arange(Dm.shape[0]), k)
    np.add.at(votes, (rows, y_train[nearest].ravel()), 1)
    pred = votes.argmax(axis=1)
    ambiguous = band_flags(Dm, E_rows, y_train, k)
    return pred, ambiguous


def band_flags(Dm, E_rows, y_train, k):
    """Flag rows whose k-nearest-neighbour vote is not certified.

    Parameters
    ----------
    Dm : ndarray of float64, shape (r, n)
        Distances of each query row to its candidates (+inf for non-candidates).
    E_rows : ndarray of float64, shape (r, n)
        Per-pair bound of the difference between our distances and scikit-learn's.
    y_train : ndarray of int64, shape (n,)
        Encoded labels of the samples.
    k : int
        Number of neighbours.

    Returns
    -------
    ambiguous : ndarray of bool, shape (r,)

    Notes
    -----
    Candidate ``j`` has scikit-learn distance in ``[L_j, U_j] = [D_j - E_j, D_j + E_j]``. With
    ``T_U`` the k-th smallest ``U`` and ``T_L`` the (k+1)-th smallest ``L``, a candidate with
    ``U_j < T_L`` is among scikit-learn's k nearest whatever its rounding and tie order (at most
    k candidates can come before it), and one with ``L_j > T_U`` is not. Both neighbour sets are
    therefore "the sure ones plus some members of the band" (the rest), and their votes agree
    when the band holds exactly the missing places or all its members share one label.
    Otherwise the row is ambiguous and its prediction is taken from scikit-learn's own
    arithmetic. The compiled kernels apply the same test
    (:func:`pymoo_fs.evaluation.knn.kernels.certify.certify`).
    """
    L = Dm - E_rows
    U = Dm + E_rows
    ambiguous = np.zeros(Dm.shape[0], dtype=bool)
    if Dm.shape[1] <= k:
        return ambiguous
    t_u = np.sort(U, axis=1)[:, k - 1]
    t_l = np.sort(L, axis=1)[:, k]
    sure_in = U < t_l[:, None]
    band = ~sure_in & (L <= t_u[:, None])
    need = k - sure_in.sum(axis=1)
    for q in np.flatnonzero((need > 0) & (band.sum(axis=1) > need)):
        ambiguous[q] = np.unique(y_train[band[q]]).size > 1
    return ambiguous
