"""SFS and SBS: Weka's greedy stepwise wrapper searches as pymoo algorithms."""

import numpy as np
from pymoo.core.population import Population
from pymoo.core.termination import NoTermination, Termination
from pymoo.termination.collection import TerminationCollection

from pymoo_fs._validation import check_choice
from pymoo_fs.algorithms.base import FITNESS, FeatureSelectionAlgorithm

__all__ = ["SBS", "SFS", "SequentialSelection"]


class SequentialSelection(FeatureSelectionAlgorithm):
    """Greedy stepwise feature selection: add (or remove) the best feature while it pays.

    Every generation is one step: the whole one-feature neighbourhood of the current subset
    is evaluated in one batch through the evaluator's incremental path
    (:meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.evaluate_flips`), and the best
    neighbour becomes the current subset if it is good enough. The search ends by itself when
    no neighbour is; any pymoo termination can end it earlier.

    Parameters
    ----------
    direction : {"forward", "backward"}
        Forward selection from the empty set (SFS) or backward elimination from all features
        (SBS).
    fitness : {"accuracy", "objective"}, default="accuracy"
        The merit: the inner-CV score alone, as Weka's ``WrapperSubsetEval`` [P: Weka], or the
        problem's objective.
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``. Without a
        ``termination`` (or with ``None``) the search runs until it stops by itself.

    Attributes
    ----------
    current_ : ndarray of bool, shape (D,)
        The current subset (the result so far).
    merit_ : float
        Its fitness (lower is better): ``1 - score`` or the objective.
    exhausted_ : bool
        Whether the search has stopped by itself.
    pop : pymoo.core.population.Population
        The current subset as a population of one; ``res.X``/``res.F`` are its mask and
        objective.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message), or at setup for a problem
        with more than one objective.

    Notes
    -----
    Weka's ``GreedyStepwise`` with its defaults [P: Weka ``GreedyStepwise.search``]:

    - **forward**: candidates are scanned in feature order and the first strictly best one
      is kept; it is added only if its merit is strictly better than the current subset's,
      otherwise the search stops (non-conservative selection);
    - **backward**: a candidate is kept if at least as good as the best so far, so among equal
      ones the last in feature order wins; it is removed while its merit is at least the
      current one.

    Departures, for pymoo-fs's rule that an empty mask is not a subset: the forward search
    starts from the empty set without evaluating it (Weka scores it as the majority class),
    so its first step always adds the best single feature; the backward search stops at one
    feature. With an evaluation budget (``("n_eval", N)``) a step evaluates only the first
    candidates that the budget still allows.

    Each step is one generation: generation 1 is the first neighbourhood (forward) or the full
    set (backward). The neighbours are evaluated when the step is asked for (``ask``) and come
    back already evaluated, so pymoo's evaluator does not count them twice. The search is
    deterministic: a seed changes nothing.

    References
    ----------
    R. Kohavi, G. H. John, "Wrappers for feature subset selection", Artificial Intelligence
    97(1-2):273-324, 1997. Weka 3.8 ``weka.attributeSelection.GreedyStepwise`` and
    ``WrapperSubsetEval`` defaults, as run in A.-D. Li, B. Xue, M. Zhang, IEEE CEC 2021,
    doi:10.1109/CEC45853.2021.9504949.
    """

    #: one current subset, no population: the registry's ``pop_size`` is not passed
    has_population = False
    n_objectives = 1

    def __init__(self, direction, fitness="accuracy", **kwargs):
        kwargs.setdefault("termination", NoTermination())
        super().__init__(**kwargs)
        self.direction = check_choice("direction", direction, ("forward", "backward"))
        self.fitness = check_choice("fitness", fitness, FITNESS)

    def setup(self, problem, **kwargs):
        """pymoo's ``setup``; ``termination=None`` means none (the search stops by itself)."""
        if "termination" in kwargs and kwargs["termination"] is None:
            kwargs["termination"] = NoTermination()
        return super().setup(problem, **kwargs)

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        self.exhausted_ = False
        self.termination = TerminationCollection(self.termination, _Exhausted())

    @property
    def forward(self):
        """bool: whether the search adds features."""
        return self.direction == "forward"

    # ------------------------------------------------------------------ pymoo hooks
    def _initialize_infill(self):
        D = self.problem.n_var
        if self.forward:
            self.current_, self.merit_ = np.zeros(D, dtype=bool), np.inf
            return self._neighbours()
        return Population.new("X", np.ones((1, D), dtype=bool))

    def _initialize_advance(self, infills=None, **kwargs):
        if self.forward:
            self._step(infills)
        else:
            self.current_ = infills[0].X.copy()
            self.merit_ = float(self._fitness(infills)[0, 0])
            self.pop = infills
            self._stop_if_no_candidates()

    def _infill(self):
        return self._neighbours()

    def _advance(self, infills=None, **kwargs):
        self._step(infills)

    def _set_optimum(self):
        self.opt = self.pop

    # ------------------------------------------------------------------ the search
    def _candidates(self):
        """Features to add (forward) or remove (backward); none that would empty the set."""
        if self.forward:
            return np.flatnonzero(~self.current_)
        chosen = np.flatnonzero(self.current_)
        return chosen if chosen.size > 1 else chosen[:0]

    def _neighbours(self):
        """The current subset's neighbourhood, evaluated in one batch (within the budget)."""
        candidates = self._candidates()
        left = self.evaluations_left()
        if left < candidates.size:
            candidates = candidates[:max(int(left), 1)]
        return self.evaluate_flips(self.current_, candidates)

    def _step(self, neighbours):
        """Move to the best neighbour if it is good enough; else stop."""
        fit = self._fitness(neighbours)[:, 0]
        if self._constrained() and np.isfinite(self.merit_) and len(self.pop) == 1:
            # feasibility-first values are compared at one time, never stored: the current
            # subset's merit is computed again beside its neighbours
            both = self._fitness(Population.merge(neighbours, self.pop))[:, 0]
            fit, self.merit_ = both[:-1], float(both[-1])
        if self.forward:
            best = int(np.argmin(fit))
            accept = fit[best] < self.merit_
        else:
            best = fit.size - 1 - int(np.argmin(fit[::-1]))
            accept = fit[best] <= self.merit_
        if accept:
            self.current_ = neighbours[best].X.copy()
            self.merit_ = float(fit[best])
            self.pop = neighbours[[best]]
            self._stop_if_no_candidates()
        else:
            self.exhausted_ = True

    def _stop_if_no_candidates(self):
        if self._candidates().size == 0:
            self.exhausted_ = True


