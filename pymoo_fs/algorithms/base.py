"""The ground the feature-selection algorithms stand on.

:class:`FeatureSelectionAlgorithm`
    A pymoo ``Algorithm`` that refuses keywords it does not know, checks the number of
    objectives, reads its progress and remaining budget from the termination, and evaluates
    one-feature neighbourhoods through pymoo's evaluator (so they count in ``n_eval``).
:class:`SwarmAlgorithm`
    A swarm of particles with an encoding of its own: ask proposes moved positions, tell commits
    them, keeps ``pop`` equal to the current swarm and updates the personal bests (and, for one
    objective, the global best).
:class:`ParticleSwarm`
    The canonical PSO move on continuous positions in ``[0, 1]^D`` thresholded to masks: the
    coefficients, their draws, the velocity update, clamping and decoding.

A new swarm subclasses one of them and writes its paper's steps: ``_move`` (positions and
velocities of the next generation) and ``_tell`` (leaders, archives, personal bests), plus
``_initialize_tell`` for what follows the first evaluation.

References
----------
A.-D. Li, B. Xue, M. Zhang, "A forward search inspired particle swarm optimization
algorithm for feature selection in classification", IEEE CEC 2021, pp. 786-793,
doi:10.1109/CEC45853.2021.9504949.

T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
size-controlled approach", AusDM 2015, Conferences in Research and Practice in
Information Technology 168.

J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
14(6):1142, 2022, doi:10.3390/sym14061142.
"""

import functools
import inspect
import math
import numbers
import time

import numpy as np
from pymoo.core.algorithm import Algorithm
from pymoo.core.population import Population
from pymoo.core.termination import Termination
from pymoo.termination.max_eval import MaximumFunctionCallTermination
from pymoo.termination.max_gen import MaximumGenerationTermination
from pymoo.termination.max_time import TimeBasedTermination
from pymoo.util.display.multi import MultiObjectiveOutput
from pymoo.util.display.single import SingleObjectiveOutput

from pymoo_fs._validation import (check_choice, check_keywords, check_positive_int,
                                  check_unit_interval)
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.coefficients import PSOCoefficients
from pymoo_fs.problems import FeatureSelectionProblem, as_masks, flip_masks

__all__ = ["FITNESS", "CheckedSetup", "FeatureSelectionAlgorithm", "ParticleSwarm",
           "SwarmAlgorithm", "check_seed", "check_termination"]

#: the keyword arguments of pymoo.core.algorithm.Algorithm that pymoo-fs algorithms pass on
PYMOO_KEYWORDS = ("termination", "output", "display", "callback", "archive",
                  "return_least_infeasible", "save_history", "verbose", "seed", "evaluator")

_SINGLE_RULES = ("better", "better_or_fewer")
_MULTI_RULES = ("not_dominated", "dominates", "random_if_nd")
#: what a single-objective algorithm minimises: the problem's objective, or 1 - inner-CV score
FITNESS = ("objective", "accuracy")


# ---------------------------------------------------------------------------- budgets and seeds
_COUNTS = ("n_gen", "n_iter", "n_eval", "n_evals")
_TERMINATIONS = _COUNTS + ("time", "fmin", "soo", "moo")
_ACCEPTED = ("a pymoo Termination, or a tuple ('n_gen', G) or ('n_eval', N) with a whole "
             "number >= 1, ('time', seconds > 0 or 'HH:MM:SS'), ('fmin', value), 'soo' or "
             "'moo' (pymoo's defaults), or None (pymoo's default)")


def _whole(value):
    """``value`` as a positive int when it is a whole number >= 1 (not a bool); else None."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    if isinstance(value, numbers.Integral):
        return int(value) if value >= 1 else None
    value = float(value)
    return int(value) if math.isfinite(value) and value.is_integer() and value >= 1 else None


def _seconds(value):
    """``value`` as seconds > 0 (a number or pymoo's 'HH:MM:SS' string); else None."""
    if isinstance(value, str):
        from pymoo.util.misc import time_to_int
        try:
            value = time_to_int(value)
        except (ValueError, TypeError, IndexError):
            return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return None
    value = float(value)
    return value if math.isfinite(value) and value > 0 else None


def check_termination(termination, name="the algorithm"):
    """Refuse a termination that pymoo would run forever on, crash on, or round silently.

    Parameters
    ----------
    termination : object
        What ``minimize(problem, algorithm, termination)`` (or the algorithm's
        ``termination=``) received.
    name : str, default="the algorithm"
        The algorithm, for the message.

    Returns
    -------
    termination : object
        ``termination`` itself (pymoo converts it).

    Raises
    ------
    ValueError
        For a tuple (or string) naming no value or a value outside its domain: ``("n_gen",)``
        (pymoo: no limit, runs forever), ``("n_gen", 0)`` or ``("n_eval", 0)`` (pymoo:
        ZeroDivisionError), ``("n_gen", 2.5)`` (pymoo: 3 generations, silently; a generation or
        evaluation count must be a whole number, ``5.0`` is taken as 5), ``("n_gen", "5")``,
        ``("time", -1)``, an unknown name; and for a pymoo ``Termination`` whose limit is not
        positive (``MaximumGenerationTermination(0)``, ...). The message names the
        termination and what is accepted.
    TypeError
        For anything that is neither a pymoo ``Termination``, a tuple, a string nor None.

    Notes
    -----
    The one check of every pymoo-fs algorithm and of pymoo's NSGA-II and SPEA2 built by
    :func:`~pymoo_fs.algorithms.configure_nsga2` / :func:`~pymoo_fs.algorithms.configure_spea2`
    (:class:`CheckedSetup`), before pymoo sees the termination. Source: ours; the accepted
    forms are pymoo 0.6's ``get_termination`` names.
    """
    if termination is None:
        return termination
    if isinstance(termination, Termination):
        for t in _criteria(termination):
            if isinstance(t, MaximumGenerationTermination):
                limit, what = t.n_max_gen, "n_max_gen"
            elif isinstance(t, MaximumFunctionCallTermination):
                limit, what = t.n_max_evals, "n_max_evals"
            elif isinstance(t, TimeBasedTermination):
                limit, what = t.max_time, "max_time"
            else:
                continue
            if what == "max_time":
                ok = _seconds(limit) is not None
            else:  # pymoo's own "no limit" (None, inf) is kept
                ok = limit is None or limit == math.inf or _whole(limit) is not None
            if not ok:
                raise ValueError(f"{name}: termination {type(t).__name__}({what}={limit!r}) "
                                 f"has no usable limit: it must be a whole number >= 1 "
                                 f"(seconds > 0 for a time); accepted: {_ACCEPTED}")
        return termination
    if isinstance(termination, str):
        spec = (termination,)
    elif isinstance(termination, (tuple, list)):
        spec = tuple(termination)
    else:
        raise TypeError(f"{name}: termination={termination!r} is not a termination; "
                        f"accepted: {_ACCEPTED}")
    if not spec or not isinstance(spec[0], str) or spec[0] not in _TERMINATIONS:
        raise ValueError(f"{name}: termination={termination!r} names no pymoo termination "
                         f"(known: {', '.join(_TERMINATIONS)}); accepted: {_ACCEPTED}")
    kind, values = spec[0], spec[1:]
    if kind in ("soo", "moo"):
        return termination
    if len(values) != 1:
        raise ValueError(f"{name}: termination={termination!r} needs one value after "
                         f"{kind!r} (pymoo would run {'forever' if not values else 'with an error'}"
                         f"); accepted: {_ACCEPTED}")
    value = values[0]
    if kind in _COUNTS:
        ok = _whole(value) is not None
        what = "a whole number >= 1 of " + ("generations" if kind in ("n_gen", "n_iter")
                                            else "evaluations")
    elif kind == "time":
        ok = _seconds(value) is not None
        what = "seconds > 0, or a time 'HH:MM:SS' / 'MM:SS'"
    else:
        ok = (isinstance(value, numbers.Real) and not isinstance(value, bool)
              and math.isfinite(float(value)))
        what = "a finite number"
    if not ok:
        raise ValueError(f"{name}: termination={termination!r}: {kind} must be {what}, got "
                         f"{value!r}; accepted: {_ACCEPTED}")
    if kind in _COUNTS and not isinstance(value, numbers.Integral):
        return (kind, _whole(value))
    return termination


def check_seed(seed, name="the algorithm"):
    """Refuse a seed numpy would misread or reject.

    Parameters
    ----------
    seed : object
        ``minimize(..., seed=)`` or the algorithm's ``seed=``.
    name : str, default="the algorithm"

    Returns
    -------
    seed : int or None
        ``None`` (pymoo draws one) or the seed as an int.

    Raises
    ------
    TypeError
        For a bool (``seed=True`` would run as seed 1), a string (``seed="7"``), a float or
        any other type: the message names the seed and that it must be None or an integer
        >= 0.
    ValueError
        For a negative integer.
    """
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"{name}: seed={seed!r} is not a seed: it must be None or an integer "
                        f">= 0 (got {type(seed).__name__})")
    if seed < 0:
        raise ValueError(f"{name}: seed={seed!r} is negative: it must be None or an integer "
                         f">= 0")
    return int(seed)


