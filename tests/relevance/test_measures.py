"""The discretisation behind SU as a switch: equal-width and equal-frequency bins by hand, SU on
them, mutual information for ranking, the problem's cache per choice, and the switch in every
algorithm and filter that ranks features."""

import numpy as np
import pytest
from pymoo.optimize import minimize
from sklearn.feature_selection import mutual_info_classif

from pymoo_fs.algorithms import AMSO, CEPSOFL, VLPSO
from pymoo_fs.filters import CFS, FCBF
from pymoo_fs.problems import FitEFeatureSelection
from pymoo_fs.relevance import (RELEVANCE_MEASURES, EqualFrequencyDiscretizer,
                                EqualWidthDiscretizer, MutualInformation, SymmetricUncertainty,
                                equal_frequency_cut_points, equal_width_cut_points,
                                relevance_measure, symmetric_uncertainty)


def _data(n=60, seed=0):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1, 2], n // 3)
    X = np.column_stack([rng.random(n), y + 0.9 * rng.random(n), rng.random(n),
                         (y == 2) + 0.6 * rng.random(n), rng.random(n)])
    return X, y


# ------------------------------------------------------------------ bins by hand
def test_equal_width_cut_points_by_hand():
    np.testing.assert_allclose(equal_width_cut_points([0.0, 1.0, 10.0], 5), [2, 4, 6, 8])
    np.testing.assert_allclose(equal_width_cut_points([-1.0, 3.0, 1.0], 2), [1.0])
    assert equal_width_cut_points([5.0, 5.0, 5.0]).size == 0  # constant: one bin
    assert equal_width_cut_points([1.0, 2.0], 1).size == 0
    with pytest.raises(ValueError, match="n_bins"):
        equal_width_cut_points([1.0, 2.0], 0)
    with pytest.raises(ValueError, match="NaN"):
        equal_width_cut_points([1.0, np.nan])


def test_equal_frequency_cut_points_by_hand():
    # 10 values, 5 bins: freq 2, cuts between the 2nd/3rd, 4th/5th, ... values
    np.testing.assert_allclose(equal_frequency_cut_points(np.arange(10.0)[::-1], 5),
                               [1.5, 3.5, 5.5, 7.5])
    # ties: a cut only between distinct values; the run of 1s is not split
    np.testing.assert_allclose(equal_frequency_cut_points([1, 1, 1, 1, 2, 3], 3), [1.5, 2.5])
    # once the count passes freq, the closer of the current and the previous candidate place:
    # freq 3, previous place after 2 values (1 short), current after 4 (1 over): a tie, the
    # current place wins
    np.testing.assert_allclose(equal_frequency_cut_points([0, 0, 1, 1, 2, 2], 2), [1.5])
    # freq 5: after 3 values (2 short) beats after 8 (3 over)
    np.testing.assert_allclose(equal_frequency_cut_points([0, 0, 0, 1, 1, 1, 1, 1, 2, 2], 2),
                               [0.5])
    assert equal_frequency_cut_points([4.0, 4.0, 4.0], 3).size == 0


def test_discretizers_map_values_as_mdl_does():
    X = np.array([[0.0, 7.0], [2.0, 7.0], [4.0, 7.0], [6.0, 7.0], [8.0, 7.0]])
    width = EqualWidthDiscretizer(n_bins=4).fit(X)
    assert width.n_bins_.tolist() == [4, 1]
    np.testing.assert_array_equal(width.transform(X)[:, 0], [0, 0, 1, 2, 3])  # 2.0 == cut
    freq = EqualFrequencyDiscretizer(n_bins=5).fit(X)
    np.testing.assert_array_equal(freq.transform(X), [[0, 0], [1, 0], [2, 0], [3, 0], [4, 0]])
    with pytest.raises(ValueError, match="n_bins"):
        EqualWidthDiscretizer(n_bins=0).fit(X)


