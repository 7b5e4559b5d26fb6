"""
Sequential forward selection on Musk1 with KNNEvaluator.score_flips
===================================================================

Each step scores every one-feature addition of the current subset in one call; the scores
are exactly scikit-learn's ``cross_val_score`` values. Run: ``python examples/evaluator_flips.py``.
"""

import numpy as np

from pymoo_fs.datasets import holdout_split, load_dataset
from pymoo_fs.evaluation import KNNEvaluator


def main(steps=8):
    split = holdout_split(load_dataset("musk1"), random_state=0)
    ev = KNNEvaluator(split.X_train, split.y_train, n_neighbors=5, cv=10)
    mask = np.zeros(ev.n_features, dtype=bool)
    best = 0.0
    for _ in range(steps):
        candidates = np.flatnonzero(~mask)
        scores = ev.score_flips(mask, candidates)
        i = int(np.argmax(scores))
        if scores[i] <= best:
            break
        mask[candidates[i]] = True
        best = scores[i]
        print(f"+ feature {candidates[i]:3d}: {mask.sum()} features, inner-CV accuracy "
              f"{best:.4f}")
    print(f"{ev.n_evaluations} subsets scored, {ev.n_cache_hits} cache hits")
    return mask, best


if __name__ == "__main__":
    main()
