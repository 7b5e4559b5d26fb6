"""PAES: the (1+1) Pareto archived evolution strategy on bit strings."""

import numpy as np
from pymoo.core.population import Population

from pymoo_fs._validation import check_int, check_positive_int, check_unit_interval
from pymoo_fs import pareto
from pymoo_fs.algorithms import archive
from pymoo_fs.algorithms.base import FeatureSelectionAlgorithm
from pymoo_fs.algorithms.metadata import algorithm_factory
from pymoo_fs.problems import repair_empty

__all__ = ["PAES", "configure_paes", "paes_step"]


class PAES(FeatureSelectionAlgorithm):
    """(1+1)-PAES (Knowles & Corne) for feature selection, as Nguyen et al. (2016) compare it.

    One current solution (a bit string, one bit per feature) is mutated into one candidate per
    generation; an archive of non-dominated solutions, bounded and kept diverse by an adaptive
    grid, decides which of the two goes on, and is the result.

    Parameters
    ----------
    archive_size : int, default=100
        Archive capacity [A: jMetal's PAES default; Nguyen et al. 2016 do not say].
    bisections : int, default=5
        Times each objective's range is halved by the grid (``2**5 = 32`` divisions) [A: jMetal
        default].
    mutation_rate : float, optional
        Per-bit flip probability; default ``1/D`` [Nguyen et al. 2016].
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    current_ : pymoo.core.individual.Individual
        The current solution (mask ``X``, objectives ``F``).
    pop : pymoo.core.population.Population
        The (1+1) pool of the last generation: the parent (the current solution before the
        step) and the candidate, in that order; the initial solution alone after generation 1.
    archive_ : pymoo.core.population.Population
        The archive, at most ``archive_size`` members; the result (``res.X``, ``res.F``).
    mutation_rate_ : float
        The flip probability used.
    n_moved_ : int
        Generations in which the candidate became the current solution.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message); at setup when the problem is
        not multi-objective.

    Notes
    -----
    Generation 1 evaluates one random bit string (each bit 1 with probability 1/2), which
    starts the archive. Each later generation [Knowles & Corne 2000, Fig. 3; Nguyen et al. 2016]:

    1. the candidate ``m`` is the current ``c`` with each bit flipped with probability
       ``mutation_rate``; an empty ``m`` gets one random feature (pymoo-fs's no-empty-subset
       rule, :func:`~pymoo_fs.problems.repair_empty`); ``m`` is evaluated;
    2. the step of :func:`paes_step`: ``m`` is discarded if ``c`` dominates it; if ``m``
       dominates ``c`` it becomes current and is offered to the archive; otherwise it is
       discarded if a member dominates it (or equals it in objectives), else offered to the
       archive, and becomes current if its grid cell holds fewer archive members than
       ``c``'s.

    An offer follows :func:`~pymoo_fs.algorithms.archive.grid_archive_add`. One evaluation
    per generation: ``("n_eval", N)`` and ``("n_gen", N)`` are the same budget; Nguyen et al.'s
    (2016) is 3,000 evaluations ("30 individuals x 100 generations"). A candidate identical to its
    parent (no bit flipped, probability about 1/e) is evaluated all the same, as in jMetal.

    References
    ----------
    J. D. Knowles, D. W. Corne, "Approximating the nondominated front using the Pareto
    archived evolution strategy", Evolutionary Computation 8(2):149-172, 2000,
    doi:10.1162/106365600568167; J. Knowles, D. Corne, "The Pareto archived evolution
    strategy", IEEE CEC 1999. Settings: H. B. Nguyen et al., Soft Computing 20:3927-3946,
    2016, doi:10.1007/s00500-016-2128-8.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import PAES
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import BiObjectiveFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, PAES(), ("n_eval", 60), seed=1)
    >>> res.X.dtype, len(res.X) <= 100, res.algorithm.evaluator.n_eval
    (dtype('bool'), True, 60)
    """

    #: (1+1): one current solution, one candidate evaluated per generation, so a comparison
    #: with population algorithms gives PAES its budget in evaluations
    has_population = False
    evaluations_per_generation = 1
    n_objectives = 2

    def __init__(self, archive_size=100, bisections=5, mutation_rate=None, **kwargs):
        super().__init__(**kwargs)
        self.archive_size = check_positive_int("archive_size", archive_size)
        self.bisections = check_int("bisections", bisections, low=0, high=20)
        self.mutation_rate = (None if mutation_rate is None else
                              check_unit_interval("mutation_rate", mutation_rate, low_open=True))

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        D = problem.n_var
        self.mutation_rate_ = 1.0 / D if self.mutation_rate is None else self.mutation_rate
        self.n_moved_ = 0

    def _initialize_infill(self):
        bits = self.random_state.random((1, self.problem.n_var)) < 0.5
        return Population.new("X", repair_empty(bits, self.random_state))

    def _initialize_advance(self, infills=None, **kwargs):
        self.current_ = infills[0]
        self.archive_ = infills.copy()

    def _infill(self):
        """Step 1: the bit-flip mutant of the current solution."""
        c = self.current_.X
        flip = self.random_state.random(c.shape) < self.mutation_rate_
        return Population.new("X", repair_empty((c ^ flip)[None, :], self.random_state))

    def _advance(self, infills=None, **kwargs):
        """Step 2: acceptance and archiving."""
        m = infills[0]
        self.pop = Population.create(self.current_, m)
        if self._constrained():  # feasibility first: the values compared at this moment
            K = self._objectives(Population.merge(self.archive_, self.pop))
            F_archive, f_current, f_candidate = K[:-2], K[-2], K[-1]
        else:
            F_archive, f_current, f_candidate = self.archive_.get("F"), self.current_.F, m.F
        move, keep, added = paes_step(F_archive, f_current, f_candidate,
                                      self.archive_size, self.bisections)
        members = self.archive_[keep]
        self.archive_ = Population.merge(members, infills) if added else members
        if move:
            self.current_ = m
            self.n_moved_ += 1

    def _set_optimum(self):
        self.opt = self.archive_


