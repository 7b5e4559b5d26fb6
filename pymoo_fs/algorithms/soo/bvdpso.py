"""BVDPSO: bi-velocity discrete PSO (Shen et al. 2014), a baseline of Yang et al. (2022)."""

import numpy as np

from pymoo_fs._validation import check_choice, check_unit_interval
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.algorithms.coefficients import PSOCoefficients
from pymoo_fs.problems import repair_empty

__all__ = ["BVDPSO", "bv_difference", "bv_position", "bv_velocity"]


class BVDPSO(PSOCoefficients, SwarmAlgorithm):
    """Bi-velocity discrete particle swarm optimisation for feature selection (Shen et al. 2014).

    A position is a bit string (bit ``d`` set = feature ``d`` selected). Each bit has two
    velocities in [0, 1]: ``v0_d``, the tendency of the bit to become 0, and ``v1_d``, its
    tendency to become 1. A velocity only grows towards a bit value that the personal or the
    global best holds and the particle does not; a velocity above the threshold ``alpha``
    sets the bit.

    Parameters
    ----------
    pop_size : int, default=20
        Swarm size P [Yang et al. 2022, Tab. 2].
    w_max, w_min : float, default=0.9, 0.4
        Inertia weight at the start and at the end of the run: Yang et al. (2022, Tab. 2) gives the
        range [0.4, 0.9]; its schedule, a linear decrease, is [A] (the BVDPSO code's ``GetWeight``).
        ``w_max = w_min`` keeps it constant.
    c1, c2 : float, default=2.0
        Acceleration coefficients [Yang et al. 2022, Tab. 2].
    alpha : float, default=0.5
        Selection threshold alpha in [0, 1] [Yang et al. 2022, Tab. 2], used when
        ``alpha_mode="fixed"``.
    alpha_mode : {"fixed", "uniform"}, default="fixed"
        A fixed ``alpha`` (Yang et al. 2022), or ``alpha ~ U(0, 1)`` drawn afresh for every particle
        and dimension at every move (the BVDPSO code) [A].
    pbest_rule : {"better_or_fewer", "better"}, default="better_or_fewer"
        Personal- and global-best replacement: better fitness, or equal with fewer features
        (the rule of Yang et al. 2022, §4.2, for every method); ``"better"``: strictly better only
        (the BVDPSO code). A FIT-E problem orders by size on ties whatever this says.
    fitness : {"objective", "accuracy"}, default="objective"
        Compare by the problem's objective or by the inner-CV score alone.
    **kwargs
        pymoo's ``Algorithm`` keywords; the default termination is ``("n_eval", 5000)``
        (MAX_FE of Yang et al. 2022), and every pymoo termination works.

    Attributes
    ----------
    X_ : ndarray of bool, shape (pop_size, D)
        Bit strings.
    V_ : ndarray of float64, shape (pop_size, 2, D)
        ``V_[:, 0]`` the velocities towards 0, ``V_[:, 1]`` towards 1, in [0, 1].
    w_ : float
        The inertia weight of the last move.
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
    The operators ([P] the public BVDPSO code ``BVDPSO_IXP.m``):

    1. **initialisation**: bits Bernoulli(0.5), both velocities ``U[0, 1]``;
    2. **position minus position** (:func:`bv_difference`): per bit, ``y_d = x_d`` gives
       (0, 0); ``y_d = 1, x_d = 0`` gives ``v1 = 1``; ``y_d = 0, x_d = 1`` gives ``v0 = 1``;
    3. **velocity** (:func:`bv_velocity`): scalar times velocity multiplies both entries and
       caps them at 1, velocity plus velocity is the element-wise maximum, so
       ``v^b_d <- max(w v^b_d, min(1, c1 r1_d [p - x]^b_d), min(1, c2 r2_d [g - x]^b_d))``
       (``p`` the personal best, ``g`` the global best) with ``r1, r2 ~ U(0, 1)`` per
       dimension (one draw serves both ``b``: at most one of the two differences of a bit is
       non-zero);
    4. **position** (:func:`bv_position`): both velocities above ``alpha``: a fair random bit;
       only ``v1``: 1; only ``v0``: 0; neither: the bit stays;
    5. evaluation, then personal and global bests by ``pbest_rule``.

    The inertia weight of a move is ``w_max - (w_max - w_min) t / T``, where ``t / T`` is
    the fraction of the budget spent since the initial swarm
    (:meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.progress`): the first move uses
    ``w_max``. Random numbers of a move are drawn in the order ``r1``, ``r2``, then
    ``alpha`` (``"uniform"`` only) and the coins, each of shape (pop_size, D).

    **Departures.** The original paper (multicast routing) was not reachable; the operators
    are the public code's, its FS use is Yang et al.'s (2022). A bit string left empty gets one
    random bit (:func:`~pymoo_fs.problems.repair_empty`, pymoo-fs's empty-subset rule), kept in the
    position; Yang et al. (2022) score the empty subset 0 [A].

    References
    ----------
    M. Shen, Z.-H. Zhan, W.-N. Chen, Y.-J. Gong, J. Zhang, Y. Li, "Bi-velocity discrete
    particle swarm optimization and its application to multicast routing problem in
    communication networks", IEEE Trans. Industrial Electronics 61(12):7141-7151, 2014,
    doi:10.1109/TIE.2014.2314075. Operators after the public code GitHub ``xsddys/CMDPSO``
    (``BVDPSO_IXP.m``). As run in
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.
    Tab. 2.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import BVDPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitEFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitEFeatureSelection.from_data(data.X, data.y)
    >>> res = minimize(problem, BVDPSO(pop_size=10), ("n_eval", 60), seed=1)
    >>> res.X.dtype, res.algorithm.evaluator.n_eval, res.algorithm.V_.shape
    (dtype('bool'), 60, (10, 2, 60))
    """

    sampling_encoding = "bits"
    registry_names = ("BVDPSO",)
    n_objectives = 1
    #: every coefficient is a number (the inertia weight follows its own schedule)
    ranged_coefficients = ()

    def __init__(self, pop_size=20, w_max=0.9, w_min=0.4, c1=2.0, c2=2.0, alpha=0.5,
                 alpha_mode="fixed", pbest_rule="better_or_fewer", fitness="objective",
                 **kwargs):
        kwargs.setdefault("termination", ("n_eval", 5000))
        super().__init__(pop_size, pbest_rule, fitness=fitness, **kwargs)
        self._set_coefficients(w_max=w_max, w_min=w_min, c1=c1, c2=c2)
        if self.w_min > self.w_max:
            raise ValueError(f"w_min must not exceed w_max, got w_min={w_min!r}, "
                             f"w_max={w_max!r}")
        self.alpha = check_unit_interval("alpha", alpha)
        self.alpha_mode = check_choice("alpha_mode", alpha_mode, ("fixed", "uniform"))
        self.w_ = self.w_max

    def _initial_swarm(self):
        n, D, rs = self.pop_size, self.problem.n_var, self.random_state
        bits = repair_empty(rs.random((n, D)) < 0.5, rs)
        return bits, rs.random((n, 2, D))

    def _decode(self, X):
        return np.asarray(X, dtype=bool)

    def _move(self):
        """Steps 3-4: the bi-velocity update, the threshold rule, then the empty repair."""
        rs, X = self.random_state, self.X_
        self.w_ = self.w_max - (self.w_max - self.w_min) * self.progress()
        r1, r2 = rs.random(X.shape), rs.random(X.shape)
        V = bv_velocity(self.V_, X, self.pbest_X_, self.pbest_X_[self.gbest_], self.w_,
                        self.c1, self.c2, r1, r2)
        alpha = self.alpha if self.alpha_mode == "fixed" else rs.random(X.shape)
        bits = bv_position(X, V, alpha, rs.random(X.shape) < 0.5)
        return repair_empty(bits, rs), V


