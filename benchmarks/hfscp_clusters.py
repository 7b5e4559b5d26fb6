"""HFS-C-P's phases 1-2 under each reading of its SU (issue 25, item 2): clusters and sizes.

Usage::

    PYMOO_FS_DATA=/work/shared/datasets python benchmarks/hfscp_clusters.py yale glioma

On the training part of the first of 10 stratified folds (shuffled, seed 0), min-max scaled
on it, for each discretisation of SU (MDL, 10 equal-width, 10 equal-frequency bins), each log
base of rho0/rho1 and ``drop_zero``: the features with SU > 0, those phase 1 keeps, the number
of clusters M of phase 2 (the most features a particle can select) and the expected size of
the relevance-guided initial particle (the sum of ``pc_j``), with the library's
:func:`~pymoo_fs.algorithms.soo.hfscp.relevance_threshold`,
:func:`~pymoo_fs.algorithms.soo.hfscp.cluster_threshold` and
:func:`~pymoo_fs.algorithms.soo.hfscp.fcfc_clusters`. No wrapper evaluation.
"""

import sys

import numpy as np
from sklearn.model_selection import StratifiedKFold

from pymoo_fs.algorithms.soo.hfscp import cluster_threshold, fcfc_clusters, relevance_threshold
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import FitEFeatureSelection


def main(names):
    print("| dataset | SU bins | log | drop_zero | D | SU > 0 | kept by rho0 | rho0 | clusters M "
          "| expected initial size |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        data = load_dataset(name)
        X, y = np.asarray(data.X, dtype=float), np.asarray(data.y)
        train, _ = next(StratifiedKFold(10, shuffle=True, random_state=0).split(X, y))
        lo, hi = X[train].min(axis=0), X[train].max(axis=0)
        X_train = (X[train] - lo) / np.where(hi > lo, hi - lo, 1.0)
        problem = FitEFeatureSelection.from_data(X_train, y[train])
        for bins in ("mdl", "equal_width", "equal_frequency"):
            su = problem.symmetric_uncertainty(bins)
            relevance = np.asarray(su.relevance, dtype=float)
            for log in ("ln", "log2"):
                for drop_zero in (False, True):
                    rho0, kept = relevance_threshold(relevance, log, drop_zero)
                    rho1 = cluster_threshold(relevance[kept], log)
                    clusters, _ = fcfc_clusters(kept, relevance, su.between, rho1)
                    heads = relevance[[c[0] for c in clusters]]
                    pc = heads / heads.max() if heads.max() > 0 else np.ones_like(heads)
                    print(f"| {name} | {bins} | {log} | {drop_zero} | {X.shape[1]} | "
                          f"{int((relevance > 0).sum())} | {len(kept)} | {rho0:.4f} | "
                          f"{len(clusters)} | {pc.sum():.1f} |", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