# ------------------------------------------------------------------ SU on each discretisation
@pytest.mark.parametrize("discretization", ["equal_width", "equal_frequency"])
def test_su_on_unsupervised_bins_is_su_of_the_codes(discretization):
    X, y = _data()
    su = SymmetricUncertainty(X, y, discretization=discretization)
    assert su.discretization == discretization
    for j in range(X.shape[1]):
        assert su.relevance[j] == pytest.approx(symmetric_uncertainty(su.codes[:, j], y),
                                                abs=1e-12)
    assert su.between(1, [3])[0] == pytest.approx(
        symmetric_uncertainty(su.codes[:, 1], su.codes[:, 3]), abs=1e-12)
    assert su.ranking()[0] == 1 and (su.relevance > 0).all()  # bins: noise > 0 too


def test_mdl_gives_noise_zero_and_is_the_default():
    X, y = _data()
    su = SymmetricUncertainty(X, y)
    assert su.discretization == "mdl"
    assert su.relevance[[0, 2, 4]].tolist() == [0.0, 0.0, 0.0] and su.relevance[1] > 0
    with pytest.raises(ValueError, match="discretization"):
        SymmetricUncertainty(X, y, discretization="kmeans")


def test_mutual_information_is_scikit_learns_with_a_fixed_seed():
    X, y = _data()
    mi = MutualInformation(X, y)
    np.testing.assert_array_equal(mi.relevance,
                                  mutual_info_classif(X, y, random_state=0, n_neighbors=3))
    np.testing.assert_array_equal(MutualInformation(X, y).relevance, mi.relevance)
    assert mi.ranking()[:2].tolist() == [1, 3] and mi.n_features == 5
    with pytest.raises(ValueError, match="ranks features by relevance only"):
        mi.between(0, [1])
    with pytest.raises(ValueError, match="mutual_info"):
        mi.redundant([0, 1])


def test_relevance_measure_by_name():
    X, y = _data()
    assert RELEVANCE_MEASURES == ("mdl", "equal_width", "equal_frequency", "mutual_info")
    for name in RELEVANCE_MEASURES:
        assert relevance_measure(X, y, name).discretization == name
    with pytest.raises(ValueError, match="discretization must be one of"):
        relevance_measure(X, y, "chi2")


# ------------------------------------------------------------------ the problem and algorithms
@pytest.fixture(scope="module")
def problem():
    X, y = _data(90, seed=1)
    return FitEFeatureSelection.from_data(X, y)


def test_the_problem_caches_one_measure_per_choice(problem):
    seen = {name: problem.symmetric_uncertainty(name) for name in RELEVANCE_MEASURES}
    for name, measure in seen.items():
        assert problem.symmetric_uncertainty(name) is measure
        assert measure.discretization == name
    assert problem.symmetric_uncertainty() is seen["mdl"]
    with pytest.raises(ValueError, match="discretization"):
        problem.symmetric_uncertainty("none")


@pytest.mark.parametrize("name", RELEVANCE_MEASURES)
def test_ranking_swarms_order_by_the_chosen_measure(problem, name):
    ranking = problem.symmetric_uncertainty(name).ranking()
    for alg in (CEPSOFL(pop_size=4, discretization=name),
                VLPSO(pop_size=4, n_divisions=2, discretization=name),
                AMSO(pop_size=4, n_subswarms=2, discretization=name,
                     ls_schedule="code" if name != "mutual_info" else "never")):
        res = minimize(problem, alg, ("n_gen", 2), seed=0)
        np.testing.assert_array_equal(res.algorithm.order_, ranking)


def test_switch_errors_are_named():
    for cls in (CEPSOFL, VLPSO):
        with pytest.raises(ValueError, match="discretization"):
            cls(discretization="mdl2")
    with pytest.raises(ValueError, match="ls_schedule='never'"):
        AMSO(discretization="mutual_info")
    assert AMSO(discretization="mutual_info", ls_schedule="never").discretization == \
        "mutual_info"


@pytest.mark.parametrize("cls", [CFS, FCBF])
def test_filters_take_the_discretization(cls):
    X, y = _data(90, seed=2)
    for name in ("mdl", "equal_width", "equal_frequency"):
        fitted = cls(discretization=name).fit(X, y)
        assert fitted.su_.discretization == name and fitted.get_support()[1]
    with pytest.raises(ValueError, match="discretization"):
        cls(discretization="mutual_info").fit(X, y)
