"""The tree path for small subsets (kernels/tree.py, paths.py): the same scores as
cross_val_score on tie-heavy data, through score, score_flips and batches."""

import pickle

import numpy as np
import pytest
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pymoo_fs.datasets import holdout_split, load_dataset
from pymoo_fs.evaluation import KNNEvaluator
from pymoo_fs.evaluation.knn import selfcheck
from pymoo_fs.evaluation.knn.kernels import sklearn_replay
from pymoo_fs.evaluation.knn.layout import ColumnRanks
from pymoo_fs.evaluation.knn.paths import DIRECT_PROBE, DIRECT_TIES, PathChooser


def sklearn_score(ev, mask, k, scoring="accuracy"):
    if not mask.any():
        return 0.0
    return cross_val_score(KNeighborsClassifier(k), ev.X[:, mask], ev.y, cv=ev.folds,
                           scoring=scoring).mean()


def tie_heavy(rng, n=260, d=9):
    """Three values per feature, a sixth of the rows duplicated, and a binary column: most
    rows' k-th place is a tie, many of mixed labels."""
    X = np.round(rng.random((n, d)) * 2) / 2
    X[:n // 6] = X[n // 6:2 * (n // 6)]
    X[:, 3] = rng.integers(0, 2, n)
    y = rng.integers(0, 3, n)
    return X, y


def small_masks(rng, d, count=8):
    """``count`` distinct masks of 1 to 5 features."""
    masks = []
    while len(masks) < count:
        m = np.zeros(d, dtype=bool)
        m[rng.choice(d, 1 + len(masks) % 5, replace=False)] = True
        if not any(np.array_equal(m, other) for other in masks):
            masks.append(m)
    return np.array(masks)


@pytest.mark.parametrize("k, cv, scoring", [(1, 10, "accuracy"), (3, 5, "balanced_accuracy"),
                                            (5, 10, "accuracy"), (5, "loo", "accuracy")])
def test_tree_path_equals_sklearn_on_ties(rng, k, cv, scoring):
    X, y = tie_heavy(rng)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=cv, scoring=scoring, cache_size=0)
    ev._paths.force = "tree"
    masks = small_masks(rng, X.shape[1])
    expected = [sklearn_score(ev, m, k, scoring) for m in masks]
    np.testing.assert_array_equal(ev.score(masks), expected)  # a batch
    np.testing.assert_array_equal([ev.score(m)[0] for m in masks], expected)  # one by one
    assert ev._paths.n_tree == 2 * masks.shape[0]
    assert ev._settler.n_uncertified > 0  # ties were replayed on the folds' trees
    assert ev._settler.n_sklearn_rows == 0


@pytest.mark.parametrize("k, cv, force", [(5, 10, "tree"), (1, "loo", "tree"),
                                           (3, 10, None)])
def test_forward_steps_by_flips_equal_sklearn(rng, k, cv, force):
    # SFS's first steps: flips of the empty mask, then of a one- and a two-feature base
    X, y = tie_heavy(rng)
    ev = KNNEvaluator(X, y, n_neighbors=k, cv=cv, cache_size=0)
    ev._paths.force = force
    D = X.shape[1]
    base = np.zeros(D, dtype=bool)
    for _ in range(3):
        got = ev.score_flips(base)
        flipped = np.repeat(base[None, :], D, axis=0)
        flipped[np.arange(D), np.arange(D)] ^= True
        np.testing.assert_array_equal(got, [sklearn_score(ev, m, k) for m in flipped])
        candidates = np.flatnonzero(~base)
        base[candidates[np.argmax(got[candidates])]] = True
    if force == "tree":
        assert ev._paths.n_tree > 0


def test_default_choice_takes_the_tree_for_single_features_on_many_rows(rng):
    X = rng.random((1200, 20))
    y = (X[:, 0] + 0.3 * rng.random(1200) > 0.6).astype(int)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
    masks = np.eye(20, dtype=bool)[:4]
    expected = [sklearn_score(ev, m, 5) for m in masks]
    np.testing.assert_array_equal(ev.score(masks), expected)
    assert ev._paths.n_tree == 4
    wide = np.ones((2, 20), dtype=bool)  # 20 features: scikit-learn's brute force
    wide[1, 0] = False
    np.testing.assert_array_equal(ev.score(wide), [sklearn_score(ev, m, 5) for m in wide])
    assert ev._paths.n_tree == 4


