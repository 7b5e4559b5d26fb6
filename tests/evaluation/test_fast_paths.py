"""The compiled evaluator: float32, flips, cache, memory bound, threads, lazy compilation."""

import os
import subprocess
import sys

import numpy as np
import pytest
from pymoo.optimize import minimize
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.algorithms import CMDPSOFS, PSO, configure_nsga2
from pymoo_fs.datasets import holdout_split, load_dataset, make_heavy_tailed
from pymoo_fs.evaluation import EvaluatorMemoryError, KNNEvaluator
from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection


def sklearn_score(X, y, mask, k, folds, scoring="accuracy"):
    if not mask.any():
        return 0.0
    return cross_val_score(KNeighborsClassifier(k), X[:, mask], y, cv=folds,
                           scoring=scoring).mean()


def flipped(mask, features):
    out = np.repeat(mask[None, :], len(features), axis=0)
    out[np.arange(len(features)), features] ^= True
    return out


@pytest.fixture(scope="module")
def musk1():
    return holdout_split(load_dataset("musk1"), random_state=0)


@pytest.fixture(scope="module")
def sonar():
    data = load_dataset("sonar")
    return data.X, data.y


@pytest.mark.parametrize("cv, metric", [(10, "accuracy"), (5, "balanced_accuracy"),
                                        ("loo", "accuracy")])
def test_float32_and_numpy_backends_equal_sklearn(musk1, rng, cv, metric):
    X, y = musk1.X_train, musk1.y_train
    masks = rng.random((6, X.shape[1])) < rng.choice([0.05, 0.5], size=(6, 1))
    kw = dict(n_neighbors=3, cv=cv, scoring=metric)
    default = KNNEvaluator(X, y, **kw)
    single = KNNEvaluator(X, y, precision="float32", **kw)
    reference = KNNEvaluator(X, y, backend="numpy", **kw)
    n_sk = 2 if cv == "loo" else 6
    expected = [sklearn_score(default.X, y, m, 3, default.folds, metric) for m in masks[:n_sk]]
    got = default.score(masks)
    np.testing.assert_array_equal(got[:n_sk], expected)
    np.testing.assert_array_equal(single.score(masks), got)
    np.testing.assert_array_equal(reference.score(masks), got)


def test_one_mask_path_equals_batch_path(musk1, rng):
    X, y = musk1.X_train, musk1.y_train
    masks = rng.random((5, X.shape[1])) < 0.3
    batch = KNNEvaluator(X, y, cache_size=0).score(masks)
    one_by_one = KNNEvaluator(X, y, cache_size=0)
    np.testing.assert_array_equal([one_by_one.score(m)[0] for m in masks], batch)


@pytest.mark.parametrize("density", [0.05, 0.5])
def test_score_flips_equal_sklearn(musk1, rng, density):
    X, y = musk1.X_train, musk1.y_train
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
    mask = rng.random(ev.n_features) < density
    mask[0] = True
    features = rng.choice(ev.n_features, 24, replace=False)
    got = ev.score_flips(mask, features)
    expected = [sklearn_score(ev.X, y, m, 5, ev.folds) for m in flipped(mask, features)]
    np.testing.assert_array_equal(got, expected)
    # and the default "all features" set agrees with scoring the flipped masks directly
    np.testing.assert_array_equal(
        ev.score_flips(mask), KNNEvaluator(X, y, backend="numpy").score(
            flipped(mask, np.arange(ev.n_features))))


def test_score_flips_with_ties_and_leave_one_out(sonar, rng):
    X, y = sonar
    Xd = np.round(X * 4) / 4  # many equal distances
    for cv in (5, "loo"):
        ev = KNNEvaluator(Xd, y, n_neighbors=3, cv=cv, cache_size=0)
        mask = rng.random(ev.n_features) < 0.15
        features = np.arange(0, ev.n_features, 3 if cv == 5 else 12)
        got = ev.score_flips(mask, features)
        expected = [sklearn_score(ev.X, y, m, 3, ev.folds) for m in flipped(mask, features)]
        np.testing.assert_array_equal(got, expected, err_msg=str(cv))
        assert ev._settler.n_uncertified > 0


