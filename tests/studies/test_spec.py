"""Study specs: TOML and Python agree; every bad spec fails before a run, naming line and key."""

import pytest

from pymoo_fs.problems.objectives import (FitBObjective, ParetoObjective,
                                          WeightedObjective)
from pymoo_fs.studies import (PRESETS, AlgorithmSpec, Budget, Protocol, StudySpec,
                              StudySpecError, load_study)

GOOD = """\
name = "demo"
seed = 3
runs = 2
datasets = ["sonar"]
protocol = "S003"

[budget]
n_gen = 10

[[algorithms]]
name = "CMDPSOFS"
pop_size = 12

[[algorithms]]
name = "nsga2"
label = "NSGA-II-big"
pop_size = 40
budget = { n_eval = 500 }
"""


def test_toml_and_python_give_the_same_spec(tmp_path):
    path = tmp_path / "demo.toml"
    path.write_text(GOOD)
    spec = load_study(path)
    same = StudySpec(name="demo", seed=3, runs=2, datasets=["sonar"], protocol="S003",
                     budget=Budget(n_gen=10),
                     algorithms=[AlgorithmSpec("CMDPSOFS", {"pop_size": 12}),
                                 AlgorithmSpec("NSGA-II", {"pop_size": 40}, label="NSGA-II-big",
                                               budget=Budget(n_eval=500))])
    assert spec == same
    assert spec.as_dict() == same.as_dict()
    assert spec.budget_of(spec.algorithms[1]).termination == ("n_eval", 500)
    assert spec.reference_label == "CMDPSOFS"
    assert spec.protocol is PRESETS["S003"]


def test_presets_follow_the_seeds():
    s000, s001, s002, s003, s004 = (PRESETS[f"S00{i}"] for i in range(5))
    assert (s000.split, s000.test_size, s000.scaling, s000.n_neighbors, s000.inner_cv) == (
        "holdout", 0.3, "symmetric_whole", 5, 5)
    assert (s001.split, s001.outer_folds, s001.n_neighbors, s001.inner_cv) == (
        "outer_cv", 10, 1, 10)
    assert (s002.split, s002.n_neighbors, s002.inner_cv) == ("holdout", 1, 10)
    assert s002.test_size == pytest.approx(1 / 3)
    assert (s003.test_size, s003.n_neighbors, s003.inner_cv, s003.objective.name) == (
        0.3, 5, 10, "pareto")
    assert (s004.split, s004.n_neighbors, s004.inner_cv, s004.statistic) == (
        "outer_cv", 5, "loo", "signedrank")


def test_a_protocol_table_overrides_a_preset():
    spec = load_study(GOOD.replace('protocol = "S003"\n', "") + '\n[protocol]\npreset = "S003"\n'
                      'inner_cv = 5\n', validate=False)
    assert spec.protocol.inner_cv == 5 and spec.protocol.n_neighbors == 5
    assert spec.protocol.name == "S003+custom"


def _protocol_table(body, algorithm="PSO"):
    text = (f'datasets = ["sonar"]\n[[algorithms]]\nname = "{algorithm}"\n'
            f'[protocol]\n{body}')
    return load_study(text, validate=False).protocol


def test_objective_parameters_are_keys_of_the_protocol_table():
    assert _protocol_table('preset = "S000"\nalpha = 0.7\n').objective == WeightedObjective(0.7)
    # naming the preset's own objective keeps its parameters (S002's alpha 1.0)
    assert _protocol_table('preset = "S002"\nobjective = "weighted"\n').objective.alpha == 1.0
    assert _protocol_table('objective = "weighted"\nalpha = 0.8\n').objective.alpha == 0.8
    table = _protocol_table('objective = { name = "weighted", alpha = 0.6, inner_repetitions = '
                            '3 }\n')
    assert _protocol_table('inner_cv = 5\n', "CMDPSOFS").objective == ParetoObjective()
    assert table.objective == WeightedObjective(0.6, 3) and table.name == "custom"
    assert _protocol_table('preset = "S001"\nmu = 0.5\n').objective == FitBObjective(0.5)
    assert _protocol_table('preset = "S000"\ninner_repetitions = 5\n').name == "S000+custom"


