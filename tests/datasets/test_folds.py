"""Weka's stratified folds: Java's generator, the stratification by hand, every class size."""

import numpy as np
import pytest

from pymoo_fs.datasets.folds import JavaRandom, WekaStratifiedKFold


def test_java_random_matches_java():
    # printed by java.util.Random (OpenJDK 17): new Random(42).nextInt(10) five times,
    # new Random(7).nextInt(1000003) five times, new Random(1).nextInt(16) five times
    draws = [(42, 10, [0, 3, 8, 4, 0]), (7, 1000003, [159529, 245051, 824661, 677984, 987139]),
             (1, 16, [11, 1, 6, 6, 3])]
    for seed, bound, expected in draws:
        r = JavaRandom(seed)
        assert [r.next_int(bound) for _ in expected] == expected
    with pytest.raises(ValueError, match="bound must be a positive int, got 0"):
        JavaRandom(1).next_int(0)


def test_stratification_worked_by_hand():
    # no shuffle: classes grouped in order of appearance [0, 2 | 1, 3, 4], dealt out
    # round-robin to [0, 1, 4, 2, 3], fold 0 tests the first 3, fold 1 the last 2
    y = np.array([0, 1, 0, 1, 1])
    splitter = WekaStratifiedKFold(2, random_state=None)
    np.testing.assert_array_equal(splitter.order(y), [0, 1, 4, 2, 3])
    (tr0, te0), (tr1, te1) = splitter.split(np.zeros((5, 1)), y)
    assert (te0.tolist(), te1.tolist()) == ([0, 1, 4], [2, 3])
    assert (tr0.tolist(), tr1.tolist()) == ([2, 3], [0, 1, 4])


@pytest.mark.parametrize("seed", [1, 7, 12345])
def test_every_class_size_works_and_folds_partition_the_samples(seed):
    y = np.repeat([0, 1, 2, 3, 4, 5, 6, 7, 8], [9, 8, 7, 7, 7, 6, 6, 5, 5])  # 9_tumors-like
    folds = list(WekaStratifiedKFold(10, random_state=seed).split(np.zeros((60, 2)), y))
    assert len(folds) == 10
    tests = np.concatenate([test for _, test in folds])
    np.testing.assert_array_equal(np.sort(tests), np.arange(60))
    for train, test in folds:
        assert np.intersect1d(train, test).size == 0 and train.size + test.size == 60
        # stratified: no class is more than one member away from its share of the fold
        for c, size in zip(*np.unique(y, return_counts=True)):
            assert abs(np.sum(y[test] == c) - size / 10) < 1
    other = list(WekaStratifiedKFold(10, random_state=seed + 1).split(np.zeros((60, 2)), y))
    assert any(not np.array_equal(a[1], b[1]) for a, b in zip(folds, other))


@pytest.mark.parametrize("kwargs, match", [
    (dict(n_splits=1), "n_splits must be an int >= 2, got 1"),
    (dict(n_splits=True), "n_splits must be an int >= 2"),
    (dict(random_state=1.5), "random_state must be an int or None, got 1.5"),
])
def test_bad_arguments_are_named(kwargs, match):
    with pytest.raises(ValueError, match=match):
        WekaStratifiedKFold(**kwargs)


def test_fewer_samples_than_folds_is_refused():
    with pytest.raises(ValueError, match="n_splits=10 folds need at least 10 samples, got 4"):
        list(WekaStratifiedKFold(10).split(np.zeros((4, 1)), [0, 1, 0, 1]))