def test_no_tree_where_scikit_learn_takes_brute_force_or_the_replay_is_off(rng, monkeypatch):
    X, y = tie_heavy(rng, n=40)
    # k >= n_train // 2 in the folds: scikit-learn takes brute force, so must we
    ev = KNNEvaluator(X, y, n_neighbors=16, cv=4, cache_size=0)
    ev._paths.force = "tree"
    masks = small_masks(rng, X.shape[1], 4)
    np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 16) for m in masks])
    assert ev._paths.n_tree == 0
    monkeypatch.setattr(selfcheck, "kd_tree_verified", lambda: False)
    X, y = tie_heavy(rng)
    ev = KNNEvaluator(X, y, n_neighbors=3, cv=5, cache_size=0)
    ev._paths.force = "tree"
    np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 3) for m in masks])
    assert ev._paths.n_tree == 0


def test_kd_tree_check_passes_in_this_environment():
    assert selfcheck.kd_tree_verified()


def test_early_stop_of_the_replayed_query_keeps_the_neighbours(rng):
    # Given the k-th distance and the count strictly nearer, the query stops once its heap
    # holds them: the neighbours are those of the whole query.
    X = np.round(rng.random((300, 2)) * 2) / 2
    keys = sklearn_replay.kd_keys(X)
    tree = sklearn_replay.kd_lazy(X, 30, keys)
    k = 5
    vals, nbr = np.empty(k), np.empty(k, dtype=np.int64)
    stack = np.empty(2 * tree.start.size + 2, dtype=np.int64)
    lbs = np.empty(2 * tree.start.size + 2)
    stops = 0
    for q in np.round(rng.random((40, 2)) * 2) / 2:
        sklearn_replay.kd_query(tree, q, k, vals, nbr, stack, lbs)
        full = set(nbr.tolist())
        d = ((X - q) ** 2).sum(axis=1)
        t = np.sort(d)[k - 1]
        sklearn_replay.kd_query(tree, q, k, vals, nbr, stack, lbs, t, int((d < t).sum()))
        assert set(nbr.tolist()) == full
        stops += int((d == t).sum() > k - (d < t).sum())
    assert stops > 20  # most queries had ties straddling the k-th place


def test_cost_model_prefers_the_tree_for_few_features_on_many_rows():
    paths = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
    assert paths.tree_seconds(1) < paths.gram_seconds(1, True)
    assert paths.tree_seconds(3) < paths.gram_seconds(3, True)
    choice = paths.tree_sizes(np.array([1, 3, 15, 16]), True, True)
    assert choice[:2].all() and not choice[3]
    assert not paths.tree_sizes(np.array([1, 3]), True, False).any()  # replay not verified
    small = PathChooser(n=60, n_rows=60, k=5, smallest_train=54, n_folds=10)
    assert small.tree_seconds(12) > small.gram_seconds(12, True)
    # ties learned from the masks scored make the tree dearer, open rows the Gram path
    before = paths.tree_seconds(2)
    paths.record_tree(np.array([2]), np.array([40 * 2000]), np.array([2000]))
    assert paths.tree_seconds(2) > before
    paths = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
    before = paths.gram_seconds(4, True)
    paths.record_gram(np.array([4]), np.array([1000]))
    assert paths.gram_seconds(4, True) > before


def test_cost_model_prices_additions_and_removals_by_their_own_sizes():
    # splice-like: every row of a one-feature mask tied at the k-th place (learned), so a
    # one-feature mask by the tree is dear; additions to a base of 2 make masks of 3
    # features, which the tree prices without ties: the one-feature price must not count
    paths = PathChooser(n=2233, n_rows=2233, k=5, smallest_train=2000, n_folds=10)
    paths.record_tree(np.array([1]), np.array([0]), np.array([2233]))
    assert paths.tree_seconds(1) > paths.tree_seconds(3)
    assert paths.flips_to_tree(2, 58, 0, True)
    n_add_only = 58 * paths.tree_seconds(3)
    assert n_add_only < paths.flip_seconds(2, 58, 0)
    # removals from a base of 2 make one-feature masks: priced as such
    assert 58 * paths.tree_seconds(1) > 58 * paths.tree_seconds(3)
    # a base of 15 cannot add by the tree (16 features) but can remove
    assert not paths.flips_to_tree(15, 3, 0, True)
    paths.force = "tree"
    assert paths.flips_to_tree(15, 0, 15, True) and not paths.flips_to_tree(15, 1, 14, True)
    assert not paths.flips_to_tree(2, 58, 0, False)  # replay not verified