class SFS(SequentialSelection):
    """Sequential forward selection (Weka ``GreedyStepwise``, forward, default options).

    Starts from no feature; each step evaluates every one-feature addition in one batch and
    adds the best, as long as it strictly improves the merit. See
    :class:`SequentialSelection` for the rules, departures and attributes.

    Parameters
    ----------
    fitness : {"accuracy", "objective"}, default="accuracy"
        The merit: inner-CV score alone (Weka's wrapper, Li et al. 2021's SFS) or the problem's
        objective.
    **kwargs
        pymoo's ``Algorithm`` keywords.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import SFS
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, SFS())
    >>> int(res.X.sum()), res.algorithm.exhausted_
    (2, True)
    """

    registry_names = ("SFS",)

    def __init__(self, fitness="accuracy", **kwargs):
        super().__init__("forward", fitness=fitness, **kwargs)


class SBS(SequentialSelection):
    """Sequential backward selection (Weka ``GreedyStepwise``, backwards, default options).

    Starts from all features; each step evaluates every one-feature removal in one batch and
    removes the best, as long as the merit does not get worse. See
    :class:`SequentialSelection` for the rules, departures and attributes.

    Parameters
    ----------
    fitness : {"accuracy", "objective"}, default="accuracy"
        The merit: inner-CV score alone (Weka's wrapper, Li et al. 2021's SBS) or the problem's
        objective.
    **kwargs
        pymoo's ``Algorithm`` keywords.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import SBS
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import WeightedFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = WeightedFeatureSelection.from_data(data.X, data.y, cv=5)
    >>> res = minimize(problem, SBS())
    >>> int(res.X.sum()) < 60, res.algorithm.exhausted_
    (True, True)
    """

    registry_names = ("SBS",)

    def __init__(self, fitness="accuracy", **kwargs):
        super().__init__("backward", fitness=fitness, **kwargs)


class _Exhausted(Termination):
    """Ends the run once a sequential search has stopped by itself."""

    def _update(self, algorithm):
        return 1.0 if getattr(algorithm, "exhausted_", False) else 0.0