@pytest.mark.parametrize("body, key, message", [
    ('preset = "S003"\nalpha = 0.5\n', "alpha",
     "alpha is not a parameter of objective 'pareto' (it takes no parameter)"),
    ('preset = "S001"\nalpha = 0.5\n', "alpha",
     "alpha is not a parameter of objective 'fitb' (it takes mu)"),
    ('objective = "weighted"\nalpha = 1.5\n', "alpha", "alpha must be a number in [0, 1]"),
    ('objective = "scalar"\n', "objective", "objective must be one of"),
    ('objective = { alpha = 0.5 }\n', "objective", "an objective table needs a name"),
    ('objective = "weighted"\nmue = 0.5\n', "mue", "unknown key 'mue'"),
    ('preset = "S000"\ninner_repetitions = 6\n', "inner_repetitions",
     "inner_repetitions must be an int in [1, 5]"),
])
def test_bad_objective_keys_name_the_key(body, key, message):
    with pytest.raises(StudySpecError) as info:
        _protocol_table(body)
    assert f"key 'protocol.{key}'" in str(info.value) and message in str(info.value), info.value


def test_a_protocol_round_trips_and_reads_the_flat_form_of_older_stores():
    for protocol in PRESETS.values():
        assert Protocol.from_dict(protocol.as_dict()) == protocol
    assert PRESETS["S001"].as_dict()["objective"] == {"name": "fitb", "mu": 0.8}
    older = {"name": "S001", "split": "outer_cv", "test_size": 0.3, "outer_folds": 10,
             "scaling": "minmax", "n_neighbors": 1, "inner_cv": 10, "scoring": "accuracy",
             "objective": "fitb", "alpha": 0.8, "statistic": "ranksum"}
    assert Protocol.from_dict(older) == PRESETS["S001"]
    older.update(name="S000+custom", split="holdout", scaling="symmetric_whole", n_neighbors=5,
                 inner_cv=5, objective="weighted", alpha=0.9, inner_repetitions=3)
    assert Protocol.from_dict(older).objective == WeightedObjective(0.9, 3)
    older.update(objective="pareto", alpha=0.9)
    del older["inner_repetitions"]
    assert Protocol.from_dict(older).objective == ParetoObjective()


def _fails(text, line, key, message):
    with pytest.raises(StudySpecError) as info:
        load_study(text)
    text = str(info.value)
    assert f"line {line}:" in text, text
    assert f"key {key!r}" in text, text
    assert message in text, text


@pytest.mark.parametrize("old, new, line, key, message", [
    ("runs = 2", "runs = 2\nrunz = 3", 4, "runz", "unknown key 'runz'"),
    ("runs = 2", 'runs = "2"', 3, "runs", "runs must be an int"),
    ("n_gen = 10", "n_gen = 10\nn_gens = 5", 9, "budget.n_gens", "unknown key 'n_gens'"),
    ("n_gen = 10", "n_gen = 1", 8, "budget.n_gen", "n_gen must be an int >= 2"),
    ('name = "CMDPSOFS"', 'name = "CMDPSO"', 11, "algorithms.1.name", "unknown algorithm"),
    ("pop_size = 12", "pop_sise = 12", 12, "algorithms.1.pop_sise",
     "unexpected keyword argument 'pop_sise'"),
    ("pop_size = 40", "pop_size = -40", 17, "algorithms.2.pop_size", "pop_size must be"),
    ("budget = { n_eval = 500 }", "budget = { n_evals = 500 }", 18,
     "algorithms.2.budget.n_evals", "unknown key 'n_evals'"),
    ('protocol = "S003"', 'protocol = "S009"', 5, "protocol", "protocol must be one of"),
    ('name = "CMDPSOFS"', 'name = "PSO"', 5, "protocol", "does not suit the protocol"),
    ('label = "NSGA-II-big"', 'label = "CMDPSOFS"', 1, "algorithms",
     "label 'CMDPSOFS' appears twice"),
])
def test_bad_specs_name_the_line_and_key(old, new, line, key, message):
    assert old in GOOD
    if key == "algorithms":
        with pytest.raises(StudySpecError, match=message):
            load_study(GOOD.replace(old, new))
        return
    _fails(GOOD.replace(old, new), line, key, message)