def bv_difference(Y, X):
    """Position minus position: the velocity pair that moves bits of ``X`` to those of ``Y``.

    Parameters
    ----------
    Y, X : ndarray of bool, shape (n, D) (``Y`` may be (D,))

    Returns
    -------
    V : ndarray of float64, shape (n, 2, D)
        ``V[:, 1, d] = 1`` where ``y_d = 1, x_d = 0``; ``V[:, 0, d] = 1`` where
        ``y_d = 0, x_d = 1``; 0 elsewhere.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.bvdpso import bv_difference
    >>> bv_difference(np.array([1, 0, 1, 0], bool), np.array([[0, 1, 1, 0]], bool)).tolist()
    [[[0.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]]]
    """
    Y = np.asarray(Y, dtype=bool)
    X = np.asarray(X, dtype=bool)
    to_zero = ~Y & X
    to_one = Y & ~X
    return np.stack([to_zero, to_one], axis=1).astype(np.float64)


def bv_velocity(V, X, P, G, w, c1, c2, r1, r2):
    """The bi-velocity update: ``max(w v, min(1, c1 r1 (P - X)), min(1, c2 r2 (G - X)))``.

    Parameters
    ----------
    V : ndarray of float64, shape (n, 2, D)
        Velocities towards 0 and 1.
    X, P : ndarray of bool, shape (n, D)
        Positions and personal bests.
    G : ndarray of bool, shape (D,) or (n, D)
        The global best.
    w, c1, c2 : float
    r1, r2 : ndarray of float64, shape (n, D)
        ``U(0, 1)`` draws, one per dimension, shared by both velocities of a bit.

    Returns
    -------
    V : ndarray of float64, shape (n, 2, D)
        In [0, 1] when ``V`` is.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.bvdpso import bv_velocity
    >>> V = np.full((1, 2, 3), 0.5)
    >>> X, P = np.array([[0, 1, 1]], bool), np.array([[1, 1, 0]], bool)
    >>> G, r1, r2 = np.array([0, 0, 1], bool), np.full((1, 3), 0.2), np.full((1, 3), 0.4)
    >>> bv_velocity(V, X, P, G, 0.8, 2.0, 2.0, r1, r2).tolist()
    [[[0.4, 0.8, 0.4], [0.4, 0.4, 0.4]]]
    """
    cognitive = np.minimum(1.0, c1 * r1[:, None, :] * bv_difference(P, X))
    social = np.minimum(1.0, c2 * r2[:, None, :] * bv_difference(G, X))
    return np.maximum(np.maximum(w * V, cognitive), social)


def bv_position(X, V, alpha, coin):
    """The threshold rule: which bits the velocities set.

    Parameters
    ----------
    X : ndarray of bool, shape (n, D)
        Current bits.
    V : ndarray of float64, shape (n, 2, D)
        Velocities towards 0 and 1.
    alpha : float or ndarray of float64, shape (n, D)
        Threshold(s).
    coin : ndarray of bool, shape (n, D)
        Fair random bits, used where both velocities exceed ``alpha``.

    Returns
    -------
    X : ndarray of bool, shape (n, D)
        ``coin`` where both ``v0, v1 > alpha``; 1 where only ``v1 > alpha``; 0 where only
        ``v0 > alpha``; the old bit where neither.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.bvdpso import bv_position
    >>> V = np.array([[[0.9, 0.9, 0.1, 0.1], [0.9, 0.1, 0.9, 0.1]]])
    >>> bv_position(np.array([[0, 1, 0, 1]], bool), V, 0.5, np.array([[1, 1, 1, 1]], bool))
    array([[ True, False,  True,  True]])
    """
    up = V[:, 1, :] > alpha
    down = V[:, 0, :] > alpha
    X = np.asarray(X, dtype=bool)
    return np.where(up & down, coin, np.where(up, True, np.where(down, False, X)))