class CheckedSetup:
    """Mixin for pymoo algorithms: termination and seed checked at ``setup``, before pymoo.

    Every pymoo-fs algorithm (:class:`FeatureSelectionAlgorithm`) and pymoo's NSGA-II and SPEA2
    as built by :func:`~pymoo_fs.algorithms.configure_nsga2` / ``configure_spea2`` inherit it,
    so the rule lives once (:func:`check_termination`, :func:`check_seed`). The termination
    and seed checked are the ones ``setup`` receives (from ``minimize``) or, when absent, the
    ones given to the constructor.
    """

    def setup(self, problem, **kwargs):
        """pymoo's ``Algorithm.setup``, after :func:`check_termination` and :func:`check_seed`.

        Raises
        ------
        ValueError, TypeError
            From the checks, naming the termination or seed and what is accepted.
        """
        name = _display_name(self)
        if "termination" in kwargs:
            kwargs["termination"] = check_termination(kwargs["termination"], name)
        else:
            self.termination = check_termination(self.termination, name)
        if "seed" in kwargs:
            kwargs["seed"] = check_seed(kwargs["seed"], name)
        else:
            self.seed = check_seed(self.seed, name)
        return super().setup(problem, **kwargs)


def _display_name(algorithm):
    names = getattr(type(algorithm), "registry_names", ()) or ()
    for entry in names:
        return str(getattr(entry, "name", entry))
    return type(algorithm).__name__