def test_cost_model_counts_the_trees_ties_as_open_rows_of_the_other_paths():
    # a row tied at the k-th place with mixed labels is open on the Gram and flip paths too:
    # once the tree path has seen them, the Gram path's replay is priced before it is measured
    paths = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
    gram, flips = paths.gram_seconds(3, True), paths.flip_seconds(2, 10, 0)
    removals = paths.flip_seconds(2, 0, 10)
    paths.record_tree(np.array([3]), np.array([40 * 2000]), np.array([1000]))
    assert paths.gram_seconds(3, True) > gram
    assert paths.flip_seconds(2, 10, 0) > flips  # additions make masks of 3
    assert paths.flip_seconds(2, 0, 10) == removals  # removals masks of 1: nothing learned
    # a size not measured yet inherits the ties of the largest smaller one where most rows
    # tie there (binary data: semeion's third forward step), not where few do (continuous)
    for tied, dearer in [(2000, True), (400, False)]:
        fresh = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
        before = fresh.flip_seconds(5, 10, 0), fresh.gram_seconds(5, True)
        fresh.record_tree(np.array([4]), np.array([40 * 2000]), np.array([tied]))
        after = fresh.flip_seconds(5, 10, 0), fresh.gram_seconds(5, True)
        assert (after[0] > before[0]) == dearer and (after[1] > before[1]) == dearer
    # the learned open rows of the Gram path count where they are more
    paths.record_gram(np.array([3]), np.array([2000]))
    paths.record_gram(np.array([3]), np.array([2000]))
    assert paths._open(paths._gram_open, 3, 3) > 0.5


def test_path_probes_measure_ties_of_new_sizes_first():
    paths = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
    sizes = np.array([12, 3, 12, 16, 16, 12, 9, 3, 14, 14])
    # without measurements the estimates send 3 to the tree path, 9 to 16 to the Gram path
    np.testing.assert_array_equal(paths.tree_sizes(np.array([3, 9, 12, 14]), True, True),
                                  [True, False, False, False])
    # the first mask of each size of 1 to 15 held more than once and headed for the Gram path
    np.testing.assert_array_equal(
        paths.path_probes(sizes, True, True),
        [True, False, False, False, False, False, False, False, True, False])
    assert not paths.path_probes(sizes, True, False).any()  # replay not verified
    # a size with ties or open rows measured is not probed again
    paths.record_tree(np.array([12]), np.array([0]), np.array([100]), learn_visits=False)
    assert 12 in paths._ties.values and 12 not in paths.visits  # a probe counts ties only
    paths.record_gram(np.array([14]), np.array([0]))
    assert not paths.path_probes(sizes, True, True).any()
    # nor one that inherits the ties of a mostly tied smaller size
    carried = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
    carried.record_tree(np.array([4]), np.array([0]), np.array([2000]))
    assert not carried.path_probes(sizes, True, True).any()
    forced = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
    forced.force = "gram"
    assert not forced.path_probes(sizes, True, True).any()
    assert not PathChooser(60, 60, 5, 8, 10).path_probes(sizes, True, True).any()  # k too big


def coded_batch(rng):
    """900 rows of 12 features with four values each (most rows of a six-feature subset tie
    at the k-th place), three classes, and six distinct masks of six features."""
    X = np.round(rng.random((900, 12)) * 3) / 3
    y = rng.integers(0, 3, 900)
    masks = np.zeros((6, 12), dtype=bool)
    while np.unique(masks, axis=0).shape[0] < 6:
        masks[:] = False
        for i in range(6):
            masks[i, rng.choice(12, 6, replace=False)] = True
    return X, y, masks


def test_a_probe_sends_a_tie_heavy_batch_to_the_tree_and_scores_stay_exact(rng):
    # without the probe the cost model assumes no ties for a size it has not seen, and this
    # batch of six-feature masks on coded data went by the Gram path, whose exact replay of
    # nearly every row cost about three times the tree's (40 against 15 ms for the batch)
    # (the evaluator probes once the tree path is checked in the process)
    assert selfcheck.kd_tree_verified()
    X, y, masks = coded_batch(rng)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
    np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 5) for m in masks])
    assert ev._paths._ties.values[6] > 0.5
    assert ev._paths.n_tree == masks.shape[0]
    # continuous data: the probe alone goes by the tree, the rest by the Gram path
    Xc = rng.random((900, 12))
    ev = KNNEvaluator(Xc, y, n_neighbors=5, cv=10, cache_size=0)
    np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 5) for m in masks])
    assert ev._paths.n_tree == 1 and ev._paths._ties.values[6] == 0.0
    assert 6 not in ev._paths.visits


