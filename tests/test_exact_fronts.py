"""Issue 24, defect 1: the same mistake count compares equal everywhere a front is built.

Error rates are means of fold accuracies; two code paths (a batch and a one-feature flip, say)
can reach the same number of mistakes as floats a few units in the last place apart. The swarms'
archives, the non-dominated unions, the indicators' inputs, the selector's front and a study
run's returned front all compare objectives on :func:`pymoo_fs.pareto.on_grid`, so a member
dominated only up to rounding never stays on a front.
"""

import numpy as np
from pymoo_fs.analysis import best_front, choose_from_front, hypervolume, igd, nondominated
from pymoo_fs.analysis import reference_front
from pymoo_fs.evaluation import Evaluator, FrontRecorder
from pymoo_fs.pareto import dominated_rows, on_grid

#: the issue's Sonar selector: 10 features at error 0.13793103448275867, 11 at ...856 (4/29)
TIE_10 = 0.13793103448275867
TIE_11 = 0.13793103448275856
D = 60
NEAR = np.array([[TIE_10, 10 / D], [TIE_11, 11 / D], [0.25, 3 / D]])


def test_indicators_see_one_point_where_two_differ_by_rounding():
    np.testing.assert_array_equal(nondominated(NEAR), NEAR[[0, 2]])
    assert hypervolume(NEAR) == hypervolume(NEAR[[0, 2]])
    assert reference_front([NEAR]).shape == (2, 2)
    assert igd(NEAR, NEAR[[0, 2]]) == 0.0
    np.testing.assert_array_equal(best_front([NEAR[:1], NEAR[1:]]), nondominated(NEAR))


class _Table(Evaluator):
    """Scores masks by their number of features: 10 and 11 features tie up to rounding."""

    n_features = 12

    def score(self, masks):
        masks = self.check_masks(masks)
        table = {10: 1 - TIE_10, 11: 1 - TIE_11, 3: 0.75}
        return np.array([table.get(int(m.sum()), 0.5) for m in masks])


def test_the_selectors_recorder_keeps_the_smaller_of_two_tied_subsets():
    recorder = FrontRecorder(_Table())
    masks = np.zeros((3, 12), dtype=bool)
    masks[0, :11] = True   # 11 features first: the exact floats would keep both
    masks[1, :10] = True
    masks[2, :3] = True
    recorder.score(masks)
    assert sorted(recorder.F[:, 1].tolist()) == [3.0, 10.0]
    # offered the other way round, the same front
    other = FrontRecorder(_Table())
    other.score(masks[::-1])
    assert sorted(other.F[:, 1].tolist()) == [3.0, 10.0]


def test_choice_rules_tie_on_the_grid():
    error, sizes = [TIE_11, TIE_10, 0.3], [11, 10, 2]
    assert choose_from_front(error, sizes, "min_error") == 1   # fewer features wins the tie
    assert choose_from_front(error, sizes, 11) == 1
    assert choose_from_front(error, sizes, "within_tol", tol=0.0) == 1


def test_a_study_run_returns_no_member_dominated_up_to_rounding():
    """SPEA2 on Sonar (the golden comparison's run 0) returns 23 features at 5/29 beside 22
    features at 5/29 computed along another path: pymoo's result filter keeps both."""
    from pymoo_fs.comparison import compare_spec
    from pymoo_fs.studies import RunKey, execute_run

    spec = compare_spec("sonar", ["SPEA2"], runs=1, generations=4, pop_size=8, seed=5, cv=5)
    record, _ = execute_run(spec, RunKey("sonar", "SPEA2", 0, 0))
    F = np.asarray(record["F_train"])
    assert not dominated_rows(F).any()
    sizes = [len(f) for f in record["features"]]
    five = on_grid(F[:, 0]) == on_grid(5 / 29)
    assert 22 in np.asarray(sizes)[five] and 23 not in np.asarray(sizes)[five]
