"""AMSO: adaptive multi-subswarm optimisation for feature selection (Tran et al. 2019)."""

import numpy as np

from pymoo_fs._validation import check_choice, check_positive_int, check_unit_interval
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms._sampling import floyd
from pymoo_fs.algorithms.varlen import VariableLengthSwarm, learn_velocity

__all__ = ["AMSO", "compete", "local_search_flips"]


class AMSO(VariableLengthSwarm):
    """Adaptive multi-subswarm optimisation (AMSO) for feature selection.

    The features are ranked by symmetric uncertainty with the class; subswarm ``s`` of ``M``
    searches the first ``s D / M`` ranked features. Within each subswarm, random pairs compete
    and the loser learns from the winner's personal best; personal bests are refined by an
    SU-guided local search; when the global best stagnates, the subswarms shrink below the
    length of the particle that found it.

    The steps, in the paper's order ([Tran et al. 2019, §3, Alg. 1-2]; [P] the authors' code):

    1. **Rank** the features by SU with the class, on the training data
       (``problem.symmetric_uncertainty()``) [Tran et al. 2019, Alg. 2 line 2].
    2. **Initialise** ``M`` subswarms of ``pop_size // M`` particles; subswarm ``s`` has
       length ``s D // M``; in each, particle 0 has every position 1.0 and the others
       ``x ~ U(0, 1)``; ``v ~ U(-vmax, vmax)`` [Tran et al. 2019, Alg. 2 lines 3-10; P:
       ``initialize``]. Evaluate; every personal best is new, so each is refined by the local
       search; the global best is the best personal best.
    3. **Compete** in each subswarm: a random permutation is paired off; the particle with the
       better current fitness wins, and on equal fitness the first of the pair loses [P: the
       code draws the loser first and swaps only for a strictly better one]; an odd particle
       out waits. Losers move, winners do not [Tran et al. 2019, §3.3].
    4. **Learn**: ``v_l <- w v_l + c r (pbest_w - x_l)`` with ``r ~ U(0, 1)`` per dimension,
       ``v`` clamped to ``[-vmax, vmax]``, ``x <- x + v`` clamped to ``[0, 1]`` [Tran et al. 2019,
       Eq. 5, Eq. 2; P]. No global-best or mean term.
    5. **Evaluate** the losers (winners keep their fitness: the folds are fixed); update
       personal bests ("better, or equal with fewer features" [P]); refine the new personal
       bests by the local search on the schedule (``ls_schedule``); update the global best.
    6. **Change lengths** after ``stagnation`` generations without a better global best: the
       global best's particle length becomes the new maximum (nothing happens if it already
       is); the other subswarms, from the shortest to the longest, get lengths
       ``k * max // M`` (``k = 1, 2, ...``) by dropping (or adding) their last dimensions;
       the changed particles are re-evaluated without local search [Tran et al. 2019, §3.2, Alg. 1;
       P: ``updateSwarm``].
    7. **Inertia** ``w_ = w - (w - w_end) t / T`` (``inertia="linear"``) [Tran et al. 2019, Tab. 2].

    **Local search** on a personal best ``s`` (binary, over the particle's length ``L``) [P:
    ``KNNopt.localsearchSU``; "[19] Tran et al. CEC 2016" in the paper], repeated
    ``ls_iterations`` times: ``k = floor(p |s|)``, ``n0 = round(U(0, 1) min(k, L - |s|))``
    unselected and ``n1 = k - n0`` selected features are drawn at random; the drawn selected
    features, by decreasing SU, remove each later one that an earlier kept one makes
    redundant (``SU(f_i, f_j) > SU(f_j, C)``, 1 when either is irrelevant); the drawn
    unselected features whose SU exceeds the mean SU of the drawn selected ones are added;
    an empty flip set is drawn again (up to ``ls_redraws`` draws); ``s xor flips`` is
    evaluated and kept if better, or equal with fewer features (:func:`local_search_flips`).
    Its evaluations go through pymoo's evaluator and count in ``n_eval``; it stops when the
    budget has none left.

    Parameters
    ----------
    pop_size : int or "auto", default="auto"
        Particles (at least 2): ``"auto"`` is ``D // 20``, at most 300, and 30 when that is
        <= 100 [Tran et al. 2019, Tab. 2; P: ``DynPSO``]. The swarm holds ``M * (pop_size // M)`` of
        them.
    n_subswarms : int, default=13
        ``M`` [Tran et al. 2019, §4, tuned on Brain1]; with fewer than ``2 M`` particles,
        ``pop_size // 2`` subswarms of pairs are used [A].
    stagnation : int, default=7
        ``beta``: generations without a better global best before the lengths change
        [Tran et al. 2019].
    w, w_end : float, default=0.9, 0.4
        Inertia weight at the start and at the end [Tran et al. 2019, Tab. 2].
    inertia : {"linear", "constant"}, default="linear"
        The paper's decreasing schedule, or ``w`` throughout (the code's integer division)
        [P-code≠paper].
    c : float, default=1.49445
        Acceleration coefficient [Tran et al. 2019, Tab. 2].
    vmax : float, default=0.6
        Velocity limit [P].
    threshold : float, default=0.6
        Selection threshold theta [Tran et al. 2019, Tab. 2].
    inclusive_threshold : bool, default=True
        Select iff ``x >= theta`` (the code) rather than ``x > theta`` (the paper) [P].
    ls_schedule : {"code", "always", "never"}, default="code"
        When personal bests are refined: ``"code"`` at initialisation and after moves 2, 4,
        ..., 18 (``LS_FREQ = 2``, below 20) [P-code≠paper; our default, A]; ``"always"``
        after every personal-best update (Tran et al. 2019, §3.5); ``"never"``.
    ls_iterations : int, default=100
        ``E``, tries per local search [P: ``LS_MAX_ITER``].
    flip_fraction : float, default=0.25
        ``p``, fraction of the selected features drawn per try [P: ``FLIP_PERCENTAGE``].
    ls_redraws : int, default=10
        Draws of a try before it is skipped when its flip set stays empty [P].
    stale_pbest_fitness : bool, default=False
        Keep a truncated personal best's old fitness, as the code does, instead of
        re-evaluating it [A: re-evaluate, our default].
    ranking : {"su", "index"}, default="su"
        Feature ranking; ``"index"`` keeps the original order (and the local search then
        treats every feature as irrelevant).
    discretization : {"mdl", "equal_width", "equal_frequency", "mutual_info"}, default="mdl"
        The discretisation behind SU, for the ranking and the local search's redundancy test:
        MDL (the authors' code, ``SU.java`` on Weka's supervised ``Discretize``; kept as the
        default for that reason), 10 equal-width or equal-frequency bins
        (:func:`pymoo_fs.relevance.relevance_measure`). ``"mutual_info"`` ranks without
        discretising and has no SU between features, so it needs ``ls_schedule="never"``.
    **kwargs
        pymoo's ``Algorithm`` keywords (``termination``, ``seed``, ``verbose``, ...); any other
        keyword raises ``TypeError``.

    Attributes
    ----------
    X_, V_, pbest_X_ : ndarray of float64, shape (n_particles_, D)
        Positions, velocities and personal bests in the ranked order (0 beyond a particle's
        length).
    pop : pymoo.core.population.Population
        The current swarm (masks over the original features, fitness).
    order_, lengths_, division_, max_length_, gbest_ind_, stagnation_
        See :class:`~pymoo_fs.algorithms.varlen.VariableLengthSwarm`.
    n_local_searches_ : int
        Local searches run; ``n_local_search_improved_`` those that improved a personal best,
        ``n_local_search_moves_`` the candidates they accepted.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message); at setup for a problem with
        more than one objective, or without ``symmetric_uncertainty()`` when ``ranking="su"``.

    Notes
    -----
    For :class:`~pymoo_fs.problems.FitBFeatureSelection` (FIT-B, Tran et al. 2019's fitness) and any
    single-objective :class:`~pymoo_fs.problems.FeatureSelectionProblem`. The paper's budget
    of 100 iterations is ``("n_gen", 101)``: generation 1 is the initialisation. Departures:
    a resize happens in the generation whose global best completes the stagnation (Alg. 2; the
    code waits for the next iteration) and is skipped while the evaluation budget cannot pay
    for it; a no-op resize (the global best already has the maximum length) evaluates nothing
    (the code re-evaluates every particle to the same values); the code's comparison of a
    particle's current size against the global best's size is replaced by personal-best
    sizes; ties in the SU order keep the lower rank. An empty mask cannot arise (decoding
    selects the largest coordinate of a particle with none above the threshold).

    References
    ----------
    B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
    high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713. Authors' code:
    GitHub ``tnbinh/AMSO``. B. Tran, B. Xue, M. Zhang, "A PSO based hybrid feature selection
    algorithm for high-dimensional classification", IEEE CEC 2016 (the local search).

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import AMSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitBFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitBFeatureSelection.from_data(data.X, data.y)
    >>> res = minimize(problem, AMSO(pop_size=26, ls_iterations=10), ("n_gen", 6), seed=1)
    >>> res.X.dtype, res.X.shape, int(res.X.sum()) < 60
    (dtype('bool'), (60,), True)
    """

    registry_names = ("AMSO",)
    min_division_size = 2
    small_swarm = 30

    def __init__(self, pop_size="auto", n_subswarms=13, stagnation=7, w=0.9, w_end=0.4,
                 inertia="linear", c=1.49445, vmax=0.6, threshold=0.6,
                 inclusive_threshold=True, ls_schedule="code", ls_iterations=100,
                 flip_fraction=0.25, ls_redraws=10, stale_pbest_fitness=False, ranking="su",
                 discretization="mdl", **kwargs):
        n_subswarms = check_positive_int("n_subswarms", n_subswarms)
        if pop_size != "auto" and check_positive_int("pop_size", pop_size) < 2:
            raise ValueError(f"pop_size must be at least 2 (AMSO moves the losers of pairs), "
                             f"got {pop_size!r}")
        super().__init__(pop_size, n_subswarms, stagnation, w, w_end, inertia, c, vmax,
                         threshold, inclusive_threshold, ranking, discretization, **kwargs)
        self.ls_schedule = check_choice("ls_schedule", ls_schedule, ("code", "always", "never"))
        if discretization == "mutual_info" and ls_schedule != "never":
            raise ValueError("discretization='mutual_info' has no SU between features, which "
                             "the local search needs: use ls_schedule='never' or a "
                             "discretization ('mdl', 'equal_width', 'equal_frequency')")
        self.ls_iterations = check_positive_int("ls_iterations", ls_iterations)
        self.flip_fraction = check_unit_interval("flip_fraction", flip_fraction)
        self.ls_redraws = check_positive_int("ls_redraws", ls_redraws)
        self.stale_pbest_fitness = bool(stale_pbest_fitness)

    @property
    def n_subswarms(self):
        """int: ``M`` as configured (``lengths_.size`` is the number in use)."""
        return self.n_divisions

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        self.moves_ = 0
        self.n_local_searches_ = 0
        self.n_local_search_improved_ = 0
        self.n_local_search_moves_ = 0

    # ------------------------------------------------------------------ the paper's steps
    def _initialize_tell(self, infills):
        if self.ls_schedule != "never":  # every personal best was just set
            self._refine(np.arange(self.n_particles_))
        super()._initialize_tell(infills)

    def _move(self):
        losers, winners = compete(self._objectives(self.pop)[:, 0], self.division_,
                                  self.random_state)
        V = learn_velocity(self.V_[losers], self.X_[losers], self.pbest_X_[winners],
                           self._inertia(), self.c, self.random_state)
        X, V = swarm.move(self.X_[losers], V, self.vmax)
        return losers, X, V

    def _tell(self, infills, idx):
        self.moves_ += 1
        replaced = self._update_personal_bests(infills, idx)
        if self._searching():
            self._refine(replaced)
        self.stagnation_ = 0 if self._update_gbest() else self.stagnation_ + 1
        if self.stagnation_ >= self.stagnation:
            if self._change_lengths(self.gbest_length_, "ascending", self.stale_pbest_fitness):
                self.stagnation_ = 0

    def _searching(self):
        if self.ls_schedule == "code":
            return self.moves_ < 20 and self.moves_ % 2 == 0
        return self.ls_schedule == "always"

    # ------------------------------------------------------------------ local search
    def _refine(self, particles):
        """Run the local search on the personal bests of ``particles``."""
        for i in particles:
            if self.budget_spent():
                return
            self.n_local_searches_ += 1
            self._local_search(int(i))

    def _local_search(self, i):
        L = int(self.particle_lengths_[i])
        best = self.pbest_pop_[i]
        s = best.X[self.order_[:L]].copy()
        F, size, accepted = float(best.F[0]), int(s.sum()), None
        cv = float(best.CV[0]) if self._constrained() else 0.0  # feasibility first
        for _ in range(self.ls_iterations):
            if self.budget_spent():
                break
            flips = local_search_flips(s, self.flip_fraction, self.relevance_[:L],
                                       self._redundant, self.ls_redraws, self.random_state)
            if flips.size == 0:
                continue
            candidate = s.copy()
            candidate[flips] ^= True
            n = int(candidate.sum())
            if n == 0:
                continue
            mask = np.zeros(self.problem.n_var, dtype=bool)
            mask[self.order_[:L][candidate]] = True
            evaluated = self.evaluate_masks(mask[None, :])
            value = float(evaluated.F[0, 0])
            new_cv = self._violations(evaluated)[0] if cv or self._constrained() else 0.0
            if new_cv < cv or (new_cv == cv and (value < F or (value == F and n < size))):
                s, F, size, accepted, cv = candidate, value, n, evaluated, new_cv
                self.n_local_search_moves_ += 1
        if accepted is not None:
            self.n_local_search_improved_ += 1
            P = self.pbest_X_.copy()
            P[i, :L] = s
            self.pbest_X_ = P
            pbest = self.pbest_pop_.copy()
            pbest[i] = accepted.population()[0]
            self.pbest_pop_ = pbest

    def _redundant(self, ranked):
        """Redundancy marks of ranked columns (in decreasing SU) by the problem's SU table."""
        if self.su_ is None:  # ranking="index": no SU, every pair counts as redundant
            return np.arange(ranked.size) > 0
        return self.su_.redundant(self.order_[ranked])


