"""ISRPSO's local search: each step worked out by hand, batched == sequential on real data,
the algorithm's counts, n_eval and reproducibility."""

import numpy as np
import pytest
from pymoo.core.population import Population
from pymoo.core.problem import Problem
from pymoo.optimize import minimize

from pymoo_fs.algorithms import ISRPSO, MOPSO
from pymoo_fs.algorithms.moo import isrpso
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import BiObjectiveFeatureSelection

# ------------------------------------------------------------------ a hand-made problem
# Five features f1..f5 (indices 0..4). Single-feature accuracies (acc1): f3 > f4 > f1 > f2 > f5.
ACC1 = {(0,): 0.70, (1,): 0.60, (2,): 0.80, (3,): 0.75, (4,): 0.50}
# Training accuracies C of the subsets the local search of A1 = {f1, f2} meets (after seed
# 003's worked example, "Inserting" and "Removing"; its "Swapping" part assumes acc1 orders
# that contradict the "Removing" part, so the swaps below are our own); every other subset
# has C = 0.5.
C = {
    (0, 1): 0.80,         # A1
    (0, 1, 2): 0.75,      # insert f3: worse
    (0, 1, 3): 0.82,      # insert f4: better -> SO_in = {f1, f2, f4}
    (0, 3): 0.80,         # remove f2 (least acc1 first): worse than 0.82
    (1, 3): 0.85,         # remove f1: better -> SO_re = {f2, f4}
    (2, 3): 0.84,         # u = f3 replaces f2: worse than 0.85
    (1, 2): 0.90,         # u = f3 replaces f4: better -> {f2, f3}
    (0, 2): 0.88,         # u = f1 replaces f2: worse than 0.90
    # u = f1 replacing f3 gives {f1, f2} = 0.80: worse
}
C.update(ACC1)
UNION = np.array([True, True, True, True, False])


class TableProblem(Problem):
    """(1 - C(mask), |mask| / D) from the table above; counts the masks it evaluates."""

    def __init__(self, table=C, default=0.5, n_var=5):
        super().__init__(n_var=n_var, n_obj=2, xl=0, xu=1, vtype=bool)
        self.table, self.default, self.asked = table, default, []

    def _evaluate(self, x, out, *args, **kwargs):
        acc = [self.table.get(tuple(np.flatnonzero(m)), self.default) for m in x]
        self.asked.extend(tuple(np.flatnonzero(m)) for m in x)
        out["F"] = np.column_stack([1.0 - np.array(acc), x.mean(axis=1)])


def _mask(*features, n=5):
    m = np.zeros(n, dtype=bool)
    m[list(features)] = True
    return m


def _table_flips(problem):
    """flips(mask, features) on the table, recording every evaluated subset in order."""

    def flips(mask, features):
        masks = np.repeat(mask[None, :], len(features), axis=0)
        masks[np.arange(len(features)), features] ^= True
        return problem.evaluate(masks)

    return flips


@pytest.fixture
def table():
    return TableProblem()


@pytest.fixture
def acc1():
    return np.array([ACC1[(i,)] for i in range(5)])


def _start(problem, *features):
    m = _mask(*features)
    return isrpso.LocalSearchResult(m, problem.evaluate(m[None, :])[0])


# ------------------------------------------------------------------ each step by hand
def test_inserting_adds_the_first_improving_feature_in_acc1_order(table, acc1):
    r = _start(table, 0, 1)
    table.asked.clear()
    assert isrpso.insert_step(r, UNION, acc1, _table_flips(table))
    assert table.asked == [(0, 1, 2), (0, 1, 3)]  # f3 before f4; f5 is outside the union
    np.testing.assert_array_equal(r.mask, _mask(0, 1, 3))
    np.testing.assert_allclose(r.F, [1 - 0.82, 3 / 5])
    assert (r.n_sequential, r.n_computed) == (2, 2) and r.changed