def paes_step(F_archive, f_current, f_candidate, capacity, bisections):
    """One (1+1)-PAES decision: where the candidate goes, what the archive keeps.

    Parameters
    ----------
    F_archive : ndarray of float64, shape (n, m)
        The archive's objective vectors, in archive order.
    f_current, f_candidate : ndarray of float64, shape (m,)
        Objectives of the current solution ``c`` and the candidate ``m``.
    capacity : int
        Archive size limit.
    bisections : int
        Grid depth.

    Returns
    -------
    move : bool
        Whether ``m`` becomes the current solution.
    keep : ndarray of int64
        Archive members that stay, in order.
    added : bool
        Whether ``m`` joins the archive (after them).

    Notes
    -----
    ``c`` dominates ``m``: nothing changes. ``m`` dominates ``c``: ``m`` moves on and is
    offered to the archive (:func:`~pymoo_fs.algorithms.archive.grid_archive_add`).
    Otherwise ``m`` is offered; if refused because a member dominates (or equals) it, nothing
    changes; else ``m`` moves on when its grid cell holds fewer members of the archive (after
    the offer) than ``c``'s cell, the grid spanning that archive and ``m`` (Knowles & Corne
    2000, test(c, m, archive)). ``c`` need not be an archive member; outside the grid it
    counts in the nearest edge cell.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.moo.paes import paes_step
    >>> A = np.array([[0.2, 0.5], [0.21, 0.49], [0.22, 0.48], [0.5, 0.1]])
    >>> c = A[0]                       # in a crowded corner of the archive
    >>> paes_step(A, c, np.array([0.36, 0.25]), capacity=10, bisections=1)
    (True, array([0, 1, 2, 3]), True)
    """
    F_archive = np.asarray(F_archive, dtype=float)
    c, m = np.asarray(f_current, dtype=float), np.asarray(f_candidate, dtype=float)
    everyone = np.arange(F_archive.shape[0])
    if pareto.dominates(c[None, :], m[None, :])[0]:
        return False, everyone, False
    dominating = pareto.dominates(m[None, :], c[None, :])[0]
    if not dominating and archive.refuses(F_archive, m):
        return False, everyone, False
    keep, added = archive.grid_archive_add(F_archive, m, capacity, bisections)
    if dominating:
        return True, keep, added
    F = np.vstack([F_archive[keep], m]) if added else F_archive[keep]
    pool = np.vstack([F, m])
    lower, upper = pool.min(axis=0), pool.max(axis=0)
    counts = np.bincount(archive.grid_cells(F, lower, upper, bisections),
                         minlength=(2 ** bisections) ** len(m))
    cell_m, cell_c = archive.grid_cells(np.vstack([m, c]), lower, upper, bisections)
    return bool(counts[cell_m] < counts[cell_c]), keep, added


@algorithm_factory("PAES", builds=PAES)
def configure_paes(pop_size=None, **kwargs):
    """:class:`PAES` for the registry, which passes every algorithm a ``pop_size``.

    Parameters
    ----------
    pop_size : int, optional
        Checked, then ignored: (1+1)-PAES has one current solution. Give PAES a budget in
        evaluations: it declares one evaluation per generation
        (``PAES.evaluations_per_generation``), so
        ``algorithm_info("PAES").matched_budget(pop_size, generations)`` is
        ``("n_eval", pop_size * generations)``, what ``pymoo-fs compare`` gives it.
    **kwargs
        Arguments of :class:`PAES`.

    Returns
    -------
    algorithm : PAES

    Examples
    --------
    >>> from pymoo_fs.algorithms.moo.paes import configure_paes
    >>> configure_paes(pop_size=30).archive_size
    100
    """
    if pop_size is not None:
        check_positive_int("pop_size", pop_size)
    return PAES(**kwargs)
