"""HFS-C-P: hybrid feature selection by correlation-guided clustering and PSO (Song et al. 2022),
a baseline of Yang et al. (2022)."""

import math

import numpy as np

from pymoo_fs._validation import check_choice
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.algorithms.metadata import RegistryName
from pymoo_fs.problems import FeatureSelectionProblem
from pymoo_fs.relevance import DISCRETIZERS

__all__ = ["HFSCP", "cluster_threshold", "difference_mutation", "fcfc_clusters", "integer_move",
           "relevance_threshold"]


class HFSCP(SwarmAlgorithm):
    """Three-phase hybrid feature selection: a relevance filter, clustering, an integer PSO.

    Phase 1 keeps the features whose symmetric uncertainty (SU) with the class reaches a
    threshold ``rho0``; phase 2 groups them into clusters of features that are about as
    relevant as the cluster's head and correlated with it (FCFC); phase 3 searches with an
    integer bare-bones PSO in which element ``j`` of a particle picks one member of cluster
    ``j``, or none. Phases 1-2 are filters on the training data: their SU computations are
    not wrapper evaluations and are not counted in ``n_eval`` (:attr:`n_su_pairs_` counts
    them).

    Parameters
    ----------
    pop_size : int, default=20
        Swarm size P [Yang et al. 2022, Tab. 2].
    discretization : {"mdl", "equal_width", "equal_frequency"}, default="mdl"
        The bins SU is computed on (``problem.symmetric_uncertainty(discretization)``): the
        paper does not say; Fayyad & Irani's MDL, as Weka's SU [A], or 10 equal-width or
        equal-frequency bins. Mutual information without bins is not offered: phase 2 compares SU
        between features with SU with the class.
    log : {"ln", "log2"}, default="ln"
        The logarithm in ``rho0`` and ``rho1`` [A]: natural, or base 2 (the third-party
        Python code).
    drop_zero : bool, default=False
        When ``rho0`` is 0, also drop the features of SU 0 [A].
    out_of_range : {"clip", "keep"}, default="clip"
        A move outside ``{0, ..., |cluster_j|}`` is clipped to it [A], or leaves the element
        as it was.
    pbest_rule : {"better_or_fewer", "better"}, default="better_or_fewer"
        Personal- and global-best replacement: the paper's "higher fitness, or equal with
        fewer features", Yang et al.'s (2022, §4.2) rule too.
    fitness : {"objective", "accuracy"}, default="objective"
        Compare by the problem's objective or by the inner-CV score alone.
    **kwargs
        pymoo's ``Algorithm`` keywords; the default termination is ``("n_eval", 5000)``
        (``FE_max`` of the paper and of Yang et al. 2022), and every pymoo termination works.

    Attributes
    ----------
    relevance_ : ndarray of float64, shape (D,)
        ``SU(f, C)`` of every feature.
    rho0_, rho1_ : float
        The thresholds of phases 1 and 2.
    relevant_ : ndarray of int64, shape (D',)
        The features kept by phase 1, by decreasing SU (ties in index order).
    clusters_ : list of ndarray of int64
        The ``M`` clusters (original feature indices), head first, in the order they were
        built.
    n_clusters_ : int
        ``M``.
    cluster_sizes_ : ndarray of int64, shape (M,)
    n_su_pairs_ : int
        Head-to-candidate SU values phase 2 computed (filter work, not in ``n_eval``).
    X_ : ndarray of int64, shape (pop_size, M)
        Positions: ``x_j = a > 0`` selects member ``a`` (1-based) of cluster ``j``, 0 none.
        ``V_`` is None.
    pbest_X_, pbest_pop_, gbest_, pop
        As in :class:`~pymoo_fs.algorithms.SwarmAlgorithm`.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), ``"mutual_info"`` as the
        discretisation; at setup for a problem with more than one objective or one without
        ``symmetric_uncertainty()``.

    Notes
    -----
    From the paper [P: Song et al. 2022, Alg. 1-4, Eq. 9-16]:

    1. **relevance filter** (:func:`relevance_threshold`):
       ``rho0 = min(0.1 SU_max, SU of the floor(D / log D)-th feature by decreasing SU)``;
       keep ``F' = {f : SU(f, C) >= rho0}``;
    2. **FCFC clustering** (:func:`cluster_threshold`, :func:`fcfc_clusters`):
       ``rho1 = dt_max log(D') / D'`` with ``dt_max`` the range of SU over ``F'``. Until one
       feature or none is left: the most relevant remaining feature is the head ``h``; of
       the remaining features with ``SU(h, C) - SU(f, C) <= rho1``, those with
       ``SU(h, f) >= min(SU(h, C), SU(f, C))`` join its cluster (head first, then by
       decreasing SU [A]); a last single feature is a cluster of its own;
    3. **initialisation**: ``x_j`` is a uniform member index of cluster ``j`` with probability
       ``pc_j = SU(head_j, C) / max_k SU(head_k, C)``, else 0 (1 when every head has SU 0
       [A]);
    4. **move** (:func:`integer_move`, Eq. 15), per element: with probability 0.5,
       ``x_j = ceil((pb_j + gb_j) / 2) + ceil(G |pb_j - gb_j|)``, ``G ~ N(0, 1)``; else
       ``x_j = pb_j``; out of range by ``out_of_range``;
    5. **difference mutation** (:func:`difference_mutation`, Eq. 16): with
       ``pm_i = 0.1 |{j : pb_ij = gb_j}| / M``, each element is drawn again, uniformly from
       ``{0, ..., |cluster_j|}`` [A], with probability ``pm_i``;
    6. evaluation, personal and global bests (Alg. 4: evaluate, update, move, mutate).

    The random numbers of a move are drawn in the order: the branch coins, ``G``, the
    mutation coins, the redraws, each of shape (pop_size, M); then the empty repair.

    **Departures.** A position that selects nothing gets one uniformly drawn member of a
    uniformly drawn cluster (pymoo-fs's empty-subset rule), kept in the position; Yang et al. (2022)
    score the empty subset 0 [A]. The paper's fitness (SVM accuracy, 10-fold CV) is the problem's
    here (FIT-E under the preset S004, Yang et al.'s protocol).

    References
    ----------
    X.-F. Song, Y. Zhang, D.-W. Gong, X.-Z. Gao, "A fast hybrid feature selection based on
    correlation-guided clustering and particle swarm optimization for high-dimensional
    data", IEEE Trans. Cybernetics 52(9):9573-9586, 2022, doi:10.1109/TCYB.2021.3061152. As
    run in
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.
    Tab. 2.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import HFSCP
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitEFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitEFeatureSelection.from_data(data.X, data.y)
    >>> res = minimize(problem, HFSCP(pop_size=10), ("n_eval", 60), seed=1)
    >>> alg = res.algorithm
    >>> res.X.dtype, alg.evaluator.n_eval, alg.X_.shape == (10, alg.n_clusters_)
    (dtype('bool'), 60, True)
    """

    registry_names = (RegistryName("HFS-C-P", aliases=("HFSCP",)),)
    n_objectives = 1

    def __init__(self, pop_size=20, discretization="mdl", log="ln", drop_zero=False,
                 out_of_range="clip", pbest_rule="better_or_fewer", fitness="objective",
                 **kwargs):
        kwargs.setdefault("termination", ("n_eval", 5000))
        super().__init__(pop_size, pbest_rule, fitness=fitness, **kwargs)
        if discretization == "mutual_info":
            raise ValueError("discretization='mutual_info' has no SU between features, which "
                             "HFS-C-P's clustering needs: use 'mdl', 'equal_width' or "
                             "'equal_frequency'")
        self.discretization = check_choice("discretization", discretization, DISCRETIZERS)
        self.log = check_choice("log", log, ("ln", "log2"))
        self.drop_zero = bool(drop_zero)
        self.out_of_range = check_choice("out_of_range", out_of_range, ("clip", "keep"))

    # ------------------------------------------------------------------ phases 1 and 2
    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        if not isinstance(problem, FeatureSelectionProblem):
            raise ValueError(f"HFSCP needs a FeatureSelectionProblem, whose "
                             f"symmetric_uncertainty() gives the SU of phases 1-2; got "
                             f"{type(problem).__name__}")
        su = problem.symmetric_uncertainty(self.discretization)
        self.relevance_ = np.asarray(su.relevance, dtype=np.float64)
        self.rho0_, self.relevant_ = relevance_threshold(self.relevance_, self.log,
                                                         self.drop_zero)
        self.rho1_ = cluster_threshold(self.relevance_[self.relevant_], self.log)
        self.clusters_, self.n_su_pairs_ = fcfc_clusters(self.relevant_, self.relevance_,
                                                         su.between, self.rho1_)
        self.n_clusters_ = len(self.clusters_)
        self.cluster_sizes_ = np.array([c.size for c in self.clusters_], dtype=np.int64)
        table = np.full((self.n_clusters_, int(self.cluster_sizes_.max()) + 1), -1, np.int64)
        for j, members in enumerate(self.clusters_):
            table[j, 1:members.size + 1] = members
        self._members = table

    # ------------------------------------------------------------------ phase 3
    def _initial_swarm(self):
        n, rs = self.pop_size, self.random_state
        heads = self.relevance_[[c[0] for c in self.clusters_]]
        top = heads.max()
        pc = heads / top if top > 0 else np.ones_like(heads)
        take = rs.random((n, self.n_clusters_)) < pc
        member = 1 + np.floor(rs.random((n, self.n_clusters_))
                              * self.cluster_sizes_).astype(np.int64)
        return self._repair(np.where(take, member, 0)), None

    def _decode(self, X):
        X = np.asarray(X, dtype=np.int64)
        features = self._members[np.arange(self.n_clusters_), X]
        masks = np.zeros((X.shape[0], self.problem.n_var), dtype=bool)
        rows, cols = np.nonzero(features >= 0)
        masks[rows, features[rows, cols]] = True
        return masks

    def _move(self):
        """Steps 4-5: Eq. 15's integer move, Eq. 16's difference mutation, the empty repair."""
        rs, P = self.random_state, self.pbest_X_
        g = P[self.gbest_]
        coin = rs.random(P.shape) < 0.5
        G = rs.standard_normal(P.shape)
        X = integer_move(P, g, coin, G, self.cluster_sizes_, self.out_of_range, self.X_)
        X = difference_mutation(X, P, g, self.cluster_sizes_, rs.random(P.shape),
                                rs.random(P.shape))
        return self._repair(X), None

    def _repair(self, X):
        """Positions that select nothing get one random member of one random cluster."""
        empty = np.flatnonzero(~(X > 0).any(axis=1))
        if empty.size:
            X = X.copy()
            rs = self.random_state
            j = rs.integers(0, self.n_clusters_, size=empty.size)
            X[empty, j] = 1 + rs.integers(0, self.cluster_sizes_[j])
        return X


