"""BBPSO-ACJ: bare-bones PSO with an adaptive chaotic jump (Qiu 2018), a baseline of Yang 2022."""

import math

import numpy as np

from pymoo_fs._validation import (check_choice, check_positive_int, check_real,
                                  check_unit_interval)
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.algorithms.metadata import RegistryName

__all__ = ["BBPSOACJ", "bare_bones_move", "chaotic_jump", "logistic_sequence"]


class BBPSOACJ(SwarmAlgorithm):
    """Bare-bones particle swarm with an adaptive chaotic jump, for feature selection.

    Positions are in ``[0, 1]^D`` and feature ``d`` is selected iff ``x_d > threshold``.
    Every generation each particle samples a new position around the middle of its personal
    best and the global best (Kennedy's bare-bones PSO); a particle whose personal best has
    stagnated jumps instead: each coordinate of its personal best is scaled by a factor drawn
    from a logistic-map (chaotic) sequence. Built from the paper's abstract (its full text
    was not reached) and an earlier chaotic-jump scheme; every rule of the jump is a switch.

    Parameters
    ----------
    pop_size : int, default=20
        Swarm size P [Yang et al. 2022, Tab. 2].
    threshold : float, default=0.5
        Selection threshold lambda [Yang et al. 2022, Tab. 2, Eq. 3].
    z0 : float, default=0.13
        Start of the logistic map, the "chaotic factor" of Yang et al. (2022, Tab. 2); in (0, 1),
        and not
        0.25, 0.5 or 0.75, whose orbits are fixed points of ``4 z (1 - z)`` at once or
        after one step.
    eta : float, default=1.0
        Jump amplitude: a jump scales ``p_d`` by ``1 + eta (2 z - 1)``, a factor in
        ``[1 - eta, 1 + eta]`` [A].
    trigger : {"count", "prob"}, default="count"
        When a particle jumps [A]: ``"count"`` when its stagnation counter exceeds
        ``stagnation_limit`` (the precursor scheme's rule); ``"prob"`` with probability
        ``1 - exp(-s / stagnation_limit)``.
    stagnation_limit : int, default=5
        ``S``: the precursor scheme's five failures.
    variant : {"standard", "exploiting"}, default="standard"
        Kennedy's bare-bones move, or its "exploiting" form, which keeps ``p_d`` with
        probability 0.5 [A].
    bounds : {"clip", "pbest"}, default="clip"
        A coordinate leaving [0, 1] is clipped [A], or reset to ``p_d`` (the precursor code).
    epsilon : float, default=0.0
        The size-reducing global-best rule [A]: after the usual update, a personal best whose
        fitness is within ``epsilon`` of the global best's (``f <= f_g + epsilon``, ``f``
        what the algorithm minimises: ``1 - accuracy`` under FIT-E) and that has fewer
        features becomes the global best (the fewest features, then the lowest ``f``). 0
        keeps the rule that every method of Yang et al. (2022) follows.
    pbest_rule : {"better_or_fewer", "better"}, default="better_or_fewer"
        Personal- and global-best replacement: higher accuracy, then fewer features
        (Yang et al. 2022, §4.2).
    fitness : {"objective", "accuracy"}, default="objective"
        Compare by the problem's objective or by the inner-CV score alone.
    **kwargs
        pymoo's ``Algorithm`` keywords; the default termination is ``("n_eval", 5000)``
        (MAX_FE of Yang et al. 2022), and every pymoo termination works.

    Attributes
    ----------
    X_ : ndarray of float64, shape (pop_size, D)
        Positions in [0, 1]. ``V_`` is None: there is no velocity.
    stagnation_ : ndarray of int64, shape (pop_size,)
        Consecutive evaluations that did not improve each personal best (reset by a jump).
    jumped_ : ndarray of bool, shape (pop_size,)
        The particles that jumped in the last move.
    z_ : float
        The last value of the chaotic sequence.
    n_jumps_ : int
        Jumps made so far.
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
    Initial positions ``U[0, 1]^D`` [A]. One generation:

    1. **who jumps**: the particles whose stagnation counter ``s_i`` exceeds ``S`` (or, with
       ``trigger="prob"``, each with probability ``1 - exp(-s_i / S)``);
    2. **bare-bones move** (:func:`bare_bones_move`) of every other particle, per dimension:
       ``x_d ~ N((p_d + g_d) / 2, |p_d - g_d|)`` [Kennedy 2003; restated by Song et al.
       2022, Eq. 4];
    3. **chaotic jump** (:func:`chaotic_jump`) of the jumpers: ``x_d = p_d (1 + eta (2 z - 1))``
       with ``z`` the next value of the logistic map ``z <- 4 z (1 - z)``
       (:func:`logistic_sequence`; one sequence for the run, started at ``z0``, advanced once
       per jumped dimension, particles in index order) [A: the BBPSO-ACJ form, rebuilt from
       the precursor "swarm algorithms with chaotic jumps"];
    4. coordinates outside [0, 1] are clipped (``bounds``);
    5. evaluation; ``s_i`` is reset by a jump, then grows by 1, and is 0 again when the
       personal best improves; global best by ``pbest_rule``, then the ``epsilon`` rule.

    The random numbers of a move are drawn, for every particle, in this order: the trigger
    draws (``"prob"`` only, shape (pop_size,)), the normal draws (pop_size, D), the keep
    coins (``"exploiting"`` only, (pop_size, D)). A mask with no coordinate above the
    threshold selects the particle's largest coordinate
    (:func:`~pymoo_fs.algorithms.swarm.decode`, pymoo-fs's empty-subset rule); Yang et al. (2022)
    score the empty subset 0 [A].

    References
    ----------
    C. Qiu, "Bare bones particle swarm optimization with adaptive chaotic jump for feature
    selection in classification", Int. J. Computational Intelligence Systems 11(1):1-14,
    2018, doi:10.2991/ijcis.11.1.1. J. Kennedy, "Bare bones particle swarms", IEEE Swarm
    Intelligence Symposium 2003, pp. 80-87, doi:10.1109/SIS.2003.1202251. As run in
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.
    Tab. 2.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import BBPSOACJ
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitEFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitEFeatureSelection.from_data(data.X, data.y)
    >>> res = minimize(problem, BBPSOACJ(pop_size=10), ("n_eval", 200), seed=1)
    >>> res.X.dtype, res.algorithm.evaluator.n_eval, res.algorithm.n_jumps_ > 0
    (dtype('bool'), 200, True)
    """

    sampling_encoding = "threshold"
    registry_names = (RegistryName("BBPSO-ACJ", aliases=("BBPSOACJ",)),)
    n_objectives = 1

    def __init__(self, pop_size=20, threshold=0.5, z0=0.13, eta=1.0, trigger="count",
                 stagnation_limit=5, variant="standard", bounds="clip", epsilon=0.0,
                 pbest_rule="better_or_fewer", fitness="objective", **kwargs):
        kwargs.setdefault("termination", ("n_eval", 5000))
        super().__init__(pop_size, pbest_rule, fitness=fitness, **kwargs)
        self.threshold = check_unit_interval("threshold", threshold)
        self.z0 = check_real("z0", z0, low=0.0, high=1.0, low_open=True, high_open=True)
        if self.z0 in (0.25, 0.5, 0.75):
            raise ValueError(f"z0 must not be 0.25, 0.5 or 0.75 (the logistic map stays at 0 "
                             f"or 0.75 from there), got {z0!r}")
        self.eta = check_real("eta", eta, low=0.0, high=math.inf, high_open=True)
        self.trigger = check_choice("trigger", trigger, ("count", "prob"))
        self.stagnation_limit = check_positive_int("stagnation_limit", stagnation_limit)
        self.variant = check_choice("variant", variant, ("standard", "exploiting"))
        self.bounds = check_choice("bounds", bounds, ("clip", "pbest"))
        self.epsilon = check_real("epsilon", epsilon, low=0.0, high=math.inf, high_open=True)

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        self.z_ = self.z0
        self.n_jumps_ = 0
        self._pending_jump = None

    def _initial_swarm(self):
        return self.random_state.random((self.pop_size, self.problem.n_var)), None

    def _decode(self, X):
        return swarm.decode(X, self.threshold)

    def _initialize_tell(self, infills):
        super()._initialize_tell(infills)
        self.stagnation_ = np.zeros(self.pop_size, dtype=np.int64)
        self.jumped_ = np.zeros(self.pop_size, dtype=bool)

    def _move(self):
        """Steps 1-4: the jumpers, the bare-bones move, the chaotic jump, the bounds."""
        n, rs, P = self.pop_size, self.random_state, self.pbest_X_
        s = self.stagnation_
        if self.trigger == "count":
            jump = s > self.stagnation_limit
        else:
            jump = rs.random(n) < 1.0 - np.exp(-s / self.stagnation_limit)
        g = P[self.gbest_]
        normal = rs.standard_normal(P.shape)
        keep = rs.random(P.shape) < 0.5 if self.variant == "exploiting" else None
        X = bare_bones_move(P, g, normal, keep)
        z = self.z_
        if jump.any():
            X[jump], z = chaotic_jump(P[jump], z, self.eta)
        outside = (X < 0.0) | (X > 1.0)
        X = np.clip(X, 0.0, 1.0) if self.bounds == "clip" else np.where(outside, P, X)
        self._pending_jump = (jump, z)
        return X, None

    def _tell(self, infills, idx):
        """Step 5: stagnation counters, personal bests, the global best."""
        jump, self.z_ = self._pending_jump
        self.jumped_ = jump
        self.n_jumps_ += int(jump.sum())
        replaced = self._update_personal_bests(infills, idx)
        self.stagnation_ = np.where(jump, 0, self.stagnation_) + 1
        self.stagnation_[replaced] = 0
        self._update_gbest()

    def _update_gbest(self):
        """The usual global-best update, then the ``epsilon`` rule for fewer features."""
        super()._update_gbest()
        if self.epsilon <= 0.0:
            return
        F = self._fitness(self.pbest_pop_)[:, 0]
        n = self.pbest_pop_.get("X").sum(axis=1)
        g = self.gbest_
        near = np.flatnonzero((F <= F[g] + self.epsilon) & (n < n[g]))
        if near.size:
            self.gbest_ = int(near[np.lexsort((F[near], n[near]))[0]])


