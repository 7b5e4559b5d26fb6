"""The determined windows of score_flips (kernels/flips.py): rows whose vote a flip cannot
change are answered without a scan, and nothing else changes.

Each case compares the flip kernel with its windows against the same kernel with every
window switched off (each row scanned, the path before the windows existed), bit for bit, and
the scores of ``score_flips`` against scikit-learn's ``cross_val_score`` of the flipped masks.
"""

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.evaluation.knn.parallel import ParallelContext


def sklearn_score(X, y, mask, k, folds):
    knn = KNeighborsClassifier(n_neighbors=k)
    return cross_val_score(knn, X[:, mask], y, cv=folds).mean()


def flipped(mask, features):
    out = np.repeat(mask[None, :], len(features), axis=0)
    out[np.arange(len(features)), features] ^= True
    return out


def random_data(rng, n=180, D=30):
    X = rng.random((n, D))
    y = (X[:, :3].sum(axis=1) + 0.3 * rng.standard_normal(n) > 1.5).astype(int)
    return X, y


def discrete_data(rng, n=180, D=30):
    # three values per feature: many equal distances, ties at the k-th place
    X = rng.integers(0, 3, (n, D)) / 2.0
    y = (X[:, :4].sum(axis=1) + 0.5 * rng.standard_normal(n) > 2.0).astype(int)
    return X, y


def duplicated_data(rng, n=180, D=30):
    # every row twice, a fifth of the copies with the other label (mixed-label exact ties)
    X, y = random_data(rng, n // 2, D)
    X = np.concatenate([X, X])
    y = np.concatenate([y, np.where(rng.random(y.size) < 0.2, 1 - y, y)])
    return X, y


def three_classes(rng, n=180, D=30):
    X = rng.random((n, D))
    y = np.digitize(X[:, 0] + X[:, 1] + 0.2 * rng.standard_normal(n), [0.7, 1.3])
    return X, y


DATA = {"random": random_data, "discrete": discrete_data, "duplicated": duplicated_data,
        "three_classes": three_classes}


def kernel_predictions(ev, mask, features, windows):
    """The flip kernel's (pred, unc, n_unc) for ``features`` of ``mask``, with the determined
    windows or with every one switched off."""
    from pymoo_fs.evaluation.knn.kernels import flips

    folds = ev._layout.kernel_folds()
    G, sq, m2, r2, eps = ev._gram.base_matrix(mask, folds, ev._seeds, 1)
    cols = np.flatnonzero(mask)
    with ParallelContext(1):
        tables = flips.flip_tables(G, sq, folds, 64, 1, flips.NO_SEED)
        order, dist, complete, det_lab, det_w, det_d = tables
        if not windows:
            det_lab = np.full_like(det_lab, -1)
        out = flips.flip_predict(ev._gram.data(float64=True), folds, G, sq, m2, r2, eps, cols,
                                 np.asarray(features, dtype=np.int64), order, dist, complete,
                                 det_lab, det_w, det_d, 2)
    return out[:3], det_lab


@pytest.mark.parametrize("k", [1, 5])
@pytest.mark.parametrize("kind", sorted(DATA))
def test_windows_change_no_prediction_and_scores_equal_sklearn(rng, kind, k):
    X, y = DATA[kind](rng)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, random_state=0, cache_size=0)
    ev._paths.force = "gram"  # 15 or fewer features could go to the tree path
    mask = rng.random(X.shape[1]) < 0.6
    features = np.concatenate([rng.choice(np.flatnonzero(mask), 6, replace=False),
                               rng.choice(np.flatnonzero(~mask), 6, replace=False)])
    (pred, unc, n_unc), det_lab = kernel_predictions(ev, mask, features, True)
    (pred0, unc0, n_unc0), _ = kernel_predictions(ev, mask, features, False)
    # the windows answer some rows (else this test would test nothing) ...
    assert (det_lab >= 0).mean() > 0.2
    # ... with the scan's certified vote; a row the scan could not certify (a mixed-label
    # band at the k-th place, all of it inside the window) may be answered by its window: the
    # scores below check those against scikit-learn
    assert not unc[~unc0].any()
    np.testing.assert_array_equal(pred[~unc0], pred0[~unc0])
    got = ev.score_flips(mask, features)
    expected = [sklearn_score(ev.X, y, m, k, ev.folds) for m in flipped(mask, features)]
    np.testing.assert_array_equal(got, expected)


