"""VLPSO: variable-length particle swarm optimisation for feature selection (Tran et al. 2019)."""

import math

import numpy as np

from pymoo_fs._validation import check_positive_int
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.varlen import VariableLengthSwarm, learn_velocity

__all__ = ["VLPSO", "exemplars", "learning_probabilities"]


class VLPSO(VariableLengthSwarm):
    """Variable-length PSO: comprehensive learning over divisions of different lengths.

    The features are ranked by symmetric uncertainty with the class; division ``s`` of ``M``
    covers the first ``s D / M`` ranked features. Each particle learns, dimension by
    dimension, from an exemplar's personal best chosen by tournament (comprehensive-learning
    PSO); when the global best stagnates, the division with the best mean personal-best
    fitness sets the new maximum length and the others are resized below it.

    The steps ([P] the VLPSO code ``VarLenPSOMain``, ``VLSwarm``):

    1. **Rank** the features by SU with the class (``problem.symmetric_uncertainty()``).
    2. **Initialise** ``M`` divisions of ``pop_size // M`` particles of lengths ``s D // M``;
       particle 0 of each has every position 1.0, the others ``x ~ U(0, 1)``;
       ``v ~ U(-vmax, vmax)`` [P: ``initialize``]. Evaluate; set personal and global bests;
       draw every particle's exemplars.
    3. **Exemplars** (:func:`exemplars`): for each dimension ``d`` of particle ``i``, with
       probability ``Pc_i`` the better personal best of two other random particles that have
       dimension ``d``, else ``i`` itself [P: ``renewExemplar``]. A particle's exemplars are
       drawn again after ``refresh_gap`` generations without a better personal best.
    4. **Move** every particle: ``v_d <- w v_d + c r_d (pbest_{e(d), d} - x_d)``, clamped to
       ``[-vmax, vmax]``; ``x <- x + v`` clamped to ``[0, 1]`` [CLPSO].
    5. **Evaluate**; personal and global bests by "better, or equal with fewer features" [P].
    6. **Change lengths** after ``stagnation`` generations without a better global best: the
       division of the highest mean personal-best fitness (the first on ties) gives the new
       maximum length (nothing happens if it already is the maximum); the other divisions,
       in index order, get ``k * max // M`` (``k = 1, 2, ...``), dropping or adding last
       dimensions; the changed particles are re-evaluated and every exemplar is drawn again
       [P: ``reinit``, ``ResizeParticles``].

    Parameters
    ----------
    pop_size : int or "auto", default="auto"
        Particles: ``"auto"`` is ``D // 20``, at most 300, and 100 when that is <= 100 [P;
        Yang et al. 2022, Tab. 2]. The swarm holds ``M * (pop_size // M)`` of them.
    n_divisions : int, default=12
        ``M`` [P: ``SIZE_DIVISION`` 12]; at most ``pop_size`` are used.
    stagnation : int, default=9
        Generations without a better global best before the lengths change [P:
        ``MAX_ITER_STAG`` 9].
    refresh_gap : int, default=7
        Generations without a better personal best before a particle's exemplars are drawn
        again [P: ``REFRESH_GAP``; CLPSO's m = 7].
    w, w_end : float, default=0.9, 0.4
        Inertia weight at the start and the end.
    inertia : {"linear", "constant"}, default="linear"
        Decreasing schedule, or ``w`` throughout (the code's integer division) [P-code≠paper].
    c : float, default=1.49445
        Acceleration coefficient [P].
    vmax : float, default=0.6
        Velocity limit [P].
    threshold : float, default=0.6
        Selection threshold theta.
    inclusive_threshold : bool, default=True
        Select iff ``x >= theta`` (the authors' code base) rather than ``x > theta``.
    ranking : {"su", "index"}, default="su"
        Feature ranking; ``"index"`` keeps the original order.
    discretization : {"mdl", "equal_width", "equal_frequency", "mutual_info"}, default="mdl"
        The relevance measure the ranking sorts by: SU after MDL bins (Fayyad & Irani's, as
        the authors' SU code), after 10 equal-width or equal-frequency bins, or scikit-learn's
        mutual information (:func:`pymoo_fs.relevance.relevance_measure`) [A].
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_, V_, pbest_X_ : ndarray of float64, shape (n_particles_, D)
        In the ranked order, 0 beyond a particle's length.
    exemplar_ : ndarray of int64, shape (n_particles_, D)
        The particle whose personal best each dimension learns from.
    pc_ : ndarray of float64, shape (n_particles_,)
        Learning probabilities.
    order_, lengths_, division_, max_length_, gbest_ind_, stagnation_
        See :class:`~pymoo_fs.algorithms.varlen.VariableLengthSwarm`.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup (see
        :class:`~pymoo_fs.algorithms.varlen.VariableLengthSwarm`).

    Notes
    -----
    ``Pc_i = 0.05 + 0.45 (exp(10 (i - 1) / (P - 1)) - 1) / (exp(10) - 1)`` is CLPSO's formula
    [A: the code's ``calculatePc`` is in a jar that is not public]. The tournament draws its
    two particles uniformly among the others that have dimension ``d`` (the code retries
    random draws up to ``P`` times, falling back to the particle itself) [A]. The fitness is
    the problem's (FIT-B of the AMSO paper, Tran et al. GECCO 2019, under the preset S001; the
    code's is leave-one-out balanced 1-NN accuracy). No local search (the code's ``LOCAL_SEARCH`` is
    off). A length change is skipped while the evaluation budget cannot pay for it.

    References
    ----------
    B. Tran, B. Xue, M. Zhang, "Variable-length particle swarm optimization for feature
    selection on high-dimensional classification", IEEE TEVC 23(3):473-487, 2019,
    doi:10.1109/TEVC.2018.2869405. J. J. Liang, A. K. Qin, P. N. Suganthan, S. Baskar,
    "Comprehensive learning particle swarm optimizer", IEEE TEVC 10(3):281-295, 2006. Code:
    GitHub ``xyjigsaw/VarLenPSO`` (by B. Tran). Settings and fitness as run in
    B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
    high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import VLPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitBFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitBFeatureSelection.from_data(data.X, data.y)
    >>> res = minimize(problem, VLPSO(pop_size=24), ("n_gen", 5), seed=1)
    >>> res.X.dtype, res.algorithm.evaluator.n_eval
    (dtype('bool'), 120)
    """

    registry_names = ("VLPSO",)
    min_division_size = 1
    small_swarm = 100

    def __init__(self, pop_size="auto", n_divisions=12, stagnation=9, refresh_gap=7, w=0.9,
                 w_end=0.4, inertia="linear", c=1.49445, vmax=0.6, threshold=0.6,
                 inclusive_threshold=True, ranking="su", discretization="mdl", **kwargs):
        super().__init__(pop_size, n_divisions, stagnation, w, w_end, inertia, c, vmax,
                         threshold, inclusive_threshold, ranking, discretization, **kwargs)
        self.refresh_gap = check_positive_int("refresh_gap", refresh_gap)

    def _initialize_tell(self, infills):
        super()._initialize_tell(infills)
        self.pc_ = learning_probabilities(self.n_particles_)
        self.stale_ = np.zeros(self.n_particles_, dtype=np.int64)
        self.exemplar_ = np.repeat(np.arange(self.n_particles_)[:, None], self.problem.n_var, 1)
        self._renew(np.arange(self.n_particles_))

    def _move(self):
        E = self.pbest_X_[self.exemplar_, np.arange(self.problem.n_var)[None, :]]
        V = learn_velocity(self.V_, self.X_, E, self._inertia(), self.c, self.random_state)
        return swarm.move(self.X_, V, self.vmax)

    def _tell(self, infills, idx):
        replaced = self._update_personal_bests(infills, idx)
        self.stale_ += 1
        self.stale_[replaced] = 0
        refresh = np.flatnonzero(self.stale_ >= self.refresh_gap)
        if refresh.size:
            self._renew(refresh)
            self.stale_[refresh] = 0
        self.stagnation_ = 0 if self._update_gbest() else self.stagnation_ + 1
        if self.stagnation_ >= self.stagnation:
            pbest_F = self._objectives(self.pbest_pop_)
            mean = np.array([pbest_F[self.division_ == s, 0].mean()
                             for s in range(self.lengths_.size)])
            new_max = int(self.lengths_[int(np.argmin(mean))])
            if self._change_lengths(new_max, "index"):
                self._renew(np.arange(self.n_particles_))
                self.stagnation_ = 0

    def _renew(self, particles):
        self.exemplar_ = self.exemplar_.copy()
        key = swarm.order_key(self._objectives(self.pbest_pop_)[:, 0],
                              self.pbest_pop_.get("X").sum(axis=1),
                              self.prefers_fewer())  # the problem's order (FIT-E: then size)
        for i in particles:
            self.exemplar_[i] = exemplars(int(i), self.particle_lengths_, key,
                                          self.pc_[i], self.problem.n_var, self.random_state)


