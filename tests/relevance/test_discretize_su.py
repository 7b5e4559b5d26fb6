"""MDL discretisation and symmetric uncertainty on hand-worked examples."""

import math

import numpy as np
import pytest
from sklearn.feature_selection import SelectKBest

from pymoo_fs.relevance import (MDLDiscretizer, SymmetricUncertainty, mdl_cut_points,
                                su_classif, symmetric_uncertainty)


def _entropy(*counts):
    n = sum(counts)
    return -sum(c / n * math.log2(c / n) for c in counts if c)


# ------------------------------------------------------------------ MDL cut points
def test_pure_split_is_cut_at_the_midpoint():
    # gain 1 bit; threshold (log2(7) + log2(7) - 2) / 8 = 0.45: accepted; both halves are pure
    assert mdl_cut_points([1, 2, 3, 4, 5, 6, 7, 8], [0, 0, 0, 0, 1, 1, 1, 1]).tolist() == [4.5]


def test_order_of_the_input_does_not_matter():
    x = np.array([8, 3, 5, 1, 7, 2, 6, 4])
    y = (x > 4).astype(int)
    assert mdl_cut_points(x, y).tolist() == [4.5]


def test_uninformative_feature_is_a_single_bin():
    assert mdl_cut_points([1, 2, 3, 4], [0, 1, 0, 1]).size == 0
    assert mdl_cut_points([5, 5, 5, 5], [0, 0, 1, 1]).size == 0  # no candidate cut at all
    assert mdl_cut_points([1, 2, 3, 4], [1, 1, 1, 1]).size == 0  # no gain


def test_better_encoding_counts_candidate_cut_points_not_instances():
    # two distinct values, 12 instances: one candidate cut point. Each side holds 5 of one
    # class and 1 of the other: gain = 1 - H(5/6, 1/6) = 0.3500 bits,
    # delta = log2(3^2 - 2) - (2 * 1 - 2 * 0.6500 - 2 * 0.6500) = 3.4073.
    x = [1] * 6 + [2] * 6
    y = [0, 0, 0, 0, 0, 1] + [1, 1, 1, 1, 1, 0]
    gain = 1.0 - _entropy(5, 1)
    delta = math.log2(7) - (2 * 1.0 - 4 * _entropy(5, 1))
    assert gain > (math.log2(1) + delta) / 12  # m = 1 candidate: accepted
    assert gain < (math.log2(11) + delta) / 12  # m = N - 1 = 11: rejected
    assert mdl_cut_points(x, y, better_encoding=True).tolist() == [1.5]
    assert mdl_cut_points(x, y, better_encoding=False).size == 0


def test_candidates_are_the_changes_of_value():
    # three distinct values: two candidates; the better one (3.5) leaves a pure right side
    x = [1, 1, 1, 3, 3, 3, 4, 4, 4, 4, 4, 4]
    y = [0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1]
    # entropy after the cut at 2 (between 1 and 3): right side 2 of 0, 7 of 1
    after_2 = 9 / 12 * _entropy(2, 7)
    after_35 = 6 / 12 * _entropy(5, 1)
    assert after_35 < after_2
    gain = _entropy(5, 7) - after_35
    delta = math.log2(7) - (2 * _entropy(5, 7) - 2 * _entropy(5, 1) - 1 * 0.0)
    assert gain > (math.log2(2) + delta) / 12
    assert mdl_cut_points(x, y).tolist() == [3.5]


def test_recursion_finds_several_cut_points():
    x = np.arange(16)
    y = np.repeat([0, 1, 2, 3], 4)
    assert mdl_cut_points(x, y).tolist() == [3.5, 7.5, 11.5]


def test_cut_points_errors():
    with pytest.raises(ValueError, match="same length"):
        mdl_cut_points([1, 2, 3], [0, 1])
    with pytest.raises(ValueError, match="NaN"):
        mdl_cut_points([1, np.nan], [0, 1])


def test_discretizer_bins_values_below_or_at_a_cut_in_the_lower_bin():
    X = np.column_stack([np.arange(1.0, 9.0), np.full(8, 5.0)])
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    disc = MDLDiscretizer().fit(X, y)
    assert disc.n_bins_.tolist() == [2, 1]
    assert disc.transform([[4.5, 0.0], [4.51, 9.0], [-3.0, 5.0]]).tolist() == [[0, 0], [1, 0],
                                                                                [0, 0]]
    with pytest.raises(ValueError, match="features"):
        disc.transform(np.zeros((2, 3)))