def test_score_flips_rescans_rows_past_the_sorted_prefix(rng):
    # Base distances are tiny next to the removed feature's range, so removing it can reorder
    # every candidate: scans run past the 64 sorted neighbours and rescan the whole row.
    n = 160
    X = np.column_stack([rng.random((n, 4)) * 0.01, rng.random(n)])
    y = (X[:, 4] + 0.002 * rng.standard_normal(n) > 0.5).astype(int)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=4, cache_size=0)
    mask = np.ones(5, dtype=bool)
    got = ev.score_flips(mask)
    expected = [sklearn_score(ev.X, y, m, 5, ev.folds) for m in flipped(mask, np.arange(5))]
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("density", [0.2, 0.5])
def test_score_flips_on_heavy_tailed_data_equal_sklearn(rng, density):
    # Row norms span five orders of magnitude: most rows of a removal run past the sorted
    # prefix, and after a few full rescans each removal scans only its rows' norm windows.
    X, y = make_heavy_tailed()
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, random_state=0, cache_size=0)
    mask = rng.random(X.shape[1]) < density
    features = np.concatenate([rng.choice(np.flatnonzero(mask), 8, replace=False),
                               rng.choice(np.flatnonzero(~mask), 4, replace=False)])
    got = ev.score_flips(mask, features)
    expected = [sklearn_score(ev.X, y, m, 5, ev.folds) for m in flipped(mask, features)]
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, ev.score(flipped(mask, features)))


def test_score_flips_to_and_from_the_empty_mask(sonar):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5, cache_size=0)
    single = np.zeros(ev.n_features, dtype=bool)
    single[7] = True
    got = ev.score_flips(single, [7, 8])
    assert got[0] == 0.0
    assert got[1] == sklearn_score(ev.X, y, flipped(single, [8])[0], 5, ev.folds)
    empty = np.zeros(ev.n_features, dtype=bool)
    got = ev.score_flips(empty, [3, 40])
    np.testing.assert_array_equal(
        got, [sklearn_score(ev.X, y, m, 5, ev.folds) for m in flipped(empty, [3, 40])])


def test_score_flips_rejects_bad_input(sonar):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5)
    mask = np.zeros(ev.n_features, dtype=bool)
    with pytest.raises(ValueError, match="one mask"):
        ev.score_flips(np.zeros((2, ev.n_features), dtype=bool))
    with pytest.raises(ValueError, match="in \\[0, 60\\)"):
        ev.score_flips(mask, [60])
    with pytest.raises(ValueError, match="feature indices"):
        ev.score_flips(mask, [0.5])


def test_cache_counts_hits_and_evaluations(sonar, rng):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5)
    masks = rng.random((4, ev.n_features)) < 0.3
    batch = np.vstack([masks, masks[:2], np.zeros((1, ev.n_features), dtype=bool)])
    first = ev.score(batch)
    assert (ev.n_evaluations, ev.n_cache_hits) == (4, 3)  # 2 repeats + 1 empty
    np.testing.assert_array_equal(first[4:6], first[:2])
    again = ev.score(masks)
    np.testing.assert_array_equal(again, first[:4])
    assert (ev.n_evaluations, ev.n_cache_hits) == (4, 7)
    # flips are cached too, and a flip already scored is a hit
    ev.score_flips(masks[0], [0, 1])
    assert ev.n_evaluations == 6
    ev.score(flipped(masks[0], [0]))
    assert (ev.n_evaluations, ev.n_cache_hits) == (6, 8)
    ev.clear_cache()
    ev.score(masks[:1])
    assert ev.n_evaluations == 7


def test_cache_is_bounded_lru(sonar, rng):
    X, y = sonar
    ev = KNNEvaluator(X, y, cv=5, cache_size=2)
    a, b, c = rng.random((3, ev.n_features)) < 0.3
    ev.score(a), ev.score(b), ev.score(a), ev.score(c)  # b is least recently used
    assert len(ev._cache) == 2
    ev.score(a)
    assert ev.n_cache_hits == 2
    ev.score(b)
    assert ev.n_evaluations == 4
    off = KNNEvaluator(X, y, cv=5, cache_size=0)
    off.score(a), off.score(a)
    assert (off.n_evaluations, off.n_cache_hits) == (2, 0)