def bare_bones_move(P, g, normal, keep=None):
    """Kennedy's bare-bones move: ``x_d = (p_d + g_d) / 2 + |p_d - g_d| N_d``.

    Parameters
    ----------
    P : ndarray of float64, shape (n, D)
        Personal bests.
    g : ndarray of float64, shape (D,)
        The global best.
    normal : ndarray of float64, shape (n, D)
        Standard normal draws.
    keep : ndarray of bool, shape (n, D), optional
        The "exploiting" variant: where True, ``x_d = p_d``.

    Returns
    -------
    X : ndarray of float64, shape (n, D)
        Unbounded positions.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.bbpsoacj import bare_bones_move
    >>> P, g = np.array([[0.2, 0.6]]), np.array([0.6, 0.6])
    >>> bare_bones_move(P, g, np.array([[1.0, -3.0]])).round(6).tolist()
    [[0.8, 0.6]]
    """
    X = (P + g) / 2.0 + np.abs(P - g) * normal
    return X if keep is None else np.where(keep, P, X)


def logistic_sequence(z, m):
    """The next ``m`` values of the logistic map ``z <- 4 z (1 - z)`` after ``z``.

    Parameters
    ----------
    z : float
        The current value, in (0, 1).
    m : int
        How many values.

    Returns
    -------
    values : ndarray of float64, shape (m,)
        ``z_1 = 4 z (1 - z)``, ``z_2 = 4 z_1 (1 - z_1)``, ...
    last : float
        ``values[-1]`` (``z`` when ``m = 0``): where the sequence continues.

    Examples
    --------
    >>> from pymoo_fs.algorithms.soo.bbpsoacj import logistic_sequence
    >>> values, last = logistic_sequence(0.13, 2)
    >>> values.round(6).tolist(), round(last, 6)
    ([0.4524, 0.990937], 0.990937)
    """
    values = np.empty(m, dtype=np.float64)
    for i in range(m):
        z = 4.0 * z * (1.0 - z)
        values[i] = z
    return values, float(z)


def chaotic_jump(P, z, eta):
    """The chaotic jump of the particles whose personal bests are ``P``.

    Parameters
    ----------
    P : ndarray of float64, shape (k, D)
        Their personal bests.
    z : float
        The chaotic sequence's current value.
    eta : float
        Amplitude.

    Returns
    -------
    X : ndarray of float64, shape (k, D)
        ``p_d (1 + eta (2 z_j - 1))`` with ``z_j`` the next ``k D`` values of the logistic
        map, row by row (unbounded).
    z : float
        The sequence's last value.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.bbpsoacj import chaotic_jump
    >>> X, z = chaotic_jump(np.array([[0.5, 0.5]]), 0.13, 1.0)
    >>> X.round(4).tolist(), round(z, 4)  # factors 2 z: 0.9048, 1.9818
    ([[0.4524, 0.9909]], 0.9909)
    """
    values, z = logistic_sequence(z, P.size)
    return P * (1.0 + eta * (2.0 * values.reshape(P.shape) - 1.0)), z