class FeatureSelectionAlgorithm(CheckedSetup, Algorithm):
    """Base class of the pymoo-fs algorithms.

    Parameters
    ----------
    **kwargs
        pymoo's ``Algorithm`` keywords only (:data:`PYMOO_KEYWORDS`: ``termination``,
        ``output``, ``display``, ``callback``, ``archive``, ``return_least_infeasible``,
        ``save_history``, ``verbose``, ``seed``, ``evaluator``). The default ``output`` is
        pymoo's single- or multi-objective table, by :attr:`n_objectives`.

    Attributes
    ----------
    n_objectives : {1, 2, None}
        Class attribute: the number of objectives the algorithm handles (2 means "two or
        more"); None accepts any.
    has_population : bool or None
        Class attribute: whether ``pop_size`` sizes a population (True for every swarm,
        False for SFS, SBS, SRTSO and PAES); None leaves it to the registry, which reads
        whether the constructor takes ``pop_size``.
    evaluations_per_generation : int or None
        Class attribute: evaluations per generation when fixed and independent of
        ``pop_size`` (PAES: 1, so comparisons budget it in evaluations); None otherwise.
    registry_names : tuple of (str or RegistryName)
        Class attribute, read from each class itself (not inherited): the names
        :mod:`~pymoo_fs.algorithms.registry` registers it under (see
        :mod:`~pymoo_fs.algorithms.metadata`); empty here.
    fitness : {"objective", "accuracy"}
        What the algorithm's comparisons minimise (see :meth:`_fitness`); ``"objective"``
        unless a single-objective subclass offers the switch.
    handles_constraints : bool
        Class attribute: whether the algorithm honours a constrained problem's ``G``/``H``
        (True here); an algorithm that cannot sets it False and refuses such a problem at
        setup, by name.

    Raises
    ------
    TypeError
        For any other keyword (pymoo's ``Algorithm`` would silently ignore it).
    ValueError
        At setup, when the problem's number of objectives does not suit the algorithm,
        ``fitness="accuracy"`` is asked of a problem that reports no score, or the problem has
        constraints that the algorithm cannot honour (``handles_constraints`` False). At tell,
        when the told individuals lack what the comparisons need (``F``, or ``score`` for
        ``fitness="accuracy"``), or hold a NaN there.

    Notes
    -----
    **Budget and progress.** Every pymoo termination works (``("n_gen", N)``,
    ``("n_eval", N)``, ``("time", "00:01:00")``, the defaults, collections). :meth:`progress`
    is the fraction of the budget spent since the initial population, read from the
    termination, and :meth:`evaluations_left` what an evaluation limit still allows; rules that
    depend on time (non-uniform mutation, schedules) use them instead of an iteration count of
    their own.

    **Neighbourhoods.** :meth:`evaluate_flips` scores one-feature moves through pymoo's
    evaluator with the problem's incremental path; each flip is one evaluation in ``n_eval``.
    Algorithms never reach into ``problem.evaluator``.

    **Fitness.** Single-objective algorithms compare solutions by :meth:`_fitness`: the
    problem's objective ``F`` (``fitness="objective"``), or ``1 - score``, the inner-CV score
    that a :class:`~pymoo_fs.problems.FeatureSelectionProblem` reports beside ``F``
    (``fitness="accuracy"``: Li et al. 2021's FIT-A', the accuracy-only fitness of PSO(4-2), CSO(A)
    and Weka's SFS/SBS). The result's ``F`` is always the problem's objective.

    **Constraints** (pymoo's ``G`` and ``H``, the violation ``CV`` computed by pymoo): every
    comparison of the core (:meth:`_objectives`, :meth:`_fitness`) follows pymoo's
    constraint-domination, feasibility first: a feasible solution beats every infeasible one,
    feasible solutions compare by their objectives, infeasible ones by ``CV``. The values
    compared are Deb's (2000) parameterless penalty, ``F`` for a feasible solution and
    ``F_max + CV`` (every objective) for an infeasible one, ``F_max`` the largest feasible
    objective evaluated so far by the algorithm (0 before any, and at least 0; ``1 + CV`` for
    ``fitness="accuracy"``), so the algorithms' comparisons (``<``, argmin, dominance,
    non-dominated unions, crowding) order solutions as pymoo's constraint-domination does
    without code of their own; archives and leader sets then hold feasible members only once
    one is known. ``F_max`` is updated with every evaluation the algorithm sees (tell and its
    own neighbourhood evaluations) before any comparison, so values computed at one time are
    consistent; they are never stored. The result is pymoo's: ``res.X`` is None when no
    feasible solution was found, unless ``return_least_infeasible=True``. An unconstrained
    problem compares ``F`` itself, bit for bit as before. Source: K. Deb, "An efficient
    constraint handling method for genetic algorithms", Computer Methods in Applied Mechanics
    and Engineering 186(2-4):311-338, 2000, doi:10.1016/S0045-7825(99)00389-8.
    """

    n_objectives: int | None = None
    has_population: bool | None = None
    evaluations_per_generation: int | None = None
    registry_names: tuple = ()
    fitness = "objective"
    handles_constraints = True

    def __new__(cls, *args, **kwargs):
        # a keyword the class fixes for its base would end in Python's "got multiple values
        # for keyword argument": refuse it first, listing what the class takes
        if kwargs and cls.__module__.startswith("pymoo_fs."):  # a user's class: its own rules
            accepted = set(PYMOO_KEYWORDS) | _own_parameters(cls)
            check_keywords(f"{cls.__name__}()", kwargs, accepted)
        return super().__new__(cls)

    def __init__(self, **kwargs):
        unknown = [k for k in kwargs if k not in PYMOO_KEYWORDS]
        if unknown:  # list the class's own parameters too, not only pymoo's
            check_keywords(f"{type(self).__name__}()", kwargs,
                           set(PYMOO_KEYWORDS) | _own_parameters(type(self)))
        if kwargs.get("output") is None:
            kwargs["output"] = (SingleObjectiveOutput() if self.n_objectives == 1
                                else MultiObjectiveOutput())
        super().__init__(**kwargs)
        self._progress_origin = None

    def _setup(self, problem, **kwargs):
        name = type(self).__name__
        _check_binary(name, problem)
        if self.n_objectives == 1 and problem.n_obj != 1:
            raise ValueError(f"{name} is single-objective; the problem has {problem.n_obj} "
                             f"objectives")
        if self.n_objectives == 2 and problem.n_obj < 2:
            raise ValueError(f"{name} is multi-objective; the problem has 1 objective")
        if self.fitness == "accuracy" and not isinstance(problem, FeatureSelectionProblem):
            raise ValueError(f"{name}: fitness='accuracy' needs a FeatureSelectionProblem, "
                             f"which reports each mask's score; got {type(problem).__name__}")
        if _constrained(problem) and not self.handles_constraints:
            raise ValueError(f"{name} cannot honour constraints, and {type(problem).__name__} "
                             f"has {_n_constraints(problem)} (n_ieq_constr + n_eq_constr): use "
                             f"an algorithm that handles them (every other pymoo-fs algorithm, "
                             f"or pymoo's NSGA-II) or an unconstrained problem")
        self._progress_origin = None
        self._feasible_bound = None

    def advance(self, infills=None, **kwargs):
        """pymoo's tell, with the told individuals checked and noted first.

        Raises
        ------
        ValueError
            When an individual lacks ``F`` or holds a NaN objective, or (``fitness="accuracy"``)
            lacks a finite ``score``: the message names what to set. A NaN never enters a
            comparison.
        """
        if infills is not None and len(infills):
            self._check_told(infills)
            self._note(infills)
        return super().advance(infills=infills, **kwargs)

    def _check_told(self, pop):
        """Refuse told individuals whose values the comparisons cannot use."""
        name = type(self).__name__
        F = pop.get("F")
        if F is None or np.asarray(F).dtype == object or np.ndim(F) != 2:
            raise ValueError(f"{name}: tell() got individuals without objectives: set F on "
                             f"each (pop.set('F', F), F of shape (n, {self.problem.n_obj})) or "
                             f"evaluate them with pymoo's Evaluator")
        if np.isnan(np.asarray(F, dtype=float)).any():
            raise ValueError(f"{name}: tell() got a NaN objective in F; a NaN cannot be "
                             f"compared: set finite values (or use the problem's "
                             f"replace_nan_values_by)")
        if self.fitness == "accuracy":
            score = pop.get("score")
            ok = score is not None and np.asarray(score).dtype != object
            if ok:
                score = np.asarray(score, dtype=float).reshape(-1)
                ok = score.shape[0] == len(pop) and bool(np.all(np.isfinite(score)))
            if not ok:
                raise ValueError(
                    f"{name} compares masks by their inner-CV score alone "
                    f"(fitness='accuracy'), which cannot be derived from F; the told "
                    f"individuals have no finite 'score': set it with pop.set('score', "
                    f"scores) (one float per individual, the classification score behind F), "
                    f"evaluate them with a FeatureSelectionProblem, or use "
                    f"fitness='objective'")

    # ------------------------------------------------------------------ constraints
    def _note(self, pop):
        """Raise ``F_max`` (the largest feasible objective seen) with ``pop``'s values."""
        if _constrained(self.problem) and len(pop):
            F = np.asarray(pop.get("F"), dtype=float)
            self._raise_bound(F, _violation(pop))

    def _raise_bound(self, F, CV):
        feasible = CV <= 0
        if np.any(feasible):
            top = np.max(F[feasible], axis=0)
            self._feasible_bound = (top if self._feasible_bound is None
                                    else np.maximum(self._feasible_bound, top))

    def _penalized(self, F, CV, bound=None):
        """Deb's penalty: ``F`` where feasible, ``F_max + CV`` (each column) elsewhere."""
        F = np.array(F, dtype=float)
        infeasible = CV > 0
        if not np.any(infeasible):
            return F
        if bound is None:
            self._raise_bound(F, CV)
            bound = (np.zeros(F.shape[1]) if self._feasible_bound is None
                     else np.maximum(self._feasible_bound, 0.0))
        bound = np.broadcast_to(np.asarray(bound, dtype=float), (F.shape[1],))
        value = bound[None, :] + CV[infeasible, None]
        F[infeasible] = np.maximum(value, np.nextafter(bound, np.inf)[None, :])
        return F

    def _objectives(self, pop):
        """Objectives as the algorithm compares them, shape (n, n_obj).

        ``pop.get("F")`` on an unconstrained problem; on a constrained one, Deb's penalty
        (see the class notes): ``F`` where ``CV <= 0``, ``F_max + CV`` elsewhere.
        """
        F = pop.get("F")
        if not _constrained(self.problem) or len(pop) == 0:
            return F
        return self._penalized(F, _violation(pop))

    def _constrained(self):
        """bool: whether the problem has pymoo constraints."""
        return _constrained(self.problem)

    def _violations(self, evaluated):
        """pymoo's ``CV`` of the masks of an :class:`EvaluatedMasks`, shape (k,)."""
        if not _constrained(self.problem):
            return np.zeros(len(evaluated.X))
        if evaluated._G is not None:
            return np.maximum(np.asarray(evaluated._G, dtype=float), 0.0).sum(axis=1)
        return _violation(evaluated.population())

    def constraint_objectives(self, F, masks):
        """:meth:`_objectives` of objectives ``F`` (k, n_obj) of ``masks`` (k, D) evaluated
        outside a ``Population`` (local searches), the violation from the problem's
        ``constraint_values``; ``F`` itself on an unconstrained problem."""
        if not _constrained(self.problem):
            return F
        G = self.problem.constraint_values(masks)
        CV = np.maximum(G, 0.0).sum(axis=1)
        return self._penalized(F, CV)

    def _post_advance(self):
        super()._post_advance()
        self._updated_termination = self.termination  # pymoo has just updated its perc
        if self._progress_origin is None:
            self._progress_origin = self.termination.perc
            # what a termination set later (a loaded checkpoint continued under a new one)
            # needs to place the origin on its own scale
            self._origin_termination = self.termination
            self._origin_state = (self.n_iter - 1, self.evaluator.n_eval,
                                  time.time() - self.start_time)

    def has_next(self):
        """pymoo's ``has_next``; False once a search has exhausted itself (``exhausted_``),
        whatever termination was set since (a finished sequential search does not evaluate
        again when continued under a longer one). A termination set since the last
        generation gets the progress pymoo would have given it then (see :meth:`progress`)."""
        if getattr(self, "exhausted_", False):
            return False
        if (getattr(self, "_origin_state", None) is not None and self.termination
                is not getattr(self, "_updated_termination", self.termination)):
            # a termination set since the last generation: its progress at that generation,
            # as pymoo would have updated it (a fresh one reads 0)
            self.termination.perc = _perc_at(self.termination, self.n_iter - 1,
                                             self.evaluator.n_eval,
                                             time.time() - self.start_time)
            self._updated_termination = self.termination
        return super().has_next()

    def _origin_progress(self):
        """``p0`` of :meth:`progress` on the termination in force.

        The termination's progress after the initial population: recorded then; for a
        termination set afterwards (pymoo's checkpoint recipe: load, set a longer
        termination, ``minimize`` again) computed on its own scale from the generation, the
        evaluations and the seconds of that moment, so the schedules continue as the
        uninterrupted run under the new termination would have them.
        """
        if self.termination is getattr(self, "_origin_termination", self.termination):
            return self._progress_origin
        return _perc_at(self.termination, *self._origin_state)

    def _fitness(self, pop):
        """Values the algorithm minimises, shape (n, 1) (the problem's ``F`` for two or more).

        ``fitness="objective"``: ``pop.get("F")``. ``fitness="accuracy"``: ``1 - score``, the
        classification error of the inner-CV score stored on each individual by the problem.
        On a constrained problem, infeasible individuals are penalised (see the class notes).
        """
        if self.fitness == "objective":
            return self._objectives(pop)
        fit = 1.0 - np.asarray(pop.get("score"), dtype=float).reshape(-1, 1)
        if not _constrained(self.problem) or len(pop) == 0:
            return fit
        return self._penalized(fit, _violation(pop), bound=1.0)

    # ------------------------------------------------------------------ budget
    def progress(self):
        """Fraction of the budget spent since the initial population, in [0, 1].

        Returns
        -------
        progress : float
            ``(p - p0) / (1 - p0)``, where ``p`` is the termination's progress now (pymoo's
            ``termination.perc``: generations, evaluations or seconds over their limit, the
            largest for a collection) and ``p0`` its value after the initial population; 0.0
            before the first move. With ``("n_gen", G)``, at the ``m``-th move this is
            ``(m - 1) / (G - 1)``, the ``t / T`` of the papers' schedules.

        Notes
        -----
        **Checkpoints.** When the termination is replaced after the run started (pymoo's
        checkpoint recipe: finish a run, load the algorithm, set a longer termination,
        ``minimize`` again), ``p`` and ``p0`` are both read on the new termination's scale
        (generations, evaluations and seconds of the last generation and of the initial
        population), so every schedule that reads :meth:`progress` (inertia weights, FSIPSO's
        phases, mutation rates) continues exactly as the uninterrupted run under the new
        termination: the same result and budget (tested for every registered algorithm with
        ``n_gen``). Criteria other than generations, evaluations and time count as 0.
        """
        if self._progress_origin is None:
            return 0.0
        p0 = self._origin_progress()
        if p0 >= 1.0:
            return 1.0
        if self.termination is getattr(self, "_updated_termination", self.termination):
            perc = self.termination.perc  # pymoo's, updated after the last generation
        else:  # set since the last generation, not updated yet: its progress then
            perc = _perc_at(self.termination, self.n_iter - 1, self.evaluator.n_eval,
                            time.time() - self.start_time)
        return float(min(max((perc - p0) / (1.0 - p0), 0.0), 1.0))

    def evaluations_left(self):
        """Evaluations an evaluation limit of the termination still allows.

        Returns
        -------
        left : float
            ``n_max_evals - n_eval`` of the tightest ``MaximumFunctionCallTermination`` in the
            termination (searched through collections), never negative; ``inf`` when there is
            none.
        """
        limits = [t.n_max_evals for t in _criteria(self.termination)
                  if isinstance(t, MaximumFunctionCallTermination) and t.n_max_evals is not None]
        if not limits:
            return float("inf")
        return max(float(min(limits)) - self.evaluator.n_eval, 0.0)

    def budget_spent(self):
        """Whether the termination's evaluation or time limit is reached now.

        For loops inside one generation (local searches), which pymoo's termination, checked
        between generations, does not see.

        Returns
        -------
        spent : bool
            True when :meth:`evaluations_left` is below 1, or a pymoo ``TimeBasedTermination``
            in the termination (searched through collections) has run out since the run
            started.
        """
        if self.evaluations_left() < 1:
            return True
        start = getattr(self, "start_time", None)
        if start is None:
            return False
        elapsed = time.time() - start
        return any(isinstance(t, TimeBasedTermination) and elapsed >= t.max_time
                   for t in _criteria(self.termination))

    # ------------------------------------------------------------------ neighbourhoods
    def evaluate_flips(self, mask, features):
        """Evaluate the one-feature flips of ``mask``, counted in ``n_eval``.

        Parameters
        ----------
        mask : ndarray of bool, shape (D,)
            The base feature subset.
        features : array-like of int, shape (k,)
            Features to flip (added when absent, removed when present). A flip that would empty
            the mask is refused by the problem.

        Returns
        -------
        neighbours : pymoo.core.population.Population
            ``k`` evaluated individuals: ``X`` the flipped masks, ``F`` their objectives (and,
            on a :class:`~pymoo_fs.problems.FeatureSelectionProblem`, ``score``).

        Notes
        -----
        A :class:`~pymoo_fs.problems.FeatureSelectionProblem` answers from the evaluator's
        incremental ``score_flips`` (:meth:`~pymoo_fs.problems.FeatureSelectionProblem.evaluate_flips`);
        the algorithm sets the individuals' values as pymoo's evaluator would, adds ``k`` to
        ``evaluator.n_eval`` and calls the evaluator's callback, if any, with them. Any other
        problem evaluates the flipped masks through pymoo's evaluator, which counts them.
        """
        mask = np.asarray(mask, dtype=bool)
        features = np.asarray(features, dtype=np.int64)
        masks = flip_masks(mask, features)
        if not isinstance(self.problem, FeatureSelectionProblem):
            pop = Population.new("X", masks)
            self.evaluator.eval(self.problem, pop)
            self._note(pop)
            return pop
        F, scores = self.problem.evaluate_flips(mask, features, return_scores=True)
        pop = _population(masks, F, scores, self.problem.constraint_values(masks))
        self._count_evaluations(pop)
        return pop

    def evaluate_masks(self, masks):
        """Evaluate ``masks``, counted in ``n_eval``, building pymoo individuals only on demand.

        For a sequential search that evaluates one mask at a time and keeps few of them (AMSO's
        local search): on a :class:`~pymoo_fs.problems.FeatureSelectionProblem` the problem's
        own ``_evaluate`` is called directly, without pymoo's ``Evaluator.eval`` and
        ``Problem.evaluate`` around it and without a ``Population``, which together cost more
        than FIT-B's update and scoring of the mask. The objectives are the same, bit for bit.

        Parameters
        ----------
        masks : array-like of bool (or 0/1), shape (k, D)
            Feature subsets (none empty: the problem refuses an empty one).

        Returns
        -------
        evaluated : EvaluatedMasks
            ``F`` (k, n_obj) float64 at once; ``population()`` the evaluated individuals, as
            pymoo's evaluator would have set them (``F``, ``G``, ``H``, ``score``).

        Raises
        ------
        ValueError
            From the problem, if a mask is empty or not a boolean mask of ``n_var`` features.

        Notes
        -----
        Through pymoo's evaluator as usual (the population built at once) when the problem is
        not a :class:`~pymoo_fs.problems.FeatureSelectionProblem`, or the evaluator or the
        problem has a callback, or the problem replaces NaN values or is elementwise, since
        those are pymoo's steps that this path leaves out. Source: ours (no paper); pymoo's
        ``Evaluator._eval`` and ``Problem.evaluate`` (0.6) are the steps it replays.
        """
        problem = self.problem
        if (not isinstance(problem, FeatureSelectionProblem) or self.evaluator.callback is not None
                or problem.callback is not None or problem.replace_nan_values_by is not None
                or problem.elementwise):
            pop = Population.new("X", np.asarray(masks))
            self.evaluator.eval(problem, pop)
            self._note(pop)
            return EvaluatedMasks(pop.get("X"), pop.get("F"), population=pop)
        masks = as_masks(masks, problem.n_var)
        out = {"F": None}
        problem._evaluate(masks, out)
        self._count_evaluations(None, masks.shape[0])
        evaluated = EvaluatedMasks(masks, np.asarray(out["F"], dtype=np.float64).reshape(
            masks.shape[0], problem.n_obj), out["score"], G=out.get("G"))
        if _constrained(problem):
            self._raise_bound(evaluated.F, np.maximum(out["G"], 0.0).sum(axis=1))
        return evaluated

    def flip_objectives(self, mask, features):
        """Objectives of the one-feature flips of ``mask``, counted in ``n_eval``, as an array.

        The same evaluations as :meth:`evaluate_flips` (each flip one evaluation in
        ``n_eval``), without building one pymoo ``Individual`` per flip, which costs more than
        the flip itself for large neighbourhoods (local searches score thousands of flips per
        step).

        Parameters
        ----------
        mask : ndarray of bool, shape (D,)
            The base feature subset.
        features : array-like of int, shape (k,)
            Features to flip; a flip that would empty the mask is refused by the problem.

        Returns
        -------
        F : ndarray of float64, shape (k, n_obj)
            ``F[i]`` = the objectives of ``mask`` with ``features[i]`` flipped.

        Notes
        -----
        When the problem is not a :class:`~pymoo_fs.problems.FeatureSelectionProblem`, or
        pymoo's evaluator has a callback (which expects a ``Population``), this is
        :meth:`evaluate_flips`.
        """
        if (not isinstance(self.problem, FeatureSelectionProblem)
                or self.evaluator.callback is not None):
            return self.evaluate_flips(mask, features).get("F")
        features = np.asarray(features, dtype=np.int64)
        F = self.problem.evaluate_flips(np.asarray(mask, dtype=bool), features)
        self._count_evaluations(None, features.size)
        if _constrained(self.problem):
            G = self.problem.constraint_values(flip_masks(np.asarray(mask, dtype=bool),
                                                          features))
            self._raise_bound(F, np.maximum(G, 0.0).sum(axis=1))
        return F

    def _count_evaluations(self, pop, n=None):
        """Count evaluations made outside pymoo's evaluator as it counts its own."""
        self.evaluator.n_eval += len(pop) if n is None else n
        if pop is not None:
            self._note(pop)
        if pop is not None and self.evaluator.callback is not None:
            self.evaluator.callback(pop)


