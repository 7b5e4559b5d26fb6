"""SRTSO: Butler-Yeoman et al.'s (2015) sequential random target size optimisation.

:class:`TargetSizeSearch` holds the search (candidate sizes, random subsets, the memory of the
best score per size, the range narrowing and the stopping rule) without evaluating anything;
:class:`SRTSO` runs it as a pymoo algorithm (one SRTSO iteration per generation), and
:class:`~pymoo_fs.algorithms.SCTSOFS` runs it as its first phase.
"""

import numpy as np
from pymoo.core.population import Population
from pymoo.termination.collection import TerminationCollection

from pymoo_fs._validation import check_choice, check_positive_int, check_real
from pymoo_fs.algorithms.base import FITNESS, FeatureSelectionAlgorithm
from pymoo_fs.algorithms.soo.sequential import _Exhausted

__all__ = ["SRTSO", "TargetSizeSearch"]

#: fitness values closer than this count as equal when the tolerance band is applied
_TIE = 1e-12


class TargetSizeSearch:
    """The state of one SRTSO search over subset sizes ``1 .. n_features``.

    [Butler-Yeoman et al. 2015, Alg. 2].

    Parameters
    ----------
    n_features : int
        ``d``, the number of features.
    max_iterations : int, default=2
        ``I``, the most SRTSO iterations.
    n_sizes : int, default=30
        ``N``, candidate sizes drawn per iteration.
    n_subsets : int, default=10
        ``s``, random subsets evaluated per candidate size.
    range_ratio : float, default=0.3
        ``R``: after iteration ``i`` the range is ``2 R d / i`` wide, centred on the best size.
    tolerance : float, default=0.01
        ``toleranceAcc``, absolute, on the fitness scale (error 0-1 for FIT-C): the best size is
        the smallest whose best fitness is within ``tolerance`` of the best seen.

    Attributes
    ----------
    range_ : tuple of int
        The current range ``(low, high)`` of candidate sizes, both included.
    iteration_ : int
        SRTSO iterations recorded so far.
    best_size_ : int or None
        ``bestSize`` after the last iteration (None before the first).
    best_fitness_ : dict of {int: float}
        The memory: per size evaluated, the lowest fitness of its subsets (``1 - Accuracy''``
        for FIT-C).
    best_masks_ : dict of {int: ndarray of bool, shape (n_features,)}
        Per size evaluated, the subset that earned ``best_fitness_``.
    log_ : list of dict
        Per iteration: ``range`` searched, ``sizes`` evaluated, ``evaluated`` (subsets),
        ``best_size`` and ``best_fitness`` after it.
    done : bool
        Whether the search has stopped (``I`` iterations, the best size unchanged, or a budget
        cut).
    truncated_ : bool
        Whether a budget cut the last iteration short.
    updated_ : dict of {int: int}
        After :meth:`record`: the sizes whose best improved, and the row of the recorded
        masks that improved it.

    Raises
    ------
    ValueError
        On a parameter outside its domain (named in the message).

    Notes
    -----
    One iteration ``i`` [Butler-Yeoman et al. 2015, Alg. 2, lines 7-19]:

    1. draw ``N`` sizes uniformly in the range, with replacement [A];
    2. per size ``n``, ``s`` subsets of exactly ``n`` distinct features, uniformly at random;
       ``Accuracy''(n)`` is the best of their scores; the memory keeps the best per size over
       all iterations (a size drawn twice keeps its best) [A];
    3. ``topAcc`` = the best of the memory, whatever the size; ``bestSize`` = the smallest size
       in the memory within ``tolerance`` of it [A: all sizes seen so far];
    4. the range becomes ``[bestSize - R d / i, bestSize + R d / i]``, rounded half up and
       clipped to ``[1, d]`` [A: "centre range on bestSize"];
    5. stop when ``bestSize`` equals the previous iteration's, or after ``I`` iterations.

    The result is ``T = bestSize``. Cost at most ``I N s`` evaluations (600 with the paper's
    values). :meth:`propose` can cut an iteration to a budget; the search then records what
    was evaluated and stops.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.srtso import TargetSizeSearch
    >>> search = TargetSizeSearch(40, n_sizes=5, n_subsets=2)
    >>> rs = np.random.default_rng(0)
    >>> while not search.done:
    ...     masks = search.propose(rs)
    ...     T = search.record(masks, np.abs(masks.sum(axis=1) - 12) / 40)  # best at size 12
    >>> search.best_size_, search.iteration_
    (11, 2)
    """

    def __init__(self, n_features, max_iterations=2, n_sizes=30, n_subsets=10, range_ratio=0.3,
                 tolerance=0.01):
        self.n_features = check_positive_int("n_features", n_features)
        self.max_iterations = check_positive_int("max_iterations", max_iterations)
        self.n_sizes = check_positive_int("n_sizes", n_sizes)
        self.n_subsets = check_positive_int("n_subsets", n_subsets)
        self.range_ratio = check_real("range_ratio", range_ratio, 0.0, 1.0, low_open=True)
        self.tolerance = check_real("tolerance", tolerance, 0.0)
        self.range_ = (1, self.n_features)
        self.iteration_ = 0
        self.best_size_ = None
        self.best_fitness_ = {}
        self.best_masks_ = {}
        self.log_ = []
        self.done = False
        self.truncated_ = False
        self.updated_ = {}

    def propose(self, random_state, limit=None):
        """The random subsets of the next iteration.

        Parameters
        ----------
        random_state : numpy.random.Generator
            Draws the ``N`` sizes (``integers``), then one ``random((N s, d))`` array whose
            row-wise ranks choose the subsets.
        limit : float, optional
            The most subsets to return (an evaluation budget); the iteration is cut to it.

        Returns
        -------
        masks : ndarray of bool, shape (k, n_features)
            ``k = N s`` (or fewer under ``limit``) masks, ``s`` consecutive rows per drawn size.

        Raises
        ------
        RuntimeError
            When the search is done.
        """
        if self.done:
            raise RuntimeError("the target size search is done")
        low, high = self.range_
        sizes = np.repeat(random_state.integers(low, high + 1, size=self.n_sizes),
                          self.n_subsets)
        ranks = np.argsort(np.argsort(random_state.random((sizes.size, self.n_features)),
                                      axis=1), axis=1)
        masks = ranks < sizes[:, None]
        if limit is not None and limit < masks.shape[0]:
            self.truncated_ = True
            masks = masks[:max(int(limit), 0)]
        return masks

    def record(self, masks, fitness):
        """Record the evaluated subsets of this iteration; narrow the range; maybe stop.

        Parameters
        ----------
        masks : ndarray of bool, shape (k, n_features)
            The masks :meth:`propose` returned (possibly fewer, in the same order).
        fitness : ndarray of float64, shape (k,)
            Their fitness (lower is better; ``1 - accuracy`` for FIT-C).

        Returns
        -------
        best_size : int or None
            ``bestSize`` after this iteration (None when nothing has been evaluated yet).
        """
        masks = np.asarray(masks, dtype=bool)
        fitness = np.asarray(fitness, dtype=float).reshape(-1)
        sizes = masks.sum(axis=1)
        self.updated_ = {}
        for n in np.unique(sizes):
            rows = np.flatnonzero(sizes == n)
            best = rows[np.argmin(fitness[rows])]
            n = int(n)
            if n not in self.best_fitness_ or fitness[best] < self.best_fitness_[n]:
                self.best_fitness_[n] = float(fitness[best])
                self.best_masks_[n] = masks[best].copy()
                self.updated_[n] = int(best)
        self.iteration_ += 1
        previous = self.best_size_
        searched = self.range_
        if self.best_fitness_:
            top = min(self.best_fitness_.values())
            self.best_size_ = min(n for n, f in self.best_fitness_.items()
                                  if f <= top + self.tolerance + _TIE)
            half = self.range_ratio * self.n_features / self.iteration_
            self.range_ = (max(1, _round_half_up(self.best_size_ - half)),
                           min(self.n_features, _round_half_up(self.best_size_ + half)))
        self.log_.append(dict(range=searched, sizes=np.unique(sizes),
                              evaluated=len(masks), best_size=self.best_size_,
                              best_fitness=self.best_fitness(self.best_size_)))
        if (self.truncated_ or self.iteration_ >= self.max_iterations
                or (previous is not None and self.best_size_ == previous)):
            self.done = True
        return self.best_size_

    def best_fitness(self, size):
        """The memory's fitness of ``size`` (None when it was never evaluated)."""
        return self.best_fitness_.get(size)


