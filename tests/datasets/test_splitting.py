"""Tests of pymoo_fs.datasets.splitting: stratified seeded splits and train-only scaling."""

import numpy as np
import pytest
from sklearn.preprocessing import MinMaxScaler

from pymoo_fs.datasets import Split, holdout_split, load_dataset, min_max_scale


@pytest.fixture(scope="module")
def sonar():
    return load_dataset("sonar")


def test_split_is_stratified(sonar):
    split = holdout_split(sonar, test_size=0.3, random_state=0)
    assert isinstance(split, Split)
    n_test = split.y_test.shape[0]
    assert n_test + split.y_train.shape[0] == sonar.n_samples
    assert n_test == int(np.ceil(0.3 * sonar.n_samples))
    proportions = np.bincount(sonar.y) / sonar.n_samples
    for part in (split.y_train, split.y_test):
        expected = proportions * part.shape[0]
        assert np.all(np.abs(np.bincount(part, minlength=2) - expected) <= 1.0)


def test_split_is_stratified_with_three_unbalanced_classes(rng):
    y = np.repeat([0, 1, 2], [60, 30, 10])
    X = rng.normal(size=(100, 4))
    split = holdout_split(X, y, test_size=0.25, random_state=3, scale=False)
    assert np.all(np.abs(np.bincount(split.y_test) - [15, 7.5, 2.5]) <= 1)
    assert np.all(np.abs(np.bincount(split.y_train) - [45, 22.5, 7.5]) <= 1)


def test_same_random_state_gives_same_split(sonar):
    a = holdout_split(sonar, random_state=7)
    b = holdout_split(sonar, random_state=7)
    for left, right in zip(a[:4], b[:4]):
        np.testing.assert_array_equal(left, right)


def test_other_random_state_gives_other_split(sonar):
    a = holdout_split(sonar, random_state=7, scale=False)
    b = holdout_split(sonar, random_state=8, scale=False)
    assert not np.array_equal(a.X_train, b.X_train)


def test_scaler_fitted_on_training_part_only(sonar):
    raw = holdout_split(sonar, random_state=1, scale=False)
    split = holdout_split(sonar, random_state=1, scale=True)
    assert raw.scaler is None
    np.testing.assert_array_equal(raw.y_train, split.y_train)

    constant = np.ptp(raw.X_train, axis=0) == 0
    np.testing.assert_allclose(split.X_train.min(axis=0)[~constant], 0.0, atol=1e-12)
    np.testing.assert_allclose(split.X_train.max(axis=0)[~constant], 1.0, atol=1e-12)

    reference = MinMaxScaler().fit(raw.X_train)
    np.testing.assert_allclose(split.X_test, reference.transform(raw.X_test))
    np.testing.assert_allclose(split.scaler.data_min_, raw.X_train.min(axis=0))
    # fitted on train only: the test part is not forced into [0, 1]
    all_scaled = MinMaxScaler().fit(sonar.X).transform(raw.X_test)
    assert not np.allclose(split.X_test, all_scaled)
    assert split.X_train.dtype == np.float64 and split.X_test.flags.c_contiguous


def test_arrays_accepted_and_labels_kept(rng):
    X = rng.normal(size=(40, 3))
    y = np.array(["a", "b"] * 20)
    split = holdout_split(X, y, test_size=0.5, random_state=0)
    assert split.X_train.shape == (20, 3)
    assert sorted(set(split.y_test.tolist())) == ["a", "b"]


@pytest.mark.parametrize("test_size", [0, 0.0, 1.0, 1.5, -0.1, 30, True, "0.3"])
def test_test_size_out_of_range(sonar, test_size):
    with pytest.raises(ValueError, match="test_size must be a float strictly between 0 and 1"):
        holdout_split(sonar, test_size=test_size)


def test_dataset_with_y_rejected(sonar):
    with pytest.raises(ValueError, match="y must be None when a Dataset is given"):
        holdout_split(sonar, sonar.y)


