"""pymoo's NSGA-II with its own defaults, for benchmarks/seed003_cmdpsofs.toml.

The study names it ``"seed003_stock:stock_nsga2"``; run the study with ``benchmarks`` on the
path (``PYTHONPATH=benchmarks``), as ``benchmarks/seed003_cmdpsofs.py`` does.
"""

from pymoo.algorithms.moo.nsga2 import NSGA2
from pymoo.operators.sampling.rnd import BinaryRandomSampling

from pymoo_fs.algorithms.metadata import algorithm_factory
from pymoo_fs.problems import NonEmptyRepair

__all__ = ["stock_nsga2"]


@algorithm_factory("NSGA-II-stock", builds=NSGA2, n_objectives=2, has_population=True)
def stock_nsga2(pop_size=30):
    """pymoo's NSGA-II as it comes, plus what a bit string needs to be evaluated.

    Parameters
    ----------
    pop_size : int, default=30
        Population size (seed 003's 30).

    Returns
    -------
    algorithm : pymoo.algorithms.moo.nsga2.NSGA2
        ``NSGA2(pop_size, sampling=BinaryRandomSampling(), repair=NonEmptyRepair())``: every
        other operator is pymoo 0.6's default, i.e. binary tournament on rank and crowding,
        simulated binary crossover (SBX, probability 0.9, eta 15, each variable exchanged with
        probability 0.5), polynomial mutation (eta 20, per-variable probability 1/D),
        rank-and-crowding survival and duplicate elimination. SBX and polynomial mutation work
        on the 0/1 values as reals; the repair casts the offspring to booleans (any value
        other than 0 selects its feature) and gives an empty mask one random feature
        (:func:`pymoo_fs.problems.repair_empty`), so every evaluated mask is a non-empty
        feature subset. Compare :func:`pymoo_fs.algorithms.configure_nsga2` (seed 003's
        set-up: single-point crossover 0.9 and bit-flip mutation 1/D on bit strings).

    Examples
    --------
    >>> import sys; sys.path.insert(0, "benchmarks")
    >>> from seed003_stock import stock_nsga2
    >>> type(stock_nsga2().mating.crossover).__name__
    'SBX'
    """
    return NSGA2(pop_size=pop_size, sampling=BinaryRandomSampling(), repair=NonEmptyRepair())