def test_a_probe_does_not_pay_the_tree_paths_check(rng, monkeypatch):
    # in a process where the tree path is not checked yet, a probe would cost the check
    # (about 0.45 s): the batch goes by the estimates, and the Gram path's open rows teach
    # the next batch
    import sklearn

    monkeypatch.setattr(selfcheck, "_STATE", {})
    X, y, masks = coded_batch(rng)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
    assert ev._paths.path_probes(np.count_nonzero(masks, axis=1), ev._gram.single, True).any()
    np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 5) for m in masks])
    assert ev._paths.n_tree == 0 and ("tree", sklearn.__version__) not in selfcheck._STATE
    assert not selfcheck.kd_tree_verified(check=False)
    assert ev._paths._gram_open.values[6] > 0.5  # measured by the Gram path instead


def test_cost_model_replays_mostly_tied_sizes_directly_and_keeps_measuring():
    paths = PathChooser(n=2000, n_rows=2000, k=5, smallest_train=1800, n_folds=10)
    sizes = np.array([1, 2, 3, 3])
    assert not paths.tree_direct(sizes).any()  # nothing learned yet
    below, above = 0.9 * DIRECT_TIES, 1.1 * DIRECT_TIES
    paths.record_tree(np.array([1, 2, 3]), np.array([0, 9000, 9000]),
                      np.array([2000, round(2000 * below), round(2000 * above)]))
    # one feature keeps its sorted order; 2 features: tied just below DIRECT_TIES
    choice = np.concatenate([paths.tree_direct(sizes) for _ in range(DIRECT_PROBE)])
    assert not choice[0::4].any() and not choice[1::4].any()
    # 3 features, just above: direct, but one mask in DIRECT_PROBE goes by the search
    threes = np.concatenate([choice[2::4], choice[3::4]])
    assert threes.size == 2 * DIRECT_PROBE
    assert np.count_nonzero(~threes) == threes.size // DIRECT_PROBE
    # a direct mask measures neither ties nor visits; a searched one does
    before = dict(paths._ties.values), dict(paths.visits)
    paths.record_tree(np.array([3]), np.array([0]), np.array([2000]), np.array([True]))
    assert paths._ties.values == before[0] and paths.visits == before[1]
    assert paths.n_direct == 1 and paths.n_tree == 4
    paths.record_tree(np.array([3]), np.array([100]), np.array([0]), np.array([False]))
    assert paths._ties.get(3, None) < before[0][3]
    paths.force = "direct"
    np.testing.assert_array_equal(paths.tree_direct(np.array([1, 2, 15])), [False, True, True])
    # probes: the first mask of each unmeasured size of 2+ features that has company
    paths.force = None
    np.testing.assert_array_equal(paths.tree_probes(np.array([5, 3, 5, 1, 1, 4, 5])),
                                  [True, False, False, False, False, False, False])
    paths.force = "tree"
    assert not paths.tree_probes(np.array([5, 5])).any()


def test_one_batch_probes_a_size_then_replays_the_rest_directly(rng):
    X, y = tie_heavy(rng, n=1500, d=9)  # large enough for the tree path's cost
    masks = np.zeros((12, 9), dtype=bool)
    for mask in masks:
        mask[rng.choice(9, 2, replace=False)] = True
    masks = np.unique(masks, axis=0)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=5, cache_size=0)
    np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 5) for m in masks])
    assert ev._paths.n_tree == masks.shape[0]
    assert ev._paths._ties.get(2, 0.0) >= 0.5  # measured on the probe
    rest = masks.shape[0] - 1  # all but the probe, and one in DIRECT_PROBE of them
    assert ev._paths.n_direct == rest - rest // DIRECT_PROBE


@pytest.mark.parametrize("k", [1, 5])
def test_direct_replay_equals_sklearn_on_tie_heavy_and_continuous_data(rng, k):
    for X, y in [tie_heavy(rng, n=160, d=8), (rng.random((160, 8)), rng.integers(0, 3, 160))]:
        masks = small_masks(rng, X.shape[1], 6)
        masks[0] = False
        masks[0, 3] = True  # one feature
        for force in ("direct", "tree"):
            ev = KNNEvaluator(X, y, n_neighbors=k, cv=5, cache_size=0)
            ev._paths.force = force
            expected = [sklearn_score(ev, m, k) for m in masks]
            np.testing.assert_array_equal(ev.score(masks), expected)  # a batch
            np.testing.assert_array_equal([ev.score(m)[0] for m in masks[:3]], expected[:3])
            sizes = masks.sum(axis=1)
            n_multi = int(np.count_nonzero(sizes >= 2) + np.count_nonzero(sizes[:3] >= 2))
            assert ev._paths.n_direct == (n_multi if force == "direct" else 0)
            if force == "direct":  # only one-feature masks (searched) leave rows open
                n_one = int(np.count_nonzero(sizes == 1) + np.count_nonzero(sizes[:3] == 1))
                assert ev._settler.n_uncertified <= n_one * ev._layout.rows.size


