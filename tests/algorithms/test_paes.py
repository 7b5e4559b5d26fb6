"""PAES: the adaptive grid and the archive and acceptance rules on hand-made archives, runs."""

import numpy as np
import pytest
from pymoo.core.callback import Callback
from pymoo.core.problem import Problem
from pymoo.optimize import minimize

from pymoo_fs.algorithms import PAES, archive, make_algorithm
from pymoo_fs.algorithms.archive import grid_archive_add, grid_cells
from pymoo_fs.algorithms.moo.paes import paes_step
from tests.algorithms.test_cmdpsofs import TradeOff


# ------------------------------------------------------------------ grid
def test_grid_cells_by_hand():
    F = np.array([[0.0, 0.0], [0.24, 0.26], [0.25, 0.5], [0.99, 1.0], [1.0, 0.75]])
    lower, upper = np.zeros(2), np.ones(2)
    # 2 bisections: 4 divisions of width 0.25 per objective; cell = c0 + 4 c1
    np.testing.assert_array_equal(grid_cells(F, lower, upper, 2),
                                  [0, 0 + 4 * 1, 1 + 4 * 2, 3 + 4 * 3, 3 + 4 * 3])
    # outside the range: the nearest edge cell; a flat objective: cell 0
    out = np.array([[-0.5, 2.0]])
    np.testing.assert_array_equal(grid_cells(out, lower, upper, 2), [0 + 4 * 3])
    flat = grid_cells(F, np.array([0.0, 0.5]), np.array([1.0, 0.5]), 2)
    np.testing.assert_array_equal(flat, [0, 0, 1, 3, 3])


# ------------------------------------------------------------------ archive rules
A = np.array([[0.10, 0.90], [0.12, 0.88], [0.14, 0.86], [0.50, 0.50], [0.90, 0.10]])


def test_a_dominated_or_duplicate_newcomer_is_refused():
    for f in ([0.6, 0.6], [0.5, 0.5]):
        keep, added = grid_archive_add(A, np.array(f), capacity=10, bisections=2)
        assert not added
        np.testing.assert_array_equal(keep, np.arange(5))


def test_a_newcomer_removes_the_members_it_dominates_and_joins_a_free_archive():
    keep, added = grid_archive_add(A, np.array([0.11, 0.85]), capacity=10, bisections=2)
    assert added
    np.testing.assert_array_equal(keep, [0, 3, 4])  # (0.12, 0.88), (0.14, 0.86) dominated
    keep, added = grid_archive_add(A, np.array([0.3, 0.7]), capacity=6, bisections=2)
    assert added and keep.size == 5


def test_a_full_archive_takes_a_newcomer_from_a_less_crowded_cell_and_prunes_the_crowd():
    # range [0.1, 0.9] in both objectives, 2 bisections (width 0.2): members 0-2 share
    # cell (0, 3), the most crowded (3); the newcomer (0.3, 0.7) is in cell (1, 3), empty
    keep, added = grid_archive_add(A, np.array([0.3, 0.7]), capacity=5, bisections=2)
    assert added
    np.testing.assert_array_equal(keep, [1, 2, 3, 4])  # the first of the crowd leaves


def test_a_full_archive_refuses_a_newcomer_in_the_most_crowded_cell():
    keep, added = grid_archive_add(A, np.array([0.13, 0.87]), capacity=5, bisections=2)
    assert not added
    np.testing.assert_array_equal(keep, np.arange(5))


# ------------------------------------------------------------------ acceptance
def test_a_candidate_dominated_by_the_current_solution_changes_nothing():
    move, keep, added = paes_step(A, A[3], np.array([0.6, 0.6]), 10, 2)
    assert (move, added) == (False, False)
    np.testing.assert_array_equal(keep, np.arange(5))


def test_a_candidate_that_dominates_the_current_solution_replaces_it():
    move, keep, added = paes_step(A, A[3], np.array([0.45, 0.45]), 10, 2)
    assert move and added
    np.testing.assert_array_equal(keep, [0, 1, 2, 4])
    # ... even when the archive refuses it (a member dominates it)
    current = np.array([0.7, 0.7])
    move, keep, added = paes_step(A, current, np.array([0.6, 0.6]), 10, 2)
    assert move and not added


def test_a_candidate_dominated_by_the_archive_is_discarded():
    move, keep, added = paes_step(A, np.array([0.2, 0.95]), np.array([0.55, 0.55]), 10, 2)
    assert (move, added) == (False, False)


def test_the_less_crowded_of_current_and_candidate_goes_on():
    # current = member 1, in the crowded cell (3 members); candidate in an empty cell
    move, keep, added = paes_step(A, A[1], np.array([0.3, 0.7]), 10, 2)
    assert move and added
    # current = member 3, alone in its cell; the candidate lands in the crowded cell
    move, keep, added = paes_step(A, A[3], np.array([0.13, 0.87]), 10, 2)
    assert added and not move
    # equal crowding: the current solution stays
    move, keep, added = paes_step(A[3:], A[3], np.array([0.3, 0.7]), 10, 2)
    assert added and not move