# ---------------------------------------------------------------------- pure steps
def _log(x, log):
    return math.log(x) if log == "ln" else math.log2(x)


def relevance_threshold(relevance, log="ln", drop_zero=False):
    """Phase 1 (Eq. 9): ``rho0`` and the features it keeps.

    Parameters
    ----------
    relevance : ndarray of float64, shape (D,)
        ``SU(f, C)``.
    log : {"ln", "log2"}, default="ln"
    drop_zero : bool, default=False
        With ``rho0 = 0``, drop the features of SU 0 too (all are kept if every SU is 0).

    Returns
    -------
    rho0 : float
        ``min(0.1 max SU, the k-th largest SU)``, ``k = floor(D / log D)`` clipped to
        ``[1, D]`` (``k = 1`` for ``D = 1``).
    kept : ndarray of int64, shape (D',)
        The features with ``SU >= rho0`` by decreasing SU (ties in index order).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.hfscp import relevance_threshold
    >>> su = np.array([0.05, 0.4, 0.0, 0.3, 0.02, 0.01, 0.2, 0.0, 0.03, 0.1])
    >>> rho0, kept = relevance_threshold(su)  # k = floor(10 / ln 10) = 4: SU 0.1
    >>> round(rho0, 6), kept.tolist()
    (0.04, [1, 3, 6, 9, 0])
    """
    relevance = np.asarray(relevance, dtype=np.float64)
    D = relevance.size
    order = np.argsort(-relevance, kind="stable")
    k = 1 if D < 2 else min(max(int(math.floor(D / _log(D, log))), 1), D)
    rho0 = float(min(0.1 * relevance[order[0]], relevance[order[k - 1]]))
    keep = relevance[order] >= rho0
    if drop_zero and rho0 == 0.0 and (relevance > 0).any():
        keep &= relevance[order] > 0
    return rho0, order[keep].astype(np.int64)


