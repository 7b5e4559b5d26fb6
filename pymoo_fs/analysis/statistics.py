"""The papers' significance tests: Wilcoxon rank-sum and signed-rank, with +/=/- signs.

Li et al. (2021), Tran et al. (2019) and Butler-Yeoman et al. (2015) compare the reference
(proposed) algorithm with each other one by the Wilcoxon rank-sum test at alpha = 0.05; Yang et
al. (2022) use the signed-rank test on paired results (one run per outer fold). Both report a sign
from the reference's point of view: ``+`` the reference is significantly better, ``-`` significantly
worse, ``=`` no significant difference.

A sign alone hides how much the test could see: ``=`` between 2 runs and 2 runs cannot be
anything else at alpha = 0.05, ``=`` between 30 and 30 says the difference is small. So every
result also carries the Vargha-Delaney A12 effect size (:func:`vargha_delaney`, the
probability that a reference value is better than an other value) and the number of values
on each side, and :meth:`SignificanceTest.label` writes the three together, e.g.
``"+ A12=0.91 (30/30)"``.

References
----------
A.-D. Li, B. Xue, M. Zhang, "A forward search inspired particle swarm optimization
algorithm for feature selection in classification", IEEE CEC 2021, pp. 786-793,
doi:10.1109/CEC45853.2021.9504949.

B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.

T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
size-controlled approach", AusDM 2015, Conferences in Research and Practice in
Information Technology 168.

J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
14(6):1142, 2022, doi:10.3390/sym14061142.
"""

from dataclasses import dataclass

import numpy as np
from scipy import stats

__all__ = ["FriedmanResult", "SignificanceTest", "a12_magnitude", "can_decide",
           "friedman_ranks", "holm", "min_runs_for_test", "rank_sum", "signed_rank",
           "vargha_delaney"]

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
    a12 : float
        Vargha-Delaney A12 in [0, 1], oriented by ``better``: the probability that a
        reference value drawn at random is better than an other value drawn at random, ties
        counted half (:func:`vargha_delaney`). 0.5: no effect; above 0.5 the reference leans
        better. NaN when the result was built without it.
    n_reference, n_other : int
        How many values each side had (runs, or runs x folds); for a signed-rank test against
        a constant, ``n_other`` is 1. 0 when the result was built without them.

    Notes
    -----
    ``a12``, ``n_reference`` and ``n_other`` come after the three original fields and have
    defaults, so ``SignificanceTest(statistic, pvalue, sign)`` still builds a result.
    """

    statistic: float
    pvalue: float
    sign: str
    a12: float = float("nan")
    n_reference: int = 0
    n_other: int = 0

    @property
    def decidable(self):
        """bool: whether samples of these sizes can reach alpha = 0.05 at all: the smallest
        exact two-sided p-value, ``2 / C(n_reference + n_other, n_reference)`` (rank-sum) or
        ``2 / 2**n`` (signed-rank on ``n`` pairs, ``n_other`` equal or 1), is below 0.05.
        True when the sizes are unknown (0)."""
        return can_decide(self.n_reference, self.n_other)

    @property
    def magnitude(self):
        """Vargha and Delaney's name for the size of ``a12``; see :func:`a12_magnitude`."""
        return a12_magnitude(self.a12)

    def label(self, digits=2):
        """The sign with its effect size and sample sizes, e.g. ``"+ A12=0.91 (30/30)"``.

        Parameters
        ----------
        digits : int, default=2
            Decimals of A12.

        Returns
        -------
        text : str
            ``"<sign> A12=<a12> (<n_reference>/<n_other>)"``; ``"<sign>"`` alone when the
            result carries no A12 (built from the three original fields only).

        Examples
        --------
        >>> from pymoo_fs.analysis.statistics import rank_sum
        >>> rank_sum([3, 4, 5], [1, 2]).label()
        '= A12=1.00 (3/2)'
        """
        if not np.isfinite(self.a12):
            return self.sign
        return f"{self.sign} A12={self.a12:.{digits}f} ({self.n_reference}/{self.n_other})"


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
        its mean ``n1 n2 / 2`` (``better="higher"``) or below it (``"lower"``). ``a12`` is
        ``U / (n1 n2)`` oriented by ``better`` (:func:`vargha_delaney`), ``n_reference = n1``,
        ``n_other = n2``.

    Raises
    ------
    ValueError
        If a sample is empty or holds NaN or infinite values, or ``better`` or ``alpha`` is
        invalid.

    Notes
    -----
    The Wilcoxon rank-sum test and the Mann-Whitney U test are the same test; this is
    :func:`scipy.stats.mannwhitneyu` (two-sided, ``method="auto"``: exact without ties for small
    samples, else the normal approximation with tie and continuity corrections). Li et al.
    (2021), Tran et al. (2019) and Butler-Yeoman et al. (2015) use it at alpha = 0.05 [Li et al.
    2021, §IV-C; Tran et al. 2019, §5; Butler-Yeoman et al. 2015, §4]. When every value of both
    samples is equal the test cannot tell them apart: p = 1, the sign is ``"="`` and A12 = 0.5.

    With few values the test cannot reach alpha however far apart the samples are: 3 against
    3 gives at best p = 0.1, so ``"="`` with A12 = 1.0 means "as separated as can be, too few
    runs", not "no difference"; the smallest exact p of ``n1`` against ``n2`` without ties is
    ``2 / C(n1 + n2, n1)``.

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
    sizes = {"n_reference": int(a.size), "n_other": int(b.size)}
    if np.all(a == a[0]) and np.all(b == a[0]):
        return SignificanceTest(float(a.size * b.size / 2.0), 1.0, "=", 0.5, **sizes)
    result = stats.mannwhitneyu(a, b, alternative="two-sided", method="auto")
    u = float(result.statistic)
    lean = np.sign(u - a.size * b.size / 2.0)
    return SignificanceTest(u, float(result.pvalue),
                            _sign(float(result.pvalue), lean, better, alpha),
                            _a12(a, b, better), **sizes)


