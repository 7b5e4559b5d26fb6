"""Seconds of SwarmFeatureSelector.fit with its defaults on the bundled datasets.

Run: ``python benchmarks/selector_fit.py`` (about a minute). Each dataset is min-max scaled,
then fitted once to load the compiled kernels and ``--repeats`` times more, timed; the table
gives the median seconds, evaluations per second, the chosen subset and the front. The load
average is printed alongside: the machine may be shared.
"""

import argparse
import os
import time

import numpy as np
from sklearn.preprocessing import MinMaxScaler

from pymoo_fs.datasets import load_dataset
from pymoo_fs.selector import SwarmFeatureSelector


def main(datasets=("sonar", "musk1"), repeats=3, **params):
    print(f"load average before: {os.getloadavg()}")
    print("dataset  samples x features  evals  seconds(median)  evals/s  chosen  front sizes")
    for name in datasets:
        data = load_dataset(name)
        X = MinMaxScaler().fit_transform(data.X)
        SwarmFeatureSelector(n_gen=2, pop_size=4, random_state=0).fit(X, data.y)  # warm-up
        seconds = []
        for _ in range(repeats):
            start = time.perf_counter()
            sel = SwarmFeatureSelector(random_state=0, **params).fit(X, data.y)
            seconds.append(time.perf_counter() - start)
        t = float(np.median(seconds))
        sizes = sel.pareto_front_["n_features"]
        print(f"{name:8} {X.shape[0]:7d} x {X.shape[1]:<8d} {sel.n_evaluations_:6d}  "
              f"{t:15.2f}  {sel.n_evaluations_ / t:7.0f}  {int(sel.support_.sum()):6d}  "
              f"{sizes.min()}..{sizes.max()} ({len(sizes)} subsets)")
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--n-jobs", type=int, default=None)
    parser.add_argument("--algorithm", default=None, help="a registry name (default: the "
                        "selector's default)")
    args = parser.parse_args()
    main(repeats=args.repeats, n_jobs=args.n_jobs, algorithm=args.algorithm)