def test_inserting_computes_the_scan_in_one_batch_and_counts_the_sequential_cost(table, acc1):
    calls = []
    flips = _table_flips(table)

    def spy(mask, features):
        calls.append(len(features))
        return flips(mask, features)

    r = _start(table, 0, 1)
    r.F = np.array([1 - 0.74, 0.4])  # now f3 (0.75) is already an improvement
    isrpso.insert_step(r, UNION, acc1, spy)
    assert calls == [2] and r.n_sequential == 1 and r.n_computed == 2
    np.testing.assert_array_equal(r.mask, _mask(0, 1, 2))


def test_removing_drops_the_first_improving_feature_least_acc1_first(table, acc1):
    r = _start(table, 0, 1, 3)
    table.asked.clear()
    assert isrpso.remove_step(r, acc1, _table_flips(table))
    # one batch in the order f2 (0.60), f1 (0.70), f4 (0.75); the first improvement is f1's
    assert table.asked == [(0, 3), (1, 3), (0, 1)]
    np.testing.assert_array_equal(r.mask, _mask(1, 3))
    np.testing.assert_allclose(r.F[0], 1 - 0.85)
    assert (r.n_sequential, r.n_computed) == (2, 3)


def test_removing_never_removes_the_last_feature(acc1):
    # {f3} alone would "improve" by removal only through the empty set: not tried
    problem = TableProblem({(2,): 0.3})
    r = _start(problem, 2)
    problem.asked.clear()
    assert not isrpso.remove_step(r, acc1, _table_flips(problem))
    assert problem.asked == [] and r.n_sequential == 0 and not r.changed
    np.testing.assert_array_equal(r.mask, _mask(2))


def test_swapping_makes_each_first_improving_exchange(table, acc1):
    r = _start(table, 1, 3)  # SO_re = {f2, f4}, C = 0.85
    table.asked.clear()
    assert isrpso.swap_step(r, UNION, acc1, _table_flips(table)) == 1
    # u = f3 (acc1 0.80) first: replaces f2 (0.60) -> no, f4 (0.75) -> yes; then u = f1 (0.70)
    # against the new subset {f2, f3}: f2 then f3, neither improves
    assert table.asked == [(2, 3), (1, 2), (0, 2), (0, 1)]
    np.testing.assert_array_equal(r.mask, _mask(1, 2))
    np.testing.assert_allclose(r.F, [1 - 0.90, 2 / 5])
    assert r.n_sequential == 4 and r.n_computed == 4


def test_a_swapped_out_feature_stays_out():
    # acc1: f1 0.5 < f3 0.7 < f2 0.8 < f4 0.9; start {f1, f4} (C 0.60)
    acc1 = np.array([0.5, 0.8, 0.7, 0.9])
    problem = TableProblem({(0, 3): 0.60, (1, 3): 0.70, (2, 3): 0.65, (1, 2): 0.68,
                            (0, 1): 0.95}, n_var=4)
    start = _mask(0, 3, n=4)
    r = isrpso.LocalSearchResult(start, problem.evaluate(start[None, :])[0])
    problem.asked.clear()
    isrpso.swap_step(r, np.ones(4, dtype=bool), acc1, _table_flips(problem))
    # u = f2: replacing f1 gives {f2, f4} (0.70), the first improvement (replacing f4 is
    # computed in the same batch); u = f3 tries f2 and f4 in vain; f1, swapped out, is not
    # tried again, though {f1, f2} (0.95) would improve on {f2, f4}
    assert problem.asked == [(1, 3), (0, 1), (2, 3), (1, 2)]
    np.testing.assert_array_equal(r.mask, _mask(1, 3, n=4))


def test_the_whole_search_of_the_worked_example(table, acc1):
    r = isrpso.improve_member(_mask(0, 1), table.evaluate(_mask(0, 1)[None, :])[0], UNION,
                              acc1, _table_flips(table))
    np.testing.assert_array_equal(r.mask, _mask(1, 2))
    np.testing.assert_allclose(r.F[0], 1 - 0.90)
    assert r.n_sequential == 2 + 2 + 4 and r.changed


