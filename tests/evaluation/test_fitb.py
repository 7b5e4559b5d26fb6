"""FIT-B: a hand-worked value, equality with the plain numpy statement (incremental updates
included), the paper's and the code's forms, folds, hold-out scores and errors."""

import math

import numpy as np
import pytest
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import MinMaxScaler

from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import FitBEvaluator, block_folds
from pymoo_fs.evaluation import _fitb_reference as reference

#: two features, four instances, classes 0 1 0 1, two blocks {0, 1} and {2, 3}
TINY_X = np.array([[0.0, 0.0], [1.0, 0.0], [3.0, 0.0], [4.0, 4.0]])
TINY_Y = np.array([0, 1, 0, 1])


def _tiny(**options):
    return FitBEvaluator(TINY_X, TINY_Y, n_folds=2, fold_order="given", **options)


def test_fitb_by_hand():
    # L1: d01 = 1, d02 = 3, d03 = 8, d12 = 2, d13 = 7, d23 = 5.
    # 1-NN across blocks: 0 -> 2 (right), 1 -> 2 (wrong), 2 -> 1 (wrong), 3 -> 1 (right):
    # recall 1/2 for each class, BalAcc = 0.5.
    # nearest other class: 1, 1, 2, 5 (mean 2.25); farthest same class: 3, 7, 3, 7 (mean 5);
    # averaged over the 2 features: D_b = 1.125, D_w = 2.5.
    ev = _tiny()
    both = np.array([True, True])
    expected = 0.8 * 0.5 + 0.2 / (1.0 + math.exp(-5.0 * (1.125 - 2.5)))
    assert ev.score(both)[0] == pytest.approx(expected, abs=1e-15)
    paper_sum = _tiny(distance="sum").score(both)[0]
    assert paper_sum == pytest.approx(0.4 + 0.2 / (1.0 + math.exp(-5.0 * (2.25 - 5.0))),
                                      abs=1e-15)
    # per fold: {0 right, 1 wrong} and {2 wrong, 3 right}: 0.5 each
    assert _tiny(balanced_accuracy="per_fold").score(both)[0] == pytest.approx(expected,
                                                                              abs=1e-15)
    assert _tiny(mu=1.0).score(both)[0] == 0.5


def test_empty_mask_scores_zero():
    assert _tiny().score(np.zeros(2, dtype=bool))[0] == 0.0


@pytest.fixture(scope="module")
def srbct(shared_data_dir):
    data = load_dataset("srbct", data_dir=shared_data_dir)
    X = MinMaxScaler().fit_transform(data.X)[:, :400]
    return X, data.y


@pytest.mark.parametrize("options", [
    {}, {"balanced_accuracy": "per_fold"}, {"distance": "sum"}, {"fold_order": "given"}],
    ids=["code", "per_fold", "sum", "given"])
def test_equals_plain_numpy_on_real_data_including_incremental_updates(srbct, options):
    X, y = srbct
    ev = FitBEvaluator(X, y, cache_size=0, **options)
    rng = np.random.default_rng(0)
    Q = ev._q_t.T
    masks = [rng.random(X.shape[1]) < p for p in (0.02, 0.3, 0.7)]
    for _ in range(12):  # each a few flips away from the previous: incremental matrices
        m = masks[-1].copy()
        m[rng.choice(X.shape[1], 6, replace=False)] ^= True
        masks.append(m)
    masks = np.array(masks)
    before = ev.n_columns_updated
    scores = ev.score(masks)
    from_scratch = sum(int(m.sum()) for m in masks)
    assert ev.n_columns_updated - before < from_scratch / 2, "no incremental update happened"
    expected = [reference.fitness(Q, m, ev.y, ev.fold_of, ev.step, 0.8,
                                  options.get("balanced_accuracy", "pooled"),
                                  options.get("distance", "averaged")) for m in masks]
    np.testing.assert_array_equal(scores, expected)


def test_incremental_equals_from_scratch_bit_for_bit(srbct):
    X, y = srbct
    rng = np.random.default_rng(1)
    walk = [rng.random(X.shape[1]) < 0.4]
    for _ in range(30):
        m = walk[-1].copy()
        m[rng.choice(X.shape[1], 15, replace=False)] ^= True
        walk.append(m)
    incremental = FitBEvaluator(X, y, cache_size=0).score(np.array(walk))
    fresh = [FitBEvaluator(X, y, cache_size=0, memory_limit=1).score(m)[0] for m in walk[::7]]
    np.testing.assert_array_equal(incremental[::7], fresh)


def test_close_to_the_unquantised_float_formula(srbct):
    X, y = srbct
    ev = FitBEvaluator(X, y)
    rng = np.random.default_rng(2)
    for m in rng.random((5, X.shape[1])) < 0.2:
        exact = reference.fitness_float(ev.X, m, ev.y, ev.fold_of, 0.8)
        assert ev.score(m)[0] == pytest.approx(exact, rel=1e-9)


