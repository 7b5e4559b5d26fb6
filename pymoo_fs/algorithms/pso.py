"""PSO(C): the standard continuous particle swarm for single-objective feature selection."""

import numpy as np
from pymoo.core.algorithm import Algorithm
from pymoo.core.population import Population
from pymoo.util.display.single import SingleObjectiveOutput

from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.validation import (check_choice, check_coefficient, check_positive_int,
                                            check_unit_interval)

_PBEST_RULES = ("better", "better_or_fewer")
_INITIAL_VELOCITY = ("zero", "uniform")


class PSO(Algorithm):
    """Continuous particle swarm optimisation for feature selection, PSO(C).

    Each particle's position ``x`` lies in ``[0, 1]^D``; feature ``d`` is selected iff
    ``x_d > threshold``. Every generation all particles move and are evaluated (one call for
    the whole swarm); personal bests and the global best are then updated. For single-objective
    problems such as :class:`~pymoo_fs.problems.WeightedFeatureSelection`.

    Parameters
    ----------
    pop_size : int, default=30
        Number of particles [S000 §IV-C].
    w : float or tuple (low, high), default=0.7298
        Inertia weight; a tuple draws ``w ~ U[low, high]`` per particle and move [S000].
    c1, c2 : float or tuple (low, high), default=1.49618
        Acceleration coefficients [S000].
    vmax : float, default=0.6
        Velocity limit; seed 000 does not state it, 0.6 is the value its authors' FSIPSO code
        uses [A].
    threshold : float, default=0.6
        Selection threshold theta [S000 §II-B].
    inclusive_threshold : bool, default=False
        Select iff ``x_d >= threshold`` (AMSO authors' code) instead of ``>``.
    pbest_rule : {"better", "better_or_fewer"}, default="better"
        Replace a personal best (and the global best) when the new fitness is strictly better
        (the seed-000 authors' code), or also when equal with fewer features (the AMSO code).
    initial_velocity : {"zero", "uniform"}, default="zero"
        Initial velocities 0 (FSIPSO code) or ``U[-vmax, vmax]`` (AMSO code).
    **kwargs
        Passed to :class:`pymoo.core.algorithm.Algorithm` (``output``, ``callback``, ...).

    Attributes
    ----------
    X_ : ndarray of float64, shape (pop_size, D)
        Current positions.
    V_ : ndarray of float64, shape (pop_size, D)
        Current velocities.
    pbest_X_ : ndarray of float64, shape (pop_size, D)
        Personal-best positions; ``pbest_F_`` (pop_size,) their fitness, ``pbest_n_`` their
        subset sizes.
    gbest_ : int
        Index of the particle whose personal best is the global best.

    Raises
    ------
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    Update [S000 Eq. 1-2]: ``v <- w v + c1 r1 (pbest - x) + c2 r2 (gbest - x)`` with
    ``r1, r2 ~ U(0, 1)`` drawn per dimension [P: FSIPSO-code, AMSO-code], ``v`` clamped to
    ``[-vmax, vmax]``, then ``x <- x + v`` clamped to ``[0, 1]``. Topology: fully connected.
    Initial positions ``U[0, 1]^D``. The result (``res.X``, ``res.F``) is the global best's
    mask and fitness. Generation 1 is the random initial swarm, so ``n_gen = T`` costs
    ``pop_size * T`` evaluations.

    References
    ----------
    J. Kennedy, R. Eberhart, "Particle swarm optimization", ICNN 1995; Y. Shi, R. Eberhart,
    "A modified particle swarm optimizer", IEEE CEC 1998. As configured in: A.-D. Li, B. Xue,
    M. Zhang, "A Forward Search Inspired Particle Swarm Optimization Algorithm for Feature
    Selection in Classification", IEEE CEC 2021, doi:10.1109/CEC45853.2021.9504949.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import PSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, PSO(pop_size=10), ("n_gen", 5), seed=1)
    >>> res.X.dtype, res.X.shape, res.algorithm.evaluator.n_eval
    (dtype('bool'), (60,), 50)
    """

    def __init__(self, pop_size=30, w=0.7298, c1=1.49618, c2=1.49618, vmax=0.6, threshold=0.6,
                 inclusive_threshold=False, pbest_rule="better", initial_velocity="zero",
                 **kwargs):
        kwargs.setdefault("output", SingleObjectiveOutput())
        super().__init__(**kwargs)
        self.pop_size = check_positive_int("pop_size", pop_size)
        self.w = check_coefficient("w", w)
        self.c1 = check_coefficient("c1", c1)
        self.c2 = check_coefficient("c2", c2)
        self.vmax = check_coefficient("vmax", vmax, positive=True, allow_range=False)
        self.threshold = check_unit_interval("threshold", threshold)
        self.inclusive_threshold = bool(inclusive_threshold)
        self.pbest_rule = check_choice("pbest_rule", pbest_rule, _PBEST_RULES)
        self.initial_velocity = check_choice("initial_velocity", initial_velocity,
                                             _INITIAL_VELOCITY)

    def _setup(self, problem, **kwargs):
        if problem.n_obj != 1:
            raise ValueError(
                f"PSO is single-objective; the problem has {problem.n_obj} objectives"
            )

    def _initialize_infill(self):
        n, D = self.pop_size, self.problem.n_var
        self.X_ = self.random_state.random((n, D))
        if self.initial_velocity == "zero":
            self.V_ = np.zeros((n, D))
        else:
            self.V_ = self.random_state.uniform(-self.vmax, self.vmax, (n, D))
        return Population.new("X", self._decode(self.X_))

    def _initialize_advance(self, infills=None, **kwargs):
        self.pbest_X_ = self.X_.copy()
        self.pbest_F_ = infills.get("F")[:, 0].copy()
        self.pbest_n_ = infills.get("X").sum(axis=1)
        self.pbest_pop_ = infills.copy()
        self.gbest_ = self._best_index()

    def _infill(self):
        n = self.pop_size
        rs = self.random_state
        w = swarm.draw_coefficient(self.w, n, rs)
        c1 = swarm.draw_coefficient(self.c1, n, rs)
        c2 = swarm.draw_coefficient(self.c2, n, rs)
        G = self.pbest_X_[self.gbest_]
        V = swarm.velocity_update(self.V_, self.X_, self.pbest_X_, G, w, c1, c2, rs)
        self.X_, self.V_ = swarm.move(self.X_, V, self.vmax)
        return Population.new("X", self._decode(self.X_))

    def _advance(self, infills=None, **kwargs):
        F = infills.get("F")[:, 0]
        n_sel = infills.get("X").sum(axis=1)
        improved = self._improves(F, n_sel, self.pbest_F_, self.pbest_n_)
        self.pbest_X_[improved] = self.X_[improved]
        self.pbest_F_[improved] = F[improved]
        self.pbest_n_[improved] = n_sel[improved]
        for i in np.flatnonzero(improved):
            self.pbest_pop_[i] = infills[i]
        best = self._best_index()
        g = self.gbest_
        if self._improves(self.pbest_F_[best:best + 1], self.pbest_n_[best:best + 1],
                          self.pbest_F_[g:g + 1], self.pbest_n_[g:g + 1])[0]:
            self.gbest_ = best

    def _set_optimum(self):
        self.opt = Population.create(self.pbest_pop_[self.gbest_])

    def _decode(self, X):
        return swarm.decode(X, self.threshold, self.inclusive_threshold)

    def _improves(self, F_new, n_new, F_old, n_old):
        better = F_new < F_old
        if self.pbest_rule == "better_or_fewer":
            better |= (F_new == F_old) & (n_new < n_old)
        return better

    def _best_index(self):
        """Best personal best: lowest fitness, then (with better_or_fewer) fewest features."""
        if self.pbest_rule == "better_or_fewer":
            return int(np.lexsort((self.pbest_n_, self.pbest_F_))[0])
        return int(np.argmin(self.pbest_F_))
