"""Exactness against scikit-learn on every benchmark dataset (about 10 s)."""

import numpy as np
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.datasets import holdout_split, list_datasets, load_dataset
from pymoo_fs.evaluation import KNNEvaluator


def test_every_dataset_scores_exactly(shared_data_dir):
    rng = np.random.default_rng(7)
    names = [n for n in list_datasets(shared_data_dir) if n not in ("musk1", "sonar")]
    assert len(names) == 32
    for name in names:
        split = holdout_split(load_dataset(name, data_dir=shared_data_dir), random_state=0)
        counts = np.bincount(split.y_train)
        cv = int(min(10, counts[counts > 0].min()))
        # a class with one training sample (9_tumors, lymphoma): leave-one-out
        cv, k = ("loo", 5) if cv < 2 else (cv, min(5, cv))
        ev = KNNEvaluator(split.X_train, split.y_train, n_neighbors=k, cv=cv)
        D = ev.n_features
        masks = rng.random((4, D)) < rng.choice([min(1.0, 20 / D), 0.5], size=(4, 1))
        masks[:, 0] |= ~masks.any(axis=1)
        got = ev.score(masks)
        knn = KNeighborsClassifier(k)
        ref = [cross_val_score(knn, ev.X[:, m], split.y_train, cv=ev.folds).mean() for m in masks]
        np.testing.assert_array_equal(got, ref, err_msg=name)
        flips = rng.choice(D, 3, replace=False)
        flipped = np.repeat(masks[:1], 3, axis=0)
        flipped[np.arange(3), flips] ^= True
        ref = [cross_val_score(knn, ev.X[:, m], split.y_train, cv=ev.folds).mean() if m.any()
               else 0.0 for m in flipped]
        np.testing.assert_array_equal(ev.score_flips(masks[0], flips), ref, err_msg=name)