def compete(F, division, random_state):
    """Random pairwise competitions in each subswarm [Tran et al. 2019, §3.3].

    [P: ``updateVelocityPosition``].

    Parameters
    ----------
    F : ndarray of float64, shape (n,)
        Current objective of each particle (lower is better).
    division : ndarray of int, shape (n,)
        Subswarm of each particle.
    random_state : numpy.random.Generator
        One permutation per subswarm, drawn in subswarm order.

    Returns
    -------
    losers, winners : ndarray of int64, shape (n_pairs,)
        In each pair of a subswarm's permutation (positions 0-1, 2-3, ...), the first wins
        only if strictly better; otherwise the second does (ties: the first loses). An odd
        particle out is in neither.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.amso import compete
    >>> F = np.array([0.3, 0.1, 0.2, 0.2])
    >>> losers, winners = compete(F, np.array([0, 0, 1, 1]), np.random.default_rng(0))
    >>> sorted(zip(losers.tolist(), winners.tolist()))  # 2 and 3 tie: the first drawn loses
    [(0, 1), (2, 3)]
    """
    losers, winners = [], []
    for d in np.unique(division):
        members = np.flatnonzero(division == d)
        perm = members[random_state.permutation(members.size)]
        for first, second in zip(perm[0:-1:2], perm[1::2]):
            if F[first] < F[second]:
                losers.append(second)
                winners.append(first)
            else:
                losers.append(first)
                winners.append(second)
    return np.array(losers, dtype=np.int64), np.array(winners, dtype=np.int64)


