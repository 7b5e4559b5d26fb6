"""The seed-004 protocol: FIT-E problems per outer fold, and the report's signed-rank signs."""

import re

import numpy as np
import pytest

from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import FitEFeatureSelection
from pymoo_fs.studies import ResultStore, RunKey, load_study, run_study
from pymoo_fs.studies.protocols import make_problem, outer_splits, prepare_split
from pymoo_fs.studies.report import load_results, summary_data, summary_tables
from pymoo_fs.studies.spec import PRESETS, Protocol

SPEC = """\
name = "s004-tiny"
seed = 4
runs = 1
datasets = ["{path}"]
protocol = "S004"
reference = "CEPSO-FL"

[budget]
n_eval = 24

[[algorithms]]
name = "CEPSO-FL"
pop_size = 6

[[algorithms]]
name = "BPSO"
pop_size = 6
"""


def test_s004_preset_is_fite_with_loocv_5nn():
    s004 = PRESETS["S004"]
    assert (s004.split, s004.outer_folds, s004.scaling, s004.objective.name, s004.n_neighbors,
            s004.inner_cv, s004.statistic) == ("outer_cv", 10, "minmax", "fite", 5, "loo",
                                               "signedrank")
    with pytest.raises(ValueError, match="objective"):
        Protocol(objective="fitе")  # a Cyrillic e


def test_each_fold_gets_a_fite_problem_with_its_su_ranking():
    data = load_dataset("sonar")
    X, y = data.X[::2, :15], data.y[::2]
    protocol = PRESETS["S004"]
    splits = outer_splits(y, protocol, 4, "sonar")
    parts = prepare_split(X, y, *splits[0], protocol)
    problem = make_problem(protocol, *parts, 4, "sonar", 0)
    assert isinstance(problem, FitEFeatureSelection) and problem.fewer_breaks_ties
    assert problem.evaluator.n_neighbors == 5
    assert len(problem.evaluator.folds) == parts[0].shape[0]  # leave-one-out
    assert getattr(problem, "_symmetric_uncertainty", None) is not None  # ranked before runs


def test_a_tiny_s004_study_reports_signed_rank_signs(tmp_path):
    data = load_dataset("sonar")
    path = tmp_path / "sonar15.csv"
    rows = np.column_stack([data.X[::2, :15], data.y[::2]])
    header = ",".join([f"f{i}" for i in range(15)] + ["class"])
    np.savetxt(path, rows, delimiter=",", header=header, comments="", fmt="%s")
    spec = load_study(SPEC.format(path=path))
    assert spec.protocol.objective.name == "fite"
    run_study(spec, tmp_path / "study", progress=False)
    store = ResultStore(tmp_path / "study")
    assert len(store.finished()) == 20
    record = store.read_run(RunKey("sonar15", "CEPSO-FL", 0, 2))
    np.testing.assert_allclose(record["F_train"][0][0], 1 - record["score_train"][0])
    assert record["n_eval"] == 24
    header, rows = summary_tables(load_results(tmp_path / "study"))["sonar15"]
    bpso = next(r for r in rows if r[0] == "BPSO")
    # each sign with its effect size and the pairs compared (signed-rank: 10 folds paired)
    data = summary_data(load_results(tmp_path / "study"))["sonar15"].row("BPSO")
    for column, key in (("T_f", "n_features_sign"), ("T_a", "test_score_sign")):
        cell = bpso[header.index(column)]
        assert re.fullmatch(r"[+=-] A12=[01]\.\d\d \(10/10\)", cell), cell
        assert cell[0] == data[key]