def test_memory_limit_raises_a_clear_error(sonar):
    X, y = sonar
    with pytest.raises(EvaluatorMemoryError, match="memory_limit"):
        KNNEvaluator(X, y, cv=5, memory_limit=100_000)
    assert issubclass(EvaluatorMemoryError, MemoryError)
    ev = KNNEvaluator(X, y, cv=5, n_threads=1)
    assert ev.memory_estimate >= 8 * X.shape[0] ** 2
    assert KNNEvaluator(X, y, cv=5, n_threads=2).memory_estimate > ev.memory_estimate


@pytest.mark.parametrize("kwargs, match", [
    (dict(precision="float16"), "precision"),
    (dict(backend="cuda"), "backend"),
    (dict(cache_size=-1), "cache_size"),
    (dict(n_threads=0), "n_threads"),
    (dict(memory_limit=-5), "memory_limit"),
])
def test_invalid_options(sonar, kwargs, match):
    X, y = sonar
    with pytest.raises(ValueError, match=match):
        KNNEvaluator(X, y, cv=5, **kwargs)


def test_thread_count_does_not_change_scores(musk1, rng):
    X, y = musk1.X_train, musk1.y_train
    masks = rng.random((7, X.shape[1])) < 0.4
    one = KNNEvaluator(X, y, n_threads=1).score(masks)
    np.testing.assert_array_equal(KNNEvaluator(X, y, n_threads=2).score(masks), one)


def test_import_compiles_nothing():
    code = (
        "import importlib, pkgutil\n"
        "import pymoo_fs, pymoo_fs.evaluation, pymoo_fs.problems, pymoo_fs.algorithms\n"
        "from pymoo_fs.evaluation.knn import kernels\n"
        "import numba\n"
        "mods = [importlib.import_module(f'{kernels.__name__}.{m.name}')\n"
        "        for m in pkgutil.iter_modules(kernels.__path__)]\n"
        "fns = [getattr(m, n) for m in mods for n in dir(m)]\n"
        "jitted = [f for f in fns if isinstance(f, numba.core.registry.CPUDispatcher)]\n"
        "assert jitted, 'no kernels found'\n"
        "print(sum(len(f.signatures) for f in jitted))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "0"


class CountingEvaluator(KNNEvaluator):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.calls = 0

    def score(self, masks):
        self.calls += 1
        return super().score(masks)


@pytest.mark.parametrize("make, problem_cls", [
    (lambda: CMDPSOFS(pop_size=10), BiObjectiveFeatureSelection),
    (lambda: configure_nsga2(pop_size=10), BiObjectiveFeatureSelection),
    (lambda: PSO(pop_size=10), WeightedFeatureSelection),
])
def test_algorithms_evaluate_a_generation_in_one_call(sonar, make, problem_cls):
    X, y = sonar
    ev = CountingEvaluator(X, y, cv=3)
    res = minimize(problem_cls(ev), make(), ("n_gen", 6), seed=1)
    assert ev.calls == 6
    assert ev.n_evaluations + ev.n_cache_hits == res.algorithm.evaluator.n_eval == 60


def test_scipy_blas_fallback_is_exact():
    # Where numpy's bundled OpenBLAS is not found, the kernels use scipy's BLAS instead.
    code = (
        "import numpy as np\n"
        "from sklearn.model_selection import cross_val_score\n"
        "from sklearn.neighbors import KNeighborsClassifier\n"
        "from pymoo_fs.datasets import load_dataset\n"
        "from pymoo_fs.evaluation import KNNEvaluator\n"
        "from pymoo_fs.evaluation.knn.kernels import blas\n"
        "assert not blas.USE_NUMPY_BLAS\n"
        "d = load_dataset('sonar')\n"
        "ev = KNNEvaluator(d.X, d.y, cv=5)\n"
        "masks = np.random.default_rng(0).random((4, 60)) < 0.4\n"
        "ref = [cross_val_score(KNeighborsClassifier(5), ev.X[:, m], d.y, cv=ev.folds).mean()\n"
        "       for m in masks]\n"
        "assert np.array_equal(ev.score(masks), ref)\n"
        "f = ev.score_flips(masks[0], [1, 2])\n"
        "print('ok')\n"
    )
    env = dict(os.environ, PYMOO_FS_SCIPY_BLAS="1")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_a_new_process_loads_kernels_from_the_disk_cache():
    code = (
        "import numpy as np\n"
        "from pymoo_fs.datasets import load_dataset\n"
        "from pymoo_fs.evaluation import KNNEvaluator\n"
        "from pymoo_fs.evaluation.knn.kernels import cv\n"
        "d = load_dataset('sonar')\n"
        "KNNEvaluator(d.X, d.y, cv=5).score(np.random.default_rng(0).random((3, 60)) < 0.5)\n"
        "s = cv.cv_predict_batch.stats\n"
        "print(sum(s.cache_misses.values()), sum(s.cache_hits.values()))\n"
    )
    runs = [subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           check=True).stdout.split() for _ in range(2)]
    misses, hits = map(int, runs[1])
    assert (misses, hits) == (0, 1), runs


