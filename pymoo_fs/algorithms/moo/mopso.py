"""MOPSO: the "pure" multi-objective PSO of Nguyen et al. 2016 (ISRPSO minus local search)."""

import numpy as np
from pymoo.core.population import Population

from pymoo_fs.algorithms import archive
from pymoo_fs.algorithms.base import ParticleSwarm

__all__ = ["MOPSO"]


class MOPSO(ParticleSwarm):
    """Multi-objective PSO for feature selection with a crowding-truncated archive.

    The pure MOPSO of Nguyen et al. (2016), against which ISRPSO's local search is measured.
    Particles move in ``[0, 1]^D`` (feature ``d`` selected iff ``x_d > threshold``); each
    particle's leader is the nearer, in objective space, of two archive members drawn at
    random; the archive holds the non-dominated solutions found, at most ``pop_size`` of them,
    and is the result.

    Parameters
    ----------
    pop_size : int, default=30
        Swarm size, also the archive capacity [Nguyen et al. 2016].
    w : float or tuple (low, high), default=0.7298
        Inertia weight [Nguyen et al. 2016].
    c1, c2 : float or tuple (low, high), default=1.49618
        Acceleration coefficients [Nguyen et al. 2016].
    vmax : float, default=6.0
        Velocity limit [Nguyen et al. 2016].
    threshold : float, default=0.6
        Selection threshold theta [Nguyen et al. 2016].
    pbest_rule : {"random_if_nd", "dominates", "not_dominated"}, default="random_if_nd"
        Replace a personal best when the new position dominates it, and with probability 1/2
        when neither dominates the other [A: Nguyen et al. 2016 do not say]; only when it dominates;
        or unless the personal best dominates it (jMetal).
    random_coefficients : {"dimension", "particle"}, default="dimension"
        Draw ``r1, r2`` per dimension [A] or once per particle.
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    X_, V_ : ndarray of float64, shape (pop_size, D)
        Positions and velocities.
    pbest_X_ : ndarray of float64, shape (pop_size, D)
        Personal-best positions (``pbest_F_`` (pop_size, 2) their objectives).
    archive_X_ : ndarray of float64, shape (n_archive, D)
        Positions of the archive members (the leaders), at most ``pop_size``.
    archive_ : pymoo.core.population.Population
        The archive's masks (``X``) and objectives (``F``), row for row with ``archive_X_``;
        the result (``res.X``, ``res.F``).

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message); at setup when the problem is
        not multi-objective.

    Notes
    -----
    One iteration, in the order of Nguyen et al.'s (2016) Algorithm 1 (lines 5-9):

    1. each particle's leader (gbest): two archive members drawn uniformly (with replacement),
       the one nearer to the particle's current objective vector wins (Euclidean distance, a
       fair coin on equal distances [A]) [Nguyen et al. 2016, "Overall ISRPSO algorithm"];
    2. ``v <- w v + c1 r1 (pbest - x) + c2 r2 (gbest - x)``, clamped to ``[-vmax, vmax]``;
       ``x <- x + v``, clamped to ``[0, 1]`` [Nguyen et al. 2016, Eq. 1-2];
    3. the swarm is evaluated (one evaluation per particle);
    4. personal bests are updated by ``pbest_rule``;
    5. the archive becomes the non-dominated union of itself and the swarm, members with equal
       objective vectors kept once (the earlier), truncated to ``pop_size`` by removing the
       member of smallest crowding distance, one at a time [A: Nguyen et al. 2016 give the cap, not
       the rule; crowding as in the group's CMDPSOFS/OMOPSO lineage].

    Initial positions ``U[0, 1]^D``, velocities 0 [A]; a particle with no coordinate above the
    threshold selects its largest one (pymoo-fs's empty-subset rule). Topology: fully
    connected. Generation 1 evaluates the initial swarm, so ``("n_gen", G)`` makes ``G - 1``
    moves and ``pop_size * G`` evaluations; Nguyen et al.'s (2016) "100 iterations" is
    ``("n_gen", 101)``.

    References
    ----------
    H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
    in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
    doi:10.1007/s00500-016-2128-8 (parameters: "Design of experiments").

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import MOPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import BiObjectiveFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, MOPSO(pop_size=10), ("n_gen", 5), seed=1)
    >>> res.X.dtype, res.F.shape[0] <= 10, res.algorithm.evaluator.n_eval
    (dtype('bool'), True, 50)
    """

    registry_names = ("MOPSO",)
    n_objectives = 2

    def __init__(self, pop_size=30, w=0.7298, c1=1.49618, c2=1.49618, vmax=6.0, threshold=0.6,
                 pbest_rule="random_if_nd", random_coefficients="dimension", **kwargs):
        super().__init__(pop_size, w, c1, c2, vmax, threshold, inclusive_threshold=False,
                         initial_velocity="zero", random_coefficients=random_coefficients,
                         reverse_velocity=False, pbest_rule=pbest_rule, **kwargs)

    def _initialize_tell(self, infills):
        self.archive_X_ = np.zeros((0, self.problem.n_var))
        self.archive_ = Population.empty()
        self._offer(self.X_, infills)

    def _move(self):
        """Steps 1-2: distance-tournament leaders, the PSO move."""
        lead = archive.distance_tournament(self._objectives(self.archive_),
                                           self._objectives(self.pop), self.random_state)
        return self._pso_move(self.archive_X_[lead])

    def _tell(self, infills, idx):
        """Steps 4-5: personal bests, then the archive."""
        self._update_personal_bests(infills)
        self._offer(self.X_, infills)

    def _set_optimum(self):
        self.opt = self.archive_

    def _offer(self, positions, members):
        """Merge solutions into the archive (non-dominated, unique, capped by crowding)."""
        self.archive_X_, self.archive_ = archive.merge_archive(
            self.archive_X_, self.archive_, positions, members, capacity=self.pop_size,
            objectives=self._objectives)
