"""Run by tests/evaluation/test_threads.py in a fresh interpreter: independent seeds in a
fork-based multiprocessing pool after a run in the parent, then pymoo's documented "Processes"
parallelization (``StarmapParallelization(pool.starmap)``) on a fork pool. Prints one line per
stage; a hang is caught by the caller's timeout."""

import multiprocessing as mp
import sys

import numpy as np
from pymoo.algorithms.soo.nonconvex.ga import GA
from pymoo.core.problem import ElementwiseProblem
from pymoo.operators.crossover.pntx import TwoPointCrossover
from pymoo.operators.mutation.bitflip import BitflipMutation
from pymoo.operators.sampling.rnd import BinaryRandomSampling
from pymoo.optimize import minimize

try:
    from pymoo.parallelization import StarmapParallelization
except ImportError:  # pymoo before 0.6.1.5
    from pymoo.core.problem import StarmapParallelization

from pymoo_fs.algorithms import MOPSO
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.problems import BiObjectiveFeatureSelection

DATA = load_dataset("sonar")
PROBLEM = BiObjectiveFeatureSelection.from_data(DATA.X, DATA.y, cv=5)
EVALUATOR = KNNEvaluator(DATA.X, DATA.y, cv=5)


def run_seed(seed):
    """One short MOPSO run; its front's smallest error."""
    res = minimize(PROBLEM, MOPSO(pop_size=10), ("n_gen", 3), seed=seed)
    return float(np.min(res.F[:, 0]))


class Elementwise(ElementwiseProblem):
    """pymoo's elementwise pattern: one mask per call, the error of KNN on it."""

    def __init__(self, **kwargs):
        super().__init__(n_var=DATA.n_features, n_obj=1, xl=0, xu=1, vtype=bool, **kwargs)

    def _evaluate(self, x, out, *args, **kwargs):
        x = np.asarray(x, dtype=bool)
        out["F"] = 1.0 - EVALUATOR.score(x)[0] if x.any() else 1.0


def main():
    print("parent", run_seed(0), flush=True)
    import numba

    print("layer", numba.threading_layer(), flush=True)
    ctx = mp.get_context("fork")
    with ctx.Pool(2) as pool:
        print("pool", pool.map_async(run_seed, [1, 2, 3]).get(timeout=float(sys.argv[1])),
              flush=True)
    with ctx.Pool(2) as pool:
        problem = Elementwise(elementwise_runner=StarmapParallelization(pool.starmap))
        algorithm = GA(pop_size=8, sampling=BinaryRandomSampling(),
                       crossover=TwoPointCrossover(), mutation=BitflipMutation(),
                       eliminate_duplicates=True)
        res = minimize(problem, algorithm, ("n_gen", 2), seed=1)
        print("starmap", float(res.F[0]), flush=True)


if __name__ == "__main__":
    main()
