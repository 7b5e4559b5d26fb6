"""Exactness against scikit-learn on every benchmark dataset (about 30 s)."""

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


def test_small_subsets_score_exactly_on_every_dataset(shared_data_dir):
    # The tree path, its direct replay and the lazily split replayed trees on real data: a
    # batch of masks of 1 to 6 features (a size's first mask probes its ties, the rest may be
    # replayed directly), then forward flips from a two-feature base, against scikit-learn.
    rng = np.random.default_rng(11)
    n_tree = n_direct = 0
    for name in list_datasets(shared_data_dir):
        split = holdout_split(load_dataset(name, data_dir=shared_data_dir), random_state=0)
        counts = np.bincount(split.y_train)
        cv = int(min(10, counts[counts > 0].min()))
        cv, k = ("loo", 5) if cv < 2 else (cv, min(5, cv))
        ev = KNNEvaluator(split.X_train, split.y_train, n_neighbors=k, cv=cv, cache_size=0)
        D = ev.n_features
        sizes = np.repeat(np.arange(1, 7), 3)
        masks = np.zeros((sizes.size, D), dtype=bool)
        for mask, size in zip(masks, sizes):
            mask[rng.choice(D, min(size, D), replace=False)] = True
        masks = np.unique(masks, axis=0)
        knn = KNeighborsClassifier(k)

        def ref(m):
            return cross_val_score(knn, ev.X[:, m], split.y_train, cv=ev.folds).mean()

        np.testing.assert_array_equal(ev.score(masks), [ref(m) for m in masks], err_msg=name)
        base = masks[-1] & False
        base[rng.choice(D, min(2, D), replace=False)] = True
        adds = rng.choice(np.flatnonzero(~base), min(5, int((~base).sum())), replace=False)
        flipped = np.repeat(base[None], adds.size, axis=0)
        flipped[np.arange(adds.size), adds] = True
        np.testing.assert_array_equal(ev.score_flips(base, adds), [ref(m) for m in flipped],
                                      err_msg=name)
        n_tree += ev._paths.n_tree
        n_direct += ev._paths.n_direct
    assert n_direct > 0 and n_tree > n_direct  # both kinds of the tree path were exercised
