"""CMDPSOFS: multi-objective PSO with crowding, mutation and dominance for feature selection."""

import numbers

import numpy as np
from pymoo.core.population import Population

from pymoo_fs._validation import check_choice, check_coefficient, check_unit_interval
from pymoo_fs import pareto
from pymoo_fs.algorithms import archive
from pymoo_fs.algorithms.base import ParticleSwarm

__all__ = ["CMDPSOFS", "epsilon_nondominated", "non_uniform_mutation"]


class CMDPSOFS(ParticleSwarm):
    """Multi-objective PSO for feature selection with crowding, mutation and dominance.

    CMDPSOFS (Xue, Zhang & Browne 2013) is OMOPSO (Sierra & Coello 2005) applied to feature
    selection. Particles move in ``[0, 1]^D`` (feature ``d`` selected iff ``x_d > threshold``),
    led by members of a crowding-truncated leader set; a third of the swarm is perturbed by
    uniform and a third by non-uniform mutation after each move; every solution found is
    offered to an unbounded dominance archive (or, with ``archive_rule="epsilon"``, OMOPSO's
    epsilon-dominance archive), which is the result.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size, also the leader-set capacity [Nguyen et al. 2016].
    w : float or tuple (low, high), default=0.7298
        Inertia weight [Nguyen et al. 2016]. The original CMDPSOFS draws ``w ~ U[0.1, 0.5]`` per
        particle update: pass ``w=(0.1, 0.5)`` [P: CMDPSOFS-II text, CMDPSOFS-py].
    c1, c2 : float or tuple (low, high), default=1.49618
        Acceleration coefficients [Nguyen et al. 2016]; the original draws them from
        ``U[1.5, 2.0]``.
    vmax : float, default=6.0
        Velocity limit [Nguyen et al. 2016]; the original uses 0.6.
    threshold : float, default=0.6
        Selection threshold theta [Nguyen et al. 2016; P: CMDPSOFS-II text].
    mutation_rate : float, optional
        Per-dimension mutation probability; default ``1/D`` [P: CMDPSOFS-II text; jMetal].
    perturbation : float, default=0.5
        Shape ``b`` of the non-uniform mutation (jMetal OMOPSO default; CMDPSOFS's own value is
        unknown [A]).
    mutation_groups : {"random", "modulo"}, default="random"
        Split the swarm into three equal groups at random (CMDPSOFS-II text) or by particle
        index modulo 3 as jMetal's OMOPSO does (``i % 3 == 0`` non-uniform, ``1`` uniform,
        ``2`` none).
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
    archive_rule : {"dominance", "epsilon"}, default="dominance"
        The result archive: every non-dominated solution found, under plain Pareto dominance
        (our assumption [A]), or OMOPSO's epsilon-dominance archive, as Sierra & Coello and
        jMetal build it and CMDPSOFS inherits it (:func:`epsilon_nondominated`). The archive
        is only the result: the search (leaders, moves, draws) is the same either way.
    epsilon : float or tuple of float, default=0.0075
        Box size of the epsilon archive, one for all objectives or one per objective (jMetal's
        OMOPSO runner: ``eta = 0.0075``). Only with ``archive_rule="epsilon"``. On
        (ErrorRate, FeatureRate) a box of 0.0075 holds subsets whose sizes differ by less than
        ``0.0075 D`` features; the CMDPSOFS paper counted features, so its boxes never merged
        two sizes: ``epsilon=(0.0075, 1 / (2 * D))`` keeps every size apart on rates.
    leader_update : {"batch", "sequential"}, default="batch"
        How the swarm enters the leader set: all at once (the non-dominated union of the set
        and the swarm, then truncated, as jMetal's OMOPSO does [P]) or one particle at a time in
        index order, each accepted particle followed by a truncation to ``pop_size`` when the set
        overflows (jMetal's ``CrowdingDistanceArchive.add``). The two can keep different members
        when more than ``pop_size`` non-dominated solutions compete.
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
        The result archive (masks in ``X``, objectives in ``F``), returned as the result
        (``res.X``, ``res.F``): every non-dominated solution found, or with
        ``archive_rule="epsilon"`` its epsilon-dominance thinning.
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
    One generation, in the paper's order [Nguyen et al. 2016, Eq. 1-2; P: jMetal OMOPSO]:

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
       crowding distance to ``pop_size`` (``leader_update="sequential"``: the particles
       are offered one at a time, a truncation after each that overflows, as jMetal);
    6. the swarm is offered to the archive: plain Pareto dominance, no cap, deduplicated on
       objective vectors [A]; or, with ``archive_rule="epsilon"``, the epsilon-dominance archive
       of OMOPSO (:func:`epsilon_nondominated`);
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
    Members with equal objective vectors are kept once (the first found), as in jMetal. The
    same holds for the epsilon archive: jMetal offers it only what the leader set accepted,
    but a solution the leader set refuses is dominated by a leader, which the epsilon archive
    already holds or holds something that beats it, so offering the whole swarm gives the same
    archive.

    **Where this version departs from CMDPSOFS as its authors built it**, and the switch that
    restores each (the paper itself was not reached; what is known comes from the CMDPSOFS-II
    text, jMetal's OMOPSO and CMDPSOFS-py; "Nguyen": the settings of Nguyen et al. 2016):

    ============================================  ===========================  =====================
    as built (OMOPSO, CMDPSOFS)                   default here                 switch
    ============================================  ===========================  =====================
    epsilon-dominance result archive              plain dominance [A]          ``archive_rule=
                                                                               "epsilon"``
    w ~ U[0.1, 0.5], c1, c2 ~ U[1.5, 2]           Nguyen's 0.7298, 1.49618     ``w=(0.1, 0.5)``,
    per particle update                                                        ``c1=c2=(1.5, 2.0)``
    vmax 0.6                                      Nguyen's 6.0                 ``vmax=0.6``
    r1, r2 one per particle (jMetal)              per dimension [A]            ``random_coefficients
                                                                               ="particle"``
    velocity reversed at a bound (jMetal)         plain clamping [A]           ``reverse_velocity``
    groups by index modulo 3 (jMetal)             random groups (CMDPSOFS-II)  ``mutation_groups=
                                                                               "modulo"``
    uniform mutation: x + (U - 0.5) 0.5 (jMetal)  x <- U[0, 1] (CMDPSOFS-II)   ``uniform_mutation=
                                                                               "perturb"``
    leader set filled one by one (jMetal)         the swarm at once [A]        ``leader_update=
                                                                               "sequential"``
    features counted in f2 (paper)                FeatureRate (Nguyen)         the problem's
                                                                               objective; ``epsilon``
                                                                               per objective
    ============================================  ===========================  =====================

    Unknown and left as [A]: the non-uniform mutation's ``b`` (jMetal's 0.5) and the
    iteration count of the original (500 in the CMDPSOFS-II text).

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
                 random_coefficients="dimension", reverse_velocity=False, archive_rule="dominance",
                 epsilon=0.0075, leader_update="batch", **kwargs):
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
        self.archive_rule = check_choice("archive_rule", archive_rule, ("dominance", "epsilon"))
        self.epsilon = _check_epsilon(epsilon)
        self.leader_update = check_choice("leader_update", leader_update,
                                          ("batch", "sequential"))

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        D = problem.n_var
        self.mutation_rate_ = 1.0 / D if self.mutation_rate is None else self.mutation_rate
        if isinstance(self.epsilon, tuple) and len(self.epsilon) != problem.n_obj:
            raise ValueError(f"epsilon gives {len(self.epsilon)} box sizes for a problem of "
                             f"{problem.n_obj} objectives")

    def _initial_swarm(self):
        n = self.pop_size
        self.groups_ = np.empty(n, dtype=np.int64)
        if self.mutation_groups == "random":
            self.groups_[self.random_state.permutation(n)] = np.arange(n) % 3
        else:  # jMetal's OMOPSO: i % 3 == 0 non-uniform (2), 1 uniform (1), 2 none (0)
            self.groups_[:] = 2 - np.arange(n) % 3
        return super()._initial_swarm()

    def _initialize_tell(self, infills):
        self.leaders_X_ = np.zeros((0, self.problem.n_var))
        self.leaders_F_ = np.zeros((0, self.problem.n_obj))
        self.leaders_CV_ = np.zeros(0)  # their constraint violations (0 without constraints)
        self.archive_ = Population.empty()
        self._update_archives(infills)

    def _move(self):
        """Steps 1-3: crowding-tournament leaders, the PSO move, mutation of two thirds."""
        lead = archive.crowding_tournament(self._leader_keys(self.leaders_F_, self.leaders_CV_),
                                           self.pop_size, self.random_state)
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
        CV = (np.asarray(infills.get("CV"), dtype=float).reshape(-1) if self._constrained()
              else np.zeros(len(infills)))
        if self.leader_update == "batch":
            self._offer_leaders(self.X_, F, CV)
        else:
            for i in range(F.shape[0]):
                self._offer_leaders(self.X_[i:i + 1], F[i:i + 1], CV[i:i + 1])
        merged = Population.merge(self.archive_, infills)
        F_merged = self._objectives(merged)
        keep = (pareto.nondominated_union(F_merged) if self.archive_rule == "dominance"
                else epsilon_nondominated(F_merged, self.epsilon))
        self.archive_ = merged[keep]

    def _offer_leaders(self, X, F, CV=None):
        """The leader set after ``X``/``F`` are offered: non-dominated union, then truncation
        (on a constrained problem, feasibility first: ``CV`` their violations)."""
        F_all = np.vstack([self.leaders_F_, F])
        CV_all = np.concatenate([self.leaders_CV_, np.zeros(len(F)) if CV is None else CV])
        keep = pareto.nondominated_union(self._leader_keys(F_all, CV_all),
                                         capacity=self.pop_size)
        self.leaders_X_ = np.vstack([self.leaders_X_, X])[keep]
        self.leaders_F_ = F_all[keep]
        self.leaders_CV_ = CV_all[keep]

    def _leader_keys(self, F, CV):
        """The leaders' objectives as compared: ``F``, or Deb's penalty when constrained."""
        if not self._constrained() or F.shape[0] == 0:
            return F
        return self._penalized(F, CV)

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


def epsilon_nondominated(F, epsilon):
    """Indices of the epsilon-dominance archive of OMOPSO built from ``F`` in row order.

    Parameters
    ----------
    F : ndarray of float64, shape (n, m)
        Objective vectors (minimised), existing archive members first, then candidates, in the
        order they were found.
    epsilon : float or sequence of float, length m
        Box size, one for all objectives or one per objective, each > 0.

    Returns
    -------
    keep : ndarray of int64, shape (n_keep,)
        Increasing indices into ``F`` of the members that the archive holds after every row
        was offered in order.

    Raises
    ------
    ValueError
        If ``epsilon`` is not positive and finite, or gives a number of box sizes other than
        ``m``.

    Notes
    -----
    jMetal's ``NonDominatedSolutionListArchive`` with its ``EpsilonDominanceComparator``
    (OMOPSO's result archive, Sierra & Coello 2005), row by row. Each vector falls in the box
    ``B = floor(F / epsilon)`` (of :func:`pymoo_fs.pareto.on_grid` values, so rounding twins
    share a box). A newcomer ``a`` is refused when a member ``b`` has a box no worse in every
    objective and better in one, or the same box and a distance to the box's lower corner
    ``sum((F - B epsilon)^2)`` no larger than ``a``'s (the first found wins a tie, equal
    vectors included); otherwise it enters and removes every member it beats in the same
    sense (a better box, or the same box and a strictly smaller distance). So at most one
    solution per box survives and no box is dominated by another's: the archive thins the
    Pareto front to a grid of resolution ``epsilon``.

    References
    ----------
    M. Reyes Sierra, C. A. Coello Coello, "Improving PSO-based multi-objective optimization
    using crowding, mutation and epsilon-dominance", EMO 2005, LNCS 3410:505-519,
    doi:10.1007/978-3-540-31880-4_35. M. Laumanns, L. Thiele, K. Deb, E. Zitzler, "Combining
    convergence and diversity in evolutionary multiobjective optimization", Evolutionary
    Computation 10(3):263-282, 2002. jMetal 6, ``EpsilonDominanceComparator``,
    ``NonDominatedSolutionListArchive``, ``OMOPSO`` (github.com/jMetal/jMetal).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.moo.cmdpsofs import epsilon_nondominated
    >>> F = np.array([[0.101, 0.5], [0.104, 0.4], [0.30, 0.1], [0.102, 0.45]])
    >>> epsilon_nondominated(F, 0.01)  # rows 0, 1, 3: error box 10; 1 has the better size box
    array([1, 2])
    """
    F = np.asarray(F, dtype=float)
    if F.ndim != 2:
        raise ValueError(f"F must be a 2-D array of objective vectors, got shape {F.shape}")
    eps = np.broadcast_to(np.asarray(_check_epsilon(epsilon), dtype=float), (F.shape[1],)) \
        if np.ndim(epsilon) == 0 or len(epsilon) == F.shape[1] else None
    if eps is None:
        raise ValueError(f"epsilon gives {len(epsilon)} box sizes for {F.shape[1]} objectives")
    G = pareto.on_grid(F)
    boxes = np.floor(G / eps)
    dist = np.sum((G - boxes * eps) ** 2, axis=1)
    members = []
    for i in range(F.shape[0]):
        if members:
            m = np.asarray(members)
            B = boxes[m]
            no_worse = np.all(B <= boxes[i], axis=1)
            no_better = np.all(B >= boxes[i], axis=1)
            same = no_worse & no_better
            if np.any((no_worse & ~same) | (same & (dist[m] <= dist[i]))):
                continue  # a member's box dominates, or its box is the same and it is closer
            beaten = (no_better & ~same) | (same & (dist[i] < dist[m]))
            members = [j for j, out in zip(members, beaten) if not out]
        members.append(i)
    return np.asarray(sorted(members), dtype=np.int64)


def _check_epsilon(epsilon):
    """``epsilon`` as a float, or a tuple of floats, each positive and finite."""
    values = (epsilon,) if isinstance(epsilon, numbers.Real) else epsilon
    try:
        values = tuple(values)
    except TypeError:
        values = ()
    if not values or not all(isinstance(v, numbers.Real) and not isinstance(v, bool)
                             and np.isfinite(v) and v > 0 for v in values):
        raise ValueError(f"epsilon must be a positive number or a sequence of them, got "
                         f"{epsilon!r}")
    return float(values[0]) if isinstance(epsilon, numbers.Real) else tuple(map(float, values))


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