# ------------------------------------------------------------------ symmetric uncertainty
def test_su_of_identical_and_independent_variables():
    assert symmetric_uncertainty([0, 0, 1, 1], ["a", "a", "b", "b"]) == 1.0
    assert symmetric_uncertainty([0, 1, 0, 1], [0, 0, 1, 1]) == 0.0
    assert symmetric_uncertainty([3, 3, 3, 3], [0, 0, 1, 1]) == 0.0  # constant: H = 0


def test_su_by_hand():
    a = [0, 0, 1, 1, 1, 1]
    b = [0, 0, 0, 0, 1, 1]
    h = _entropy(2, 4)
    gain = h - 4 / 6 * _entropy(2, 2)  # H(a) - H(a | b)
    assert symmetric_uncertainty(a, b) == pytest.approx(2 * gain / (2 * h), abs=1e-12)
    assert symmetric_uncertainty(b, a) == pytest.approx(symmetric_uncertainty(a, b), abs=1e-12)


def test_su_errors():
    with pytest.raises(ValueError, match="same length"):
        symmetric_uncertainty([0, 1], [0, 1, 1])
    with pytest.raises(ValueError, match="non-empty"):
        symmetric_uncertainty([], [])


def test_relevance_ranking_and_pairs_on_discretised_data():
    y = np.repeat([0, 1], 8)
    X = np.column_stack([
        np.arange(16.0),                # cut at 7.5: SU 1
        np.full(16, 2.0),               # one bin: SU 0
        np.tile([0.0, 1.0], 8),         # independent of y: one bin
        np.where(y == 1, 5.0, 1.0) + np.r_[0.0, [0.0] * 14, 10.0],  # one outlier of class 1
    ])
    su = SymmetricUncertainty(X, y)
    assert su.n_bins.tolist()[:3] == [2, 1, 1]
    assert su.relevance[0] == 1.0 and su.relevance[1] == 0.0 and su.relevance[2] == 0.0
    assert su.ranking()[0] == 0
    assert su.ranking()[-2:].tolist() == [1, 2]  # equal relevance: original order
    assert su.between(0, [0, 1]).tolist() == [1.0, 0.0]
    assert su.between(0).shape == (4,)
    with pytest.raises(ValueError, match="feature"):
        su.between(4)
    with pytest.raises(ValueError, match="others"):
        su.between(0, [7])


def test_su_rows_are_cached_and_bounded():
    rng = np.random.default_rng(0)
    X, y = rng.random((30, 6)), np.repeat([0, 1, 2], 10)
    su = SymmetricUncertainty(X, y, max_rows=2)
    for f in (0, 1, 0, 2, 0):
        su.between(f)
    assert su.n_rows_computed == 3  # 0, 1, 2; 0 stayed cached as the most recent
    with pytest.raises(ValueError, match="max_rows"):
        SymmetricUncertainty(X, y, max_rows=0)


def test_redundancy_marks_follow_the_amso_rule():
    y = np.repeat([0, 1], 10)
    noisy = y.copy()
    noisy[[0, 19]] = 1 - noisy[[0, 19]]      # relevant, imperfect
    other = np.tile([0, 0, 1, 1, 1], 4)      # some other feature
    X = np.column_stack([y, noisy, noisy, other, np.zeros(20)]).astype(float)
    su = SymmetricUncertainty(X, y)
    r = su.relevance
    assert r[0] == 1.0 and 0 < r[1] == r[2] < 1 and r[4] == 0
    # 1 duplicates 2: SU(1, 2) = 1 > SU(2, C); a feature of zero relevance is redundant with
    # anything (SU counts as 1)
    assert su.redundant([1, 2, 4]).tolist() == [False, True, True]
    # 0 is the class itself: SU(0, 1) equals SU(1, C), not greater, so 1 stays
    assert su.between(0, [1])[0] == pytest.approx(r[1], abs=1e-12)
    assert su.redundant([0, 1]).tolist() == [False, False]
    # a marked feature marks nothing: 2 is redundant given 1, and 4 is still redundant given 1
    assert su.redundant([1, 2, 3]).tolist()[:2] == [False, True]
    with pytest.raises(ValueError, match="feature indices"):
        su.redundant([9])


def test_su_classif_is_a_select_k_best_score_func():
    rng = np.random.default_rng(1)
    y = np.repeat([0, 1, 2], 15)
    X = np.column_stack([rng.random(45), y + 0.2 * rng.random(45), rng.random(45)])
    scores = su_classif(X, y)
    assert scores.argmax() == 1
    selector = SelectKBest(su_classif, k=1).fit(X, y)
    assert selector.get_support().tolist() == [False, True, False]
    np.testing.assert_array_equal(selector.scores_, scores)