class EvaluatedMasks:
    """Masks evaluated by :meth:`FeatureSelectionAlgorithm.evaluate_masks`.

    Parameters
    ----------
    X : ndarray of bool, shape (k, D)
        The masks.
    F : ndarray of float64, shape (k, n_obj)
        Their objectives.
    scores : ndarray of float64, shape (k,), optional
        The evaluator's inner-CV scores behind ``F`` (a feature-selection problem's).
    population : pymoo.core.population.Population, optional
        The evaluated individuals, when pymoo's evaluator made them.

    Attributes
    ----------
    X, F : ndarray
        As given.
    """

    __slots__ = ("X", "F", "_scores", "_population", "_G")

    def __init__(self, X, F, scores=None, population=None, G=None):
        self.X, self.F, self._scores, self._population = X, F, scores, population
        self._G = G

    def population(self):
        """The evaluated individuals (built on the first call).

        Returns
        -------
        pop : pymoo.core.population.Population
            ``k`` individuals with ``X``, ``F``, ``G`` and ``H`` (shape (0,): no constraints)
            and ``score`` set and marked evaluated, as pymoo's evaluator marks them.
        """
        if self._population is None:
            self._population = _population(self.X, self.F, self._scores, self._G)
        return self._population


def _population(masks, F, scores, G=None):
    """Individuals of ``masks`` with the values pymoo's evaluator sets on a feature-selection
    problem (``F``, ``G`` (empty without constraints), empty ``H``, ``score``), marked
    evaluated."""
    pop = Population.new("X", masks)
    empty = np.zeros((len(pop), 0))
    out = {"F": F, "G": empty if G is None else G, "H": empty, "score": scores}
    for key, value in out.items():
        pop.set(key, value)
    pop.apply(lambda ind: ind.evaluated.update(out))
    return pop