def test_windows_on_isolet_sized_rows_equal_the_scan(rng):
    # long rows (n = 600), 26 classes in clusters: most rows are answered by their window
    n, D = 600, 40
    centres = rng.random((26, D))
    y = rng.integers(0, 26, n)
    X = np.clip(centres[y] + 0.25 * rng.standard_normal((n, D)), 0.0, 1.0)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, random_state=0, cache_size=0)
    mask = rng.random(D) < 0.5
    features = np.arange(D)
    (pred, unc, _), det_lab = kernel_predictions(ev, mask, features, True)
    (pred0, unc0, _), _ = kernel_predictions(ev, mask, features, False)
    assert (det_lab >= 0).mean() > 0.5
    assert not unc[~unc0].any()
    np.testing.assert_array_equal(pred[~unc0], pred0[~unc0])
    np.testing.assert_array_equal(ev.score_flips(mask, features),
                                  ev.score(flipped(mask, features)))


def test_determined_window_of_hand_made_rows():
    from pymoo_fs.evaluation.knn.kernels.flips import _determined_window

    y = np.array([0, 0, 1, 0, 0, 1, 1, 2])
    counts = np.zeros(3, dtype=np.int64)
    ds = np.arange(8, dtype=float)
    # k = 5: candidates 0, 1, 3, 4 (label 0) and 2 (label 1): one other label in the first
    # five; the sixth entry (label 1) makes two of seven-to-be, and 5 > 2 * 2 still holds;
    # the seventh makes three others: 5 <= 6 breaks it
    ids = np.arange(8)
    label, w, bound = _determined_window(ids, ds, 8, False, y, 5, counts)
    assert (label, w, bound) == (0, 6, 6.0)
    # k = 1: the window is the run of the first label
    label, w, bound = _determined_window(ids, ds, 8, False, y, 1, counts)
    assert (label, w, bound) == (0, 2, 2.0)
    # no determined window: the first k entries split (labels 1, 0 for k = 2), while with
    # k = 3 the first three (1, 0, 1) give label 1 and the fourth (0) breaks it
    ids2 = np.array([2, 0, 5, 1, 6, 3, 4, 7])
    assert _determined_window(ids2, ds, 8, False, y, 2, counts)[0] == -1
    assert _determined_window(ids2, ds, 8, False, y, 3, counts) == (1, 3, 3.0)
    # fewer candidates than k
    assert _determined_window(ids, ds, 2, True, y, 5, counts)[0] == -1
    # the window holds every candidate of a complete row: nothing is outside it
    y0 = np.zeros(8, dtype=np.int64)
    assert _determined_window(ids, ds, 8, True, y0, 5, counts) == (0, 8, np.inf)
    # ... and of an incomplete prefix: candidates beyond it are at least its last distance
    assert _determined_window(ids, ds, 8, False, y0, 5, counts) == (0, 8, 7.0)


def test_score_flips_reproducible_across_threads_and_evaluators(rng):
    X, y = discrete_data(rng, n=240, D=40)
    mask = rng.random(40) < 0.5
    features = np.arange(40)
    runs = []
    for threads in (1, 2, 1):
        ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, random_state=3, n_threads=threads,
                          cache_size=0)
        ev._paths.force = "gram"
        runs.append(ev.score_flips(mask, features))
    np.testing.assert_array_equal(runs[0], runs[1])
    np.testing.assert_array_equal(runs[0], runs[2])


# ------------------------------------------------------------------ seeded prefixes
def reference_tables(G, sq, folds, L):
    """Each row's ``L`` smallest (distance, index) pairs of its candidates, by numpy."""
    R = folds.row_q.size
    order = np.full((R, L), -1, dtype=np.int64)
    dist = np.full((R, L), np.inf)
    for r in range(R):
        q = folds.row_q[r]
        j = np.flatnonzero(folds.cand[folds.row_f[r]])
        v = sq[q] + sq[j] - 2.0 * G[q, j]
        v = np.where(v > 0.0, v, 0.0)
        keep = np.lexsort((j, v))[:L]
        order[r, :keep.size], dist[r, :keep.size] = j[keep], v[keep]
    return order, dist


