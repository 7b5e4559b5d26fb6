"""The significance tests against values worked out by hand."""

import numpy as np
import pytest

from pymoo_fs.analysis.statistics import (SignificanceTest, a12_magnitude, rank_sum,
                                          signed_rank, vargha_delaney)


def test_rank_sum_complete_separation_of_four_against_four():
    # reference ranks 1..4: R1 = 10, U = R1 - 4*5/2 = 0; exact two-sided p = 2 / C(8, 4) = 2/70
    result = rank_sum([1, 2, 3, 4], [5, 6, 7, 8])
    assert result.statistic == 0.0
    assert result.pvalue == pytest.approx(2 / 70)
    assert result.sign == "-"  # reference significantly lower, higher is better
    assert rank_sum([1, 2, 3, 4], [5, 6, 7, 8], better="lower").sign == "+"
    assert rank_sum([5, 6, 7, 8], [1, 2, 3, 4]).sign == "+"


def test_rank_sum_three_against_three_cannot_reach_five_percent():
    # the most extreme split has p = 2 / C(6, 3) = 0.1
    result = rank_sum([1, 2, 3], [4, 5, 6])
    assert result.pvalue == pytest.approx(0.1)
    assert result.sign == "="


def test_rank_sum_identical_constant_samples_are_equal():
    result = rank_sum([3, 3, 3], [3, 3])
    assert (result.pvalue, result.sign, result.statistic) == (1.0, "=", 3.0)


def test_rank_sum_with_ties_uses_the_tie_corrected_normal_approximation():
    a, b = [1, 1, 2, 2, 3, 3], [3, 3, 4, 4, 5, 5]
    # pooled ranks: 1,1 -> 1.5; 2,2 -> 3.5; 3 x4 -> 6.5; 4,4 -> 9.5; 5,5 -> 11.5
    r1 = 1.5 * 2 + 3.5 * 2 + 6.5 * 2
    u = r1 - 6 * 7 / 2
    n = 12
    ties = np.array([2, 2, 4, 2, 2])
    sigma = np.sqrt(6 * 6 / 12 * ((n + 1) - (ties ** 3 - ties).sum() / (n * (n - 1))))
    z = (abs(u - 18) - 0.5) / sigma
    from math import erfc, sqrt
    result = rank_sum(a, b)
    assert result.statistic == u
    assert result.pvalue == pytest.approx(erfc(z / sqrt(2)))
    assert result.sign == "-"


def test_signed_rank_all_positive_differences():
    # six positive differences: W+ = 21, exact two-sided p = 2 / 2**6
    ref = np.array([11, 12, 13, 14, 15, 16.0])
    result = signed_rank(ref, ref - np.arange(1, 7))
    assert result.statistic == 21.0
    assert result.pvalue == pytest.approx(2 / 64)
    assert result.sign == "+"
    assert signed_rank(ref, ref - np.arange(1, 7), better="lower").sign == "-"


def test_signed_rank_five_pairs_cannot_reach_five_percent():
    ref = np.arange(5.0)
    result = signed_rank(ref, ref + 1)
    assert result.pvalue == pytest.approx(2 / 32)
    assert result.sign == "="


def test_signed_rank_against_a_constant_is_the_one_sample_test():
    result = signed_rank([0.9, 0.91, 0.92, 0.93, 0.94, 0.95], 0.5)
    assert result.sign == "+" and result.pvalue == pytest.approx(2 / 64)


def test_signed_rank_drops_zero_differences_and_identical_samples_are_equal():
    assert signed_rank([1, 2, 3], [1, 2, 3]).sign == "="
    assert signed_rank([1, 2, 3], [1, 2, 3]).pvalue == 1.0
    # one zero difference dropped: five positive differences remain, p = 2/32
    ref = np.array([1, 2, 3, 4, 5, 6.0])
    other = ref - np.array([0, 1, 2, 3, 4, 5])
    result = signed_rank(ref, other)
    assert result.statistic == 15.0 and result.pvalue == pytest.approx(2 / 32)


def test_a12_worked_out_by_hand():
    # reference (3, 5) against other (1, 3, 4): 3 beats 1, ties 3, loses to 4; 5 beats all three
    # wins 4, ties 1, losses 1 of 6 pairs: A12 = (4 + 1/2) / 6 = 0.75
    assert vargha_delaney([3, 5], [1, 3, 4]) == pytest.approx(0.75)
    # lower is better: the wins and losses exchange, ties stay: (1 + 1/2) / 6 = 0.25
    assert vargha_delaney([3, 5], [1, 3, 4], better="lower") == pytest.approx(0.25)
    # the same number through the tests' results, with the sample sizes beside it
    result = rank_sum([3, 5], [1, 3, 4])
    assert (result.a12, result.n_reference, result.n_other) == (pytest.approx(0.75), 2, 3)
    # U of the reference is the same count: 4.5 = 0.75 * 2 * 3
    assert result.statistic == pytest.approx(4.5)
    assert result.label() == "= A12=0.75 (2/3)"