@pytest.mark.parametrize("force", ["tree", "direct", "gram"])
def test_replayed_trees_follow_unsorted_training_indices(rng, force):
    # a CV splitter whose training indices are not increasing: scikit-learn's kd-tree breaks
    # ties of value by the position in X[train], not by the sample's index, so the keys
    # cannot be gathered from the columns' ranks and are made from the fold's own points
    X, y = tie_heavy(rng, n=150, d=6)
    perm = rng.permutation(150)
    cv = [(rng.permutation(np.setdiff1d(perm, perm[f::3])), np.sort(perm[f::3]))
          for f in range(3)]
    masks = small_masks(rng, X.shape[1], 6)
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=cv, cache_size=0)
    ev._paths.force = force
    expected = [cross_val_score(KNeighborsClassifier(5), X[:, m], y, cv=cv).mean()
                for m in masks]
    np.testing.assert_array_equal(ev.score(masks), expected)
    if force == "direct":  # every row of 2+ features replayed by choice
        assert ev._paths.n_direct == np.count_nonzero(masks.sum(axis=1) >= 2)
    else:
        assert ev._settler.n_uncertified > 0  # ties were replayed


def test_column_ranks_over_blocks_of_columns_equal_a_stable_sort(rng):
    # more columns than one sort block, asked for out of order and in two calls
    X = np.round(rng.random((40, 1300)) * 3)
    ranks = ColumnRanks(X)
    ranks.ensure(np.arange(700, 0, -3))
    got = ranks.ensure(np.arange(1300))
    np.testing.assert_array_equal(got, np.argsort(np.argsort(X, axis=0, kind="stable"),
                                                  axis=0).T)


def test_column_ranks_order_signed_zeros_as_equal_values_and_are_not_pickled(rng):
    # -0.0 == 0.0 for scikit-learn's comparator: equal values, ordered by index
    X = rng.integers(-1, 2, (120, 4)).astype(float) * 0.0  # -0.0, 0.0 and 0.0
    X[:, 1] = rng.integers(0, 3, 120)
    X[::7, 2] = 1.0
    assert np.signbit(X[:, 0]).any() and not np.signbit(X[:, 0]).all()
    ranks = ColumnRanks(X)
    np.testing.assert_array_equal(ranks.ensure([0])[0], np.arange(120))
    np.testing.assert_array_equal(np.argsort(ranks.ensure([2, 1])[1]),
                                  np.argsort(X[:, 1], kind="stable"))
    y = rng.integers(0, 2, 120)
    masks = np.array([[1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 1, 0], [0, 1, 0, 1]], dtype=bool)
    for force in ("tree", "direct"):
        ev = KNNEvaluator(X, y, n_neighbors=5, cv=5, cache_size=0)
        ev._paths.force = force
        np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 5) for m in masks])
    copy = pickle.loads(pickle.dumps(ev))
    assert copy._settler.ranks._array is None and copy._settler.ranks._X is copy.X
    np.testing.assert_array_equal(copy.score(masks), ev.score(masks))


def test_tree_path_on_discrete_shared_data(shared_data_dir, rng):
    # splice: four values per column, every small subset's rows tie at the k-th place
    split = holdout_split(load_dataset("splice", data_dir=shared_data_dir), random_state=0)
    X, y = split.X_train[:900], split.y_train[:900]
    ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
    masks = small_masks(rng, X.shape[1], 6)
    np.testing.assert_array_equal(ev.score(masks), [sklearn_score(ev, m, 5) for m in masks])
    base = masks[0]
    features = rng.choice(X.shape[1], 6, replace=False)
    flipped = np.repeat(base[None, :], 6, axis=0)
    flipped[np.arange(6), features] ^= True
    np.testing.assert_array_equal(ev.score_flips(base, features),
                                  [sklearn_score(ev, m, 5) for m in flipped])
    assert ev._paths.n_tree > 0