def local_search_flips(s, flip_fraction, relevance, redundant, redraws, random_state):
    """The flip set of one try of AMSO's local search [P: ``KNNopt.localsearchSU``, ``flip``].

    Parameters
    ----------
    s : ndarray of bool, shape (L,)
        The personal best over the particle's ranked columns.
    flip_fraction : float
        ``p``: ``k = floor(p |s|)`` features are drawn.
    relevance : ndarray of float64, shape (L,)
        SU with the class of each column, non-increasing (the columns are ranked).
    redundant : callable
        ``redundant(columns) -> marks``: for drawn selected columns in increasing order (that
        is, decreasing SU), which of them an earlier unmarked one makes redundant.
    redraws : int
        Draws before giving up when the flip set is empty.
    random_state : numpy.random.Generator
        Draws, in order: ``U(0, 1)`` for ``n0``; then per draw ``n1`` and ``n0`` uniforms
        choosing the selected and the unselected columns, each a uniform subset without
        replacement (as the code's priority queue of random keys gives), by Floyd's algorithm.

    Returns
    -------
    flips : ndarray of int64
        Columns to flip: the redundant drawn selected columns, then the drawn unselected
        columns more relevant than the mean of the drawn selected ones. Empty when every draw
        gave nothing, or at once when no selected column is to be drawn (``n1 = 0``: then no
        draw can give anything, and the code's ten draws are skipped).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.amso import local_search_flips
    >>> s = np.array([True, True, False, True, False, False, False, False])
    >>> relevance = np.array([0.9, 0.8, 0.7, 0.5, 0.4, 0.3, 0.2, 0.1])
    >>> never = lambda cols: np.zeros(cols.size, dtype=bool)
    >>> local_search_flips(s, 1.0, relevance, never, 10, np.random.default_rng(0)).tolist()
    [2]
    """
    size = int(np.count_nonzero(s))
    k = int(flip_fraction * size)
    n0 = int(random_state.random() * min(k, s.size - size) + 0.5)
    n1 = k - n0
    if n1 == 0:
        return np.zeros(0, dtype=np.int64)
    ones_all, zeros_all = np.flatnonzero(s), np.flatnonzero(~s)
    for _ in range(redraws):
        ones = np.sort(_subset(ones_all, n1, random_state))
        zeros = _subset(zeros_all, n0, random_state)
        flips = ones[redundant(ones)] if n1 > 1 else ones[:0]
        flips = np.concatenate([flips, zeros[relevance[zeros] > relevance[ones].sum() / n1]])
        if flips.size:
            return flips.astype(np.int64)
    return np.zeros(0, dtype=np.int64)


def _subset(columns, m, random_state):
    """``m`` distinct entries of ``columns``, uniformly (Floyd's algorithm, ``m`` draws)."""
    if m >= columns.size:
        return columns
    return columns[floyd(columns.size, random_state.random(m))]