@pytest.mark.parametrize("batch", [None, 1, 2, 3])
def test_batch_sizes_give_the_same_search(table, acc1, batch):
    r = isrpso.improve_member(_mask(0, 1), table.evaluate(_mask(0, 1)[None, :])[0], UNION,
                              acc1, _table_flips(table), batch)
    np.testing.assert_array_equal(r.mask, _mask(1, 2))
    assert r.n_sequential == 8
    # batches of 1, 2, 4, ...: insert 1 + 1, remove 1 + 2, swap (1 + 1) twice
    if batch == 1:
        assert r.n_computed == 9


def test_an_error_of_zero_cannot_improve_and_costs_nothing(acc1):
    problem = TableProblem({(0, 1): 1.0})
    r = _start(problem, 0, 1)
    problem.asked.clear()
    found = isrpso.improve_member(r.mask, r.F, UNION, acc1, _table_flips(problem))
    assert problem.asked == []
    # what the sequential rule would have spent: insert 2, remove 2, swap 2 x 2
    assert found.n_sequential == 8 and found.n_computed == 0 and not found.changed


# ------------------------------------------------------------------ the algorithm
def _setup_with_archive(problem, members, **kwargs):
    """ISRPSO after its initial swarm, with the archive replaced by ``members``."""
    alg = ISRPSO(pop_size=4, **kwargs)
    alg.setup(problem, termination=("n_gen", 50), seed=0)
    pop = alg.ask()
    alg.evaluator.eval(problem, pop)
    alg.tell(infills=pop)
    masks = np.array([_mask(*m) for m in members])
    alg.archive_ = Population.new("X", masks, "F", problem.evaluate(masks))
    alg.archive_X_ = masks.astype(float)
    return alg


def test_local_search_on_the_archive_counts_every_evaluation():
    # A1 = {f1, f2} (C 0.80) and A2 = {f3, f4, f5} (C 0.99): the union is f1..f5
    table = TableProblem({**C, (2, 3, 4): 0.99})
    alg = _setup_with_archive(table, [(0, 1), (2, 3, 4)])
    before = alg.evaluator.n_eval
    table.asked.clear()
    alg._local_search()
    # acc1: the five single-feature masks, once
    assert table.asked[:5] == [(0,), (1,), (2,), (3,), (4,)]
    np.testing.assert_allclose(alg.acc1_, [0.70, 0.60, 0.80, 0.75, 0.50])
    assert alg.evaluator.n_eval - before == 5 + alg.n_ls_computed_ == len(table.asked)
    F = alg.archive_.get("F")
    X = alg.archive_.get("X")
    # {f2, f3} (error 0.10, 2 features) joined; it dominates A1 (0.20, 2)
    assert any(np.array_equal(x, _mask(1, 2)) for x in X)
    assert not any(np.array_equal(x, _mask(0, 1)) for x in X)
    np.testing.assert_allclose(F[np.argmin(F[:, 1])], [0.10, 0.4])
    # A1's search with the union f1..f5: f5 is now a candidate too (C 0.5 everywhere)
    log = alg.ls_log_[-1]
    assert log["archive"] == 2 and log["union"] == 5 and log["improved"] == 1
    assert log["sequential"] == alg.n_ls_sequential_ and log["computed"] == alg.n_ls_computed_


def test_acc1_is_computed_once_and_an_unchanged_member_is_reused():
    table = TableProblem({**C, (2, 3, 4): 0.99})
    alg = _setup_with_archive(table, [(2, 3, 4)])
    alg._local_search()
    n_eval, asked = alg.evaluator.n_eval, len(table.asked)
    alg._local_search()
    # same member, same union: nothing evaluated, the sequential cost counted again
    assert alg.evaluator.n_eval == n_eval and len(table.asked) == asked
    first, second = alg.ls_log_
    # its Inserting and Removing scans (the union is the member: no Swapping scan)
    assert second["reused"] == 2 and second["computed"] == 0
    assert second["sequential"] == first["sequential"] > 0


