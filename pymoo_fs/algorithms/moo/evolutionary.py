"""pymoo's NSGA-II and SPEA2 configured for feature selection as Nguyen et al. (2016) ran them."""

import inspect

from pymoo.algorithms.moo.nsga2 import NSGA2 as _PymooNSGA2
from pymoo.algorithms.moo.nsga2 import binary_tournament
from pymoo.algorithms.moo.spea2 import SPEA2 as _PymooSPEA2
from pymoo.algorithms.moo.spea2 import SPEA2Survival, spea_binary_tournament
from pymoo.operators.crossover.pntx import SinglePointCrossover
from pymoo.operators.mutation.bitflip import BitflipMutation
from pymoo.operators.sampling.rnd import BinaryRandomSampling
from pymoo.operators.selection.tournament import TournamentSelection
from pymoo.operators.survival.rank_and_crowding import RankAndCrowding

from pymoo_fs._validation import check_keywords, check_positive_int, check_unit_interval
from pymoo_fs.algorithms.base import CheckedSetup
from pymoo_fs.algorithms.metadata import RegistryName, algorithm_factory
from pymoo_fs.problems import NonEmptyRepair

__all__ = ["NSGA2", "SPEA2", "configure_nsga2", "configure_spea2"]


class _Checked(CheckedSetup):
    """pymoo's algorithm, its termination and seed checked at setup, and a ``termination=``
    given to the constructor kept (pymoo 0.6's NSGA2 replaces it by its default silently)."""

    def __init__(self, *args, termination=None, **kwargs):
        super().__init__(*args, **kwargs)
        if termination is not None:
            self.termination = termination


class NSGA2(_Checked, _PymooNSGA2):
    """pymoo's :class:`pymoo.algorithms.moo.nsga2.NSGA2`, its termination and seed checked at
    setup (:class:`~pymoo_fs.algorithms.base.CheckedSetup`) and a constructor's
    ``termination=`` kept; otherwise pymoo's algorithm."""


class SPEA2(_Checked, _PymooSPEA2):
    """pymoo's :class:`pymoo.algorithms.moo.spea2.SPEA2`, its termination and seed checked at
    setup (:class:`~pymoo_fs.algorithms.base.CheckedSetup`) and a constructor's
    ``termination=`` kept; otherwise pymoo's algorithm."""


def _accepted_keywords(cls):
    """Named parameters of ``cls.__init__`` and of the ``__init__`` of its pymoo bases."""
    names = set()
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        for name, param in inspect.signature(init).parameters.items():
            if param.kind in (param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY) and name != "self":
                names.add(name)
    return names


class _MultiObjectiveRepair(NonEmptyRepair):
    """:class:`~pymoo_fs.problems.NonEmptyRepair` that first refuses a single-objective problem.

    pymoo's NSGA-II and SPEA2 run on one objective without complaint (a front of one point,
    rank and crowding that mean nothing); the repair sees the problem before the first
    population is evaluated, so a wrong pairing fails at once, naming the algorithm.
    """

    def __init__(self, algorithm):
        super().__init__()
        self.algorithm = algorithm

    def _do(self, problem, X, random_state=None, **kwargs):
        if getattr(problem, "n_obj", 2) < 2:
            raise ValueError(
                f"{self.algorithm} is multi-objective (error and number of features); the "
                f"problem has {problem.n_obj} objective: use BiObjectiveFeatureSelection (or "
                "objective='pareto'), or a single-objective algorithm such as PSO"
            )
        return super()._do(problem, X, random_state=random_state, **kwargs)


#: pymoo's operator keywords that replace the defaults of configure_nsga2/configure_spea2
OPERATORS = ("sampling", "crossover", "mutation", "repair")


def _operators(crossover_prob, mutation_rate, algorithm, kwargs):
    """The default operators, each replaced by the user's (popped from ``kwargs``)."""
    crossover_prob = check_unit_interval("crossover_prob", crossover_prob)
    if mutation_rate is not None:
        mutation_rate = check_unit_interval("mutation_rate", mutation_rate, low_open=True)
    ops = dict(
        sampling=BinaryRandomSampling(),
        crossover=SinglePointCrossover(prob=crossover_prob),
        mutation=BitflipMutation(prob=1.0, prob_var=mutation_rate),
        repair=_MultiObjectiveRepair(algorithm),
    )
    for key in OPERATORS:
        if key in kwargs:
            ops[key] = kwargs.pop(key)
    return ops


@algorithm_factory(RegistryName("NSGA-II", aliases=("NSGA2", "NSGAII")), builds=NSGA2,
                   n_objectives=2, has_population=True)