def test_unknown_dataset_fails_before_any_run():
    with pytest.raises(StudySpecError, match="dataset 'no_such_data'"):
        load_study(GOOD.replace('"sonar"', '"no_such_data"'))


def test_toml_syntax_errors_keep_tomllib_positions():
    with pytest.raises(StudySpecError, match=r"at line 2, column"):
        load_study("seed = 1\nruns = = 2\ndatasets = []\n")


@pytest.mark.parametrize("kwargs, match", [
    (dict(), "exactly one"),
    (dict(n_gen=10, n_eval=100), "exactly one"),
    (dict(time="1:00"), "HH:MM:SS"),
    (dict(time=0), "HH:MM:SS"),
    (dict(n_eval=0), "n_eval must be an int >= 1"),
])
def test_budget_checks(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Budget(**kwargs)


def test_time_budgets():
    assert Budget(time="00:01:30").termination == ("time", 90.0)
    assert Budget(time=2.5).termination == ("time", 2.5)


@pytest.mark.parametrize("kwargs, match", [
    (dict(split="kfold"), "split must be"),
    (dict(inner_cv=1), "inner_cv"),
    (dict(objective={"name": "weighted", "alpha": 1.5}), "alpha"),
    (dict(objective={"name": "pareto", "alpha": 0.5}), "alpha is not a parameter"),
    (dict(objective="fitb", n_neighbors=1, inner_cv="loo"), "fitb"),
    (dict(scoring="f1"), "scoring"),
])
def test_protocol_checks(kwargs, match):
    with pytest.raises(ValueError, match=match):
        Protocol(**kwargs)


def test_the_example_specs_are_valid_studies(monkeypatch):
    """The README's study spec and the benchmark specs read, validate and name what they say."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    # benchmark specs name helpers of benchmarks/ as "module:function" (run with benchmarks on
    # PYTHONPATH, as their headers say)
    monkeypatch.syspath_prepend(str(root / "benchmarks"))
    spec = load_study(root / "examples" / "study_isrpso.toml")
    assert list(spec.datasets) == ["sonar", "musk1"] and spec.protocol == PRESETS["S003"]
    assert [a.label for a in spec.algorithms] == ["ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II",
                                                  "SPEA2", "PAES"]
    assert spec.algorithms[-1].budget.termination == ("n_eval", 3000)
    for path in sorted((root / "benchmarks").rglob("*.toml")):
        load_study(path, validate=False)


def test_weka_stratification_makes_folds_scikit_learn_refuses():
    import numpy as np

    from pymoo_fs.studies.protocols import outer_splits

    y = np.repeat(np.arange(9), [9, 8, 7, 7, 7, 6, 6, 5, 5])  # 9_tumors: no class of 10
    sklearn = Protocol(split="outer_cv", outer_folds=10)
    with pytest.raises(ValueError, match="stratification = 'weka' deals Weka's folds"):
        outer_splits(y, sklearn, 0, "tumors")
    weka = Protocol(split="outer_cv", outer_folds=10, stratification="weka")
    splits = outer_splits(y, weka, 0, "tumors")
    assert len(splits) == 10
    np.testing.assert_array_equal(np.sort(np.concatenate([t for _, t in splits])),
                                  np.arange(y.size))
    assert Protocol.from_dict(weka.as_dict()) == weka
    assert _protocol_table('preset = "S001"\nstratification = "weka"\n', "AMSO").stratification \
        == "weka"
    with pytest.raises(ValueError, match="stratification must be one of"):
        Protocol(stratification="java")