def test_scans_met_again_are_reused_with_the_same_outcome(table, acc1):
    memo = isrpso.ScanMemo()
    start, F = _mask(0, 1), table.evaluate(_mask(0, 1)[None, :])[0]
    first = isrpso.improve_member(start, F, UNION, acc1, _table_flips(table), memo=memo)
    memo.next_search()
    table.asked.clear()
    again = isrpso.improve_member(start, F, UNION, acc1, _table_flips(table), memo=memo)
    assert table.asked == [] and again.n_computed == 0
    assert again.n_reused == 4  # insert, remove, and the scans of u = f3 and u = f1
    np.testing.assert_array_equal(again.mask, first.mask)
    assert again.n_sequential == first.n_sequential == 8
    # a search forgets the scans the search before it did not use
    memo.next_search()
    memo.next_search()
    assert memo.get(("remove", np.packbits(_mask(0, 1, 3)).tobytes())) is None


def test_local_search_runs_every_ls_every_moves():
    problem = TableProblem(n_var=5)
    res = minimize(problem, ISRPSO(pop_size=4, ls_every=3), ("n_gen", 11), seed=1)
    moves = [e["move"] for e in res.algorithm.ls_log_]
    assert moves == [3, 6, 9]


# ------------------------------------------------------------------ batched == sequential
def sequential_local_search(problem, mask, F, union, acc1):
    """Seed 003's local search as written: one subset evaluated at a time.

    Returns the final mask, its objectives and the number of evaluations made.
    """
    count = [0]

    def first_better(current, f, trials):
        """The first trial subset (in order) with a strictly lower error, else the current."""
        for trial in trials:
            count[0] += 1
            g = problem.evaluate(trial[None, :])[0]
            if g[0] < f[0]:
                return trial, g
        return current, f

    def changed(mask, add=(), remove=()):
        out = mask.copy()
        out[list(add)], out[list(remove)] = True, False
        return out

    def by_acc1(mask, descending):
        order = np.argsort(-acc1 if descending else acc1, kind="stable")
        return [i for i in order if mask[i]]

    current, f = mask.copy(), F.copy()
    outside = by_acc1(union & ~current, descending=True)
    current, f = first_better(current, f, (changed(current, add=[u]) for u in outside))
    own = by_acc1(current, descending=False)
    if len(own) > 1:
        current, f = first_better(current, f, (changed(current, remove=[s]) for s in own))
    for u in by_acc1(union & ~current, descending=True):
        current, f = first_better(current, f, (changed(current, add=[u], remove=[s])
                                                for s in by_acc1(current, descending=False)))
    return current, f, count[0]


