"""CSO: the competitive swarm optimiser for feature selection (CSO(C), CSO(A) of Li et al. 2021)."""

import math

import numpy as np

from pymoo_fs._validation import check_choice, check_int, check_real, check_unit_interval
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.algorithms.metadata import RegistryName
from pymoo_fs.algorithms.soo.pso42 import mixed_initialisation

__all__ = ["CSO", "loser_update"]


class CSO(SwarmAlgorithm):
    """Competitive swarm optimiser for feature selection (Cheng & Jin 2015; Gu et al. 2018).

    Each generation the swarm is split into random pairs; in each pair the particle with the
    better fitness wins and passes on unchanged, the loser learns from the winner and from the
    swarm's mean position. Only the losers are evaluated, so a generation costs
    ``pop_size // 2`` evaluations. Li et al. (2021) run it as CSO(C) with its weighted fitness FIT-A
    (``fitness="objective"``) and as CSO(A) with accuracy alone (``fitness="accuracy"``).

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size S [Li et al. 2021, §IV-C], at least 2.
    phi : float, default=0.1
        Weight of the mean-position term [Li et al. 2021, §IV-C, after Gu et al.].
        Finite and non-negative (infinity is refused: it would make every position NaN).
    threshold : float, default=0.5
        Selection threshold lambda: feature ``d`` is selected iff ``x_d > lambda``
        [Li et al. 2021, §IV-C "eta = 0.5"].
    fitness : {"objective", "accuracy"}, default="objective"
        CSO(C): the problem's objective (FIT-A on
        :class:`~pymoo_fs.problems.WeightedFeatureSelection`); CSO(A): the inner-CV error
        alone (FIT-A') [Li et al. 2021, §IV-B].
    prefer_fewer : bool, default=True
        On equal fitness, the smaller subset wins the competition before a fair coin decides;
        False: the coin alone [A]. A problem that orders lexicographically (Yang et al. 2022's
        FIT-E) always breaks ties by size.
    mean_position : {"global", "ring"}, default="global"
        ``x_bar`` is the whole swarm's mean (the global version) or the mean of the loser and
        its two neighbours on a ring of particle indices (Cheng & Jin's local version) [A].
    bound_positions : bool, default=True
        Clip loser positions to [0, 1] (velocities stay unclamped) as in the original CSO [A].
    pbest_rule : {"better", "better_or_fewer"}, default="better_or_fewer"
        How each particle's best-ever position is kept; the result is the best of them, i.e.
        the best solution ever evaluated [A], ties to the smaller subset.
    initialization : {"uniform", "small", "mixed"}, default="uniform"
        Initial positions [A]: ``U[0, 1]^D`` (about half of the features selected with
        ``threshold=0.5``), or Xue et al.'s (2014) small initialisation (every particle
        selects each feature with probability 0.1) or mixed one (two thirds small, the last
        ``pop_size // 3`` select ``U{floor(D/2), ..., D}`` features), both drawn by
        :func:`~pymoo_fs.algorithms.soo.pso42.mixed_initialisation` around ``threshold``.
        Gu et al.'s code, which Tran et al. (2019) ran, is not public: their subsets of
        30-170 of thousands of features suggest a start far below half.
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_, V_ : ndarray of float64, shape (pop_size, D)
        Positions and velocities.
    winners_, losers_ : ndarray of int64, shape (pop_size // 2,)
        The last generation's pairs.
    pbest_X_, pbest_pop_, gbest_, pop
        As in :class:`~pymoo_fs.algorithms.SwarmAlgorithm`: each particle's best-ever
        position, the best of them, the current swarm.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    One generation [Cheng & Jin 2015, Eq. 6-7; Tran et al. 2019, Eq. 4]:

    1. ``x_bar``: the mean position of the swarm at the start of the generation;
    2. random pairs, winners and losers by fitness
       (:func:`~pymoo_fs.algorithms.swarm.pair_competitions`);
    3. each loser moves (:func:`loser_update`):
       ``v_l <- R1 v_l + R2 (x_w - x_l) + phi R3 (x_bar - x_l)``, ``x_l <- x_l + v_l``,
       with ``R1, R2, R3 ~ U[0, 1]^D`` drawn per dimension;
    4. the losers are evaluated; winners pass on unchanged (an odd particle out too).

    Initial positions ``U[0, 1]^D`` (``initialization``), velocities 0 [A]. **Archive.** Gu et al. keep a look-up
    table of evaluated subsets; here it is the evaluator's cache: a loser whose subset was
    seen before is answered from it, counted in ``n_eval`` (pymoo's count of masks asked for)
    and in the evaluator's ``n_cache_hits``, not in its ``n_evaluations``. Li et al. (2021) give CSO
    ``T = 200`` generations for the 100 of the other swarms, the same number of evaluations:
    ``("n_gen", 201)`` costs ``S + 200 S / 2`` evaluations. A particle with no coordinate
    above lambda selects its largest coordinate (pymoo-fs's empty-subset rule).

    References
    ----------
    R. Cheng, Y. Jin, "A competitive swarm optimizer for large scale optimization", IEEE
    Trans. Cybernetics 45(2):191-204, 2015, doi:10.1109/TCYB.2014.2322602. S. Gu, R. Cheng,
    Y. Jin, "Feature selection for high-dimensional classification using a competitive swarm
    optimizer", Soft Computing 22:811-822, 2018, doi:10.1007/s00500-016-2385-6. B. Xue,
    M. Zhang, W. N. Browne, "Particle swarm optimisation for feature selection in
    classification: novel initialisation and updating mechanisms", Applied Soft Computing
    18:261-276, 2014, doi:10.1016/j.asoc.2013.09.018 (``initialization``). As configured
    in A.-D. Li, B. Xue, M. Zhang, IEEE CEC 2021, doi:10.1109/CEC45853.2021.9504949. Also compared
    in B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
    high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import CSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, CSO(pop_size=10), ("n_gen", 9), seed=1)
    >>> res.algorithm.evaluator.n_eval  # 10, then 8 generations of 5 losers
    50
    """

    #: CSO(C) minimises the problem's objective, CSO(A) accuracy alone [Li et al. 2021, §IV-B]
    sampling_encoding = "threshold"
    registry_names = (RegistryName("CSO(C)", aliases=("CSO",), preset={"fitness": "objective"}),
                      RegistryName("CSO(A)", preset={"fitness": "accuracy"}))
    n_objectives = 1

    def __init__(self, pop_size=30, phi=0.1, threshold=0.5, fitness="objective",
                 prefer_fewer=True, mean_position="global", bound_positions=True,
                 pbest_rule="better_or_fewer", initialization="uniform", **kwargs):
        super().__init__(pop_size, pbest_rule, fitness=fitness, **kwargs)
        self.pop_size = check_int("pop_size", pop_size, low=2)  # competitions need pairs
        self.initialization = check_choice("initialization", initialization,
                                           ("uniform", "small", "mixed"))
        self.phi = check_real("phi", phi, low=0.0, high=math.inf, high_open=True)
        self.threshold = check_unit_interval("threshold", threshold)
        self.prefer_fewer = bool(prefer_fewer)
        self.mean_position = check_choice("mean_position", mean_position, ("global", "ring"))
        self.bound_positions = bool(bound_positions)

    def _initial_swarm(self):
        n, D = self.pop_size, self.problem.n_var
        if self.initialization == "uniform":
            return self.random_state.random((n, D)), np.zeros((n, D))
        X = mixed_initialisation(n, D, self.threshold, self.random_state,
                                 n_large=0 if self.initialization == "small" else None)
        return X, np.zeros((n, D))

    def _decode(self, X):
        return swarm.decode(X, self.threshold)

    def _move(self):
        """Steps 1-3: the mean position, the competitions, the losers' move."""
        X = self.X_
        if self.mean_position == "global":
            mean = X.mean(axis=0, keepdims=True)
        else:
            mean = (np.roll(X, 1, axis=0) + X + np.roll(X, -1, axis=0)) / 3.0
        self.winners_, self.losers_ = swarm.pair_competitions(
            self._fitness(self.pop)[:, 0], self.pop.get("X").sum(axis=1), self.random_state,
            self.prefer_fewer or self.prefers_fewer())
        w, lo = self.winners_, self.losers_
        mean = mean if mean.shape[0] == 1 else mean[lo]
        X_l, V_l = loser_update(X[lo], self.V_[lo], X[w], mean, self.phi, self.random_state)
        if self.bound_positions:
            X_l = np.clip(X_l, 0.0, 1.0)
        return lo, X_l, V_l


def loser_update(X_l, V_l, X_w, mean, phi, random_state):
    """The CSO loser update (Cheng & Jin 2015, Eq. 6-7).

    ``v <- R1 v + R2 (x_w - x_l) + phi R3 (x_bar - x_l)``, then ``x <- x + v``.

    Parameters
    ----------
    X_l, V_l : ndarray of float64, shape (m, D)
        Losers' positions and velocities.
    X_w : ndarray of float64, shape (m, D)
        Their winners' positions.
    mean : ndarray of float64, shape (1, D) or (m, D)
        The mean position each loser is drawn to.
    phi : float
        Weight of the mean term.
    random_state : numpy.random.Generator
        Draws ``R1``, ``R2``, ``R3`` (in that order), each of shape ``(m, D)``.

    Returns
    -------
    X_new, V_new : ndarray of float64, shape (m, D)
        Unbounded positions and velocities.
    """
    r1 = random_state.random(X_l.shape)
    r2 = random_state.random(X_l.shape)
    r3 = random_state.random(X_l.shape)
    V = r1 * V_l + r2 * (X_w - X_l) + phi * r3 * (mean - X_l)
    return X_l + V, V