def test_flips_equal_scores_of_the_flipped_masks(srbct):
    X, y = srbct
    ev = FitBEvaluator(X, y)
    mask = np.zeros(X.shape[1], dtype=bool)
    mask[:40] = True
    features = np.array([0, 5, 39, 40, 100, 399])
    flipped = np.repeat(mask[None, :], features.size, axis=0)
    flipped[np.arange(features.size), features] ^= True
    np.testing.assert_array_equal(ev.score_flips(mask, features),
                                  FitBEvaluator(X, y).score(flipped))
    one = np.zeros(X.shape[1], dtype=bool)
    one[3] = True
    assert ev.score_flips(one, [3])[0] == 0.0  # removing the only feature: empty


def test_a_tiny_store_gives_the_same_scores(srbct):
    X, y = srbct
    rng = np.random.default_rng(4)
    masks = rng.random((10, X.shape[1])) < 0.3
    np.testing.assert_array_equal(FitBEvaluator(X, y, memory_limit=1).score(masks),
                                  FitBEvaluator(X, y).score(masks))


def test_a_full_store_reuses_its_least_recently_used_slot_exactly(srbct):
    # three matrices: the walk revisits old masks and evicts, so slots are rebuilt from
    # whichever stored matrix is nearest, including the slot being replaced itself
    X, y = srbct
    n = X.shape[0]
    ev = FitBEvaluator(X, y, cache_size=0, memory_limit=3 * 8 * n * n)
    assert ev._capacity == 3
    rng = np.random.default_rng(5)
    anchors = [rng.random(X.shape[1]) < p for p in (0.05, 0.3, 0.6, 0.9)]
    walk = []
    for step in range(24):
        m = anchors[(step * 3) % 4].copy()
        m[rng.choice(X.shape[1], 3, replace=False)] ^= True
        walk.append(m)
    scores = np.concatenate([ev.score(m) for m in walk])
    assert ev._n_stored == 3
    Q = ev._q_t.T
    expected = [reference.fitness(Q, m, ev.y, ev.fold_of, ev.step, 0.8, "pooled", "averaged")
                for m in walk]
    np.testing.assert_array_equal(scores, expected)


def test_cache_and_counters(srbct):
    X, y = srbct
    ev = FitBEvaluator(X, y)
    mask = np.zeros(X.shape[1], dtype=bool)
    mask[:10] = True
    ev.score(np.array([mask, mask]))
    assert (ev.n_evaluations, ev.n_cache_hits) == (1, 1)
    ev.clear_cache()
    ev.score(mask)
    assert ev.n_evaluations == 2


def test_block_folds_are_contiguous_and_stratified():
    y = np.repeat([0, 1, 2], [10, 6, 4])
    given = block_folds(y, 10, order="given")
    assert [t.tolist() for _, t in given[:2]] == [[0, 1], [2, 3]]
    sizes = [t.size for _, t in block_folds(np.zeros(23), 10, order="given")]
    assert sizes == [(k + 1) * 23 // 10 - k * 23 // 10 for k in range(10)]
    for train, test in block_folds(y, 2, random_state=3):
        assert np.bincount(y[test], minlength=3).tolist() == [5, 3, 2]
        assert np.union1d(train, test).size == 20 and np.intersect1d(train, test).size == 0
    a = [t.tolist() for _, t in block_folds(y, 5, random_state=1)]
    assert a == [t.tolist() for _, t in block_folds(y, 5, random_state=1)]
    assert a != [t.tolist() for _, t in block_folds(y, 5, random_state=2)]
    with pytest.raises(ValueError, match="n_folds"):
        block_folds(y, 1)
    with pytest.raises(ValueError, match="order"):
        block_folds(y, 2, order="random")


@pytest.mark.parametrize("metric", ["euclidean", "manhattan"])
def test_holdout_score_is_one_nn_on_the_test_set(srbct, metric):
    X, y = srbct
    train, test = np.arange(0, 83, 2), np.arange(1, 83, 2)
    ev = FitBEvaluator(X[train], y[train], test_metric=metric)
    mask = np.zeros(X.shape[1], dtype=bool)
    mask[::7] = True
    knn = KNeighborsClassifier(1, metric=metric).fit(X[train][:, mask], y[train])
    expected = np.mean(knn.predict(X[test][:, mask]) == y[test])
    assert ev.holdout_score(mask, X[test], y[test])[0] == expected
    balanced = FitBEvaluator(X[train], y[train], test_metric=metric,
                             test_scoring="balanced_accuracy")
    assert 0 < balanced.holdout_score(mask, X[test], y[test])[0] <= 1


@pytest.mark.parametrize("key, value, match", [
    ("mu", 1.5, "mu"), ("balanced_accuracy", "mean", "balanced_accuracy"),
    ("distance", "euclid", "distance"), ("test_metric", "cosine", "test_metric"),
    ("test_scoring", "f1", "test_scoring"), ("memory_limit", 0, "memory_limit"),
    ("n_folds", 1, "n_folds"), ("fold_order", "shuffled", "order"),
    ("cache_size", -1, "cache_size")])
def test_invalid_parameters_are_named(key, value, match):
    with pytest.raises(ValueError, match=match):
        FitBEvaluator(TINY_X, TINY_Y, **{"n_folds": 2, key: value})