def _round_half_up(x):
    return int(np.floor(x + 0.5))


class SRTSO(FeatureSelectionAlgorithm):
    """Sequential random target size optimisation, run on its own.

    [Butler-Yeoman et al. 2015, §3.2, Alg. 2].

    Finds a target size ``T``: the smallest subset size whose random subsets reach, within a
    tolerance, the best accuracy that random subsets of any size reached. Each generation is one
    SRTSO iteration (``N s`` random subsets evaluated in one call through pymoo's evaluator, so
    they count in ``n_eval``); the search stops by itself.

    Parameters
    ----------
    max_iterations : int, default=2
        ``I`` [Butler-Yeoman et al. 2015, §4].
    n_sizes : int, default=30
        ``N``, candidate sizes per iteration [Butler-Yeoman et al. 2015, §4].
    n_subsets : int, default=10
        ``s``, random subsets per size [Butler-Yeoman et al. 2015, §4].
    range_ratio : float, default=0.3
        ``R`` in (0, 1] [Butler-Yeoman et al. 2015, §4].
    tolerance : float, default=0.01
        ``toleranceAcc``, absolute on the fitness scale [Butler-Yeoman et al. 2015, §4; scale A].
    fitness : {"objective", "accuracy"}, default="objective"
        Compare subsets by the problem's objective or by ``1 - score`` (the inner-CV accuracy
        alone). With Butler-Yeoman et al.'s (2015) problem (``WeightedFeatureSelection``,
        ``alpha=1``, FIT-C) both are ``1 - accuracy``.
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    target_size_ : int
        ``T`` (after the first generation: the current ``bestSize``).
    search_ : TargetSizeSearch
        The search: memory of the best subset and fitness per size, ranges, log.
    exhausted_ : bool
        Whether the search has stopped by itself.
    pop : pymoo.core.population.Population
        The best subset of each size evaluated so far, by size.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    See :class:`TargetSizeSearch` for the steps and their [A] gaps. The result (``res.X``,
    ``res.F``) is the best subset of size ``T``; an ``("n_eval", N)`` budget cuts the last
    iteration and stops the search.

    A complete feature-selection algorithm on its own (Butler-Yeoman et al. 2015 run it as SCTSOFS's
    first phase, :class:`~pymoo_fs.algorithms.SCTSOFS`), registered as ``"SRTSO"``: it has no
    population (``make_algorithm("SRTSO", pop_size=...)`` does not pass ``pop_size``), and it
    ends by itself after at most ``max_iterations`` generations, usually before a study's
    generation budget.

    References
    ----------
    T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
    size-controlled approach", AusDM 2015, CRPIT 168, §3.2, Algorithm 2.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import SRTSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, n_neighbors=1, alpha=1.0)
    >>> res = minimize(problem, SRTSO(n_sizes=10, n_subsets=5), seed=1)
    >>> alg = res.algorithm
    >>> 1 <= alg.target_size_ <= 60, int(res.X.sum()) == alg.target_size_, alg.evaluator.n_eval
    (True, True, 100)
    """

    registry_names = ("SRTSO",)
    #: its target-size search keeps fitness values per size between generations, which
    #: has no feasibility-first order: a constrained problem is refused at setup
    handles_constraints = False
    #: the subsets of a generation are drawn per candidate size, not a population
    has_population = False
    n_objectives = 1

    def __init__(self, max_iterations=2, n_sizes=30, n_subsets=10, range_ratio=0.3,
                 tolerance=0.01, fitness="objective", **kwargs):
        super().__init__(**kwargs)
        self.search_options = dict(max_iterations=max_iterations, n_sizes=n_sizes,
                                   n_subsets=n_subsets, range_ratio=range_ratio,
                                   tolerance=tolerance)
        TargetSizeSearch(1, **self.search_options)  # checks the values now
        self.fitness = check_choice("fitness", fitness, FITNESS)

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        self.search_ = TargetSizeSearch(problem.n_var, **self.search_options)
        self.exhausted_ = False
        self._best = {}
        self.termination = TerminationCollection(self.termination, _Exhausted())

    @property
    def target_size_(self):
        """int or None: ``T``, the search's current ``bestSize``."""
        return self.search_.best_size_

    def _initialize_infill(self):
        return self._infill()

    def _initialize_advance(self, infills=None, **kwargs):
        self._advance(infills)

    def _infill(self):
        masks = self.search_.propose(self.random_state, self.evaluations_left())
        return Population.new("X", masks)

    def _advance(self, infills=None, **kwargs):
        if len(infills):
            self.search_.record(infills.get("X"), self._fitness(infills)[:, 0])
        else:
            self.search_.done = True
        self.exhausted_ = self.search_.done
        for n, row in self.search_.updated_.items():
            self._best[n] = infills[row]
        self.pop = Population.create(*[self._best[n] for n in sorted(self._best)])

    def _set_optimum(self):
        sizes = self.pop.get("X").sum(axis=1)
        self.opt = self.pop[sizes == self.target_size_]