def learning_probabilities(n):
    """CLPSO's learning probabilities ``Pc_i`` of ``n`` particles [A for VLPSO].

    Returns
    -------
    pc : ndarray of float64, shape (n,)
        ``0.05 + 0.45 (exp(10 i / (n - 1)) - 1) / (exp(10) - 1)`` for ``i = 0..n-1`` (0.05 for
        a single particle).

    Examples
    --------
    >>> from pymoo_fs.algorithms.soo.vlpso import learning_probabilities
    >>> learning_probabilities(3).round(4).tolist()
    [0.05, 0.053, 0.5]
    """
    if n == 1:
        return np.array([0.05])
    i = np.arange(n)
    return 0.05 + 0.45 * (np.exp(10.0 * i / (n - 1)) - 1.0) / (math.exp(10.0) - 1.0)


def exemplars(i, lengths, F, pc, n_features, random_state):
    """Exemplar particle of each dimension of particle ``i`` (a CLPSO tournament per dimension).

    Parameters
    ----------
    i : int
        The particle.
    lengths : ndarray of int, shape (n,)
        Length of every particle.
    F : ndarray of float64, shape (n,)
        Personal-best objective of every particle (lower is better).
    pc : float
        Learning probability of particle ``i``.
    n_features : int
        ``D``.
    random_state : numpy.random.Generator
        Draws, per dimension below ``lengths[i]``: ``U(0, 1)`` against ``pc``, then two
        ``U(0, 1)`` picking the competitors.

    Returns
    -------
    exemplar : ndarray of int64, shape (n_features,)
        For ``d < lengths[i]``: with probability ``pc``, the better (lower ``F``; the second on
        ties, as the code) of two distinct particles other than ``i`` drawn uniformly among
        those longer than ``d`` (``i`` stands in for a missing one); otherwise ``i``. ``i``
        beyond its length, and everywhere in a swarm of one particle (``n == 1``).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.vlpso import exemplars
    >>> lengths, F = np.array([4, 4, 2]), np.array([0.3, 0.1, 0.2])
    >>> exemplars(0, lengths, F, 1.0, 4, np.random.default_rng(0)).tolist()
    [1, 1, 1, 1]
    """
    L = int(lengths[i])
    out = np.full(n_features, i, dtype=np.int64)
    others = np.flatnonzero(np.arange(lengths.size) != i)
    others = others[np.argsort(-lengths[others], kind="stable")]  # longest first
    d = np.arange(L)
    count = np.searchsorted(-lengths[others], -d, side="left")  # others longer than d
    learn = random_state.random(L) < pc
    u1, u2 = random_state.random(L), random_state.random(L)
    if others.size == 0:  # a swarm of one particle: it is its own exemplar everywhere
        return out
    a = np.minimum((u1 * count).astype(np.int64), np.maximum(count - 1, 0))
    b = np.minimum((u2 * (count - 1)).astype(np.int64), np.maximum(count - 2, 0))
    b = b + (b >= a)
    p1 = np.where(count >= 1, others[np.minimum(a, others.size - 1)], i)
    p2 = np.where(count >= 2, others[np.minimum(b, others.size - 1)], i)
    winner = np.where(F[p1] < F[p2], p1, p2)
    out[:L] = np.where(learn, winner, i)
    return out