class SwarmAlgorithm(FeatureSelectionAlgorithm):
    """A particle swarm with its own encoding, on the ask-and-tell cycle of pymoo.

    Parameters
    ----------
    pop_size : int
        Number of particles.
    pbest_rule : str
        When a new position replaces a personal best. One objective: ``"better"`` (strictly
        lower objective) or ``"better_or_fewer"`` (also equal with fewer features).
        Two or more objectives: ``"not_dominated"`` (unless the personal best dominates it),
        ``"dominates"`` (only when it dominates the personal best) or ``"random_if_nd"``
        (when it dominates, and with probability 1/2 when neither dominates the other). See
        :func:`pymoo_fs.algorithms.swarm.replace_personal_bests`. A problem that orders
        lexicographically (``fewer_breaks_ties``, Yang et al. 2022's FIT-E) turns ``"better"`` into
        ``"better_or_fewer"`` (:meth:`single_rule`).
    fitness : {"objective", "accuracy"}, default="objective"
        One objective only: compare by the problem's objective or by the inner-CV score alone
        (see :class:`FeatureSelectionAlgorithm`).
    sampling : pymoo Sampling, Population or array-like of bool, optional
        Biased initialisation, as pymoo's algorithms take it: masks (n, D), ``n <= pop_size``
        (a ``Population``'s ``X``, or a pymoo ``Sampling`` asked for ``pop_size`` of them),
        become the first ``n`` particles; the others start as the paper says. Each swarm
        encodes a mask in its own positions (:attr:`sampling_encoding`): a thresholded
        position is moved to the middle of the selected ``(threshold, 1]`` or unselected
        ``[0, threshold]`` side where the paper's random start is on the wrong side, a bit
        string takes the mask itself. A swarm whose encoding cannot hold any mask (ranked
        variable-length, compressed, clustered, phased encodings) refuses ``sampling`` with a
        ``TypeError`` naming it. Default: the paper's initialisation.
    **kwargs
        pymoo's ``Algorithm`` keywords (see :class:`FeatureSelectionAlgorithm`).

    Attributes
    ----------
    X_ : ndarray, shape (pop_size, D)
        Current positions, in the subclass's encoding.
    V_ : ndarray, shape (pop_size, D), or None
        Current velocities, where the encoding has them.
    pop : pymoo.core.population.Population
        The current swarm: decoded masks (``X``) and objectives (``F``), after every generation.
    pbest_X_ : ndarray, shape (pop_size, D)
        Personal-best positions.
    pbest_pop_ : pymoo.core.population.Population
        Personal bests as individuals (masks and objectives); :attr:`pbest_F_` their
        objectives.
    gbest_ : int
        Single-objective swarms: index of the personal best that is the global best.

    Notes
    -----
    One generation, as pymoo drives it:

    1. ask (``_infill``): :meth:`_move` computes the next positions and velocities from the
       current state, :meth:`_decode` turns them into masks; nothing is committed yet, so the
       state between ask and tell is the state of the last generation;
    2. pymoo evaluates the masks;
    3. tell (``_advance``): the positions and velocities are committed, ``pop`` becomes the
       evaluated swarm, and :meth:`_tell` updates personal bests and leaders.

    A subclass that moves only some particles (CSO's losers) returns their indices from
    :meth:`_move`; only those are evaluated and committed.

    **Tell what was asked.** tell must return the asked individuals, all of them, in order
    (else a ``ValueError`` says how many were asked). An individual whose mask was changed
    between ask and tell (pymoo allows it) is what counts: its particle's position is
    re-encoded from the told mask as ``sampling`` encodes one, so positions, personal bests
    and masks stay consistent; a swarm whose encoding cannot hold an arbitrary mask
    (``sampling_encoding`` None) refuses the changed mask by name.
    """

    has_population = True
    #: how :attr:`sampling` masks become positions: "threshold", "bits" or None (refused)
    sampling_encoding: str | None = None

    def __init__(self, pop_size, pbest_rule, fitness="objective", sampling=None, **kwargs):
        if sampling is not None and self.sampling_encoding is None:
            raise TypeError(f"{type(self).__name__} does not take sampling=: its encoding of "
                            f"particles cannot start from arbitrary masks; use a swarm with "
                            f"thresholded or bit positions (PSO, BPSO, CSO, ...) or pymoo's "
                            f"NSGA-II (configure_nsga2(sampling=...))")
        super().__init__(**kwargs)
        self.sampling = sampling
        self.pop_size = check_positive_int("pop_size", pop_size)
        rules = _SINGLE_RULES if self.n_objectives == 1 else _MULTI_RULES
        self.pbest_rule = check_choice("pbest_rule", pbest_rule, rules)
        self.fitness = check_choice("fitness", fitness,
                                    FITNESS if self.n_objectives == 1 else FITNESS[:1])
        self._pending = None

    # ------------------------------------------------------------------ to write per swarm
    def _initial_swarm(self):
        """Initial positions (pop_size, D) and velocities (or None): the paper's initialisation."""
        raise NotImplementedError

    def _move(self):
        """The paper's move: ``(X, V)`` of the whole swarm, or ``(idx, X, V)`` for some particles.

        Must not change the committed state (``X_``, ``V_``, personal bests); it may draw
        random numbers.
        """
        raise NotImplementedError

    def _decode(self, X):
        """Masks (n, D) of positions (n, D); never an empty mask."""
        raise NotImplementedError

    def _initialize_tell(self, infills):
        """After the first evaluation (personal bests are set): leaders, archives, gbest."""
        if self.n_objectives == 1:
            self.gbest_ = self._best_personal_best()

    def _tell(self, infills, idx):
        """After each later evaluation: personal bests, then (one objective) the global best.

        ``infills`` are the evaluated particles ``idx`` (all when None), already committed.
        """
        self._update_personal_bests(infills, idx)
        if self.n_objectives == 1:
            self._update_gbest()

    # ------------------------------------------------------------------ pymoo hooks
    def _initialize_infill(self):
        X, V = self._initial_swarm()
        if self.sampling is not None:
            X = self._encode(self._sampled_masks(X.shape[0]), X)
        return self._propose(None, X, V)

    def _sampled_masks(self, n):
        """The masks of ``sampling``, checked: (k, D) boolean, ``k <= n``, none empty."""
        from pymoo.core.sampling import Sampling

        name, D = type(self).__name__, self.problem.n_var
        sampling = self.sampling
        if isinstance(sampling, Sampling):
            sampling = sampling.do(self.problem, n, random_state=self.random_state)
        if isinstance(sampling, Population):
            sampling = sampling.get("X")
        masks = np.asarray(sampling)
        if masks.ndim == 1:
            masks = masks[None, :]
        if masks.ndim != 2 or masks.shape[1] != D or not 1 <= masks.shape[0] <= n:
            raise ValueError(f"{name}: sampling must hold 1 to {n} masks over the {D} "
                             f"features, shape (k, {D}); got shape {masks.shape}")
        if masks.dtype != bool:
            if not np.isin(masks, (0, 1)).all():
                raise ValueError(f"{name}: sampling must hold boolean (or 0/1) masks")
            masks = masks.astype(bool)
        if not masks.any(axis=1).all():
            raise ValueError(f"{name}: sampling holds an empty mask (row "
                             f"{int(np.flatnonzero(~masks.any(axis=1))[0])}); a feature "
                             f"subset selects at least one feature")
        return masks

    def _encode(self, masks, X):
        """Positions ``X`` whose first ``len(masks)`` rows decode to ``masks``."""
        X = np.array(X, dtype=float)
        k = masks.shape[0]
        if self.sampling_encoding == "bits" or getattr(self, "binary", False):
            X[:k] = masks
        else:
            theta = float(self.threshold)
            inclusive = bool(getattr(self, "inclusive_threshold", False))
            rows = X[:k]
            on = rows >= theta if inclusive else rows > theta
            rows = np.where(masks & ~on, (theta + 1.0) / 2.0, rows)
            rows = np.where(~masks & on, theta / 2.0, rows)
            X[:k] = rows
        if not np.array_equal(self._decode(X)[:k], masks):
            raise ValueError(f"{type(self).__name__}: threshold={self.threshold!r} cannot "
                             f"encode every sampled mask")
        return X

    def _initialize_advance(self, infills=None, **kwargs):
        self._commit(infills)
        self.pbest_X_ = self.X_.copy()
        self.pbest_pop_ = infills.copy()
        self._initialize_tell(infills)

    def _infill(self):
        proposal = self._move()
        if len(proposal) == 3:
            return self._propose(*proposal)
        return self._propose(None, *proposal)

    def _advance(self, infills=None, **kwargs):
        idx = self._commit(infills)
        self._tell(infills, idx)

    def _set_optimum(self):
        if self.n_objectives == 1:
            self.opt = Population.create(self.pbest_pop_[self.gbest_])
        else:
            super()._set_optimum()

    # ------------------------------------------------------------------ shared steps
    def _propose(self, idx, X, V):
        """Decode proposed positions; keep them until tell commits them."""
        masks = self._decode(X)
        self._pending = (idx, X, V)
        self._pending_masks = masks
        return Population.new("X", masks)

    def _commit(self, infills):
        """Make the proposal of the last ask the swarm's state; ``pop`` = the current swarm."""
        if self._pending is None:
            raise RuntimeError(f"{type(self).__name__}: tell without a matching ask")
        idx, X, V = self._pending
        changed = _check_tell_matches_ask(type(self).__name__, infills,
                                          getattr(self, "_pending_masks", None),
                                          self.sampling_encoding is not None)
        if changed.size:  # masks modified between ask and tell: the positions follow them
            X = np.array(X, dtype=float)
            X[changed] = self._encode(np.asarray(infills.get("X"), dtype=bool)[changed],
                                      X[changed])
        self._pending = None
        if idx is None:
            self.X_, self.V_ = X, V
            self.pop = infills
        else:
            self.X_ = self.X_.copy()
            self.X_[idx] = X
            if V is not None:
                self.V_ = self.V_.copy()
                self.V_[idx] = V
            pop = self.pop.copy()
            pop[idx] = infills
            self.pop = pop
        return idx

    @property
    def pbest_F_(self):
        """ndarray of float64, shape (pop_size, n_obj): objectives of the personal bests."""
        return self.pbest_pop_.get("F")

    def _update_personal_bests(self, infills, idx=None):
        """Replace personal bests of particles ``idx`` (all when None) by ``pbest_rule``.

        Returns
        -------
        replaced : ndarray of int64
            Indices of the particles whose personal best was replaced.
        """
        idx = np.arange(self.pop_size) if idx is None else np.asarray(idx)
        old = self.pbest_pop_[idx]
        replace = swarm.replace_personal_bests(
            self._fitness(infills), self._fitness(old), infills.get("X").sum(axis=1),
            old.get("X").sum(axis=1), self.single_rule(), self.random_state)
        replaced = idx[replace]
        if replaced.size:
            self.pbest_X_ = self.pbest_X_.copy()
            self.pbest_X_[replaced] = self.X_[replaced]
            pbest = self.pbest_pop_.copy()
            pbest[replaced] = infills[np.flatnonzero(replace)]
            self.pbest_pop_ = pbest
        return replaced

    def single_rule(self):
        """The personal-best rule in force: ``pbest_rule`` under the problem's ordering.

        Returns
        -------
        rule : str
            ``"better_or_fewer"`` when ``pbest_rule`` is ``"better"`` and the problem breaks
            ties by size (its ``fewer_breaks_ties`` attribute, Yang et al. 2022's FIT-E); otherwise
            ``pbest_rule``. Every single-objective comparison of the core (personal and global
            bests) uses it, so a swarm follows the problem's lexicographic order without code
            of its own.
        """
        if self.pbest_rule == "better" and self.prefers_fewer():
            return "better_or_fewer"
        return self.pbest_rule

    def prefers_fewer(self):
        """bool: whether the problem breaks ties of ``F`` by the smaller subset."""
        return bool(getattr(self.problem, "fewer_breaks_ties", False))

    def _feature_ranking(self, ranking, discretization="mdl"):
        """The features in the order a ranked encoding uses (AMSO, VLPSO, CEPSO-FL, HFS-C-P).

        Parameters
        ----------
        ranking : {"su", "index"}
            By decreasing relevance with the class
            (``problem.symmetric_uncertainty(discretization)``, ties in index order), or the
            original order.
        discretization : {"mdl", "equal_width", "equal_frequency", "mutual_info"}, \
default="mdl"
            The relevance measure behind ``"su"``: SU after MDL, equal-width or
            equal-frequency bins, or scikit-learn's mutual information
            (:func:`pymoo_fs.relevance.relevance_measure`).

        Returns
        -------
        su : pymoo_fs.relevance.SymmetricUncertainty or MutualInformation or None
            The problem's relevance measure (None for ``"index"``).
        order : ndarray of int64, shape (D,)
            Original feature indices, best ranked first.

        Raises
        ------
        ValueError
            For ``"su"`` on a problem without ``symmetric_uncertainty()``.
        """
        if ranking == "index":
            return None, np.arange(self.problem.n_var, dtype=np.int64)
        if not isinstance(self.problem, FeatureSelectionProblem):
            raise ValueError(f"{type(self).__name__}: ranking='su' needs a "
                             f"FeatureSelectionProblem, whose symmetric_uncertainty() ranks the "
                             f"features; got {type(self.problem).__name__}: use "
                             f"ranking='index'")
        su = self.problem.symmetric_uncertainty(discretization)
        return su, np.asarray(su.ranking(), dtype=np.int64)

    def _best_personal_best(self):
        """Index of the best personal best: lowest fitness, then (better_or_fewer) fewest."""
        F = self._fitness(self.pbest_pop_)[:, 0]
        if self.single_rule() == "better_or_fewer":
            return int(np.lexsort((self.pbest_pop_.get("X").sum(axis=1), F))[0])
        return int(np.argmin(F))

    def _update_gbest(self):
        """The global best moves to the best personal best when that improves on it."""
        best = self._best_personal_best()
        if best == self.gbest_:
            return
        F = self._fitness(self.pbest_pop_)
        n = self.pbest_pop_.get("X").sum(axis=1)
        if swarm.replace_personal_bests(F[[best]], F[[self.gbest_]], n[[best]], n[[self.gbest_]],
                                        self.single_rule(), self.random_state)[0]:
            self.gbest_ = best