def test_leave_one_out_scores_equal_sklearn_on_ties(sonar, rng):
    # rounded data: many equal distances; the LOO fold mean is the hit count over n
    X, y = sonar
    X = np.round(X[::2] * 4) / 4  # 104 samples of both classes
    y = y[::2]
    ev = KNNEvaluator(X, y, n_neighbors=5, cv="loo", cache_size=0)
    masks = rng.random((12, X.shape[1])) < 0.3
    masks[:, 0] = True
    ours = ev.score(masks)
    for mask, value in zip(masks, ours):
        ref = cross_val_score(KNeighborsClassifier(5), X[:, mask], y, cv=ev.folds).mean()
        assert value == ref


def test_scoring_restores_the_callers_thread_settings(sonar, rng):
    import numba
    from threadpoolctl import threadpool_info, threadpool_limits

    X, y = sonar
    ev = KNNEvaluator(X, y, n_neighbors=5, n_threads=1)
    before = numba.get_num_threads()
    with threadpool_limits(limits=2, user_api="blas"):
        blas = [i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas"]
        ev.score(rng.random((4, X.shape[1])) < 0.5)
        assert [i["num_threads"] for i in threadpool_info()
                if i["user_api"] == "blas"] == blas
    assert numba.get_num_threads() == before


@pytest.mark.parametrize("cv", [5, "loo"])
def test_row_seeds_change_the_speed_not_the_scores(sonar, rng, cv):
    # The scan skips candidates farther than the rows' seeds (k + 1 candidates of the row's
    # fold from an earlier mask). Whatever candidates they are, the scores must not move: fill
    # them with random distinct candidates, on rounded data full of equal distances.
    X, y = sonar
    X = np.round(X[::2] * 4) / 4
    y = y[::2]
    masks = rng.random((10, X.shape[1])) < 0.3
    masks[:, 1] = True
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=cv, cache_size=0, n_threads=2)
    ev.score(masks[:1])  # builds the fold layout
    seeds = ev._seeds.get(2)
    layout = ev._layout
    for t in range(seeds.shape[0]):
        for r, q in enumerate(layout.rows):
            cand = np.flatnonzero(layout.cand[layout.row_fold[r]])
            seeds[t, r] = rng.choice(cand, size=seeds.shape[2], replace=False)
    ours = np.concatenate([ev.score(masks[:6]), ev.score(masks[6])])
    for mask, value in zip(masks[:7], ours):
        ref = cross_val_score(KNeighborsClassifier(5), X[:, mask], y, cv=ev.folds).mean()
        assert value == ref
    # seeds that are exactly the rows' nearest (the same mask scored again): the bound is the
    # (k+1)-th distance itself, and candidates equal to it must still be kept
    for mask in masks[7:]:
        first = ev.score(mask)
        ev.clear_cache()
        again = ev.score(mask)
        ref = cross_val_score(KNeighborsClassifier(5), X[:, mask], y, cv=ev.folds).mean()
        assert first[0] == again[0] == ref