def signed_rank(reference, other, better="higher", alpha=0.05):
    """Wilcoxon signed-rank test of paired results (Yang et al. 2022: one value per outer fold).

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
        ``W+`` exceeds half the total rank sum. ``a12`` is :func:`vargha_delaney` of the two
        samples (every reference value against every other value, the pairing ignored; against
        a constant, the fraction of reference values better than it, ties half);
        ``n_reference = n`` and ``n_other = n``, or 1 against a constant.

    Raises
    ------
    ValueError
        If a sample is empty, holds NaN or infinite values, or the two lengths differ; or if
        ``better`` or ``alpha`` is invalid.

    Notes
    -----
    :func:`scipy.stats.wilcoxon` on the differences, two-sided, ``zero_method="wilcox"``
    (zero differences are dropped, Wilcoxon's original rule) and ``method="auto"``. When every
    difference is zero the samples are identical: p = 1, the sign is ``"="`` and A12 = 0.5.
    Yang et al. (2022) use the test at alpha = 0.05 over their 10 outer folds [Yang et al.
    2022, §4.2]; with ``m``
    non-zero differences the smallest exact two-sided p is ``2 / 2**m``, so fewer than 6
    pairs can never give a sign.

    A12 is the unpaired Vargha-Delaney statistic, reported beside the paired test as the
    effect size of the two samples' distributions; the test itself uses the pairing.

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
    constant = np.ndim(other) == 0
    if constant:
        b = np.full(a.shape, _sample("other", [other])[0])
    else:
        b = _sample("other", other)
    if a.shape != b.shape:
        raise ValueError(f"signed_rank pairs the samples: reference has {a.size} values, "
                         f"other {b.size}")
    better, alpha = _check(better, alpha)
    sizes = {"n_reference": int(a.size), "n_other": 1 if constant else int(b.size)}
    effect = _a12(a, b[:1] if constant else b, better)
    d = a - b
    nonzero = d[d != 0]
    if nonzero.size == 0:
        return SignificanceTest(0.0, 1.0, "=", 0.5, **sizes)
    result = stats.wilcoxon(d, zero_method="wilcox", alternative="two-sided", method="auto")
    ranks = stats.rankdata(np.abs(nonzero))
    w_plus = float(ranks[nonzero > 0].sum())
    lean = np.sign(w_plus - ranks.sum() / 2.0)
    return SignificanceTest(w_plus, float(result.pvalue),
                            _sign(float(result.pvalue), lean, better, alpha), effect, **sizes)


def vargha_delaney(reference, other, better="higher"):
    """Vargha-Delaney A12: how often a reference value beats an other value.

    Parameters
    ----------
    reference : array-like of float, shape (n1,)
        The reference algorithm's values, n1 >= 1.
    other : array-like of float, shape (n2,)
        The compared algorithm's values, n2 >= 1.
    better : {"higher", "lower"}, default="higher"
        Which direction is better; A12 is oriented so that values above 0.5 always mean the
        reference leans better.

    Returns
    -------
    a12 : float
        In [0, 1]: ``(#{(i, j): a_i better than b_j} + #{(i, j): a_i = b_j} / 2) / (n1 n2)``
        over all ``n1 n2`` pairs. 1: every reference value is better than every other value;
        0.5: no tendency (or all values equal); 0: every reference value is worse.

    Raises
    ------
    ValueError
        If a sample is empty or holds NaN or infinite values, or ``better`` is invalid.

    Notes
    -----
    For ``better="higher"`` this is Vargha and Delaney's ``A12 = P(X > Y) + P(X = Y) / 2``
    of the reference X against the other Y, i.e. the Mann-Whitney ``U`` of the reference
    divided by ``n1 n2``, computed here from midranks of the pooled sample:
    ``A12 = (R1 / n1 - (n1 + 1) / 2) / n2`` with ``R1`` the reference's rank sum. For
    ``better="lower"`` it is ``1 - A12``, the same statistic with the roles of larger and
    smaller exchanged. It is a common-language effect size that needs no distributional
    assumption and does not grow with the number of runs, unlike the test's p-value.
    Vargha and Delaney name 0.56, 0.64 and 0.71 (and their mirrors 0.44, 0.36, 0.29) the
    thresholds of a small, medium and large effect (:func:`a12_magnitude`); Arcuri and Briand
    recommend it beside the rank-sum test for randomised algorithms.

    References
    ----------
    A. Vargha, H. D. Delaney, "A critique and improvement of the CL common language effect
    size statistics of McGraw and Wong", J. Educational and Behavioral Statistics
    25(2):101-132, 2000, doi:10.3102/10769986025002101. A. Arcuri, L. Briand, "A practical
    guide for using statistical tests to assess randomized algorithms in software
    engineering", ICSE 2011, pp. 1-10, doi:10.1145/1985793.1985795.

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import vargha_delaney
    >>> vargha_delaney([3, 5], [1, 3, 4])  # pairs won 4, tied 1, lost 1, of 6
    0.75
    >>> vargha_delaney([3, 5], [1, 3, 4], better="lower")
    0.25
    """
    a = _sample("reference", reference)
    b = _sample("other", other)
    better, _ = _check(better, 0.05)
    return _a12(a, b, better)


def a12_magnitude(a12):
    """Vargha and Delaney's name for an A12 value: negligible, small, medium or large.

    Parameters
    ----------
    a12 : float
        An A12 value in [0, 1] (either orientation: the distance from 0.5 is what counts).

    Returns
    -------
    magnitude : {"negligible", "small", "medium", "large", ""}
        With ``e = |a12 - 0.5|``: ``"negligible"`` for e < 0.06, ``"small"`` for
        e < 0.14, ``"medium"`` for e < 0.21, else ``"large"`` (Vargha & Delaney 2000's
        thresholds 0.56, 0.64, 0.71); ``""`` for NaN.

    Raises
    ------
    ValueError
        If ``a12`` is a number outside [0, 1].

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import a12_magnitude
    >>> a12_magnitude(0.5), a12_magnitude(0.6), a12_magnitude(0.3), a12_magnitude(0.95)
    ('negligible', 'small', 'medium', 'large')
    """
    a12 = float(a12)
    if np.isnan(a12):
        return ""
    if not 0.0 <= a12 <= 1.0:
        raise ValueError(f"a12 must be in [0, 1], got {a12!r}")
    # the thresholds as exact rationals of the distance from 1/2, so 0.56 is "small"
    e = round(abs(a12 - 0.5), 12)
    for limit, name in ((0.06, "negligible"), (0.14, "small"), (0.21, "medium")):
        if e < limit:
            return name
    return "large"


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


def _a12(a, b, better):
    """A12 of validated samples (midranks of the pooled sample), oriented by ``better``."""
    ranks = stats.rankdata(np.concatenate([a, b]))
    higher = (ranks[:a.size].sum() / a.size - (a.size + 1) / 2.0) / b.size
    higher = float(min(1.0, max(0.0, higher)))
    return higher if better == "higher" else 1.0 - higher


def _sign(pvalue, lean, better, alpha):
    if not np.isfinite(pvalue) or pvalue >= alpha or lean == 0:
        return "="
    reference_higher = lean > 0
    return "+" if reference_higher == (better == "higher") else "-"


def can_decide(n_reference, n_other, alpha=0.05, paired=None):
    """Whether a Wilcoxon test of samples of these sizes can reach ``alpha`` at all.

    Parameters
    ----------
    n_reference, n_other : int
        The sample sizes (0: unknown, then True).
    alpha : float, default=0.05
    paired : bool, optional
        The signed-rank test on ``n_reference`` pairs; default: paired when ``n_other`` is 1
        (against a constant), else the rank-sum test.

    Returns
    -------
    decidable : bool
        Whether the smallest exact two-sided p-value without ties is below ``alpha``:
        ``2 / C(n1 + n2, n1)`` for the rank-sum test, ``2 / 2**n`` for the signed-rank test.

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import can_decide
    >>> can_decide(3, 3), can_decide(4, 4), can_decide(5, 1)
    (False, True, False)
    """
    from math import comb

    n_reference, n_other = int(n_reference), int(n_other)
    if n_reference <= 0 or n_other <= 0:
        return True
    if paired is None:
        paired = n_other == 1
    smallest = 2.0 / 2 ** n_reference if paired else 2.0 / comb(n_reference + n_other,
                                                                 n_reference)
    return smallest < alpha


def min_runs_for_test(statistic="ranksum", alpha=0.05):
    """The fewest runs per algorithm with which a test can reach ``alpha`` at all.

    Parameters
    ----------
    statistic : {"ranksum", "signedrank"}, default="ranksum"
        The Wilcoxon rank-sum test with ``n`` values on each side (smallest exact two-sided
        p without ties ``2 / C(2n, n)``), or the signed-rank test on ``n`` pairs (smallest
        exact two-sided p ``2 / 2**n``).
    alpha : float, default=0.05
        Significance level, in (0, 1).

    Returns
    -------
    n : int
        The smallest ``n`` whose smallest attainable p-value is below ``alpha``: 4 for the
        rank-sum test at 0.05 (2 / 70 = 0.029; 3 runs give at best 2 / 20 = 0.1), 6 for the
        signed-rank test (2 / 64 = 0.031).

    Raises
    ------
    ValueError
        If ``statistic`` or ``alpha`` is invalid.

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import min_runs_for_test
    >>> min_runs_for_test(), min_runs_for_test("signedrank")
    (4, 6)
    """
    from math import comb

    _check("higher", alpha)
    if statistic not in ("ranksum", "signedrank"):
        raise ValueError(f"statistic must be 'ranksum' or 'signedrank', got {statistic!r}")
    n = 1
    while True:
        smallest = 2.0 / comb(2 * n, n) if statistic == "ranksum" else 2.0 / 2 ** n
        if smallest < alpha:
            return n
        n += 1


def holm(pvalues):
    """Holm's step-down correction of a family of p-values (statsmodels' ``multipletests``).

    Parameters
    ----------
    pvalues : array-like of float, shape (m,)
        The raw p-values of one family of tests (e.g. the reference against each other
        algorithm on one measure and dataset); NaN entries (untested pairs) stay NaN and are
        not counted in the family.

    Returns
    -------
    adjusted : ndarray of float64, shape (m,)
        Holm-adjusted p-values (capped at 1): reject where ``adjusted < alpha`` to keep the
        family-wise error rate at ``alpha``.

    Raises
    ------
    ValueError
        If a p-value lies outside [0, 1].

    Notes
    -----
    :func:`statsmodels.stats.multitest.multipletests` with ``method="holm"``. S. Holm, "A
    simple sequentially rejective multiple test procedure", Scandinavian Journal of
    Statistics 6(2):65-70, 1979.

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import holm
    >>> [round(float(p), 3) for p in holm([0.01, 0.04, 0.03])]
    [0.03, 0.06, 0.06]
    """
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(pvalues, dtype=float).reshape(-1)
    out = np.full(p.shape, np.nan)
    finite = np.isfinite(p)
    if np.any((p[finite] < 0) | (p[finite] > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    if finite.any():
        out[finite] = multipletests(p[finite], method="holm")[1]
    return out


@dataclass(frozen=True)
class FriedmanResult:
    """Algorithms ranked over several datasets: Friedman's test and the Nemenyi post-hoc test.

    Attributes
    ----------
    labels : tuple of str
        The algorithms, in the order given.
    blocks : tuple of str
        The datasets (Friedman's blocks).
    ranks : ndarray of float64, shape (n_blocks, n_algorithms)
        Each algorithm's rank on each dataset, 1 the best, ties sharing the mean rank.
    mean_ranks : dict of {str: float}
        Mean rank per algorithm over the datasets (lower is better).
    statistic, pvalue : float
        Friedman's chi-square statistic and its p-value (SciPy's
        :func:`~scipy.stats.friedmanchisquare`); NaN with fewer than 3 algorithms or 2
        datasets (the test is undefined).
    posthoc : ndarray of float64, shape (n_algorithms, n_algorithms)
        Nemenyi post-hoc p-values of every pair (scikit-posthocs'
        :func:`~scikit_posthocs.posthoc_nemenyi_friedman`), 1 on the diagonal; NaN where
        undefined.
    critical_difference : float
        Nemenyi's critical difference of mean ranks at ``alpha``:
        ``q_alpha / sqrt(2) * sqrt(k (k + 1) / (6 N))`` with ``q_alpha`` the studentized range
        quantile for ``k`` algorithms (infinite degrees of freedom) and ``N`` datasets.
    alpha : float
    """

    labels: tuple
    blocks: tuple
    ranks: np.ndarray
    mean_ranks: dict
    statistic: float
    pvalue: float
    posthoc: np.ndarray
    critical_difference: float
    alpha: float = 0.05

    @property
    def decided(self):
        """bool: whether Friedman's test rejects equal ranks at ``alpha``."""
        return bool(np.isfinite(self.pvalue) and self.pvalue < self.alpha)