def test_tree_path_on_small_training_parts_and_at_the_brute_force_boundary(rng):
    # 3 folds of 10 rows: each training part holds 20, so scikit-learn takes its kd-tree for
    # k <= 9 and brute force from k = 10 (k >= n_train // 2); both sides equal scikit-learn
    X, y = tie_heavy(rng, n=30, d=6)
    masks = small_masks(rng, X.shape[1], 6)
    for k, tree_used in [(1, True), (5, True), (9, True), (10, False)]:
        ev = KNNEvaluator(X, y, n_neighbors=k, cv=3, cache_size=0)
        ev._paths.force = "tree"
        assert min(len(train) for train, _ in ev.folds) == 20
        np.testing.assert_array_equal(ev.score(masks),
                                      [sklearn_score(ev, m, k) for m in masks])
        assert (ev._paths.n_tree > 0) == tree_used


@pytest.mark.parametrize("k", [1, 5])
def test_tree_path_on_constant_and_duplicated_columns(rng, k):
    # every distance of a constant column is 0 and of a two-valued one mostly 0: every row's
    # k-th place is a tie of mixed labels, settled by the fold's own tree
    n = 120
    X = np.column_stack([np.zeros(n), rng.integers(0, 2, n), rng.integers(-1, 2, n) * 1e3,
                         rng.random(n)])
    X = np.vstack([X, X[:40]])  # 40 duplicated rows (one copy may land in another fold)
    y = rng.integers(0, 2, X.shape[0])
    masks = np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [1, 1, 0, 0], [0, 1, 1, 0],
                      [1, 1, 1, 1], [0, 0, 0, 1]], dtype=bool)
    for cv in (5, 10):
        ev = KNNEvaluator(X, y, n_neighbors=k, cv=cv, cache_size=0)
        ev._paths.force = "tree"
        expected = [sklearn_score(ev, m, k) for m in masks]
        np.testing.assert_array_equal(ev.score(masks), expected)
        np.testing.assert_array_equal([ev.score(m)[0] for m in masks], expected)
        assert ev._paths.n_tree == 2 * masks.shape[0]
        assert ev._settler.n_uncertified > 0


def test_tree_and_gram_paths_give_the_same_scores(rng):
    # the path decides only the speed: forced tree, forced Gram and the cost model's choice
    X, y = tie_heavy(rng, n=200, d=12)
    masks = small_masks(rng, X.shape[1], 10)
    scores = {}
    for force in ("tree", "gram", None):
        ev = KNNEvaluator(X, y, n_neighbors=5, cv=10, cache_size=0)
        ev._paths.force = force
        scores[force] = ev.score(masks)
        if force is not None:
            assert ev._paths.n_tree == (masks.shape[0] if force == "tree" else 0)
    np.testing.assert_array_equal(scores["tree"], scores["gram"])
    np.testing.assert_array_equal(scores[None], scores["gram"])
    np.testing.assert_array_equal(scores["gram"], [sklearn_score(ev, m, 5) for m in masks])


@pytest.mark.slow
@pytest.mark.parametrize("name, k", [("splice", 5), ("gas6", 1), ("mfeat", 5)])
def test_tree_path_equals_sklearn_on_large_shared_data(shared_data_dir, rng, name, k):
    # the sizes the tree path is for: 1 to 15 features of 1,000+ training rows, ten folds,
    # the path the cost model chooses and the tree forced
    split = holdout_split(load_dataset(name, data_dir=shared_data_dir), random_state=0)
    X, y = split.X_train, split.y_train
    D = X.shape[1]
    masks = np.zeros((8, D), dtype=bool)
    for i, size in enumerate([1, 1, 2, 3, 5, 8, 12, 15]):
        masks[i, rng.choice(D, size, replace=False)] = True
    for force in (None, "tree"):
        ev = KNNEvaluator(X, y, n_neighbors=k, cv=10, cache_size=0)
        ev._paths.force = force
        expected = [sklearn_score(ev, m, k) for m in masks]
        np.testing.assert_array_equal(ev.score(masks), expected)
        np.testing.assert_array_equal([ev.score(m)[0] for m in masks[:3]], expected[:3])
        base = masks[2]
        flips = np.repeat(base[None, :], 6, axis=0)
        features = rng.choice(D, 6, replace=False)
        flips[np.arange(6), features] ^= True
        np.testing.assert_array_equal(ev.score_flips(base, features),
                                      [sklearn_score(ev, m, k) for m in flips])
        assert ev._paths.n_tree > 0
