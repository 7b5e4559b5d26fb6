"""BPSO: Kennedy and Eberhart's binary particle swarm for feature selection."""

import numpy as np

from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.algorithms.coefficients import PSOCoefficients
from pymoo_fs.problems import repair_empty

__all__ = ["BPSO"]


class BPSO(PSOCoefficients, SwarmAlgorithm):
    """Binary particle swarm optimisation for feature selection (Kennedy & Eberhart 1997).

    Positions are bit strings (bit ``d`` set = feature ``d`` selected) with real-valued
    velocities; a bit is set with probability ``sigmoid(v)``.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size.
    w : float or tuple (low, high), default=1.0
        Inertia weight (1, the original BPSO without inertia; Yang et al. 2022, Tab. 2).
    c1, c2 : float or tuple (low, high), default=2.0
        Acceleration coefficients (Kennedy & Eberhart; Yang et al. 2022's text; its table says
        2.01).
    vmax : float, default=6.0
        Velocity limit (Yang et al. 2022, Tab. 2: v in [-6, 6]).
    pbest_rule : {"better_or_fewer", "better"}, default="better_or_fewer"
        Replace a personal best (and gbest) on better fitness, or equal fitness with fewer
        features [A]; ``"better"``: strictly better only.
    fitness : {"objective", "accuracy"}, default="objective"
        Minimise the problem's objective or the inner-CV error alone.
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_ : ndarray of float64, shape (pop_size, D)
        Bits as 0.0 / 1.0.
    V_ : ndarray of float64, shape (pop_size, D)
        Velocities.
    pbest_X_, pbest_pop_, gbest_, pop
        As in :class:`~pymoo_fs.algorithms.SwarmAlgorithm`.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    A move [Kennedy & Eberhart 1997; Butler-Yeoman et al. 2015, Eq. 3; Yang et al. 2022, Eq. 1-2]:
    ``v <- w v + c1 r1 (pbest - x) + c2 r2 (gbest - x)`` with ``r1, r2 ~ U(0, 1)`` per
    dimension, clamped to ``[-vmax, vmax]``; then ``x_d = 1`` iff ``r < sigmoid(v_d)``
    (:func:`~pymoo_fs.algorithms.swarm.sigmoid_bits`). Initial bits Bernoulli(0.5), initial
    velocities ``U[-vmax, vmax]`` [A]. A particle left with no bit set gets one
    random bit (:func:`~pymoo_fs.problems.repair_empty`, pymoo-fs's empty-subset rule), kept
    in its position. The result is the gbest mask.

    Subclasses change the inertia weight over the run (:meth:`_inertia`, UBPSO) or bound
    the selection probability (:meth:`_probability_bounds`).

    References
    ----------
    J. Kennedy, R. C. Eberhart, "A discrete binary version of the particle swarm algorithm",
    IEEE SMC 1997, vol. 5, pp. 4104-4108, doi:10.1109/ICSMC.1997.637339. As configured in
    T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
    size-controlled approach", AusDM 2015, Conferences in Research and Practice in
    Information Technology 168.
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import BPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, BPSO(pop_size=10), ("n_gen", 5), seed=1)
    >>> res.X.dtype, res.algorithm.evaluator.n_eval
    (dtype('bool'), 50)
    """

    sampling_encoding = "bits"
    registry_names = ("BPSO",)
    n_objectives = 1

    def __init__(self, pop_size=30, w=1.0, c1=2.0, c2=2.0, vmax=6.0,
                 pbest_rule="better_or_fewer", fitness="objective", **kwargs):
        super().__init__(pop_size, pbest_rule, fitness=fitness, **kwargs)
        self._set_coefficients(w=w, c1=c1, c2=c2, vmax=vmax)

    def _initial_swarm(self):
        n, D, rs = self.pop_size, self.problem.n_var, self.random_state
        bits = repair_empty(rs.random((n, D)) < 0.5, rs)
        return bits.astype(float), rs.uniform(-self.vmax, self.vmax, (n, D))

    def _decode(self, X):
        return X > 0.5

    def _move(self):
        """The velocity update, the clamp, and the sigmoid rule (then the empty repair)."""
        n, rs = self.pop_size, self.random_state
        w = swarm.draw_coefficient(self._inertia(), n, rs)
        c1 = swarm.draw_coefficient(self.c1, n, rs)
        c2 = swarm.draw_coefficient(self.c2, n, rs)
        V = swarm.velocity_update(self.V_, self.X_, self.pbest_X_, self.pbest_X_[self.gbest_],
                                  w, c1, c2, rs)
        V = np.clip(V, -self.vmax, self.vmax)
        bits = swarm.sigmoid_bits(V, rs, *self._probability_bounds())
        return repair_empty(bits > 0.5, rs).astype(float), V

    def _inertia(self):
        """The inertia weight of this move (BPSO: ``w`` as given)."""
        return self.w

    def _probability_bounds(self):
        """``(p_min, p_max)`` the selection probability is clipped to (BPSO: none)."""
        return 0.0, 1.0