class ParticleSwarm(PSOCoefficients, SwarmAlgorithm):
    """Swarm of continuous positions in ``[0, 1]^D`` moved by the canonical PSO update.

    Parameters
    ----------
    pop_size : int
        Number of particles.
    w : float or tuple (low, high)
        Inertia weight; a tuple draws ``w ~ U[low, high]`` per particle and move.
    c1, c2 : float or tuple (low, high)
        Acceleration coefficients (cognitive, social), constants or per-move draws.
    vmax : float
        Velocity limit (> 0).
    threshold : float
        Selection threshold ``theta`` in [0, 1]: feature ``d`` is selected iff ``x_d > theta``.
    inclusive_threshold : bool
        Select iff ``x_d >= theta`` instead.
    initial_velocity : {"zero", "uniform"}
        Initial velocities 0, or ``U[-vmax, vmax]``.
    random_coefficients : {"dimension", "particle"}
        Draw ``r1, r2`` per dimension or once per particle.
    reverse_velocity : bool
        Negate the velocity of a coordinate clamped at a bound (jMetal's OMOPSO).
    pbest_rule : str
        See :class:`SwarmAlgorithm`.
    **kwargs
        pymoo's ``Algorithm`` keywords.

    Raises
    ------
    ValueError
        On a parameter outside its domain (named in the message).

    Notes
    -----
    Initial positions ``U[0, 1]^D``. A move (:meth:`_pso_move`) is
    ``v <- w v + c1 r1 (pbest - x) + c2 r2 (leader - x)``, ``v`` clamped to
    ``[-vmax, vmax]``, ``x <- x + v`` clamped to ``[0, 1]``
    (:func:`~pymoo_fs.algorithms.swarm.velocity_update`,
    :func:`~pymoo_fs.algorithms.swarm.move`). Decoding is
    :func:`~pymoo_fs.algorithms.swarm.decode`, which repairs a particle with no coordinate
    above the threshold by selecting its largest coordinate.
    """

    sampling_encoding: str | None = "threshold"

    def __init__(self, pop_size, w, c1, c2, vmax, threshold, inclusive_threshold,
                 initial_velocity, random_coefficients, reverse_velocity, pbest_rule, **kwargs):
        super().__init__(pop_size, pbest_rule, **kwargs)
        self._set_coefficients(w=w, c1=c1, c2=c2, vmax=vmax)
        self.threshold = check_unit_interval("threshold", threshold)
        self.inclusive_threshold = bool(inclusive_threshold)
        self.initial_velocity = check_choice("initial_velocity", initial_velocity,
                                             ("zero", "uniform"))
        self.random_coefficients = check_choice("random_coefficients", random_coefficients,
                                                ("dimension", "particle"))
        self.reverse_velocity = bool(reverse_velocity)

    def _initial_swarm(self):
        n, D = self.pop_size, self.problem.n_var
        X = self.random_state.random((n, D))
        if self.initial_velocity == "zero":
            V = np.zeros((n, D))
        else:
            V = self.random_state.uniform(-self.vmax, self.vmax, (n, D))
        return X, V

    def _decode(self, X):
        return swarm.decode(X, self.threshold, self.inclusive_threshold)

    def _pso_move(self, leaders, X=None, V=None):
        """Positions and velocities after one canonical PSO move towards ``leaders``.

        Parameters
        ----------
        leaders : ndarray of float64, shape (pop_size, D) or (D,)
            Each particle's leader (gbest) position.
        X, V : ndarray of float64, shape (pop_size, D), optional
            Positions and velocities to move from; default the committed ``X_`` and ``V_``
            (FSIPSO moves from positions it has just re-initialised).

        Returns
        -------
        X, V : ndarray of float64, shape (pop_size, D)
            New positions in [0, 1] and clamped velocities (not committed).
        """
        X = self.X_ if X is None else X
        V = self._pso_velocity(leaders, X, V)
        return swarm.move(X, V, self.vmax, self.reverse_velocity)

    def _pso_velocity(self, leaders, X=None, V=None):
        """The canonical velocity update towards ``leaders``, before clamping.

        Parameters and draws as :meth:`_pso_move` (``w``, ``c1``, ``c2`` when they are ranges,
        then ``r1``, ``r2``); a swarm that adds a term of its own to the velocity (Butler-Yeoman et
        al. 2015's size term) adds it to this and clamps after.

        Returns
        -------
        V : ndarray of float64, shape (pop_size, D)
            Updated, unclamped velocities (not committed).
        """
        X = self.X_ if X is None else X
        V = self.V_ if V is None else V
        n, rs = self.pop_size, self.random_state
        w = swarm.draw_coefficient(self.w, n, rs)
        c1 = swarm.draw_coefficient(self.c1, n, rs)
        c2 = swarm.draw_coefficient(self.c2, n, rs)
        return swarm.velocity_update(V, X, self.pbest_X_, leaders, w, c1, c2, rs,
                                     per_dimension=self.random_coefficients == "dimension")