def base_gram(ev, mask):
    """A copy of ``mask``'s Gram matrix and diagonal (the kept one may be replaced later, and
    a rebuilt one may differ in its last bits)."""
    folds = ev._layout.kernel_folds()
    G, sq, *_ = ev._gram.base_matrix(mask, folds, ev._seeds, 1)
    return G.copy(), sq.copy()


def tables_of(ev, G, sq, L, threads, seed):
    from pymoo_fs.evaluation.knn.kernels import flips

    with ParallelContext(threads):
        return flips.flip_tables(G, sq, ev._layout.kernel_folds(), L, threads, seed)


@pytest.mark.parametrize("L", [3, 8, 64])
@pytest.mark.parametrize("kind", ["discrete", "duplicated", "random"])
def test_seeded_prefixes_are_the_unseeded_ones_bit_for_bit(rng, kind, L):
    from pymoo_fs.evaluation.knn.kernels import flips

    X, y = DATA[kind](rng)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=5, random_state=0, cache_size=0)
    D, n = X.shape[1], X.shape[0]
    mask = rng.random(D) < 0.5
    near = mask.copy()
    near[rng.choice(D, 2, replace=False)] ^= True  # a swap-like neighbour base
    G_near, sq_near = base_gram(ev, near)
    G_far, sq_far = base_gram(ev, ~mask)
    G, sq = base_gram(ev, mask)
    plain = tables_of(ev, G, sq, L, 1, flips.NO_SEED)
    # the kernel's prefixes are the L smallest (distance, index) pairs: equal distances in
    # index order, the smaller indices kept where equal distances straddle the L-th place
    ref_order, ref_dist = reference_tables(G, sq, ev._layout.kernel_folds(), L)
    np.testing.assert_array_equal(plain[0], ref_order)
    np.testing.assert_array_equal(plain[1], ref_dist)
    R = plain[0].shape[0]
    garbage = rng.integers(-1, n + 5, (R, 2 * L))  # out of range, repeats, non-candidates
    garbage[:, :3] = plain[0][:, :1]  # a repeated good entry first
    short = plain[0].copy()
    short[:, L // 2:] = -1  # rows cut short
    seeds = {"near": tables_of(ev, G_near, sq_near, L, 1, flips.NO_SEED)[0],
             "far": tables_of(ev, G_far, sq_far, L, 1, flips.NO_SEED)[0],
             "wide": tables_of(ev, G_near, sq_near, 2 * L, 1, flips.NO_SEED)[0],
             "itself": plain[0], "garbage": garbage, "short": short,
             "wrong rows": plain[0][:-1]}
    for name, seed in seeds.items():
        for threads in (1, 3):
            got = tables_of(ev, G, sq, L, threads, np.ascontiguousarray(seed))
            for a, b in zip(got, plain):
                np.testing.assert_array_equal(a, b, err_msg=f"seed {name}, {threads} threads")


def test_consecutive_flip_bases_score_as_fresh_ones(rng):
    # the evaluator seeds each base's prefixes with the last base's: a chain of close bases
    # (a local search's swaps) scores as a fresh evaluator scores each base alone
    X, y = discrete_data(rng, n=200, D=30)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=5, random_state=0, cache_size=0)
    ev._paths.force = "gram"
    mask = rng.random(30) < 0.5
    for step in range(6):
        outside, inside = np.flatnonzero(~mask), np.flatnonzero(mask)
        base = mask.copy()
        base[outside[step % outside.size]] = True
        features = np.flatnonzero(base)
        got = ev.score_flips(base, features)
        assert ev._flip_seed is not None
        fresh = KNNEvaluator(X, y, n_neighbors=5, cv=5, random_state=0, cache_size=0)
        fresh._paths.force = "gram"
        np.testing.assert_array_equal(got, fresh.score_flips(base, features))
        if step == 2:
            expected = [sklearn_score(ev.X, y, m, 5, ev.folds) for m in flipped(base, features)]
            np.testing.assert_array_equal(got, expected)
        mask[[outside[step % outside.size], inside[0]]] ^= True
    ev.clear_cache()
    assert ev._flip_seed is None