@pytest.fixture(scope="module")
def sonar_problem():
    data = load_dataset("sonar")
    return BiObjectiveFeatureSelection.from_data(data.X[:, :30], data.y, cv=5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_batched_search_equals_the_sequential_one_on_real_data(sonar_problem, seed):
    problem = sonar_problem
    archive = minimize(problem, MOPSO(pop_size=6), ("n_gen", 3), seed=seed).algorithm.archive_
    alg = ISRPSO(pop_size=6)
    alg.setup(problem, termination=("n_gen", 2), seed=0)
    acc1 = 1.0 - problem.evaluate(np.eye(problem.n_var, dtype=bool))[:, 0]
    union = archive.get("X").any(axis=0)
    changed = 0
    for member in archive:
        mask, F, n = sequential_local_search(problem, member.X, member.F, union, acc1)
        for batch in (None, 4):
            found = isrpso.improve_member(member.X, member.F, union, acc1,
                                          alg.flip_objectives, batch)
            np.testing.assert_array_equal(found.mask, mask)
            np.testing.assert_array_equal(found.F, F)
            assert found.n_sequential == n
        changed += found.changed
    assert changed > 0  # the searches did move


def test_batched_search_on_seeded_flip_tables_equals_the_sequential_one():
    # every flip by the Gram path, so each Swapping scan's base S + u gets its sorted prefixes
    # seeded with the previous base's (kernels/flips.py): swaps in the middle of the scans
    # change the subset between two bases, and the search still equals the sequential one
    data = load_dataset("sonar")
    problem = BiObjectiveFeatureSelection.from_data(data.X[:, :40], data.y, cv=5)
    ev = problem.evaluator
    ev._paths.force = "gram"
    rng = np.random.default_rng(7)
    acc1 = 1.0 - problem.evaluate(np.eye(40, dtype=bool))[:, 0]
    union = rng.random(40) < 0.8
    alg = ISRPSO(pop_size=4)
    alg.setup(problem, termination=("n_gen", 2), seed=0)
    swaps = 0
    for _ in range(3):
        start = union & (rng.random(40) < 0.5)
        F = problem.evaluate(start[None, :])[0]
        mask, F_seq, n = sequential_local_search(problem, start, F, union, acc1)
        result = isrpso.LocalSearchResult(start.copy(), F.copy())
        isrpso.insert_step(result, union, acc1, alg.flip_objectives)
        isrpso.remove_step(result, acc1, alg.flip_objectives)
        swaps += isrpso.swap_step(result, union, acc1, alg.flip_objectives)
        assert ev._flip_seed is not None
        np.testing.assert_array_equal(result.mask, mask)
        np.testing.assert_array_equal(result.F, F_seq)
        assert result.n_sequential == n
    assert swaps > 0


# ------------------------------------------------------------------ n_eval, seeds
class CountingProblem(BiObjectiveFeatureSelection):
    """Counts every mask it is asked to evaluate, flips included."""

    def _evaluate(self, x, out, *args, **kwargs):
        self.asked = getattr(self, "asked", 0) + len(x)
        super()._evaluate(x, out, *args, **kwargs)

    def evaluate_flips(self, mask, features, return_scores=False):
        self.asked = getattr(self, "asked", 0) + len(features)
        return super().evaluate_flips(mask, features, return_scores)


def test_n_eval_is_every_mask_evaluated(sonar_problem):
    problem = CountingProblem(sonar_problem.evaluator)
    res = minimize(problem, ISRPSO(pop_size=6), ("n_gen", 11), seed=3)
    alg = res.algorithm
    assert alg.n_ls_computed_ > 0 and len(alg.ls_log_) == 2
    assert alg.evaluator.n_eval == problem.asked == 6 * 11 + 30 + alg.n_ls_computed_


def test_an_evaluation_budget_bounds_the_local_search(sonar_problem):
    res = minimize(sonar_problem, ISRPSO(pop_size=6), ("n_eval", 150), seed=3)
    alg = res.algorithm
    # 36 for the swarm up to the first local search, 30 for acc1, the rest cut to the budget
    assert alg.evaluator.n_eval == 150
    assert alg.ls_log_ and alg.n_ls_computed_ == 150 - 36 - 30


def test_same_seed_same_front_and_the_search_improved_the_archive(sonar_problem):
    a = minimize(sonar_problem, ISRPSO(pop_size=6), ("n_gen", 11), seed=5)
    b = minimize(sonar_problem, ISRPSO(pop_size=6), ("n_gen", 11), seed=5)
    np.testing.assert_array_equal(a.X, b.X)
    np.testing.assert_array_equal(a.F, b.F)
    assert a.algorithm.ls_log_ == [
        {**e, "seconds": a.algorithm.ls_log_[i]["seconds"]}
        for i, e in enumerate(b.algorithm.ls_log_)]
    assert sum(e["improved"] for e in a.algorithm.ls_log_) > 0
    c = minimize(sonar_problem, ISRPSO(pop_size=6), ("n_gen", 11), seed=6)
    assert not np.array_equal(a.algorithm.X_, c.algorithm.X_)


def test_without_local_search_it_is_mopso(sonar_problem):
    a = minimize(sonar_problem, ISRPSO(pop_size=6, ls_every=100), ("n_gen", 8), seed=2)
    b = minimize(sonar_problem, MOPSO(pop_size=6), ("n_gen", 8), seed=2)
    np.testing.assert_array_equal(a.F, b.F)
    assert a.algorithm.acc1_ is None


@pytest.mark.parametrize("kwargs,name", [
    (dict(ls_every=0), "ls_every"),
    (dict(ls_every=2.5), "ls_every"),
    (dict(ls_batch=0), "ls_batch"),
    (dict(ls_batch="all"), "ls_batch"),
    (dict(pbest_rule="better"), "pbest_rule"),
])
def test_invalid_parameter_raises_naming_it(kwargs, name):
    with pytest.raises(ValueError, match=rf"^{name} "):
        ISRPSO(**kwargs)
