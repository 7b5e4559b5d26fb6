"""FSIPSO: the forward-search-inspired particle swarm of Li et al. (2021)."""

import math

import numpy as np

from pymoo_fs._validation import check_choice, check_positive_int
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.base import ParticleSwarm

__all__ = ["FSIPSO", "flip_mutation", "subspaces"]


class FSIPSO(ParticleSwarm):
    """Forward-search-inspired PSO for feature selection (Li, Xue & Zhang, CEC 2021).

    The features are ranked by the fitness of each one alone and cut into ``n_phases``
    consecutive sub-spaces. The swarm starts in the first (best-ranked) sub-space only; at
    each phase change the next sub-space joins the search space, like a forward search adding
    features. Particles move by the canonical PSO update inside the search space, and each
    coordinate of it is mutated (``x <- 1 - x``) with probability ``1 / |F_c|``.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size S [Li et al. 2021, §IV-C].
    n_phases : int, default=5
        Number of sub-spaces and evolutionary phases M [Li et al. 2021, §IV-C].
    w : float or tuple (low, high), default=0.7298
        Inertia weight [Li et al. 2021, §IV-C].
    c1, c2 : float or tuple (low, high), default=1.49618
        Acceleration coefficients [Li et al. 2021, §IV-C].
    vmax : float, default=0.6
        Velocity limit [P: FSIPSO-code ``RunFSIPSO``: ``vThred = 0.6``; not in the paper].
    threshold : float, default=0.6
        Selection threshold eta: feature ``d`` is selected iff ``x_d > eta`` [Li et al. 2021,
        §III-A].
    phase_change : {"code", "paper"}, default="code"
        ``"code"``: a phase change is a generation of its own: the new sub-space is
        re-initialised, the swarm is evaluated and personal bests and gbest are updated, with
        no PSO move [P: FSIPSO-code ``SubCPSO2.reInitilization``]. ``"paper"``: the move
        follows the re-initialisation in the same generation [Li et al. 2021, Alg. 1]. [A] default.
    mutation : bool, default=True
        Apply the mutation of Eq. 6-7; False gives the paper's variant without it.
    pbest_rule : {"better", "better_or_fewer"}, default="better"
        Replace personal bests and gbest on strictly better fitness [P: FSIPSO-code].
    fitness : {"objective", "accuracy"}, default="objective"
        Minimise the problem's objective (FIT-A on
        :class:`~pymoo_fs.problems.WeightedFeatureSelection`) or the inner-CV error alone.
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    ranking_ : ndarray of int64, shape (D,)
        Features from best to worst single-feature fitness.
    subspaces_ : list of ndarray of int64
        The ``n_phases`` sub-spaces, consecutive blocks of ``ranking_``.
    phase_ : int
        Current phase m (1-based): the search space is the union of the first m sub-spaces.
    active_ : ndarray of bool, shape (D,)
        The search space F_c as a mask.
    X_, V_, pbest_X_, pbest_pop_, gbest_, pop
        As in :class:`~pymoo_fs.algorithms.PSO`.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    Steps in the paper's order [Li et al. 2021, Alg. 1]:

    1. **Ranking** (§III-B): every single-feature subset ``{f}`` is evaluated and the features
       are sorted by its fitness, best first; equal values keep the order of the authors'
       code, the higher index first (a stable ascending sort read backwards) [P:
       FSIPSO-code ``GetRank``]. The D evaluations go through
       :meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.evaluate_flips` (flips of the
       empty mask) and count in ``n_eval``; they belong to generation 1.
    2. **Sub-spaces** (Eq. 4): blocks 1 .. M-1 hold ``ceil(D / M)`` ranked features, block M
       the rest [P: FSIPSO-code ``getAddIndex`` with M dividing T]; a block may be empty when
       D < M (M - 1) + 1.
    3. **Initialisation** (Alg. 1 lines 3-8): positions and velocities 0 in every dimension;
       ``x_d ~ U[0, 1]`` for d in the first sub-space; the swarm is evaluated.
    4. **Phase change** (Eq. 5): phase m begins at the first move whose budget fraction
       :meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.progress` reaches
       ``(m - 1) / M``. With ``("n_gen", T + 1)`` this is move ``t = (m - 1) T / M``, the
       paper's ``t mod floor(T / M) = 0`` when M divides T, and evaluation or time budgets
       work alike. The new sub-space gets ``x_d ~ U[0, 1]`` in every particle; velocities
       (0 there) and personal bests are kept [P].
    5. **Move** (Eq. 1-2): ``v <- w v + c1 r1 (pbest - x) + c2 r2 (gbest - x)``, clamped to
       ``[-vmax, vmax]``; ``x <- x + v`` clamped to [0, 1]. Dimensions outside F_c hold 0 in
       positions, velocities, personal bests and gbest, so the update leaves them at 0: they
       stay unselected, as the paper's restriction of the update to F_c requires.
    6. **Mutation** (Eq. 6-7): each coordinate in F_c becomes ``1 - x`` with probability
       ``1 / |F_c|`` (:func:`flip_mutation`), after the clamp [P].
    7. **Evaluate** and update personal bests and gbest (strictly better fitness [P]).

    With ``n_gen = T + 1`` a run costs ``D + (T + 1) S`` evaluations in either
    ``phase_change`` mode. A particle with no coordinate of F_c above eta selects its
    largest coordinate in F_c (pymoo-fs's empty-subset rule; the authors' code passes the
    empty subset to Weka). The result is the gbest mask.

    References
    ----------
    A.-D. Li, B. Xue, M. Zhang, "A Forward Search Inspired Particle Swarm Optimization
    Algorithm for Feature Selection in Classification", IEEE CEC 2021, pp. 786-793,
    doi:10.1109/CEC45853.2021.9504949. Authors' code: github.com/andali89/fsipso_fs.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import FSIPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, FSIPSO(pop_size=10), ("n_gen", 11), seed=1)
    >>> res.algorithm.evaluator.n_eval  # 60 single features, then 11 generations of 10
    170
    >>> [len(s) for s in res.algorithm.subspaces_], res.algorithm.phase_
    ([12, 12, 12, 12, 12], 5)
    """

    sampling_encoding = None
    registry_names = ("FSIPSO",)
    n_objectives = 1

    def __init__(self, pop_size=30, n_phases=5, w=0.7298, c1=1.49618, c2=1.49618, vmax=0.6,
                 threshold=0.6, phase_change="code", mutation=True, pbest_rule="better",
                 fitness="objective", **kwargs):
        super().__init__(pop_size, w, c1, c2, vmax, threshold, inclusive_threshold=False,
                         initial_velocity="zero", random_coefficients="dimension",
                         reverse_velocity=False, pbest_rule=pbest_rule, fitness=fitness,
                         **kwargs)
        self.n_phases = check_positive_int("n_phases", n_phases)
        self.phase_change = check_choice("phase_change", phase_change, ("code", "paper"))
        self.mutation = bool(mutation)

    def _initial_swarm(self):
        """Steps 1-3: rank the features, cut the sub-spaces, start in the first one."""
        D = self.problem.n_var
        singles = self.evaluate_flips(np.zeros(D, dtype=bool), np.arange(D))
        fit = self._fitness(singles)[:, 0]
        self.ranking_ = np.lexsort((-np.arange(D), fit))
        self.subspaces_ = subspaces(self.ranking_, self.n_phases)
        self.phase_ = 1
        self.active_ = np.zeros(D, dtype=bool)
        self.active_[self.subspaces_[0]] = True
        self._next = (self.phase_, self.active_)
        X = np.zeros((self.pop_size, D))
        X[:, self.active_] = self.random_state.random((self.pop_size, self.active_.sum()))
        return X, np.zeros((self.pop_size, D))

    def _move(self):
        """Steps 4-6: a phase change when due, else (or then) the move and the mutation."""
        phase = min(self.n_phases, 1 + math.floor(self.progress() * self.n_phases + 1e-9))
        X, V, active = self.X_, self.V_, self.active_
        if phase > self.phase_:
            added = np.concatenate(self.subspaces_[self.phase_:phase])
            active = active.copy()
            active[added] = True
            X = X.copy()
            X[:, added] = self.random_state.random((self.pop_size, added.size))
            self._next = (phase, active)
            if self.phase_change == "code":
                return X, V
        else:
            self._next = (self.phase_, active)
        X, V = self._pso_move(self.pbest_X_[self.gbest_], X, V)
        if self.mutation:
            X = flip_mutation(X, np.flatnonzero(active), self.random_state)
        return X, V

    def _decode(self, X):
        """Masks of the positions in F_c (repaired inside F_c when empty)."""
        active = self._next[1]
        masks = np.zeros(X.shape, dtype=bool)
        masks[:, active] = swarm.decode(X[:, active], self.threshold)
        return masks

    def _tell(self, infills, idx):
        """Step 7, then the phase (and search space) of the generation becomes current."""
        self.phase_, self.active_ = self._next
        super()._tell(infills, idx)


