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
        order, dist, complete, det_lab, det_w, det_d = flips.flip_tables(G, sq, folds, 64, 1)
        if not windows:
            det_lab = np.full_like(det_lab, -1)
        out = flips.flip_predict(ev._gram.data(float64=True), folds, G, sq, m2, r2, eps, cols,
                                 np.asarray(features, dtype=np.int64), order, dist, complete,
                                 det_lab, det_w, det_d, 2)
    return out, det_lab


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