def test_next_prefix_rule():
    # doubled past 2 % rescanned rows, halved under 1 % past half, bounded by 64 and min(512, n)
    from pymoo_fs.evaluation.knn.evaluator import _next_prefix

    assert _next_prefix(64, 1000, 500, 21, 5000) == 128
    assert _next_prefix(64, 1000, 500, 20, 5000) == 64  # 2 % exactly: kept
    assert _next_prefix(512, 1000, 900, 900, 5000) == 512  # the largest
    assert _next_prefix(256, 1000, 900, 900, 300) == 300  # no longer than the rows
    assert _next_prefix(128, 1000, 9, 0, 5000) == 64
    assert _next_prefix(128, 1000, 10, 0, 5000) == 128  # 1 % exactly: kept
    assert _next_prefix(64, 1000, 0, 0, 5000) == 64  # the shortest
    assert _next_prefix(64, 0, 0, 0, 5000) == 64  # no removal rows: no evidence


@pytest.mark.parametrize("k", [1, 5])
def test_removals_from_small_bases_grow_the_prefix_and_score_as_sklearn(rng, k):
    # 400 rows, removals from 4-feature bases: each removed feature spans far more than the
    # rows' neighbour distances, so most rows scan past 64 entries; the prefix grows, and
    # every length scores the flips as scikit-learn does
    from pymoo_fs.evaluation.knn import evaluator as module

    X = rng.random((400, 12))
    y = (X[:, 0] + X[:, 1] + 0.2 * rng.standard_normal(400) > 1.0).astype(int)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, random_state=0, cache_size=0)
    ev._paths.force = "gram"
    base = np.zeros(12, dtype=bool)
    base[:4] = True
    features = np.arange(4)
    expected = [sklearn_score(ev.X, y, m, k, ev.folds) for m in flipped(base, features)]
    lengths = []
    for _ in range(4):
        np.testing.assert_array_equal(ev.score_flips(base, features), expected)
        lengths.append(ev._flip_prefix)
    assert lengths[0] == 2 * module._FLIP_PREFIX
    assert lengths[-1] > lengths[0]
    # additions build their own prefix and leave the removals' length alone
    before = ev._flip_prefix
    added = np.arange(4, 12)
    np.testing.assert_array_equal(
        ev.score_flips(base, added),
        [sklearn_score(ev.X, y, m, k, ev.folds) for m in flipped(base, added)])
    assert ev._flip_prefix == before
    assert ev._flip_seed.shape[1] == module._FLIP_PREFIX_ADD
    ev.clear_cache()
    assert ev._flip_prefix == module._FLIP_PREFIX
    assert ev._flip_prefix_add == module._FLIP_PREFIX_ADD


def test_additions_prefix_adapts_but_not_from_the_empty_mask(rng):
    # from the empty mask every distance is 0 and every row is rescanned whatever the prefix:
    # no evidence, the additions' length stays; from a 2-feature base on 400 rows few rows
    # reach past half of 256 entries, so it halves; every length scores as scikit-learn
    from pymoo_fs.evaluation.knn import evaluator as module

    X = rng.random((400, 12))
    y = (X[:, 0] + X[:, 1] + 0.2 * rng.standard_normal(400) > 1.0).astype(int)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=5, random_state=0, cache_size=0)
    ev._paths.force = "gram"
    base = np.zeros(12, dtype=bool)
    features = np.arange(12)
    np.testing.assert_array_equal(
        ev.score_flips(base, features),
        [sklearn_score(ev.X, y, m, 5, ev.folds) for m in flipped(base, features)])
    assert ev._flip_prefix_add == module._FLIP_PREFIX_ADD
    base[:2] = True
    lengths = []
    for _ in range(3):
        np.testing.assert_array_equal(
            ev.score_flips(base, features[2:]),
            [sklearn_score(ev.X, y, m, 5, ev.folds) for m in flipped(base, features[2:])])
        lengths.append(ev._flip_prefix_add)
    assert lengths[0] == module._FLIP_PREFIX_ADD // 2 and lengths[-1] == module._FLIP_PREFIX
    assert ev._flip_prefix == module._FLIP_PREFIX  # the removals' length untouched