def _check_tell_matches_ask(name, infills, masks, can_encode):
    """A swarm's tell must return the asked individuals, in order; returns the rows whose
    masks were changed after ask (refused when the encoding cannot follow them)."""
    if masks is None:  # a state saved before the check existed
        return np.zeros(0, dtype=np.int64)
    n = masks.shape[0]
    if infills is None or len(infills) != n:
        got = 0 if infills is None else len(infills)
        raise ValueError(f"{name}: tell() got {got} individuals, ask() proposed {n}: tell back "
                         f"the whole asked population, in its order (a swarm moves every "
                         f"particle it asked for)")
    told = np.asarray(infills.get("X"))
    if told.shape != masks.shape or (told.dtype != bool and not np.isin(told, (0, 1)).all()):
        raise ValueError(f"{name}: tell() got X of shape {told.shape}, not the asked masks of "
                         f"shape {masks.shape}")
    changed = np.flatnonzero(np.any(told.astype(bool) != masks, axis=1))
    if changed.size and not can_encode:
        raise ValueError(f"{name}: the masks told back differ from the asked ones (individual "
                         f"{changed[:5].tolist()}), and this swarm's encoding cannot follow a "
                         f"changed mask: tell back the asked masks (set F, G, H on them)")
    return changed


def _check_binary(name, problem):
    """Refuse a problem whose variables are not bits: pymoo-fs algorithms search masks."""
    vtype = getattr(problem, "vtype", None)
    if vtype in (bool, np.bool_):
        return
    xl, xu = getattr(problem, "xl", None), getattr(problem, "xu", None)
    bits = (xl is not None and xu is not None and np.all(np.asarray(xl) == 0)
            and np.all(np.asarray(xu) == 1))
    if vtype in (None, int) and bits:
        return
    raise ValueError(f"{name} searches boolean masks (feature subsets); "
                     f"{type(problem).__name__} has variables of vtype={getattr(vtype, '__name__', vtype)} "
                     f"in [{np.min(xl) if xl is not None else None}, "
                     f"{np.max(xu) if xu is not None else None}]: use a pymoo algorithm for "
                     f"continuous problems (GA, DE, NSGA2), or a problem with vtype=bool")


