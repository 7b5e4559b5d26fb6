"""Swarms of variable-length particles over features ranked by relevance (AMSO, VLPSO).

The features are ranked by symmetric uncertainty with the class; the swarm is split into
divisions whose particles cover the first ``s D / M`` ranked features (division ``s = 1..M``);
when the search stagnates, the divisions are given new lengths below a new maximum. This
module holds what AMSO (Tran, Xue & Zhang, GECCO 2019) and VLPSO (Tran, Xue & Zhang, TEVC
2019) share: :class:`VariableLengthSwarm` (ranking, divisions, initialisation, decoding,
inertia schedule, global best, length changes) and pure steps (:func:`paper_swarm_size`,
:func:`division_lengths`, :func:`resized_lengths`, :func:`learn_velocity`).

Positions live in the ranked order: column ``r`` of ``X_`` is the feature of rank ``r``
(``order_[r]``); the columns beyond a particle's length are 0 and never selected.

References
----------
B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.
"""

import numpy as np
from pymoo.core.population import Population

from pymoo_fs._validation import check_choice, check_positive_int, check_unit_interval
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.algorithms.coefficients import PSOCoefficients
from pymoo_fs.relevance import RELEVANCE_MEASURES

__all__ = ["VariableLengthSwarm", "division_lengths", "learn_velocity", "paper_swarm_size",
           "resized_lengths"]


