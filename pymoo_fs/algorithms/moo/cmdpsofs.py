"""CMDPSOFS: multi-objective PSO with crowding, mutation and dominance for feature selection."""

import numpy as np
from pymoo.core.population import Population

from pymoo_fs._validation import check_choice, check_coefficient, check_unit_interval
from pymoo_fs import pareto
from pymoo_fs.algorithms import archive
from pymoo_fs.algorithms.base import ParticleSwarm

__all__ = ["CMDPSOFS", "non_uniform_mutation"]


class CMDPSOFS(ParticleSwarm):
    """Multi-objective PSO for feature selection with crowding, mutation and dominance.

    CMDPSOFS (Xue, Zhang & Browne 2013) is OMOPSO (Sierra & Coello 2005) applied to feature
    selection. Particles move in ``[0, 1]^D`` (feature ``d`` selected iff ``x_d > threshold``),
    led by members of a crowding-truncated leader set; a third of the swarm is perturbed by
    uniform and a third by non-uniform mutation after each move; every solution found is
    offered to an unbounded dominance archive, which is the result.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size, also the leader-set capacity [S003].
    w : float or tuple (low, high), default=0.7298
        Inertia weight [S003]. The original CMDPSOFS draws ``w ~ U[0.1, 0.5]`` per particle
        update: pass ``w=(0.1, 0.5)`` [P: CMDPSOFS-II text, CMDPSOFS-py].
    c1, c2 : float or tuple (low, high), default=1.49618
        Acceleration coefficients [S003]; the original draws them from ``U[1.5, 2.0]``.
    vmax : float, default=6.0
        Velocity limit [S003]; the original uses 0.6.
    threshold : float, default=0.6
        Selection threshold theta [S003; P: CMDPSOFS-II text].
    mutation_rate : float, optional
        Per-dimension mutation probability; default ``1/D`` [P: CMDPSOFS-II text; jMetal].
    perturbation : float, default=0.5
        Shape ``b`` of the non-uniform mutation (jMetal OMOPSO default; CMDPSOFS's own value is
        unknown [A]).
    mutation_groups : {"random", "modulo"}, default="random"
        Split the swarm into three equal groups at random (CMDPSOFS-II text) or by particle
        index modulo 3 (jMetal).
    uniform_mutation : {"resample", "perturb"}, default="resample"
        ``x_d <- U[0, 1]`` (CMDPSOFS-II text) or ``x_d <- x_d + (U(0, 1) - 0.5) * 0.5``,
        clamped (jMetal) [A].
    pbest_rule : {"not_dominated", "dominates", "random_if_nd"}, default="not_dominated"
        Replace a personal best unless it dominates the new position (jMetal), only when
        dominated by it, or when dominated and with probability 1/2 when mutually non-dominated
        (the OMOPSO paper).
    random_coefficients : {"dimension", "particle"}, default="dimension"
        Draw ``r1, r2`` per dimension [A] or per particle (jMetal).
    reverse_velocity : bool, default=False
        Negate the velocity of a coordinate clamped at a bound (jMetal) [A].
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_, V_ : ndarray of float64, shape (pop_size, D)
        Positions and velocities.
    pbest_X_ : ndarray of float64, shape (pop_size, D)
        Personal-best positions (``pbest_F_`` (pop_size, 2) their objectives).
    leaders_X_ : ndarray of float64, shape (n_leaders, D)
        Positions of the leader set (``leaders_F_`` their objectives), at most ``pop_size``.
    archive_ : pymoo.core.population.Population
        The dominance archive: every non-dominated solution found (masks in ``X``, objectives
        in ``F``), returned as the result (``res.X``, ``res.F``).
    groups_ : ndarray of int64, shape (pop_size,)
        Mutation group of each particle: 0 none, 1 uniform, 2 non-uniform.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message); at setup when the problem is
        not multi-objective.

    Notes
    -----
    One generation, in the paper's order [S003 Eq. 1-2; P: jMetal OMOPSO]:

    1. each particle draws a leader by binary tournament on the leader set's crowding
       distances (the less crowded wins; contestants drawn with replacement);
    2. ``v <- w v + c1 r1 (pbest - x) + c2 r2 (leader - x)``, clamped to ``[-vmax, vmax]``;
       ``x <- x + v``, clamped to ``[0, 1]``;
    3. group 1 is left alone; in group 2 each coordinate is, with probability ``1/D``,
       uniformly mutated; in group 3 it gets the non-uniform mutation
       ``x_d <- x_d + Delta(t, 1 - x_d)`` or ``x_d - Delta(t, x_d)`` (fair coin) with
       ``Delta(t, y) = y (1 - r^((1 - t/T)^b))``, ``r ~ U(0, 1)`` (Michalewicz 1992), where
       ``t/T`` is the fraction of the budget spent since the initial swarm, read from the
       termination (:meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.progress`): with
       ``("n_gen", G)`` it is ``(m - 1) / (G - 1)`` at the ``m``-th move, and evaluation and
       time limits work alike;
    4. the swarm is evaluated (one evaluation per particle: the mutated position);
    5. the leader set becomes the non-dominated union of itself and the swarm, deduplicated on
       objective vectors (existing members kept), then truncated one by one by smallest
       crowding distance to ``pop_size``;
    6. the swarm is offered to the archive (plain Pareto dominance, no cap, deduplicated on
       objective vectors) [A: the OMOPSO epsilon-archive is not used];
    7. personal bests are updated by ``pbest_rule``.

    Initial positions are ``U[0, 1]^D`` and initial velocities 0 [A]. Generation 1 evaluates
    the initial swarm, so ``n_gen = G`` costs ``pop_size * G`` evaluations. ``res.X``/``res.F``
    are the archive; ``res.pop`` is the final swarm.

    Step 6 follows jMetal's OMOPSO, which offers the final archive every solution the leader
    set accepted, before the leader set is truncated. Under plain dominance that archive is the
    non-dominated set of everything evaluated (a solution no earlier one dominates is always
    accepted by the leader set), which is what offering the whole swarm yields. The
    CMDPSOFS-II text can be read as offering only the members left after truncation; that
    archive can miss non-dominated solutions truncated in the iteration they were found.
    Members with equal objective vectors are kept once (the first found), as in jMetal.

    References
    ----------
    B. Xue, M. Zhang, W. N. Browne, "Particle swarm optimization for feature selection in
    classification: a multi-objective approach", IEEE Trans. Cybernetics 43(6):1656-1671,
    2013, doi:10.1109/TSMCB.2012.2227469. M. Reyes Sierra, C. A. Coello Coello, "Improving
    PSO-based multi-objective optimization using crowding, mutation and epsilon-dominance",
    EMO 2005, LNCS 3410:505-519. Settings as compared in H. B. Nguyen et al., Soft Computing
    20:3927-3946, 2016, doi:10.1007/s00500-016-2128-8.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import CMDPSOFS
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import BiObjectiveFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, CMDPSOFS(pop_size=12), ("n_gen", 5), seed=1)
    >>> res.X.dtype, res.F.shape[1], res.algorithm.evaluator.n_eval
    (dtype('bool'), 2, 60)
    """

    registry_names = ("CMDPSOFS",)
    n_objectives = 2

    def __init__(self, pop_size=30, w=0.7298, c1=1.49618, c2=1.49618, vmax=6.0, threshold=0.6,
                 mutation_rate=None, perturbation=0.5, mutation_groups="random",
                 uniform_mutation="resample", pbest_rule="not_dominated",
                 random_coefficients="dimension", reverse_velocity=False, **kwargs):
        super().__init__(pop_size, w, c1, c2, vmax, threshold, inclusive_threshold=False,
                         initial_velocity="zero", random_coefficients=random_coefficients,
                         reverse_velocity=reverse_velocity, pbest_rule=pbest_rule, **kwargs)
        self.mutation_rate = (None if mutation_rate is None
                              else check_unit_interval("mutation_rate", mutation_rate))
        self.perturbation = check_coefficient("perturbation", perturbation, allow_range=False)
        self.mutation_groups = check_choice("mutation_groups", mutation_groups,
                                            ("random", "modulo"))
        self.uniform_mutation = check_choice("uniform_mutation", uniform_mutation,
                                             ("resample", "perturb"))

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        D = problem.n_var
        self.mutation_rate_ = 1.0 / D if self.mutation_rate is None else self.mutation_rate

    def _initial_swarm(self):
        n = self.pop_size
        order = (self.random_state.permutation(n) if self.mutation_groups == "random"
                 else np.arange(n))
        self.groups_ = np.empty(n, dtype=np.int64)
        self.groups_[order] = np.arange(n) % 3
        return super()._initial_swarm()

    def _initialize_tell(self, infills):
        self.leaders_X_ = np.zeros((0, self.problem.n_var))
        self.leaders_F_ = np.zeros((0, self.problem.n_obj))
        self.archive_ = Population.empty()
        self._update_archives(infills)

    def _move(self):
        """Steps 1-3: crowding-tournament leaders, the PSO move, mutation of two thirds."""
        lead = archive.crowding_tournament(self.leaders_F_, self.pop_size, self.random_state)
        X, V = self._pso_move(self.leaders_X_[lead])
        return self._mutate(X), V

    def _tell(self, infills, idx):
        """Steps 5-7: leader set, archive, personal bests."""
        self._update_archives(infills)
        self._update_personal_bests(infills)

    def _set_optimum(self):
        self.opt = self.archive_

    # ------------------------------------------------------------------ helpers
    def _update_archives(self, infills):
        """Steps 5-6: the leader set (capped, crowding) and the archive (uncapped)."""
        F = infills.get("F")
        F_all = np.vstack([self.leaders_F_, F])
        keep = pareto.nondominated_union(F_all, capacity=self.pop_size)
        self.leaders_X_ = np.vstack([self.leaders_X_, self.X_])[keep]
        self.leaders_F_ = F_all[keep]
        merged = Population.merge(self.archive_, infills)
        self.archive_ = merged[pareto.nondominated_union(merged.get("F"))]

    def _mutate(self, X):
        """Step 3: uniform mutation on group 1, non-uniform on group 2 (groups_ == 1, 2)."""
        rs, p = self.random_state, self.mutation_rate_
        X = X.copy()
        uni = self.groups_ == 1
        hit = rs.random((uni.sum(), X.shape[1])) < p
        Xu = X[uni]
        if self.uniform_mutation == "resample":
            Xu[hit] = rs.random(hit.sum())
        else:
            Xu[hit] = np.clip(Xu[hit] + (rs.random(hit.sum()) - 0.5) * 0.5, 0.0, 1.0)
        X[uni] = Xu
        non = self.groups_ == 2
        hit = rs.random((non.sum(), X.shape[1])) < p
        Xn = X[non]
        Xn[hit] = non_uniform_mutation(Xn[hit], self.progress(), self.perturbation, rs)
        X[non] = Xn
        return X


def non_uniform_mutation(x, progress, b, random_state):
    """Michalewicz's non-uniform mutation of values in [0, 1].

    Parameters
    ----------
    x : ndarray of float64, shape (m,)
        The coordinates to mutate.
    progress : float
        ``t / T`` in [0, 1]; the step shrinks to 0 as it approaches 1.
    b : float
        Shape parameter (the "perturbation index").
    random_state : numpy.random.Generator
        Draws ``r ~ U(0, 1)`` and then the direction coin, one of each per coordinate.

    Returns
    -------
    x_new : ndarray of float64, shape (m,)
        ``x + Delta(1 - x)`` or ``x - Delta(x)`` with ``Delta(y) = y (1 - r^((1 - t/T)^b))``,
        within [0, 1].
    """
    r = random_state.random(x.shape)
    up = random_state.random(x.shape) < 0.5
    shrink = 1.0 - r ** ((1.0 - progress) ** b)
    return np.clip(np.where(up, x + (1.0 - x) * shrink, x - x * shrink), 0.0, 1.0)