def friedman_ranks(scores, better="higher", alpha=0.05, blocks=None):
    """Rank algorithms on each dataset, then test the mean ranks (Friedman, Nemenyi).

    The procedure of J. Demsar, "Statistical comparisons of classifiers over multiple data
    sets", JMLR 7:1-30, 2006: rank the algorithms on each dataset, Friedman's test of equal
    mean ranks, Nemenyi's post-hoc test of every pair, its critical difference for the
    critical-difference diagram.

    Parameters
    ----------
    scores : dict of {str: array-like of float, shape (n_blocks,)}
        Per algorithm, one value per dataset (e.g. the mean test hypervolume of its runs).
    better : {"higher", "lower"}, default="higher"
        Which direction is better.
    alpha : float, default=0.05
    blocks : sequence of str, optional
        The datasets' names (default ``"0"``, ``"1"``, ...).

    Returns
    -------
    result : FriedmanResult

    Raises
    ------
    ValueError
        If ``scores`` holds fewer than 2 algorithms, the arrays differ in length, are empty
        or hold NaN or infinite values, or ``better`` or ``alpha`` is invalid.

    Notes
    -----
    Assumptions: the datasets are independent; the algorithms' values on one dataset are
    comparable (ranked within the dataset, so their scales may differ between datasets). The
    Friedman test uses the chi-square approximation, rough with few datasets (Demsar
    recommends N > 10, k > 5 for it); the Nemenyi test compares every pair and is
    conservative.

    Examples
    --------
    >>> from pymoo_fs.analysis.statistics import friedman_ranks
    >>> r = friedman_ranks({"A": [0.9, 0.8, 0.7], "B": [0.8, 0.7, 0.6], "C": [0.7, 0.9, 0.5]})
    >>> {k: round(v, 2) for k, v in r.mean_ranks.items()}
    {'A': 1.33, 'B': 2.33, 'C': 2.33}
    """
    better, alpha = _check(better, alpha)
    labels = tuple(str(k) for k in scores)
    if len(labels) < 2:
        raise ValueError("friedman_ranks needs at least 2 algorithms")
    try:
        values = np.column_stack([np.asarray(scores[k], dtype=float).reshape(-1)
                                  for k in scores])
    except ValueError:
        raise ValueError("every algorithm needs one value per dataset") from None
    if values.shape[0] == 0 or not np.all(np.isfinite(values)):
        raise ValueError("scores must hold one finite value per dataset and algorithm")
    n, k = values.shape
    blocks = tuple(str(b) for b in (blocks if blocks is not None else range(n)))
    if len(blocks) != n:
        raise ValueError(f"blocks names {len(blocks)} datasets, scores hold {n}")
    ranks = np.vstack([stats.rankdata(-row if better == "higher" else row) for row in values])
    mean = ranks.mean(axis=0)
    statistic = pvalue = float("nan")
    posthoc = np.full((k, k), np.nan)
    np.fill_diagonal(posthoc, 1.0)
    if k >= 3 and n >= 2 and not np.all(ranks == ranks[0]):
        statistic, pvalue = (float(v) for v in stats.friedmanchisquare(*values.T))
        import scikit_posthocs

        posthoc = np.asarray(scikit_posthocs.posthoc_nemenyi_friedman(
            -values if better == "higher" else values), dtype=float)
    elif k >= 3 and n >= 2:
        statistic, pvalue = 0.0, 1.0
        posthoc[:] = 1.0
    q = stats.studentized_range.ppf(1 - alpha, k, np.inf) / np.sqrt(2.0)
    cd = float(q * np.sqrt(k * (k + 1) / (6.0 * n)))
    return FriedmanResult(labels, blocks, ranks, {a: float(m) for a, m in zip(labels, mean)},
                          statistic, pvalue, posthoc, cd, alpha)