def configure_nsga2(pop_size=30, crossover_prob=0.9, mutation_rate=None,
                    eliminate_duplicates=True, **kwargs):
    """pymoo's NSGA-II on bit strings, set up as in Nguyen et al. (2016).

    Parameters
    ----------
    pop_size : int, default=30
        Population size [Nguyen et al. 2016].
    crossover_prob : float, default=0.9
        Probability of single-point crossover of a mating pair [Nguyen et al. 2016].
    mutation_rate : float, optional
        Bit-flip probability per bit; default ``1/D`` (pymoo's ``min(0.5, 1/D)``)
        [Nguyen et al. 2016].
    eliminate_duplicates : bool, default=True
        pymoo's default; Nguyen et al. (2016) do not say [A].
    **kwargs
        Further arguments of :class:`pymoo.algorithms.moo.nsga2.NSGA2` (and of pymoo's
        ``GeneticAlgorithm`` and ``Algorithm``); an unknown keyword raises ``TypeError``.
        pymoo's operator keywords ``sampling`` (a pymoo ``Sampling``, a ``Population`` or an
        array of masks: pymoo's biased initialisation), ``crossover``, ``mutation`` and
        ``repair`` replace the defaults below (``crossover_prob`` and ``mutation_rate`` set
        the default crossover and mutation only). A ``repair`` of your own replaces
        :class:`~pymoo_fs.problems.NonEmptyRepair`: if it can leave an empty mask, the problem
        refuses it.

    Returns
    -------
    algorithm : pymoo.algorithms.moo.nsga2.NSGA2
        Random bit strings (``BinaryRandomSampling``), ``SinglePointCrossover``, and
        ``BitflipMutation`` applied to every offspring with per-bit probability
        ``mutation_rate``, and :class:`~pymoo_fs.problems.NonEmptyRepair` (an empty bit string
        gets one random feature). Its individuals are boolean masks, so it runs on the problems of
        :mod:`pymoo_fs.problems` directly; ``res.X``/``res.F`` hold its final non-dominated
        front.

    Raises
    ------
    TypeError
        For a keyword argument NSGA-II does not take.
    ValueError
        If ``pop_size``, ``crossover_prob`` or ``mutation_rate`` is out of range; and when the
        run starts, if the problem has a single objective (before anything is evaluated).

    References
    ----------
    K. Deb, A. Pratap, S. Agarwal, T. Meyarivan, "A fast and elitist multiobjective genetic
    algorithm: NSGA-II", IEEE TEVC 6(2):182-197, 2002, doi:10.1109/4235.996017. Settings:
    H. B. Nguyen et al., Soft Computing 20:3927-3946, 2016, doi:10.1007/s00500-016-2128-8.

    Examples
    --------
    >>> from pymoo_fs.algorithms import configure_nsga2
    >>> configure_nsga2().pop_size
    30
    """
    check_keywords("configure_nsga2()", kwargs, _accepted_keywords(NSGA2))
    pop_size = check_positive_int("pop_size", pop_size)
    # fresh operators: pymoo's defaults are objects shared by every instance
    kwargs.setdefault("selection", TournamentSelection(func_comp=binary_tournament))
    kwargs.setdefault("survival", RankAndCrowding())
    return NSGA2(pop_size=pop_size, eliminate_duplicates=eliminate_duplicates,
                 **_operators(crossover_prob, mutation_rate, "NSGA-II", kwargs), **kwargs)


@algorithm_factory("SPEA2", builds=SPEA2, n_objectives=2, has_population=True)
def configure_spea2(pop_size=30, crossover_prob=0.9, mutation_rate=None,
                    eliminate_duplicates=True, **kwargs):
    """pymoo's SPEA2 on bit strings, set up as in Nguyen et al. (2016).

    Parameters
    ----------
    pop_size : int, default=30
        Population and archive size [Nguyen et al. 2016; archive size A].
    crossover_prob : float, default=0.9
        Probability of single-point crossover [Nguyen et al. 2016].
    mutation_rate : float, optional
        Bit-flip probability per bit; default ``1/D`` [Nguyen et al. 2016].
    eliminate_duplicates : bool, default=True
        pymoo's default [A].
    **kwargs
        Further arguments of :class:`pymoo.algorithms.moo.spea2.SPEA2` (and of pymoo's
        ``GeneticAlgorithm`` and ``Algorithm``); an unknown keyword raises ``TypeError``.
        pymoo's operator keywords ``sampling`` (a pymoo ``Sampling``, a ``Population`` or an
        array of masks: pymoo's biased initialisation), ``crossover``, ``mutation`` and
        ``repair`` replace the defaults below (``crossover_prob`` and ``mutation_rate`` set
        the default crossover and mutation only). A ``repair`` of your own replaces
        :class:`~pymoo_fs.problems.NonEmptyRepair`: if it can leave an empty mask, the problem
        refuses it.

    Returns
    -------
    algorithm : pymoo.algorithms.moo.spea2.SPEA2

    Raises
    ------
    TypeError
        For a keyword argument SPEA2 does not take.
    ValueError
        If ``pop_size``, ``crossover_prob`` or ``mutation_rate`` is out of range; and when the
        run starts, if the problem has a single objective (before anything is evaluated).

    References
    ----------
    E. Zitzler, M. Laumanns, L. Thiele, "SPEA2: Improving the strength Pareto evolutionary
    algorithm", TIK-Report 103, ETH Zurich, 2001, doi:10.3929/ethz-a-004284029. Settings:
    H. B. Nguyen et al., Soft Computing 20:3927-3946, 2016.

    Examples
    --------
    >>> from pymoo_fs.algorithms import configure_spea2
    >>> configure_spea2(pop_size=20).pop_size
    20
    """
    check_keywords("configure_spea2()", kwargs, _accepted_keywords(SPEA2))
    pop_size = check_positive_int("pop_size", pop_size)
    # fresh operators: pymoo's default SPEA2Survival is one object shared by every instance,
    # and it keeps normalisation bounds from run to run (same seed, different front)
    kwargs.setdefault("selection", TournamentSelection(spea_binary_tournament))
    kwargs.setdefault("survival", SPEA2Survival(normalize=True))
    return SPEA2(pop_size=pop_size, eliminate_duplicates=eliminate_duplicates,
                 **_operators(crossover_prob, mutation_rate, "SPEA2", kwargs), **kwargs)
