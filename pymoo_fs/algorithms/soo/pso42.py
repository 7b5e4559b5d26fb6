"""PSO(4-2): continuous PSO with mixed initialisation and the "fewer features" update rule."""

import numpy as np

from pymoo_fs.algorithms.metadata import RegistryName
from pymoo_fs.algorithms.soo.pso import PSO

__all__ = ["PSO42", "mixed_initialisation"]


class PSO42(PSO):
    """PSO(4-2) for feature selection (Xue, Zhang & Browne, Applied Soft Computing 2014).

    The canonical continuous PSO of :class:`~pymoo_fs.algorithms.PSO` with the paper's
    initialisation strategy 4 (*mixed*: most particles start with small subsets, the rest
    with large ones) and updating mechanism 2 (a personal or global best is also replaced by
    an equally good position with fewer features). Li et al. (2021) run it on accuracy alone.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size [Li et al. 2021, §IV-C].
    w : float or tuple (low, high), default=0.7298
        Inertia weight [Li et al. 2021, §IV-C].
    c1, c2 : float or tuple (low, high), default=1.49618
        Acceleration coefficients [Li et al. 2021, §IV-C].
    vmax : float, default=4.0
        Velocity limit: the default of ``CPSO`` class in the FSIPSO code of Li et al. (2021), which
        also draws the initial velocities from ``U[-vmax, vmax]`` [P: FSIPSO-code ``CPSO``]. Which
        value the paper's runs used is not stated [A]; 0.6 is the value its FSIPSO runs use.
    threshold : float, default=0.6
        Selection threshold theta [Li et al. 2021, §IV-C].
    initial_velocity : {"uniform", "zero"}, default="uniform"
        ``U[-vmax, vmax]`` [P: FSIPSO-code ``CPSO.newInitialization``] or 0.
    pbest_rule : {"better_or_fewer", "better"}, default="better_or_fewer"
        Updating mechanism 2 [P: FSIPSO-code ``CPSO.run``; PSO42-py]; ``"better"`` is the
        standard rule.
    fitness : {"accuracy", "objective"}, default="accuracy"
        The paper gives PSO(4-2) the inner-CV accuracy alone (FIT-A') [Li et al. 2021, §IV-B].
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_, V_, pbest_X_, pbest_pop_, gbest_, pop
        As in :class:`~pymoo_fs.algorithms.PSO`.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    **Mixed initialisation** (:func:`mixed_initialisation`) [Nguyen et al. 2016, related work; P:
    FSIPSO-code ``CPSO.newInitialization``]: the first ``pop_size - pop_size // 3``
    particles select each feature with probability 0.1; the last ``pop_size // 3`` select
    ``k ~ U{floor(D / 2), ..., D}`` features at random. A selected coordinate is drawn from
    ``U[theta, 1]``, an unselected one from ``U[0, min(theta, 1 - theta)]`` (the code's
    ``U[0, 1 - theta]`` for the usual theta >= 0.5; never above theta).

    **Move and neighbourhood**: the canonical update of :class:`~pymoo_fs.algorithms.PSO`
    with a fully connected neighbourhood: every particle follows the swarm's gbest, the best
    personal best, ties going to the smaller subset. A personal best (and gbest) is replaced
    when the new fitness is better, or equal with fewer features.

    References
    ----------
    B. Xue, M. Zhang, W. N. Browne, "Particle swarm optimisation for feature selection in
    classification: novel initialisation and updating mechanisms", Applied Soft Computing
    18:261-276, 2014, doi:10.1016/j.asoc.2013.09.018. As configured in A.-D. Li, B. Xue,
    M. Zhang, IEEE CEC 2021, doi:10.1109/CEC45853.2021.9504949. Described in
    H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
    in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
    doi:10.1007/s00500-016-2128-8.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import PSO42
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, PSO42(pop_size=9), ("n_gen", 1), seed=1)
    >>> res.pop.get("X").sum(axis=1).tolist()  # six small subsets, three of 30 to 60
    [1, 7, 8, 6, 7, 9, 46, 55, 59]
    """

    registry_names = (RegistryName("PSO(4-2)", aliases=("PSO42", "PSO4-2")),)

    def __init__(self, pop_size=30, w=0.7298, c1=1.49618, c2=1.49618, vmax=4.0, threshold=0.6,
                 initial_velocity="uniform", pbest_rule="better_or_fewer", fitness="accuracy",
                 **kwargs):
        super().__init__(pop_size, w, c1, c2, vmax, threshold, pbest_rule=pbest_rule,
                         initial_velocity=initial_velocity, fitness=fitness, **kwargs)

    def _initial_swarm(self):
        _, V = super()._initial_swarm()
        X = mixed_initialisation(self.pop_size, self.problem.n_var, self.threshold,
                                 self.random_state)
        return X, V


def mixed_initialisation(n, n_features, threshold, random_state, n_large=None):
    """Initial positions of PSO(4-2): small subsets for two thirds, large ones for the rest.

    Parameters
    ----------
    n : int
        Number of particles; the last ``n // 3`` start large.
    n_features : int
        D.
    threshold : float
        theta: coordinate ``d`` is selected iff ``x_d > theta``.
    random_state : numpy.random.Generator
        Draws, in order: the small particles' selection coins ``U(0, 1) < 0.1`` (shape
        ``(n - n // 3, D)``); per large particle its size ``k ~ U{floor(D/2), ..., D}`` and a
        random permutation whose first ``k`` features are selected; then the coordinates,
        ``U[theta, 1]`` where selected and ``U[0, min(theta, 1 - theta)]`` elsewhere, shape
        ``(n, D)``.
    n_large : int, optional
        How many particles (the last ones) start large; default ``n // 3`` (the mixed
        initialisation). ``0`` gives Xue et al.'s (2014) small initialisation: every particle
        selects about 10 % of the features.

    Returns
    -------
    X : ndarray of float64, shape (n, n_features)

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.pso42 import mixed_initialisation
    >>> X = mixed_initialisation(6, 100, 0.6, np.random.default_rng(0))
    >>> (X > 0.6).sum(axis=1).tolist()
    [10, 11, 11, 10, 96, 60]
    """
    n_large = n // 3 if n_large is None else int(n_large)
    selected = np.zeros((n, n_features), dtype=bool)
    selected[:n - n_large] = random_state.random((n - n_large, n_features)) < 0.1
    for i in range(n - n_large, n):
        k = random_state.integers(n_features // 2, n_features + 1)
        selected[i, random_state.permutation(n_features)[:k]] = True
    u = random_state.random((n, n_features))
    low = u * min(threshold, 1.0 - threshold)
    return np.where(selected, threshold + u * (1.0 - threshold), low)
