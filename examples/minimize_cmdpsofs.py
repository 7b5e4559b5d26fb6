"""
Bi-objective feature selection on Sonar with CMDPSOFS through pymoo.minimize
============================================================================

Run: ``python examples/minimize_cmdpsofs.py`` (about a second).
"""

import numpy as np
from pymoo.optimize import minimize

from pymoo_fs.algorithms import CMDPSOFS
from pymoo_fs.analysis import hypervolume
from pymoo_fs.datasets import holdout_split, load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection


def main(generations=20, seed=1):
    split = holdout_split(load_dataset("sonar"), test_size=0.3, random_state=0)
    problem = BiObjectiveFeatureSelection.from_data(
        split.X_train, split.y_train, n_neighbors=5, cv=10,
        X_test=split.X_test, y_test=split.y_test,
    )
    res = minimize(problem, CMDPSOFS(pop_size=30), ("n_gen", generations), seed=seed)
    F_test = problem.holdout_objectives(res.X)
    order = np.argsort(res.F[:, 1])
    print(f"{len(res.F)} subsets; HV train {hypervolume(res.F):.4f}, test "
          f"{hypervolume(F_test):.4f}")
    print("n_selected  train_error  test_error")
    for i in order:
        print(f"{res.X[i].sum():10d}  {res.F[i, 0]:11.4f}  {F_test[i, 0]:10.4f}")
    return res


if __name__ == "__main__":
    main()
