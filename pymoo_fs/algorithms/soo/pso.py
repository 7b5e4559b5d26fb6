"""PSO(C): the standard continuous particle swarm for single-objective feature selection."""

from pymoo_fs.algorithms.base import ParticleSwarm
from pymoo_fs.algorithms.metadata import RegistryName

__all__ = ["PSO"]


class PSO(ParticleSwarm):
    """Continuous particle swarm optimisation for feature selection, PSO(C).

    Each particle's position ``x`` lies in ``[0, 1]^D``; feature ``d`` is selected iff
    ``x_d > threshold``. Every generation all particles move and are evaluated (one call for
    the whole swarm); personal bests and the global best are then updated. For single-objective
    problems such as :class:`~pymoo_fs.problems.WeightedFeatureSelection`.

    Parameters
    ----------
    pop_size : int, default=30
        Number of particles [Li et al. 2021, §IV-C].
    w : float or tuple (low, high), default=0.7298
        Inertia weight; a tuple draws ``w ~ U[low, high]`` per particle and move [Li et al. 2021].
    c1, c2 : float or tuple (low, high), default=1.49618
        Acceleration coefficients [Li et al. 2021].
    vmax : float, default=0.6
        Velocity limit; Li et al. (2021) do not state it, 0.6 is the value its authors' FSIPSO code
        uses [A].
    threshold : float, default=0.6
        Selection threshold theta [Li et al. 2021, §II-B].
    inclusive_threshold : bool, default=False
        Select iff ``x_d >= threshold`` (AMSO authors' code) instead of ``>``.
    pbest_rule : {"better", "better_or_fewer"}, default="better"
        Replace a personal best (and the global best) when the new fitness is strictly better
        (the FSIPSO authors' code), or also when equal with fewer features (the AMSO code).
    initial_velocity : {"zero", "uniform"}, default="zero"
        Initial velocities 0 (FSIPSO code) or ``U[-vmax, vmax]`` (AMSO code).
    **kwargs
        pymoo's ``Algorithm`` keywords (``termination``, ``output``, ``callback``, ``verbose``,
        ``save_history``, ``seed``, ...); any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_ : ndarray of float64, shape (pop_size, D)
        Current positions.
    V_ : ndarray of float64, shape (pop_size, D)
        Current velocities.
    pop : pymoo.core.population.Population
        The current swarm (masks and fitness), after every generation.
    pbest_X_ : ndarray of float64, shape (pop_size, D)
        Personal-best positions; ``pbest_pop_`` the personal bests as individuals,
        ``pbest_F_`` (pop_size, 1) their fitness.
    gbest_ : int
        Index of the particle whose personal best is the global best.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    Update [Li et al. 2021, Eq. 1-2]: ``v <- w v + c1 r1 (pbest - x) + c2 r2 (gbest - x)`` with
    ``r1, r2 ~ U(0, 1)`` drawn per dimension [P: FSIPSO-code, AMSO-code], ``v`` clamped to
    ``[-vmax, vmax]``, then ``x <- x + v`` clamped to ``[0, 1]``. Topology: fully connected.
    Initial positions ``U[0, 1]^D``. A particle with no coordinate above the threshold selects
    its largest coordinate (pymoo-fs's empty-subset rule [A]). The result (``res.X``,
    ``res.F``) is the global best's mask and fitness; ``res.pop`` is the final swarm. Generation 1 is the random initial swarm, so ``n_gen = T`` costs
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

    registry_names = (RegistryName("PSO", aliases=("PSO(C)",)),)
    n_objectives = 1

    def __init__(self, pop_size=30, w=0.7298, c1=1.49618, c2=1.49618, vmax=0.6, threshold=0.6,
                 inclusive_threshold=False, pbest_rule="better", initial_velocity="zero",
                 **kwargs):
        super().__init__(pop_size, w, c1, c2, vmax, threshold, inclusive_threshold,
                         initial_velocity, random_coefficients="dimension",
                         reverse_velocity=False, pbest_rule=pbest_rule, **kwargs)

    def _move(self):
        """Every particle moves towards its personal best and the global best."""
        return self._pso_move(self.pbest_X_[self.gbest_])