def _n_constraints(problem):
    return int(getattr(problem, "n_ieq_constr", 0) or 0) + int(getattr(problem, "n_eq_constr", 0)
                                                                or 0)


def _constrained(problem):
    """Whether ``problem`` has pymoo constraints (inequality or equality)."""
    return problem is not None and _n_constraints(problem) > 0


def _violation(pop):
    """pymoo's constraint violation of each individual, shape (n,)."""
    CV = pop.get("CV")
    if CV is None or np.asarray(CV).dtype == object:
        return np.zeros(len(pop))
    return np.asarray(CV, dtype=float).reshape(len(pop), -1)[:, 0]


def _perc_at(termination, n_gen, n_eval, seconds):
    """pymoo's ``termination.perc`` had the run been at generation ``n_gen``, ``n_eval``
    evaluations and ``seconds`` (criteria of other kinds count as 0: their start)."""
    if isinstance(termination, MaximumGenerationTermination):
        return 0.0 if termination.n_max_gen is None else n_gen / termination.n_max_gen
    if isinstance(termination, MaximumFunctionCallTermination):
        return 0.0 if termination.n_max_evals is None else n_eval / termination.n_max_evals
    if isinstance(termination, TimeBasedTermination):
        return seconds / termination.max_time
    inner = list(getattr(termination, "criteria", ()) or ()) + list(
        getattr(termination, "terminations", ()) or ())
    if getattr(termination, "termination", None) is not None:
        inner.append(termination.termination)
    if not inner:
        return 0.0
    values = [_perc_at(t, n_gen, n_eval, seconds) for t in inner]
    return min(values) if type(termination).__name__ == "TerminateIfAll" else max(values)


def _criteria(termination):
    """Every termination criterion inside ``termination`` (collections and wrappers opened)."""
    found, stack = [], [termination]
    while stack:
        t = stack.pop()
        if t is None:
            continue
        found.append(t)
        stack.extend(getattr(t, "criteria", ()) or ())  # pymoo's default terminations
        stack.extend(getattr(t, "terminations", ()) or ())  # pymoo's TerminationCollection
        inner = getattr(t, "termination", None)
        if inner is not None:
            stack.append(inner)
    return found


def _own_parameters(cls):
    """The keywords ``cls(...)`` accepts of its pymoo-fs ``__init__`` chain (for the message of
    an unknown keyword): each ``__init__``'s named parameters, plus, where it takes
    ``**kwargs``, those of the base it calls that it does not set itself (MOPSO fixes
    ``inclusive_threshold``, ``initial_velocity`` and ``reverse_velocity`` of
    :class:`ParticleSwarm`, so they are not listed)."""
    names = set(_accepted(cls))
    if "sampling_encoding" in dir(cls) and cls.sampling_encoding is None:
        names.discard("sampling")  # refused by name: its encoding cannot start from masks
    return names


@functools.lru_cache(maxsize=None)
def _accepted(cls):
    init = cls.__dict__.get("__init__")
    mro = cls.__mro__
    if init is None:  # the first base that defines one
        for klass in mro[1:]:
            if "__init__" in klass.__dict__:
                return _accepted(klass) if klass.__module__.startswith("pymoo_fs") else ()
        return ()
    if not cls.__module__.startswith("pymoo_fs"):
        return ()
    params = inspect.signature(init).parameters
    names = {n for n, p in params.items()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and n != "self"}
    if not any(p.kind == p.VAR_KEYWORD for p in params.values()):
        return tuple(sorted(names))
    base = next((k for k in mro[1:] if "__init__" in k.__dict__), None)
    if base is None or not base.__module__.startswith("pymoo_fs"):
        return tuple(sorted(names))
    fixed = _fixed_by(init, base)
    return tuple(sorted(names | (set(_accepted(base)) - fixed)))


def _fixed_by(init, base):
    """Names of ``base.__init__`` that ``init`` passes itself in its ``super().__init__``
    call (keywords, and positional arguments mapped to the base's parameters)."""
    import ast
    import textwrap

    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(init)))
    except (OSError, TypeError, SyntaxError):
        return set()
    base_params = [n for n, p in inspect.signature(base.__init__).parameters.items()
                   if p.kind == p.POSITIONAL_OR_KEYWORD and n != "self"]
    fixed = set()
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr == "__init__" and isinstance(node.func.value, ast.Call)
                and getattr(node.func.value.func, "id", None) == "super"):
            fixed |= {k.arg for k in node.keywords if k.arg is not None}
            n_pos = sum(1 for a in node.args if not isinstance(a, ast.Starred))
            fixed |= set(base_params[:n_pos])
    return fixed
