"""The significance tests against values worked out by hand."""

import numpy as np
import pytest

from pymoo_fs.analysis.statistics import rank_sum, signed_rank


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


@pytest.mark.parametrize("call, match", [
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
