"""CFS, FCBF and LFS: hand-worked selections, Weka's search rules, scikit-learn conventions."""

import numpy as np
import pytest
from sklearn.utils.estimator_checks import parametrize_with_checks

import pymoo_fs.filters
import pymoo_fs.relevance
from pymoo_fs.filters import CFS, FCBF, LFS, MDLDiscretizer, best_first_forward
from pymoo_fs.filters.cfs import _Merits


def _two_bits():
    """Four classes coded by two independent bits ``a`` and ``b`` (y = 2a + b), 4 each."""
    y = np.repeat([0, 1, 2, 3], 4)
    a, b = y // 2, y % 2
    return a.astype(float), b.astype(float), y


# ------------------------------------------------------------------ CFS
def test_cfs_counts_uncorrelated_features_as_redundant_like_weka():
    # SU(a, y) = SU(b, y) = 2 * 1 / (1 + 2) = 2/3; SU(a, b) = 0, which Weka's CFS counts as 1:
    # merit {a, b} = (2/3 + 2/3) / sqrt(2 + 2 * 1) = 2/3 = merit {a}: no improvement, and the
    # locally predictive step rejects b (1 > 2/3).
    a, b, y = _two_bits()
    cfs = CFS().fit(np.column_stack([a, b]), y)
    assert cfs.su_.relevance == pytest.approx([2 / 3, 2 / 3])
    assert cfs.merit_ == pytest.approx(2 / 3)
    assert cfs.get_support().tolist() == [True, False]


def test_cfs_best_first_and_locally_predictive_step_by_hand():
    # f0 = class (SU 1), f1 = copy of f0, f2 = constant (one bin, SU 0).
    # Search: {0} has merit 1, {0, 1} = 2 / sqrt(2 + 2) = 1 (no gain), {0, 2} = 1 / sqrt(2 + 2)
    # (SU(0, 2) = 0 counts as 1) = 0.5: the search keeps {0}. Locally predictive: f1's
    # correlation with f0 (1) is not above its relevance (1), so f1 is added; f2 is not.
    y = np.repeat([0, 1], 6).astype(float)
    X = np.column_stack([y, y, np.full(12, 3.0)])
    assert CFS(locally_predictive=False).fit(X, y).get_support().tolist() == [True, False,
                                                                                False]
    cfs = CFS().fit(X, y)
    assert cfs.merit_ == pytest.approx(1.0)
    assert cfs.get_support().tolist() == [True, True, False]


def test_cfs_merit_is_independent_of_the_path():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1, 2], 20)
    X = np.column_stack([y + rng.random(60) * 1.5 for _ in range(6)] + [rng.random((60, 4))])
    cfs = CFS(locally_predictive=False).fit(X, y)
    merits = _Merits(cfs.su_, cfs.su_.relevance)
    eye = np.eye(10, dtype=bool)
    # {0, 3, 5} reached from {0, 3} and from {3, 5}: the same merit, bit for bit
    via_03 = merits.of_children(eye[0] | eye[3], np.array([5]))[0]
    via_35 = merits.of_children(eye[3] | eye[5], np.array([0]))[0]
    assert via_03 == via_35
    assert cfs.get_support()[:6].any() and not cfs.get_support()[6:].any()


def test_best_first_open_list_and_stopping_rule():
    # merits of single features 0.5, 0.2, -0.3, additive: the best subset is {0, 1}; the
    # search stops after max_stale expansions without improvement
    w = np.array([0.5, 0.2, -0.3])
    seen = []

    def merits(group, added):
        seen.append(int(group.sum()))
        return np.array([w[group].sum() + w[a] for a in added])

    best, merit, n = best_first_forward(merits, 3, max_stale=2)
    assert best.tolist() == [True, True, False] and merit == pytest.approx(0.7)
    assert n == sum(3 - k for k in seen)
    assert len(seen) >= 3  # {}, {0}, {0,1}, then two non-improving expansions
    best, _, _ = best_first_forward(merits, 3, candidates=[1, 2])
    assert best.tolist() == [False, True, False]
    with pytest.raises(ValueError, match="max_stale"):
        best_first_forward(merits, 3, max_stale=0)