def test_fill_groups_gives_reduced_distances_and_residue_group_minima(rng):
    from pymoo_fs.evaluation.knn.kernels import rows

    W = rows.GATE_GROUPS
    for n in (1, W - 1, W, W + 5, 1029):
        sq = rng.random(n)
        Gq = rng.random(n).astype(np.float32)
        cf = rng.random(n) < 0.8
        e = np.empty(n)
        gm = np.empty(W)
        rows.fill_groups(sq, Gq, cf, e, gm)
        want = np.where(cf, sq - 2.0 * Gq.astype(np.float64), np.inf)
        np.testing.assert_array_equal(e, want)
        padded = np.full(-(-n // W) * W, np.inf)
        padded[:n] = want
        np.testing.assert_array_equal(gm, padded.reshape(-1, W).min(axis=0))


def test_kth_group_min_is_the_kth_smallest(rng):
    from pymoo_fs.evaluation.knn.kernels import rows

    W = rows.GATE_GROUPS
    for K in (1, 2, 6, W):
        for _ in range(20):
            gm = rng.integers(0, 5, W).astype(float)  # ties
            gm[rng.random(W) < 0.3] = np.inf
            assert rows.kth_group_min(gm, K, np.empty(K)) == np.sort(gm)[K - 1]
    # more places than groups (n_neighbors >= GATE_GROUPS): no K-th value, no bound
    assert rows.kth_group_min(np.zeros(W), W + 1, np.empty(W + 1)) == np.inf


def test_scan_groups_keeps_what_the_full_scan_keeps(rng):
    # the top-K (ties in index order) of the entries under the gate, as an insertion of every
    # entry in index order keeps them, for tie-heavy rows and gates from loose to exact
    from pymoo_fs.evaluation.knn.kernels import rows

    W = rows.GATE_GROUPS
    for n in (3, W + 7, 1029):
        for K in (2, 6):
            for _ in range(10):
                e = rng.integers(0, 40, n).astype(float)
                e[rng.random(n) < 0.2] = np.inf
                gm = np.full(-(-n // W) * W, np.inf)
                gm[:n] = e
                gm = gm.reshape(-1, W).min(axis=0)
                order = np.lexsort((np.arange(n), e))  # by value, then index
                finite = order[np.isfinite(e[order])]
                want = finite[:K]
                kth = rows.kth_group_min(gm, K, np.empty(K)) if K <= W else np.inf
                for lim in (np.inf, kth, e[want[-1]] if want.size == K else np.inf):
                    gate = np.nextafter(lim, np.inf)
                    bd, bi = np.empty(K), np.empty(K, dtype=np.int64)
                    cnt = rows.scan_groups(e, gm, gate, np.empty(W, dtype=np.int64), bd, bi,
                                           K)
                    assert cnt == want.size
                    np.testing.assert_array_equal(bi[:cnt], want)
                    np.testing.assert_array_equal(bd[:cnt], e[want])


def test_long_rows_with_seeds_equal_sklearn(rng):
    # rows of at least GATE_GROUPED candidates take the group gate, with seeds or without
    from pymoo_fs.evaluation.knn.kernels import rows

    n = rows.GATE_GROUPED + 100
    X = rng.random((n, 12))
    y = (X[:, 0] + 0.3 * rng.random(n) > 0.65).astype(int)
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=5, random_state=0)
    masks = rng.random((8, 12)) < 0.6
    masks[:, 0] = True
    moved = masks.copy()
    moved[:, 1] ^= True  # a second batch near the first: tight seeds
    got = np.concatenate([ev.score(masks), ev.score(moved)])
    knn = KNeighborsClassifier(3)
    ref = [cross_val_score(knn, X[:, m], y, cv=ev.folds).mean()
           for m in np.concatenate([masks, moved])]
    np.testing.assert_array_equal(got, ref)


@pytest.mark.parametrize("k", [1, 5, 40])  # 40: more places than the gate's 32 groups
@pytest.mark.parametrize("precision", ["float32", "float64"])
def test_long_tie_heavy_rows_equal_sklearn(rng, k, precision):
    # rows longer than GATE_GROUPED on discrete data: equal distances everywhere, so the group
    # gate's K-th group minimum ties with many candidates and the scan must keep scikit-learn's
    # (index-ordered) choice among them; duplicated rows with different labels as well
    from pymoo_fs.evaluation.knn.kernels import rows

    n = rows.GATE_GROUPED + 37
    X = rng.integers(0, 2, (n, 24)).astype(float)
    X[n // 2:n // 2 + 40] = X[:40]
    y = rng.integers(0, 3, n)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, random_state=0, precision=precision)
    masks = rng.random((6, 24)) < 0.75
    masks[:, :16] = True  # beyond the tree path's 15 features: every mask by its Gram matrix
    got = np.concatenate([ev.score(masks[:3]), ev.score(masks[3:])])  # with seeds, then
    assert ev._paths.n_tree == 0
    knn = KNeighborsClassifier(k)
    np.testing.assert_array_equal(
        got, [cross_val_score(knn, X[:, m], y, cv=ev.folds).mean() for m in masks])


@pytest.mark.parametrize("k", [1, 5])
def test_float32_band_long_rows_equal_sklearn(rng, k):
    # as below on rows longer than GATE_GROUPED: the band's candidates are listed from the
    # residue groups within reach (rows.band_groups)
    from pymoo_fs.evaluation.knn.kernels import rows

    reps = rows.GATE_GROUPED // 20 + 2
    n = 20 * reps
    centres = rng.random((20, 20))
    X = np.repeat(centres, reps, axis=0) + 1e-4 * rng.random((n, 20))
    y = rng.integers(0, 3, n)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, random_state=0, precision="float32")
    masks = rng.random((6, 20)) < 0.8
    masks[:, :16] = True  # beyond the tree path's 15 features
    got = ev.score(masks)
    assert ev._seeds.new_refinements() > 0 and ev._paths.n_tree == 0
    knn = KNeighborsClassifier(k)
    np.testing.assert_array_equal(
        got, [cross_val_score(knn, ev.X[:, m], y, cv=ev.folds).mean() for m in masks])


def test_band_groups_lists_what_a_full_pass_lists(rng):
    from pymoo_fs.evaluation.knn.kernels import rows

    W = rows.GATE_GROUPS
    for n in (5, W + 3, 1029):
        e = rng.random(n)
        e[rng.random(n) < 0.2] = np.inf
        gm = np.full(-(-n // W) * W, np.inf)
        gm[:n] = e
        gm = gm.reshape(-1, W).min(axis=0)
        for sq_q in (0.0, 0.3):
            # thresholds at members' own sums too (the boundary a member must still pass)
            finite = np.sort(e[np.isfinite(e)])
            for thr in [-1.0, 0.35, 2.0] + [sq_q + finite[m] for m in (0, 2, 40)
                                            if m < finite.size]:
                ids = np.full(n, -1, dtype=np.int64)
                c = rows.band_groups(e, gm, sq_q, thr, np.empty(W, dtype=np.int64), ids)
                np.testing.assert_array_equal(ids[:c], np.flatnonzero(sq_q + e <= thr))


@pytest.mark.parametrize("k", [1, 5])
def test_float32_band_rows_equal_sklearn(rng, k):
    # tight clusters of mixed labels: float32's rounding band leaves almost every row open, so
    # each goes to certify with the candidates within reach of its k + 1 nearest (rows.py,
    # "The band's candidates") and most are re-measured in float64
    centres = rng.random((20, 8))
    X = np.repeat(centres, 20, axis=0) + 1e-4 * rng.random((400, 8))
    y = rng.integers(0, 3, 400)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, random_state=0, precision="float32")
    masks = rng.random((6, 8)) < 0.7
    masks[:, 0] = True
    got = ev.score(masks)
    assert ev._seeds.new_refinements() > 0  # the float32 band was re-measured
    knn = KNeighborsClassifier(k)
    np.testing.assert_array_equal(
        got, [cross_val_score(knn, ev.X[:, m], y, cv=ev.folds).mean() for m in masks])
    np.testing.assert_array_equal(
        got, KNNEvaluator(X, y, n_neighbors=k, cv=5, random_state=0, backend="numpy").score(masks))