def test_a12_agrees_with_a_direct_count_of_pairs():
    rng = np.random.default_rng(7)
    for n1, n2 in [(1, 1), (2, 9), (10, 10), (30, 7)]:
        # integers so that ties occur
        a = rng.integers(0, 6, size=n1).astype(float)
        b = rng.integers(0, 6, size=n2).astype(float)
        wins = sum(x > y for x in a for y in b)
        ties = sum(x == y for x in a for y in b)
        losses = sum(x < y for x in a for y in b)
        assert vargha_delaney(a, b) == pytest.approx((wins + ties / 2) / (n1 * n2))
        assert vargha_delaney(a, b, "lower") == pytest.approx((losses + ties / 2) / (n1 * n2))
        assert rank_sum(a, b).a12 == pytest.approx((wins + ties / 2) / (n1 * n2))


def test_a12_extremes_and_no_effect():
    assert vargha_delaney([5, 6, 7], [1, 2]) == 1.0
    assert vargha_delaney([1, 2], [5, 6, 7]) == 0.0
    assert vargha_delaney([2, 2, 2], [2, 2]) == 0.5
    assert rank_sum([3, 3, 3], [3, 3]).a12 == 0.5


def test_an_equal_sign_from_few_runs_carries_a_large_a12():
    # three against three completely separated: p = 0.1, no sign, but A12 = 1 (the most
    # separated samples can be): "=" here means too few runs, not no difference
    result = rank_sum([4, 5, 6], [1, 2, 3])
    assert result.sign == "=" and result.a12 == 1.0 and result.magnitude == "large"
    assert result.label() == "= A12=1.00 (3/3)"
    # thirty against thirty drawn from one distribution: "=" with a negligible-to-small A12
    rng = np.random.default_rng(3)
    same = rank_sum(rng.normal(size=30), rng.normal(size=30))
    assert same.sign == "=" and abs(same.a12 - 0.5) < 0.14
    assert (same.n_reference, same.n_other) == (30, 30)


def test_signed_rank_carries_a12_and_sizes():
    ref = np.array([11, 12, 13, 14, 15, 16.0])
    other = ref - np.arange(1, 7)  # 10, 10, 10, 10, 10, 10
    result = signed_rank(ref, other)
    # every reference value above every 10: A12 = 1; oriented to lower-is-better: 0
    assert (result.a12, result.n_reference, result.n_other) == (1.0, 6, 6)
    assert signed_rank(ref, other, better="lower").a12 == 0.0
    # against a constant: the fraction of reference values above it, ties half; n_other = 1
    constant = signed_rank([0.4, 0.5, 0.6, 0.7], 0.5)
    assert constant.a12 == pytest.approx((2 + 0.5) / 4)
    assert (constant.n_reference, constant.n_other) == (4, 1)
    identical = signed_rank([1, 2, 3], [1, 2, 3])
    assert identical.a12 == 0.5 and identical.label() == "= A12=0.50 (3/3)"


def test_a12_magnitude_thresholds_of_vargha_and_delaney():
    assert [a12_magnitude(v) for v in (0.5, 0.559, 0.56, 0.639, 0.64, 0.709, 0.71, 1.0)] == [
        "negligible", "negligible", "small", "small", "medium", "medium", "large", "large"]
    # mirrored below 0.5
    assert [a12_magnitude(v) for v in (0.44, 0.36, 0.29, 0.0)] == [
        "small", "medium", "large", "large"]
    assert a12_magnitude(float("nan")) == ""
    with pytest.raises(ValueError, match="a12 must be in"):
        a12_magnitude(1.2)


def test_a_result_built_from_three_fields_still_labels_its_sign():
    result = SignificanceTest(1.0, 0.01, "+")
    assert np.isnan(result.a12) and (result.n_reference, result.n_other) == (0, 0)
    assert result.label() == "+"


@pytest.mark.parametrize("call, match", [
    (lambda: vargha_delaney([], [1]), "reference is empty"),
    (lambda: vargha_delaney([1], [np.nan]), "other holds NaN"),
    (lambda: vargha_delaney([1], [2], better="up"), "better must be 'higher' or 'lower'"),
    (lambda: rank_sum([], [1]), "reference is empty"),
    (lambda: rank_sum([1], [np.nan]), "other holds NaN"),
    (lambda: rank_sum([1], ["a"]), "other must be a 1-D array of numbers"),
    (lambda: rank_sum([1], [2], better="more"), "better must be 'higher' or 'lower'"),
    (lambda: rank_sum([1], [2], alpha=1.5), "alpha must be a number in"),
    (lambda: rank_sum([1], [2], alpha="0.05"), "alpha must be a number in"),
    (lambda: signed_rank([1, 2], [1, 2, 3]), "pairs the samples"),
    (lambda: signed_rank([1, np.inf], [1, 2]), "reference holds NaN or infinite"),
])
def test_bad_inputs_are_refused_by_name(call, match):
    with pytest.raises(ValueError, match=match):
        call()