def subspaces(ranking, n_phases):
    """Li et al.'s (2021) sub-spaces: consecutive blocks of the ranked features (Eq. 4).

    Parameters
    ----------
    ranking : ndarray of int, shape (D,)
        Features from best to worst.
    n_phases : int
        Number of blocks M.

    Returns
    -------
    blocks : list of ndarray of int64
        ``M`` blocks; the first ``M - 1`` hold ``ceil(D / M)`` features (fewer, down to none,
        once the ranking runs out), the last the rest [P: FSIPSO-code ``getAddIndex``].

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.fsipso import subspaces
    >>> [b.tolist() for b in subspaces(np.array([4, 0, 3, 1, 2, 5, 6]), 3)]
    [[4, 0, 3], [1, 2, 5], [6]]
    """
    ranking = np.asarray(ranking, dtype=np.int64)
    size = math.ceil(ranking.size / n_phases)
    cuts = [min(k * size, ranking.size) for k in range(1, n_phases)]
    return np.split(ranking, cuts)


def flip_mutation(X, dimensions, random_state):
    """FSIPSO's mutation: ``x_d <- 1 - x_d`` with probability ``1 / |dimensions|`` (Eq. 6-7).

    Parameters
    ----------
    X : ndarray of float64, shape (n, D)
        Positions in [0, 1].
    dimensions : ndarray of int, shape (k,)
        The search space F_c; other coordinates are left alone.
    random_state : numpy.random.Generator
        Draws ``r`` of shape ``(n, k)``; coordinate ``(i, dimensions[j])`` flips iff
        ``r[i, j] < 1 / k``.

    Returns
    -------
    X_new : ndarray of float64, shape (n, D)
    """
    X = X.copy()
    hit = random_state.random((X.shape[0], dimensions.size)) < 1.0 / max(dimensions.size, 1)
    block = X[:, dimensions]
    block[hit] = 1.0 - block[hit]
    X[:, dimensions] = block
    return X
