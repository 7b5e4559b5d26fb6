"""UBPSO: binary PSO with a linearly increasing ("up") inertia weight."""

import math

from pymoo_fs._validation import check_choice, check_real
from pymoo_fs.algorithms.soo.bpso import BPSO

__all__ = ["UBPSO", "increasing_inertia"]


class UBPSO(BPSO):
    """Binary PSO whose inertia weight grows linearly over the run (Liu, Mei & Li 2016).

    :class:`~pymoo_fs.algorithms.BPSO` with ``w`` rising from ``w_min`` to ``w_max``: in
    binary PSO a small inertia weight explores (velocities shrink to 0, bits become coin
    flips) and a large one exploits, the reverse of continuous PSO.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size [Li et al. 2021, §IV-C].
    w_min, w_max : float, default=(0.4, 1.0)
        Inertia weight at the first and at the last move [Li et al. 2021, §IV-C].
    rho : float, default=0.9
        Li et al.'s (2021) rho [Li et al. 2021, §IV-C], in (0.5, 1). Its role is not recoverable
        from public material; read as the largest selection probability [A] (see
        ``rho_mode``).
    rho_mode : {"vmax", "clip"}, default="vmax"
        ``"vmax"``: the velocity limit is ``ln(rho / (1 - rho))`` (2.197 for 0.9), so that
        ``sigmoid(v)`` stays in ``[1 - rho, rho]``; ``"clip"``: velocities are limited by
        ``vmax`` and the selection probability is clipped to ``[1 - rho, rho]`` [A].
    vmax : float, optional
        Velocity limit for ``rho_mode="clip"`` (default 6.0); must be omitted with
        ``"vmax"``.
    c1, c2 : float or tuple (low, high), default=2.0
        Acceleration coefficients [A].
    pbest_rule : {"better", "better_or_fewer"}, default="better"
        Strictly better fitness, as the FSIPSO authors' code for FIT-A swarms [A].
    fitness : {"objective", "accuracy"}, default="objective"
        Li et al. (2021) give UBPSO its weighted fitness FIT-A [Li et al. 2021, §IV-B].
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    w_ : float
        The inertia weight of the last move.
    X_, V_, pbest_X_, pbest_pop_, gbest_, pop
        As in :class:`~pymoo_fs.algorithms.BPSO`.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), ``w_min > w_max``, or a
        ``vmax`` given with ``rho_mode="vmax"``.

    Notes
    -----
    The inertia weight of a move is ``w(t) = w_min + (w_max - w_min) t / T``
    (:func:`increasing_inertia`), where ``t / T`` is the fraction of the budget spent since
    the initial swarm
    (:meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.progress`): with
    ``("n_gen", T + 1)`` the ``m``-th move uses ``t = m - 1``: the first move has ``w_min``,
    the last (``t = T - 1``) ``w_min + (w_max - w_min)(T - 1) / T``, as ``t = 0 .. T - 1`` in
    the paper's loop. Everything else is :class:`~pymoo_fs.algorithms.BPSO`.

    References
    ----------
    J. Liu, Y. Mei, X. Li, "An analysis of the inertia weight parameter for binary particle
    swarm optimization", IEEE Trans. Evolutionary Computation 20(5):666-681, 2016,
    doi:10.1109/TEVC.2015.2503422. As configured in A.-D. Li, B. Xue, M. Zhang, IEEE CEC 2021,
    doi:10.1109/CEC45853.2021.9504949.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import UBPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, UBPSO(pop_size=10), ("n_gen", 5), seed=1)
    >>> round(res.algorithm.w_, 4), round(res.algorithm.vmax, 4)  # 4 moves: t/T = 3/4 last
    (0.85, 2.1972)
    """

    registry_names = ("UBPSO",)

    def __init__(self, pop_size=30, w_min=0.4, w_max=1.0, rho=0.9, rho_mode="vmax", vmax=None,
                 c1=2.0, c2=2.0, pbest_rule="better", fitness="objective", **kwargs):
        self.rho = check_real("rho", rho, low=0.5, high=1.0, low_open=True, high_open=True)
        self.rho_mode = check_choice("rho_mode", rho_mode, ("vmax", "clip"))
        if self.rho_mode == "vmax" and vmax is not None:
            raise ValueError("vmax is set by rho when rho_mode='vmax'; leave vmax out or use "
                             "rho_mode='clip'")
        if self.rho_mode == "vmax":
            vmax = math.log(self.rho / (1.0 - self.rho))
        # checked first, so that a bad w_min is reported as w_min, not as BPSO's w
        self._set_coefficients(w_min=w_min, w_max=w_max)
        super().__init__(pop_size, w=w_min, c1=c1, c2=c2, vmax=6.0 if vmax is None else vmax,
                         pbest_rule=pbest_rule, fitness=fitness, **kwargs)
        if self.w_min > self.w_max:
            raise ValueError(f"w_min must not exceed w_max, got w_min={w_min!r}, "
                             f"w_max={w_max!r}")
        self.w_ = self.w_min

    def _inertia(self):
        self.w_ = increasing_inertia(self.w_min, self.w_max, self.progress())
        return self.w_

    def _probability_bounds(self):
        if self.rho_mode == "clip":
            return 1.0 - self.rho, self.rho
        return 0.0, 1.0


def increasing_inertia(w_min, w_max, progress):
    """UBPSO's inertia weight ``w_min + (w_max - w_min) * progress``.

    Parameters
    ----------
    w_min, w_max : float
        Values at progress 0 and 1.
    progress : float
        ``t / T`` in [0, 1].

    Returns
    -------
    w : float

    Examples
    --------
    >>> from pymoo_fs.algorithms.soo.ubpso import increasing_inertia
    >>> [round(increasing_inertia(0.4, 1.0, p), 2) for p in (0.0, 0.5, 1.0)]
    [0.4, 0.7, 1.0]
    """
    return w_min + (w_max - w_min) * progress
