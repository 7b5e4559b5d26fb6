"""The planner and its pool: kept Gram matrices, incremental updates, per-pair certification,
and the precision rule that moves the products from float32 to float64."""

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.datasets import holdout_split, load_dataset, make_heavy_tailed
from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.evaluation.knn import selfcheck


def sklearn_score(X, y, mask, k, folds):
    return cross_val_score(KNeighborsClassifier(k), X[:, mask], y, cv=folds).mean()


@pytest.fixture(scope="module")
def sonar():
    split = holdout_split(load_dataset("sonar"), random_state=0)
    return split.X_train, split.y_train


def test_heavy_tailed_reproduction_is_exact_and_certified(rng):
    X, y = make_heavy_tailed()  # the evaluator issue's reproduction (450 x 100)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
    masks = rng.random((6, X.shape[1])) < 0.5
    got = ev.score(masks)
    np.testing.assert_array_equal(got, [sklearn_score(ev.X, y, m, 5, ev.folds) for m in masks])
    # per-pair bounds certify all but a handful of the 6 x 450 rows (a row-wide bound left
    # about 3 % open); none of them needs scikit-learn itself
    assert ev._settler.n_uncertified < 0.005 * 6 * X.shape[0]
    if selfcheck.settings()[0]:
        assert ev._settler.n_sklearn_rows == 0


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_long_update_chain_stays_exact(sonar, rng, precision):
    X, y = sonar
    inc = KNNEvaluator(X, y, n_neighbors=3, cv=5, cache_size=0, precision=precision)
    fresh = KNNEvaluator(X, y, n_neighbors=3, cv=5, cache_size=0, incremental=False)
    mask = rng.random(X.shape[1]) < 0.5
    walk = []
    for _ in range(300):
        mask = mask.copy()
        mask[rng.choice(X.shape[1], rng.integers(1, 4), replace=False)] ^= True
        mask[rng.integers(X.shape[1])] |= not mask.any()
        walk.append(mask)
        assert inc.score(mask)[0] == fresh.score(mask)[0]
    assert inc._gram.n_updates >= 250  # the chain ran on updates...
    assert inc._gram.n_scratch >= 2  # ...and was recomputed once its bound grew too wide
    assert fresh._gram.n_updates == 0
    for m in walk[::75]:  # and the shared answer is scikit-learn's
        assert inc.score(m)[0] == sklearn_score(inc.X, y, m, 3, inc.folds)


def test_float32_update_chain_on_heavy_tailed_data_is_exact(rng):
    # float32 kept matrices on the data whose norms span five orders of magnitude: the chain's
    # float32 bound is wide, and rows it leaves open are re-measured in float64
    X, y = make_heavy_tailed()
    inc = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0, precision="float32")
    ref = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0, incremental=False)
    mask = rng.random(X.shape[1]) < 0.5
    for step in range(60):
        mask = mask.copy()
        mask[rng.choice(X.shape[1], 3, replace=False)] ^= True
        mask[0] |= not mask.any()
        assert inc.score(mask)[0] == ref.score(mask)[0]
        if step % 20 == 0:
            assert inc.score(mask)[0] == sklearn_score(inc.X, y, mask, 5, inc.folds)
    assert inc._gram.n_updates >= 50


@pytest.mark.parametrize("precision", ["float64", "float32"])
def test_swarm_like_batches_update_from_the_nearest_kept_masks(sonar, rng, precision):
    X, y = sonar
    inc = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0, precision=precision)
    fresh = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0, incremental=False)
    swarm = rng.random((12, X.shape[1])) < 0.6
    for _ in range(20):
        np.testing.assert_array_equal(inc.score(swarm), fresh.score(swarm))
        swarm = swarm ^ (rng.random(swarm.shape) < 0.04)
        swarm[:, 0] |= ~swarm.any(axis=1)
    assert inc._gram.n_updates > 150
    assert inc.n_kept_matrices <= 64


def test_score_flips_use_and_keep_the_base_matrix(sonar, rng):
    X, y = sonar
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=5, cache_size=0)
    fresh = KNNEvaluator(X, y, n_neighbors=3, cv=5, cache_size=0, incremental=False)
    mask = rng.random(X.shape[1]) < 0.4
    for _ in range(15):  # a local search: flip, move to a neighbour, flip again
        got = ev.score_flips(mask)
        np.testing.assert_array_equal(got, fresh.score_flips(mask))
        mask = mask.copy()
        mask[int(np.argmax(got))] ^= True
    assert ev._gram.n_updates >= 13