def test_array_without_y_rejected(sonar):
    with pytest.raises(ValueError, match="y is required"):
        holdout_split(sonar.X)


def test_label_length_mismatch_rejected(sonar):
    with pytest.raises(ValueError, match="y must have shape"):
        holdout_split(sonar.X, sonar.y[:-1])


def test_min_max_scale_matches_sklearn(rng):
    X_train = rng.normal(size=(30, 4))
    X_test = rng.normal(size=(10, 4)) * 3
    reference = MinMaxScaler().fit(X_train)
    train_scaled, test_scaled = min_max_scale(X_train, X_test)
    np.testing.assert_allclose(train_scaled, reference.transform(X_train))
    np.testing.assert_allclose(test_scaled, reference.transform(X_test))
    assert (test_scaled < 0).any() or (test_scaled > 1).any()
    np.testing.assert_allclose(min_max_scale(X_train), train_scaled)


@pytest.mark.parametrize("test_size", [0.001, 0.004])
def test_test_size_too_small_for_every_class_is_worded_by_us(sonar, test_size):
    with pytest.raises(ValueError, match=rf"test_size={test_size} is too small: it puts 1 of "
                                         r"208 samples in the test part, too few for one "
                                         r"sample of each of the 2 classes; use test_size >= "):
        holdout_split(sonar, test_size=test_size)


def test_test_size_too_large_to_train_every_class_is_worded_by_us(sonar):
    with pytest.raises(ValueError, match=r"test_size=0\.999 is too large: it leaves 0 of 208 "
                                         r"samples in the training part"):
        holdout_split(sonar, test_size=0.999)


def test_suggested_test_size_bounds_are_usable(sonar):
    for test_size in (0.001, 0.999):
        with pytest.raises(ValueError, match="test_size") as excinfo:
            holdout_split(sonar, test_size=test_size)
        bound = float(str(excinfo.value).rsplit(" ", 1)[1])
        split = holdout_split(sonar, test_size=bound)
        assert set(split.y_test.tolist()) == set(split.y_train.tolist()) == {0, 1}


def test_class_with_a_single_sample_is_worded_by_us(rng):
    X, y = rng.normal(size=(9, 2)), np.array(["a"] * 4 + ["b"] * 4 + ["c"])
    with pytest.raises(ValueError, match=r"class 'c' has a single sample: a stratified split "
                                         r"needs at least 2"):
        holdout_split(X, y, test_size=0.5)


def test_mixed_label_types_are_a_value_error(rng):
    y = np.array([1, "a", 1, "a", None, 2], dtype=object)
    with pytest.raises(ValueError, match="y mixes label types"):
        holdout_split(rng.normal(size=(6, 2)), y, test_size=0.5)


@pytest.mark.parametrize("random_state", [-1, 2**32, 1.5, "0", True,
                                          np.random.default_rng(0)])
def test_bad_random_state_is_worded_by_us(sonar, random_state):
    with pytest.raises(ValueError, match=r"random_state must be None, an int in "
                                         r"\[0, 2\*\*32 - 1\] or a numpy\.random\.RandomState"):
        holdout_split(sonar, random_state=random_state)


@pytest.mark.parametrize("random_state", [None, 0, 2**32 - 1, np.int64(7),
                                          np.random.RandomState(3)])
def test_valid_random_states_are_accepted(sonar, random_state):
    split = holdout_split(sonar, random_state=random_state)
    assert split.y_test.shape == (63,)


def test_old_name_warns_and_is_holdout_split():
    import pymoo_fs.datasets

    with pytest.warns(DeprecationWarning, match="renamed holdout_split"):
        old = pymoo_fs.datasets.train_test_split
    assert old is holdout_split
    assert "train_test_split" not in pymoo_fs.datasets.__all__
    with pytest.raises(AttributeError, match="no attribute 'split'"):
        pymoo_fs.datasets.split  # noqa: B018