def paper_swarm_size(n_features, small):
    """The papers' swarm size rule (AMSO, VLPSO): ``D // 20`` particles, at most 300, ``small`` if <= 100.

    Parameters
    ----------
    n_features : int
        ``D``.
    small : int
        Size used when ``D // 20 <= 100``: 30 in the AMSO code, 100 in the VLPSO code.

    Returns
    -------
    size : int

    Examples
    --------
    >>> from pymoo_fs.algorithms.varlen import paper_swarm_size
    >>> paper_swarm_size(2308, 30), paper_swarm_size(5469, 30), paper_swarm_size(1000, 30)
    (115, 273, 30)
    """
    size = min(n_features // 20, 300)
    return small if size <= 100 else size


def division_lengths(n_features, n_divisions):
    """Initial lengths ``s * D // M`` of divisions ``s = 1..M`` [Tran et al. 2019, Eq. 3].

    [P: integer division].

    Returns
    -------
    lengths : ndarray of int64, shape (n_divisions,)
        At least 1 each.

    Examples
    --------
    >>> from pymoo_fs.algorithms.varlen import division_lengths
    >>> division_lengths(2000, 5).tolist()
    [400, 800, 1200, 1600, 2000]
    """
    s = np.arange(1, n_divisions + 1, dtype=np.int64)
    return np.maximum(s * n_features // n_divisions, 1)


def resized_lengths(lengths, new_max, visit):
    """Division lengths after a length change to the new maximum ``new_max``.

    Divisions are visited in ``visit`` order with ``k = 1, 2, ...``; each division whose length
    differs from ``new_max`` gets length ``k * new_max // M`` (at least 1) and increments ``k``;
    a division of length ``new_max`` keeps it [Tran et al. 2019, Alg. 1; P: AMSO-code
    ``ResizeParticles``, VLPSO-code ``ResizeParticles``].

    Parameters
    ----------
    lengths : ndarray of int, shape (M,)
        Current lengths.
    new_max : int
        The new maximum length.
    visit : {"ascending", "index"}
        AMSO visits the divisions from the shortest to the longest (ties by index); VLPSO in
        index order.

    Returns
    -------
    lengths : ndarray of int64, shape (M,)

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.varlen import resized_lengths
    >>> resized_lengths(np.array([400, 800, 1200, 1600, 2000]), 1200, "ascending").tolist()
    [240, 480, 1200, 720, 960]
    """
    lengths = np.asarray(lengths, dtype=np.int64)
    order = (np.argsort(lengths, kind="stable") if visit == "ascending"
             else np.arange(lengths.size))
    new = lengths.copy()
    k = 1
    for s in order:
        if lengths[s] != new_max:
            new[s] = max(k * int(new_max) // lengths.size, 1)
            k += 1
    return new


def learn_velocity(V, X, E, w, c, random_state):
    """``v <- w v + c r (e - x)`` with ``r ~ U(0, 1)`` per dimension [CLPSO].

    [Tran et al. 2019, Eq. 5].

    Parameters
    ----------
    V, X : ndarray of float64, shape (n, D)
        Velocities and positions of the moving particles.
    E : ndarray of float64, shape (n, D)
        What each particle learns from: the winner's personal best (AMSO) or the exemplars'
        personal bests (VLPSO).
    w, c : float
        Inertia weight and acceleration coefficient.
    random_state : numpy.random.Generator
        Source of ``r`` (one (n, D) draw).

    Returns
    -------
    V_new : ndarray of float64, shape (n, D)
        Not clamped. Columns beyond a particle's length stay 0 when ``V``, ``X`` and ``E`` are
        0 there.
    """
    r = random_state.random(X.shape)
    return w * V + c * r * (E - X)


class VariableLengthSwarm(PSOCoefficients, SwarmAlgorithm):
    """A single-objective swarm of divisions of particles of different lengths.

    Parameters
    ----------
    pop_size : int or "auto"
        Number of particles; ``"auto"`` is the papers' rule (:func:`paper_swarm_size`, with the
        class attribute ``small_swarm``). The swarm holds ``M * (pop_size // M)`` particles
        (:attr:`n_particles_`), ``M`` the number of divisions actually used.
    n_divisions : int
        Number of divisions ``M``; fewer are used when there are too few particles
        (``pop_size // min_division_size``) [A].
    stagnation : int
        Generations without a better global best before the lengths change.
    w, w_end : float
        Inertia weight at the start and at the end of the run.
    inertia : {"linear", "constant"}
        ``w_ = w - (w - w_end) * t / T`` (the papers' Table 2, ``t / T`` the fraction of the
        budget spent, :meth:`progress`), or ``w`` throughout (the authors' code, where
        ``iter / max_iter`` is an integer division) [P-code≠paper].
    c : float
        Acceleration coefficient.
    vmax : float
        Velocity limit.
    threshold : float
        Selection threshold theta.
    inclusive_threshold : bool
        Select iff ``x >= theta`` (the authors' code) instead of ``x > theta``.
    ranking : {"su", "index"}
        Rank the features by decreasing SU with the class (the problem's
        ``symmetric_uncertainty(discretization)``, ties in index order), or keep their order.
    discretization : {"mdl", "equal_width", "equal_frequency", "mutual_info"}, default="mdl"
        The relevance measure behind ``ranking="su"``
        (:func:`pymoo_fs.relevance.relevance_measure`).
    **kwargs
        pymoo's ``Algorithm`` keywords.

    Attributes
    ----------
    order_ : ndarray of int64, shape (D,)
        ``order_[r]``: the feature of rank ``r``.
    relevance_ : ndarray of float64, shape (D,)
        Relevance with the class of each ranked column (SU, or mutual information in nats
        with ``discretization="mutual_info"``; zeros with ``ranking="index"``).
    n_particles_ : int
    division_ : ndarray of int64, shape (n_particles_,)
        Division of each particle (contiguous blocks).
    lengths_ : ndarray of int64, shape (M,)
        Current length of each division.
    max_length_ : int
        The maximum length set by the last length change (``D`` at first).
    gbest_ind_ : pymoo.core.individual.Individual
        The global best (a copy: later length changes do not touch it); ``gbest_X_`` its
        ranked position, ``gbest_length_`` the length of the particle that produced it.
    stagnation_ : int
        Generations since the global best last improved.

    Notes
    -----
    Subclasses write ``_move`` and ``_tell`` and choose the new maximum length
    (:meth:`_change_lengths`). The personal-best and global-best rule is "better, or equal
    with fewer features" [P: AMSO-code and VLPSO-code ``updateFitnessAndLSPbest``]. Every
    evaluation goes through pymoo's evaluator.
    """

    n_objectives = 1
    #: every coefficient is a number (the inertia weight follows its own schedule)
    ranged_coefficients = ()
    #: particles per division below which fewer divisions are used
    min_division_size = 1
    #: swarm size of the "auto" rule when D // 20 <= 100
    small_swarm = 30

    def __init__(self, pop_size, n_divisions, stagnation, w, w_end, inertia, c, vmax,
                 threshold, inclusive_threshold, ranking, discretization="mdl", **kwargs):
        auto = isinstance(pop_size, str) and pop_size == "auto"
        super().__init__(1 if auto else pop_size, pbest_rule="better_or_fewer", **kwargs)
        if auto:
            self.pop_size = "auto"
        self.n_divisions = check_positive_int("n_divisions", n_divisions)
        self.stagnation = check_positive_int("stagnation", stagnation)
        self._set_coefficients(w=w, w_end=w_end)
        self.inertia = check_choice("inertia", inertia, ("linear", "constant"))
        self._set_coefficients(c=c, vmax=vmax)
        self.threshold = check_unit_interval("threshold", threshold)
        self.inclusive_threshold = bool(inclusive_threshold)
        self.ranking = check_choice("ranking", ranking, ("su", "index"))
        self.discretization = check_choice("discretization", discretization,
                                           RELEVANCE_MEASURES)

    # ------------------------------------------------------------------ setup
    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        D = problem.n_var
        self.su_, self.order_ = self._feature_ranking(self.ranking, self.discretization)
        self.relevance_ = (np.zeros(D) if self.su_ is None
                           else self.su_.relevance[self.order_])
        size = (paper_swarm_size(D, self.small_swarm) if self.pop_size == "auto"
                else self.pop_size)
        M = max(1, min(self.n_divisions, size // self.min_division_size))
        per = max(size // M, 1)
        self.n_particles_ = M * per
        self.division_ = np.repeat(np.arange(M, dtype=np.int64), per)
        self.lengths_ = division_lengths(D, M)
        self.max_length_ = D
        self.stagnation_ = 0
        self.gbest_ind_, self.gbest_X_, self.gbest_length_ = None, None, None
        self._decode_rows = None

    @property
    def particle_lengths_(self):
        """ndarray of int64, shape (n_particles_,): the length of each particle."""
        return self.lengths_[self.division_]

    def _initial_swarm(self):
        """Random prefixes, one all-ones particle per division [P: ``initialize``]."""
        n, D, rs = self.n_particles_, self.problem.n_var, self.random_state
        inside = np.arange(D)[None, :] < self.particle_lengths_[:, None]
        X = np.where(inside, rs.random((n, D)), 0.0)
        V = np.where(inside, rs.uniform(-self.vmax, self.vmax, (n, D)), 0.0)
        first = np.flatnonzero(np.r_[True, self.division_[1:] != self.division_[:-1]])
        X[first] = np.where(inside[first], 1.0, 0.0)
        return X, V

    # ------------------------------------------------------------------ encoding
    def _decode(self, X):
        """Masks over the original features of ranked positions (each within its length).

        ``X`` holds every particle, or the rows of the particles being proposed or
        re-evaluated (:meth:`_masks_of`).
        """
        X = np.atleast_2d(X)
        lengths = self.particle_lengths_
        if self._decode_rows is not None:
            lengths = lengths[self._decode_rows]
        if lengths.size != X.shape[0]:
            raise RuntimeError(f"decode: {X.shape[0]} positions for {lengths.size} particles")
        inside = np.arange(X.shape[1])[None, :] < lengths[:, None]
        ranked = swarm.decode(np.where(inside, X, -1.0), self.threshold,
                              self.inclusive_threshold)
        masks = np.zeros_like(ranked)
        masks[:, self.order_] = ranked
        return masks

    def _propose(self, idx, X, V):
        return self._masks_of(idx, X, lambda: super(VariableLengthSwarm, self)._propose(
            idx, X, V))

    def _masks_of(self, idx, X, make=None):
        """Decoded masks of rows ``X`` of particles ``idx`` (all when None)."""
        self._decode_rows = None if idx is None else np.asarray(idx)
        try:
            return self._decode(X) if make is None else make()
        finally:
            self._decode_rows = None

    def _inertia(self):
        if self.inertia == "constant":
            return self.w
        return self.w - (self.w - self.w_end) * self.progress()

    # ------------------------------------------------------------------ personal and global bests
    def _update_personal_bests(self, infills, idx=None):
        idx = np.arange(self.n_particles_) if idx is None else idx
        return super()._update_personal_bests(infills, idx)

    def _update_gbest(self):
        """Copy the best personal best into the global best if it is better (or equal, fewer).

        Returns
        -------
        improved : bool
        """
        best = self._best_personal_best()
        candidate = self.pbest_pop_[best]
        if self.gbest_ind_ is not None:
            both = self._objectives(Population.create(candidate, self.gbest_ind_))
            replace = swarm.replace_personal_bests(
                both[:1], both[1:], [candidate.X.sum()],
                [self.gbest_ind_.X.sum()], self.single_rule(), self.random_state)[0]
            if not replace:
                return False
        self.gbest_ = best
        self.gbest_ind_ = candidate.copy()
        self.gbest_X_ = self.pbest_X_[best].copy()
        self.gbest_length_ = int(self.particle_lengths_[best])
        return True

    def _initialize_tell(self, infills):
        self._update_gbest()
        self.stagnation_ = 0

    def _set_optimum(self):
        self.opt = Population.create(self.gbest_ind_)

    # ------------------------------------------------------------------ length changes
    def _change_lengths(self, new_max, visit, stale_pbest_fitness=False):
        """Give the divisions new lengths below ``new_max``, then re-evaluate what changed.

        Truncated particles lose their last columns (position, velocity and personal best);
        lengthened ones get ``x ~ U(0, 1)``, ``v ~ U(-vmax, vmax)`` and personal-best columns
        of 0 [P: ``ResizeParticles``]. The changed particles are evaluated, and their
        truncated personal bests too unless ``stale_pbest_fitness`` (the code keeps their old
        fitness); then the personal and global bests are updated. Skipped, and tried again at
        the next generation, when the evaluation budget cannot pay for it [A].

        Returns
        -------
        changed : bool
        """
        if new_max == self.max_length_:
            return True
        new = resized_lengths(self.lengths_, new_max, visit)
        moved = np.flatnonzero(new[self.division_] != self.particle_lengths_)
        truncated = moved[new[self.division_[moved]] < self.particle_lengths_[moved]]
        cost = moved.size + (0 if stale_pbest_fitness else truncated.size)
        if cost > self.evaluations_left():
            return False
        old = self.particle_lengths_
        self.lengths_, self.max_length_ = new, int(new_max)
        X, V, P = self.X_.copy(), self.V_.copy(), self.pbest_X_.copy()
        for i in moved:
            a, b = sorted((int(old[i]), int(new[self.division_[i]])))
            grow = new[self.division_[i]] > old[i]
            X[i, a:b] = self.random_state.random(b - a) if grow else 0.0
            V[i, a:b] = self.random_state.uniform(-self.vmax, self.vmax, b - a) if grow else 0.0
            P[i, a:b] = 0.0
        self.X_, self.V_, self.pbest_X_ = X, V, P
        if truncated.size:
            pbest = self.pbest_pop_.copy()
            masks = self._masks_of(truncated, P[truncated])
            if stale_pbest_fitness:
                evaluated = Population.new("X", masks, "F", self.pbest_F_[truncated],
                                           "G", self.pbest_pop_[truncated].get("G"))
            else:
                evaluated = Population.new("X", masks)
                self.evaluator.eval(self.problem, evaluated)
            pbest[truncated] = evaluated
            self.pbest_pop_ = pbest
        if moved.size:
            current = Population.new("X", self._masks_of(moved, X[moved]))
            self.evaluator.eval(self.problem, current)
            pop = self.pop.copy()
            pop[moved] = current
            self.pop = pop
            self._update_personal_bests(current, moved)
        self._update_gbest()
        return True