def cluster_threshold(relevance, log="ln"):
    """Phase 2's ``rho1 = dt_max log(D') / D'`` over the kept features' SU.

    Parameters
    ----------
    relevance : ndarray of float64, shape (D',)
        SU with the class of the features kept by phase 1.
    log : {"ln", "log2"}, default="ln"

    Returns
    -------
    rho1 : float
        ``dt_max`` is ``max - min`` of ``relevance``; 0.0 for a single feature.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.hfscp import cluster_threshold
    >>> round(cluster_threshold(np.array([0.4, 0.3, 0.2, 0.1, 0.05]), "log2"), 6)
    0.162535
    """
    relevance = np.asarray(relevance, dtype=np.float64)
    n = relevance.size
    if n < 2:
        return 0.0
    return float((relevance.max() - relevance.min()) * _log(n, log) / n)


def fcfc_clusters(features, relevance, between, rho1):
    """Phase 2's FCFC clustering (Alg. 2) of features sorted by decreasing relevance.

    Parameters
    ----------
    features : ndarray of int64, shape (D',)
        Feature indices, by decreasing ``relevance`` (phase 1's output).
    relevance : ndarray of float64, shape (D,)
        ``SU(f, C)`` of every feature (indexed by feature).
    between : callable
        ``between(h, candidates) -> SU(h, candidates[i])`` (e.g.
        :meth:`pymoo_fs.relevance.SymmetricUncertainty.between`).
    rho1 : float
        The relevance window of a cluster.

    Returns
    -------
    clusters : list of ndarray of int64
        Head first, then members in the order of ``features``.
    n_pairs : int
        SU values asked of ``between`` (head-to-candidate only).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.hfscp import fcfc_clusters
    >>> rel = np.array([0.5, 0.45, 0.3, 0.28])
    >>> pair = {(0, 1): 0.6, (0, 2): 0.9, (2, 3): 0.1}
    >>> between = lambda h, c: np.array([pair.get((h, int(f)), 0.0) for f in c])
    >>> clusters, n = fcfc_clusters(np.array([0, 1, 2, 3]), rel, between, 0.1)
    >>> [c.tolist() for c in clusters], n  # 2 is outside 0's window; 3 is not like 2
    ([[0, 1], [2], [3]], 2)
    """
    left = np.asarray(features, dtype=np.int64)
    clusters, n_pairs = [], 0
    while left.size > 1:
        h = int(left[0])
        rest = left[1:]
        window = rest[relevance[h] - relevance[rest] <= rho1]
        members = window[:0]
        if window.size:
            su = np.asarray(between(h, window), dtype=np.float64)
            n_pairs += window.size
            members = window[su >= np.minimum(relevance[h], relevance[window])]
        cluster = np.concatenate([[h], members]).astype(np.int64)
        clusters.append(cluster)
        left = rest[~np.isin(rest, members)]
    if left.size == 1:
        clusters.append(left.copy())
    return clusters, n_pairs


