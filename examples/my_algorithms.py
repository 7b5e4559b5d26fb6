"""
A new algorithm in about 25 lines: NSGA-II with uniform crossover on masks
==========================================================================

A pymoo ``Algorithm`` whose problem sees boolean masks (one bit per feature), registered under
the name ``UX-NSGA-II``. It lives in an importable module (this file), not in a script's
``__main__``: studies refuse a class a worker process could not import.
``plot_own_algorithm.py`` runs it in a study.

Run: ``python examples/my_algorithms.py`` (one short run on Sonar, about a second).
"""

from pymoo.algorithms.moo.nsga2 import NSGA2
from pymoo.operators.crossover.ux import UX
from pymoo.operators.mutation.bitflip import BitflipMutation
from pymoo.operators.sampling.rnd import BinaryRandomSampling

from pymoo_fs.algorithms import algorithm_names, register, unregister


class UniformNSGA2(NSGA2):
    """NSGA-II on masks: random masks, uniform crossover, bit-flip mutation (1/D a bit)."""

    n_objectives = 2  # (error, selection ratio): a bi-objective algorithm

    def __init__(self, pop_size=30, flip=None, **kwargs):
        super().__init__(pop_size=pop_size, sampling=BinaryRandomSampling(),
                         crossover=UX(), mutation=BitflipMutation(prob=1.0, prob_var=flip),
                         eliminate_duplicates=True, **kwargs)


if __name__ != "__main__":  # registered from the importable module, never from a script
    if "UX-NSGA-II" in algorithm_names():  # imported again (a reload): the new class
        unregister("UX-NSGA-II")
    register(UniformNSGA2, "UX-NSGA-II")


if __name__ == "__main__":
    from pymoo.optimize import minimize

    from pymoo_fs.datasets import load_dataset
    from pymoo_fs.problems import BiObjectiveFeatureSelection

    data = load_dataset("sonar")
    problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, n_neighbors=5, cv=5)
    res = minimize(problem, UniformNSGA2(pop_size=10), ("n_gen", 5), seed=1)
    print(f"UX-NSGA-II: {len(res.F)} subsets on the front, errors {res.F[:, 0].round(3)}")