def test_best_first_needs_more_than_the_threshold_to_improve():
    def merits(group, added):
        return np.full(added.size, 1e-6 * (group.sum() + 1))

    best, merit, _ = best_first_forward(merits, 3)
    assert not best.any() and merit == 0.0  # 1e-6 is not above 1e-5


# ------------------------------------------------------------------ FCBF
def test_fcbf_predominant_feature_removes_what_it_explains():
    # f_y = the class (SU 1) explains a and b: SU(f_y, a) = 2/3 = SU(a, y) (within 1e-8)
    a, b, y = _two_bits()
    fcbf = FCBF().fit(np.column_stack([a, y.astype(float), b]), y)
    assert fcbf.ranking_.tolist() == [1]
    assert fcbf.get_support().tolist() == [False, True, False]


def test_fcbf_keeps_complementary_features():
    # without f_y: SU(a, b) = 0 < SU(b, y) = 2/3, so b survives a
    a, b, y = _two_bits()
    noise = np.full(16, 7.0)
    fcbf = FCBF().fit(np.column_stack([noise, b, a]), y)
    assert fcbf.ranking_.tolist() == [1, 2]  # equal relevance: lower index first
    assert fcbf.get_support().tolist() == [False, True, True]


def test_fcbf_threshold():
    a, b, y = _two_bits()
    X = np.column_stack([a, b, np.full(16, 1.0)])
    assert FCBF(threshold=0.7).fit(X, y).get_support().tolist() == [False, False, False]
    assert FCBF(threshold=None).fit(X, y).get_support().tolist() == [True, True, False]
    with pytest.raises(ValueError, match="threshold"):
        FCBF(threshold="high").fit(X, y)


# ------------------------------------------------------------------ LFS
def test_lfs_ranks_by_the_wrapper_and_searches_the_top_features():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1], 20)
    X = np.column_stack([rng.random(40), y + 0.2 * rng.random(40), rng.random(40),
                         y + 0.9 * rng.random(40)])
    lfs = LFS().fit(X, y)
    assert lfs.ranking_[0] == 1
    assert lfs.get_support().tolist() == [False, True, False, False]
    assert lfs.merit_ == 1.0
    assert lfs.n_subsets_evaluated_ >= 4
    only = LFS(n_top=1).fit(X, y)
    assert only.get_support().tolist() == [False, True, False, False]
    with pytest.raises(ValueError, match="n_top"):
        LFS(n_top=0).fit(X, y)
    with pytest.raises(ValueError, match="two classes"):
        LFS().fit(X, np.zeros(40))


# ------------------------------------------------------------------ conventions
@pytest.mark.parametrize("selector", [CFS(), FCBF(), LFS()], ids=["CFS", "FCBF", "LFS"])
def test_selectors_are_deterministic(selector):
    rng = np.random.default_rng(5)
    y = np.repeat([0, 1, 2], 12)
    X = np.column_stack([y + rng.random(36) * 2 for _ in range(5)] + [rng.random((36, 5))])
    first = selector.fit(X, y).get_support().copy()
    np.testing.assert_array_equal(selector.fit(X, y).get_support(), first)
    assert first.any()


@parametrize_with_checks([MDLDiscretizer(), CFS(), FCBF(), LFS()])
def test_scikit_learn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.parametrize("name", ["MDLDiscretizer", "SymmetricUncertainty", "mdl_cut_points",
                                  "su_classif", "symmetric_uncertainty"])
def test_filters_export_the_relevance_measures_unchanged(name):
    assert name in pymoo_fs.filters.__all__
    assert getattr(pymoo_fs.filters, name) is getattr(pymoo_fs.relevance, name)
