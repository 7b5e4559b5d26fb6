"""SBPSO: the sticky binary particle swarm of Nguyen, Xue and Andreae."""

import numpy as np

from pymoo_fs._validation import check_positive_int, check_unit_interval
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.problems import repair_empty

__all__ = ["SBPSO", "flip_probability", "sticky_flip"]


class SBPSO(SwarmAlgorithm):
    """Sticky binary PSO for feature selection (Nguyen, Xue & Andreae 2017).

    Bits move by flipping: a bit flips with a probability that grows as its *stickiness*
    wears off since its last flip, and with its distance to the personal best and to gbest.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size [Li et al. 2021, §IV-C].
    i_m, i_p, i_g : float, default=(0.25, 0.25, 0.5)
        Weights of momentum (lost stickiness), personal best and gbest in the flip
        probability [Li et al. 2021, §IV-C].
    stickiness_steps : int, default=50
        L: stickiness falls from 1 to 0 in L moves without a flip [Li et al. 2021, §IV-C].
    pbest_rule : {"better", "better_or_fewer"}, default="better"
        Strictly better fitness [A] (the authors' ISBPSO code also takes an equal
        fitness with fewer features).
    fitness : {"objective", "accuracy"}, default="objective"
        Li et al. (2021) give SBPSO its weighted fitness FIT-A [Li et al. 2021, §IV-B].
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_ : ndarray of float64, shape (pop_size, D)
        Bits as 0.0 / 1.0.
    V_ : ndarray of float64, shape (pop_size, D)
        Stickiness in [0, 1] (it takes the place of a velocity in the swarm core).
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
    A move, per bit [P: ISBPSO-code ``Maskbpso.run``, by the FSIPSO authors]:

    1. ``p_d = i_m (1 - stk_d) + i_p |pbest_d - x_d| + i_g |gbest_d - x_d|``
       (:func:`flip_probability`);
    2. with probability ``p_d`` the bit flips and its stickiness returns to 1; otherwise the
       stickiness falls by ``1 / L`` if it is at least ``1 / L`` (:func:`sticky_flip`).

    Initial bits Bernoulli(0.5) [A], stickiness 1 [P]. A particle left with no bit set gets one
    random bit, whose stickiness is reset as for a flip (pymoo-fs's empty-subset rule). The
    swarm's personal bests and gbest are updated after the whole swarm is evaluated; the
    authors' code updates gbest particle by particle within a move. The result is the gbest
    mask.

    References
    ----------
    B. H. Nguyen, B. Xue, P. Andreae, "A novel binary particle swarm optimization algorithm
    and its applications on knapsack and feature selection problems", Intelligent and
    Evolutionary Systems (IES 2016), Proc. in Adaptation, Learning and Optimization 8,
    Springer 2017, pp. 319-332, doi:10.1007/978-3-319-49049-6_23. As configured in A.-D. Li,
    B. Xue, M. Zhang, IEEE CEC 2021, doi:10.1109/CEC45853.2021.9504949.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import SBPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, SBPSO(pop_size=10), ("n_gen", 5), seed=1)
    >>> res.X.dtype, res.algorithm.evaluator.n_eval, float(res.algorithm.V_.max())
    (dtype('bool'), 50, 1.0)
    """

    sampling_encoding = "bits"
    registry_names = ("SBPSO",)
    n_objectives = 1

    def __init__(self, pop_size=30, i_m=0.25, i_p=0.25, i_g=0.5, stickiness_steps=50,
                 pbest_rule="better", fitness="objective", **kwargs):
        super().__init__(pop_size, pbest_rule, fitness=fitness, **kwargs)
        self.i_m = check_unit_interval("i_m", i_m)
        self.i_p = check_unit_interval("i_p", i_p)
        self.i_g = check_unit_interval("i_g", i_g)
        self.stickiness_steps = check_positive_int("stickiness_steps", stickiness_steps)

    def _initial_swarm(self):
        n, D, rs = self.pop_size, self.problem.n_var, self.random_state
        bits = repair_empty(rs.random((n, D)) < 0.5, rs)
        return bits.astype(float), np.ones((n, D))

    def _decode(self, X):
        return X > 0.5

    def _move(self):
        """Flip bits by their flip probabilities; reset or wear off the stickiness."""
        X, stk = sticky_flip(self.X_, self.pbest_X_, self.pbest_X_[self.gbest_], self.V_,
                             (self.i_m, self.i_p, self.i_g), 1.0 / self.stickiness_steps,
                             self.random_state)
        repaired = repair_empty(X > 0.5, self.random_state).astype(float)
        stk[repaired != X] = 1.0
        return repaired, stk


def flip_probability(X, P, G, stickiness, i_m, i_p, i_g):
    """SBPSO's flip probability of every bit.

    Parameters
    ----------
    X, P : ndarray of float64, shape (n, D)
        Bits and personal-best bits (0.0 / 1.0).
    G : ndarray of float64, shape (D,) or (n, D)
        gbest bits.
    stickiness : ndarray of float64, shape (n, D)
        In [0, 1].
    i_m, i_p, i_g : float
        Weights.

    Returns
    -------
    p : ndarray of float64, shape (n, D)
        ``i_m (1 - stk) + i_p |P - X| + i_g |G - X|``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.sbpso import flip_probability
    >>> X = np.array([[1.0, 0.0, 1.0]])
    >>> P = np.array([[1.0, 1.0, 0.0]])
    >>> G = np.array([0.0, 1.0, 1.0])
    >>> flip_probability(X, P, G, np.array([[1.0, 0.5, 0.0]]), 0.25, 0.25, 0.5).tolist()
    [[0.5, 0.875, 0.5]]
    """
    return i_m * (1.0 - stickiness) + i_p * np.abs(P - X) + i_g * np.abs(G - X)


def sticky_flip(X, P, G, stickiness, weights, step, random_state):
    """One SBPSO move: flip each bit with its flip probability; update the stickiness.

    Parameters
    ----------
    X, P, G, stickiness : ndarray
        As for :func:`flip_probability`.
    weights : tuple of float
        ``(i_m, i_p, i_g)``.
    step : float
        ``1 / L``, the stickiness lost per move without a flip.
    random_state : numpy.random.Generator
        Draws ``r ~ U(0, 1)`` of shape ``X.shape``; bit ``d`` flips iff ``r_d < p_d``.

    Returns
    -------
    X_new : ndarray of float64, shape (n, D)
    stickiness_new : ndarray of float64, shape (n, D)
        1 where a bit flipped; else ``stk - step`` where ``stk >= step``, ``stk`` otherwise.
    """
    p = flip_probability(X, P, G, stickiness, *weights)
    flip = random_state.random(X.shape) < p
    X_new = np.where(flip, 1.0 - X, X)
    worn = np.where(stickiness >= step, stickiness - step, stickiness)
    return X_new, np.where(flip, 1.0, worn)