def test_a_full_archive_prunes_the_crowd_and_a_refused_candidate_never_moves_on():
    # 1 bisection over [0.1, 0.9] (split at 0.5): cells {0.1, 0.11} (2 members), {0.5} (1),
    # {0.51, 0.52, 0.9} (3, the most crowded)
    full = np.array([[0.1, 0.9], [0.11, 0.89], [0.5, 0.5], [0.51, 0.49], [0.52, 0.48],
                     [0.9, 0.1]])
    # a candidate in the cell of 2 is archived; the first member of the crowd of 3 leaves;
    # it does not move on: its cell now holds 3, the current solution's 1
    move, keep, added = paes_step(full, full[2], np.array([0.12, 0.88]), 6, 1)
    assert added and not move
    np.testing.assert_array_equal(keep, [0, 1, 2, 4, 5])
    # a candidate in the crowd of 3 is refused; since its cell is the most crowded one it
    # cannot be less crowded than the current solution's, which stays
    move, keep, added = paes_step(full, full[0], np.array([0.515, 0.485]), 6, 1)
    assert not added and not move
    np.testing.assert_array_equal(keep, np.arange(6))


# ------------------------------------------------------------------ runs
class Record(Callback):
    def __init__(self):
        super().__init__()
        self.sizes, self.moved = [], []

    def notify(self, algorithm):
        self.sizes.append(len(algorithm.archive_))
        self.moved.append(algorithm.n_moved_)


def test_run_spends_its_budget_and_returns_a_nondominated_capped_archive():
    rec = Record()
    problem = TradeOff(40)
    res = minimize(problem, PAES(archive_size=5, bisections=3), ("n_eval", 400), seed=1,
                   callback=rec)
    alg = res.algorithm
    assert alg.evaluator.n_eval == 400 and alg.n_gen - 1 == 400
    assert max(rec.sizes) == 5 and len(res.X) <= 5 and rec.sizes.count(5) > 10
    np.testing.assert_array_equal(archive.nondominated_union(res.F), np.arange(len(res.F)))
    np.testing.assert_allclose(problem.evaluate(res.X), res.F)
    assert 0 < alg.n_moved_ < 400 and alg.mutation_rate_ == 1 / 40
    assert res.pop.get("X").shape == (2, 40)  # parent and candidate of the last generation


def test_same_seed_same_archive_and_n_gen_equals_n_eval():
    problem = TradeOff(30)
    a = minimize(problem, PAES(archive_size=10), ("n_eval", 200), seed=4)
    b = minimize(problem, PAES(archive_size=10), ("n_gen", 200), seed=4)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.F, b.F)
    c = minimize(problem, PAES(archive_size=10), ("n_eval", 200), seed=5)
    assert not np.array_equal(a.F, c.F)


class OneFeature(Problem):
    """Selecting feature 0 alone is best; any empty mask would be an error."""

    def __init__(self):
        super().__init__(n_var=1, n_obj=2, xl=0, xu=1, vtype=bool)

    def _evaluate(self, x, out, *args, **kwargs):
        assert x.any(axis=1).all(), "empty mask evaluated"
        out["F"] = np.column_stack([np.zeros(len(x)), x.mean(axis=1)])


def test_empty_candidates_are_repaired():
    # D = 1 and mutation rate 1: every candidate would be empty
    res = minimize(OneFeature(), PAES(mutation_rate=1.0), ("n_eval", 20), seed=0)
    assert res.X.all()


def test_registry_builds_paes_and_ignores_pop_size():
    alg = make_algorithm("paes", pop_size=30, archive_size=50)
    assert isinstance(alg, PAES) and alg.archive_size == 50
    with pytest.raises(ValueError, match="^pop_size "):
        make_algorithm("PAES", pop_size=0)


@pytest.mark.parametrize("kwargs,name", [
    (dict(archive_size=0), "archive_size"),
    (dict(archive_size=2.5), "archive_size"),
    (dict(bisections=-1), "bisections"),
    (dict(bisections=30), "bisections"),
    (dict(mutation_rate=0.0), "mutation_rate"),
    (dict(mutation_rate=1.5), "mutation_rate"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        PAES(**kwargs)


def test_unknown_keyword_and_single_objective_problem_raise():
    with pytest.raises(TypeError, match="archive"):
        PAES(archive_sise=10)
    with pytest.raises(ValueError, match="multi-objective"):
        minimize(TradeOff(6, n_obj=1), PAES(), ("n_eval", 5), seed=0)