def integer_move(P, g, coin, G, sizes, out_of_range="clip", X=None):
    """Eq. 15: the integer bare-bones move of every element.

    Parameters
    ----------
    P : ndarray of int64, shape (n, M)
        Personal bests.
    g : ndarray of int64, shape (M,)
        The global best.
    coin : ndarray of bool, shape (n, M)
        Where True, the Gaussian branch; else ``x = pb``.
    G : ndarray of float64, shape (n, M)
        Standard normal draws.
    sizes : ndarray of int64, shape (M,)
        Cluster sizes: element ``j`` ranges over ``{0, ..., sizes[j]}``.
    out_of_range : {"clip", "keep"}, default="clip"
        Clip to the range, or keep the element of ``X``.
    X : ndarray of int64, shape (n, M), optional
        The current positions (needed for ``"keep"``).

    Returns
    -------
    X : ndarray of int64, shape (n, M)

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.hfscp import integer_move
    >>> P, g = np.array([[1, 4, 0, 2]]), np.array([2, 0, 3, 2])
    >>> coin, G = np.array([[1, 1, 1, 0]], bool), np.array([[0.3, -0.4, 1.5, 0.0]])
    >>> integer_move(P, g, coin, G, np.array([3, 4, 3, 2])).tolist()
    [[3, 1, 3, 2]]
    """
    P = np.asarray(P, dtype=np.int64)
    step = np.ceil((P + g) / 2.0) + np.ceil(G * np.abs(P - g))
    X_new = np.where(coin, step, P).astype(np.int64)
    inside = (X_new >= 0) & (X_new <= sizes)
    if out_of_range == "clip":
        return np.clip(X_new, 0, sizes)
    return np.where(inside, X_new, X)


def difference_mutation(X, P, g, sizes, u, redraw):
    """Eq. 16: each element is drawn again with probability ``0.1 |{j : pb_j = gb_j}| / M``.

    Parameters
    ----------
    X : ndarray of int64, shape (n, M)
        Moved positions.
    P : ndarray of int64, shape (n, M)
        Personal bests.
    g : ndarray of int64, shape (M,)
        The global best.
    sizes : ndarray of int64, shape (M,)
    u : ndarray of float64, shape (n, M)
        ``U(0, 1)`` draws: element ``j`` of particle ``i`` mutates iff ``u < pm_i``.
    redraw : ndarray of float64, shape (n, M)
        ``U(0, 1)`` draws: the new value is ``floor(redraw (sizes + 1))``, uniform over
        ``{0, ..., sizes[j]}``.

    Returns
    -------
    X : ndarray of int64, shape (n, M)

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.hfscp import difference_mutation
    >>> P, g = np.array([[1, 2], [0, 1]]), np.array([1, 2])
    >>> u = np.array([[0.05, 0.2], [0.01, 0.01]])  # pm = 0.1 and 0.0
    >>> difference_mutation(P.copy(), P, g, np.array([3, 2]), u, np.full((2, 2), 0.9)).tolist()
    [[3, 2], [0, 1]]
    """
    P = np.asarray(P, dtype=np.int64)
    pm = 0.1 * (P == g).sum(axis=1, keepdims=True) / P.shape[1]
    new = np.floor(redraw * (np.asarray(sizes) + 1)).astype(np.int64)
    return np.where(u < pm, new, X)
