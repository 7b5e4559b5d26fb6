"""The seeds' significance tests: Wilcoxon rank-sum and signed-rank, with +/=/- signs.

Seeds 000-002 compare the reference (proposed) algorithm with each other one by the Wilcoxon
rank-sum test at alpha = 0.05; seed 004 uses the signed-rank test on paired results (one run
per outer fold). Both report a sign from the reference's point of view: ``+`` the reference is
significantly better, ``-`` significantly worse, ``=`` no significant difference.
"""

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["SignificanceTest", "rank_sum", "signed_rank"]

_BETTER = ("higher", "lower")


@dataclass(frozen=True)
class SignificanceTest:
    """The outcome of one significance test of a reference against another algorithm.

    Attributes
    ----------
    statistic : float
        The test statistic: the Mann-Whitney ``U`` of the reference sample (rank-sum), or the
        signed-rank sum ``W+`` of the positive differences ``reference - other`` (signed-rank).
    pvalue : float
        Two-sided p-value; 1.0 when the two samples cannot differ (all values equal).
    sign : {"+", "=", "-"}
        ``"+"`` the reference is significantly better (``pvalue < alpha`` and it leans the
        ``better`` way), ``"-"`` significantly worse, ``"="`` no significant difference.
    """

    statistic: float
    pvalue: float
    sign: str


def rank_sum(reference, other, better="higher", alpha=0.05):
    """Wilcoxon rank-sum test of a reference sample against another (unpaired).

    Parameters
    ----------
    reference : array-like of float, shape (n1,)
        The reference algorithm's values (e.g. test accuracy of each run), n1 >= 1.
    other : array-like of float, shape (n2,)
        The compared algorithm's values, n2 >= 1. A deterministic method's single value may be
        given once or repeated.
    better : {"higher", "lower"}, default="higher"
        Which direction is better: ``"higher"`` for accuracy or hypervolume, ``"lower"`` for
        the number of features or the error.
    alpha : float, default=0.05
        Significance level, in (0, 1).

    Returns
    -------
    result : SignificanceTest
        ``statistic`` is the reference's ``U``; the reference leans better when ``U`` is above
        its mean ``n1 n2 / 2`` (``better="higher"``) or below it (``"lower"``).

    Raises
    ------
    ValueError
        If a sample is empty or holds NaN or infinite values, or ``better`` or ``alpha`` is
        invalid.

    Notes
    -----
    The Wilcoxon rank-sum test and the Mann-Whitney U test are the same test; this is
    :func:`scipy.stats.mannwhitneyu` (two-sided, ``method="auto"``: exact without ties for small
    samples, else the normal approximation with tie and continuity corrections). Seeds 000-002
    use it at alpha = 0.05 [S000 §IV-C; S001 §5; S002 §4]. When every value of both samples is
    equal the test cannot tell them apart: p = 1 and the sign is ``"="``.

    References
    ----------
    F. Wilcoxon, "Individual comparisons by ranking methods", Biometrics Bulletin 1(6):80-83,
    1945; H. B. Mann, D. R. Whitney, Ann. Math. Statist. 18(1):50-60, 1947.

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import rank_sum
    >>> rank_sum([0.91, 0.93, 0.92, 0.94, 0.95], [0.85, 0.86, 0.84, 0.83, 0.87]).sign
    '+'
    >>> rank_sum([10, 12, 11, 13, 14], [3, 4, 2, 5, 6], better="lower").sign
    '-'
    >>> rank_sum([1, 2, 3], [2, 3, 1]).sign
    '='
    """
    a = _sample("reference", reference)
    b = _sample("other", other)
    better, alpha = _check(better, alpha)
    if np.all(a == a[0]) and np.all(b == a[0]):
        return SignificanceTest(float(a.size * b.size / 2.0), 1.0, "=")
    result = stats.mannwhitneyu(a, b, alternative="two-sided", method="auto")
    u = float(result.statistic)
    lean = np.sign(u - a.size * b.size / 2.0)
    return SignificanceTest(u, float(result.pvalue), _sign(float(result.pvalue), lean, better,
                                                           alpha))