def test_pool_memory_bounds_the_kept_matrices(sonar, rng):
    X, y = sonar
    n = X.shape[0]
    masks = rng.random((10, X.shape[1])) < 0.5
    moved = masks ^ (rng.random(masks.shape) < 0.03)  # a swarm's next move
    ev = KNNEvaluator(X, y, cv=5, pool_memory=3 * 8 * (n * n + 4 * n), precision="float64")
    ev.score(masks)
    assert ev.n_kept_matrices == 0  # unrelated masks: keeping them would only cost
    ev.score(moved)
    assert ev.n_kept_matrices == 3  # masks that follow earlier ones are kept, up to the bound
    # float32 matrices take half the bytes: a float64 quarter goes to score_flips' bases (too
    # small for two here), the rest to float32 ones (4 n^2 + 32 n bytes each)
    ev32 = KNNEvaluator(X, y, cv=5, pool_memory=3 * 8 * (n * n + 4 * n), precision="float32")
    ev32.score(masks)
    ev32.score(moved)
    assert ev32.n_kept_matrices == 3 * 8 * (n * n + 4 * n) // (4 * n * n + 32 * n) == 5
    off = KNNEvaluator(X, y, cv=5, pool_memory=0)
    off.score(rng.random((4, X.shape[1])) < 0.5)
    assert off.n_kept_matrices == 0 and off._gram.n_updates == 0
    assert ev.memory_estimate > off.memory_estimate
    ev.clear_cache()
    assert ev.n_kept_matrices == 0


@pytest.mark.parametrize("kwargs, match", [
    (dict(incremental="yes"), "incremental"),
    (dict(pool_memory=-1), "pool_memory"),
    (dict(pool_memory="1GB"), "pool_memory"),
])
def test_invalid_incremental_options(sonar, kwargs, match):
    X, y = sonar
    with pytest.raises(ValueError, match=match):
        KNNEvaluator(X, y, cv=5, **kwargs)


def test_auto_precision_leaves_float32_on_heavy_tailed_data(rng):
    X, y = make_heavy_tailed()
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)  # precision="auto"
    assert ev.precision == "auto" and ev.gram_precision == "float32"
    for _ in range(3):  # float32, then float64 once enough rows needed float64 to settle
        masks = rng.random((4, X.shape[1])) < 0.5
        got = ev.score(masks)
        np.testing.assert_array_equal(got, [sklearn_score(ev.X, y, m, 5, ev.folds)
                                            for m in masks])
    assert ev.gram_precision == "float64"
    assert ev._gram.flip_kept is ev._gram.kept and ev._gram.kept.dtype == np.float64
    # the decision stays, and the flips still find their base among the kept matrices
    ev.clear_cache()
    mask = rng.random(X.shape[1]) < 0.5
    ev.score(mask)
    mask = mask.copy()
    mask[3] ^= True
    ev.score(mask)  # follows the previous mask: its matrix is kept
    scratch = ev._gram.n_scratch
    np.testing.assert_array_equal(
        ev.score_flips(mask, [0, 1]),
        KNNEvaluator(X, y, cv=10, precision="float64").score_flips(mask, [0, 1]))
    assert ev.gram_precision == "float64" and ev._gram.n_scratch == scratch  # the kept one


def test_auto_precision_keeps_float32_where_its_band_is_narrow(sonar, rng):
    X, y = sonar
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
    f64 = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0, precision="float64")
    for _ in range(5):
        masks = rng.random((8, X.shape[1])) < 0.5
        np.testing.assert_array_equal(ev.score(masks), f64.score(masks))
    assert ev.gram_precision == "float32" and f64.gram_precision == "float64"
    assert ev._gram.kept.dtype == np.float32 and ev._gram.flip_kept.dtype == np.float64
    # score_flips keeps float64 bases of its own: a local search updates them
    mask = rng.random(X.shape[1]) < 0.5
    updates = ev._gram.n_updates
    for _ in range(4):
        np.testing.assert_array_equal(ev.score_flips(mask), f64.score_flips(mask))
        mask = mask.copy()
        mask[rng.integers(X.shape[1])] ^= True
    assert ev._gram.n_updates >= updates + 3 and ev._gram.flip_kept.n_used >= 1


def test_auto_precision_uses_float64_where_float32_cannot_hold_the_data(sonar):
    X, y = sonar
    big = X * 1e20  # float32 squared distances would overflow; float64 is fine
    ev = KNNEvaluator(big, y, cv=5)
    assert ev.gram_precision == "float64"
    with pytest.raises(ValueError, match="precision='float32' cannot hold"):
        KNNEvaluator(big, y, cv=5, precision="float32")
