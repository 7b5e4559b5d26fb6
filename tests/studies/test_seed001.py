"""The seed-001 protocol: FIT-B problems per outer fold, SU re-ranked per fold, a tiny study."""

import numpy as np
import pytest

from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import FitBEvaluator
from pymoo_fs.problems import FitBFeatureSelection
from pymoo_fs.studies import ResultStore, RunKey, load_study, run_study
from pymoo_fs.studies.protocols import make_problem, outer_splits, prepare_split
from pymoo_fs.studies.spec import PRESETS, Protocol

SPEC = """\
name = "s001-tiny"
seed = 3
runs = 1
datasets = ["sonar"]
protocol = "S001"

[budget]
n_gen = 4

[[algorithms]]
name = "AMSO"
pop_size = 8
ls_iterations = 5

[[algorithms]]
name = "VLPSO"
pop_size = 8
"""


def test_s001_preset_is_fitb():
    s001 = PRESETS["S001"]
    assert (s001.split, s001.outer_folds, s001.scaling, s001.objective.name, s001.objective.mu,
            s001.n_neighbors, s001.inner_cv, s001.scoring) == (
        "outer_cv", 10, "minmax", "fitb", 0.8, 1, 10, "accuracy")
    with pytest.raises(ValueError, match="fitb"):
        Protocol(objective="fitb", n_neighbors=5)
    with pytest.raises(ValueError, match="fitb"):
        Protocol(objective="fitb", n_neighbors=1, inner_cv="loo")


def test_each_fold_has_its_own_scaling_folds_and_su_ranking():
    data = load_dataset("sonar")
    protocol = PRESETS["S001"]
    splits = outer_splits(data.y, protocol, 3, "sonar")
    assert len(splits) == 10
    problems = []
    for fold in (0, 1):
        parts = prepare_split(data.X, data.y, *splits[fold], protocol)
        assert parts[0].min() == 0.0 and parts[0].max() == pytest.approx(1.0)  # on training
        problem = make_problem(protocol, *parts, 3, "sonar", fold)
        assert isinstance(problem, FitBFeatureSelection)
        assert isinstance(problem.evaluator, FitBEvaluator)
        assert problem.evaluator.mu == 0.8 and len(problem.evaluator.folds) == 10
        problems.append(problem)
    su = [p.symmetric_uncertainty() for p in problems]
    assert su[0] is problems[0].symmetric_uncertainty()  # computed once per problem
    assert not np.array_equal(su[0].relevance, su[1].relevance)  # re-ranked per fold
    train0 = problems[0].evaluator
    mask = np.zeros(60, dtype=bool)
    mask[:5] = True
    test_score = train0.holdout_score(mask, problems[0].X_test, problems[0].y_test)[0]
    assert problems[0].holdout_objectives(mask)[0, 0] == pytest.approx(1 - test_score)


def test_a_tiny_s001_study_runs_and_records_test_accuracy(tmp_path):
    spec = load_study(SPEC)
    assert spec.protocol.objective.name == "fitb"
    store = run_study(spec, tmp_path / "study", progress=False)
    assert len(store.finished()) == 20  # 2 algorithms x 1 run x 10 folds
    record = ResultStore(tmp_path / "study").read_run(RunKey("sonar", "AMSO", 0, 3))
    assert 0 < record["score_train"][0] <= 1 and 0 <= record["score_test"][0] <= 1
    np.testing.assert_allclose(record["F_train"][0][0], 1 - record["score_train"][0])
    np.testing.assert_allclose(record["F_test"][0][0], 1 - record["score_test"][0])