def signed_rank(reference, other, better="higher", alpha=0.05):
    """Wilcoxon signed-rank test of paired results (seed 004: one value per outer fold).

    Parameters
    ----------
    reference : array-like of float, shape (n,)
        The reference algorithm's values, paired with ``other`` (same fold, same run).
    other : array-like of float, shape (n,), or float
        The compared algorithm's values; a single number compares ``reference`` with that
        constant (the one-sample test, for a deterministic method such as all features).
    better : {"higher", "lower"}, default="higher"
        Which direction is better.
    alpha : float, default=0.05
        Significance level, in (0, 1).

    Returns
    -------
    result : SignificanceTest
        ``statistic`` is ``W+``, the sum of the ranks of the positive differences
        ``reference - other`` (zero differences dropped); the reference leans higher when
        ``W+`` exceeds half the total rank sum.

    Raises
    ------
    ValueError
        If a sample is empty, holds NaN or infinite values, or the two lengths differ; or if
        ``better`` or ``alpha`` is invalid.

    Notes
    -----
    :func:`scipy.stats.wilcoxon` on the differences, two-sided, ``zero_method="wilcox"``
    (zero differences are dropped, Wilcoxon's original rule) and ``method="auto"``. When every
    difference is zero the samples are identical: p = 1 and the sign is ``"="``. Seed 004
    uses the test at alpha = 0.05 over its 10 outer folds [S004 §4.2].

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import signed_rank
    >>> ref = [0.90, 0.92, 0.88, 0.91, 0.93, 0.89, 0.94, 0.90, 0.92, 0.91]
    >>> other = [0.80, 0.83, 0.79, 0.84, 0.82, 0.81, 0.80, 0.85, 0.83, 0.82]
    >>> signed_rank(ref, other).sign
    '+'
    >>> signed_rank(ref, ref).sign
    '='
    """
    a = _sample("reference", reference)
    if np.ndim(other) == 0:
        b = np.full(a.shape, _sample("other", [other])[0])
    else:
        b = _sample("other", other)
    if a.shape != b.shape:
        raise ValueError(f"signed_rank pairs the samples: reference has {a.size} values, "
                         f"other {b.size}")
    better, alpha = _check(better, alpha)
    d = a - b
    nonzero = d[d != 0]
    if nonzero.size == 0:
        return SignificanceTest(0.0, 1.0, "=")
    result = stats.wilcoxon(d, zero_method="wilcox", alternative="two-sided", method="auto")
    ranks = stats.rankdata(np.abs(nonzero))
    w_plus = float(ranks[nonzero > 0].sum())
    lean = np.sign(w_plus - ranks.sum() / 2.0)
    return SignificanceTest(w_plus, float(result.pvalue),
                            _sign(float(result.pvalue), lean, better, alpha))


def _sample(name, values):
    try:
        x = np.asarray(values, dtype=float).reshape(-1)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a 1-D array of numbers") from None
    if x.size == 0:
        raise ValueError(f"{name} is empty: a test needs at least one value per sample")
    if not np.all(np.isfinite(x)):
        raise ValueError(f"{name} holds NaN or infinite values")
    return x


def _check(better, alpha):
    if better not in _BETTER:
        raise ValueError(f"better must be 'higher' or 'lower', got {better!r}")
    if isinstance(alpha, bool) or not isinstance(alpha, (int, float, np.floating)) or not (
            0.0 < float(alpha) < 1.0):
        raise ValueError(f"alpha must be a number in (0, 1), got {alpha!r}")
    return better, float(alpha)


def _sign(pvalue, lean, better, alpha):
    if not np.isfinite(pvalue) or pvalue >= alpha or lean == 0:
        return "="
    reference_higher = lean > 0
    return "+" if reference_higher == (better == "higher") else "-"
