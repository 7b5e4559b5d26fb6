"""The comparison behind ``pymoo-fs compare``: a one-dataset study, its files, its table."""

import csv

import numpy as np
import pytest
from pymoo.indicators.hv import HV
from pymoo.indicators.igd import IGD

from pymoo_fs import comparison
from pymoo_fs.analysis import nondominated
from pymoo_fs.comparison import (FRONT_COLUMNS, RESULT_COLUMNS, SUBSET_COLUMNS, compare,
                                 compare_spec, format_table)
from pymoo_fs.studies import StudySpecError, plan_runs
from pymoo_fs.studies.report import SUBSET_SUMMARY_COLUMNS, summary_tables
from pymoo_fs.studies.runner import problem_of

ALGORITHMS = ["ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II"]  # the default set
SETTINGS = dict(runs=2, generations=4, pop_size=8, cv=3)


@pytest.fixture(scope="module")
def done(tmp_path_factory):
    return compare("sonar", **SETTINGS, out=tmp_path_factory.mktemp("compare"))


def _read_csv(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def _fronts(done):
    """{(algorithm, run): (masks, F_train, F_test)} from the comparison's records."""
    out = {}
    for r in done.results.records:
        masks = np.zeros((len(r["features"]), 60), dtype=bool)
        for i, features in enumerate(r["features"]):
            masks[i, features] = True
        out[r["algorithm"], r["run"]] = (masks, np.array(r["F_train"]), np.array(r["F_test"]))
    return out


def test_the_spec_is_a_one_dataset_hold_out_study():
    spec = compare_spec("sonar", algorithms=["nsga2", "spea2", "paes"], **SETTINGS)
    assert [a.name for a in spec.algorithms] == ["NSGA-II", "SPEA2", "PAES"]
    assert spec.datasets == ("sonar",) and spec.protocol.split == "holdout"
    assert spec.protocol.objective.name == "pareto" and spec.protocol.inner_cv == 3
    budgets = {a.name: spec.budget_of(a).as_dict() for a in spec.algorithms}
    assert budgets == {"NSGA-II": {"n_gen": 4}, "SPEA2": {"n_gen": 4}, "PAES": {"n_eval": 32}}


def test_every_run_has_the_asked_evaluations_and_consistent_fronts(done):
    assert [(r["algorithm"], r["run"]) for r in done.results.records] == sorted(
        (a, k) for a in ALGORITHMS for k in range(2))
    problem = problem_of(done.spec, "sonar")
    for masks, F_train, F_test in _fronts(done).values():
        assert F_train.shape == F_test.shape == (masks.shape[0], 2)
        np.testing.assert_array_equal(problem.evaluate(masks), F_train)
        np.testing.assert_array_equal(problem.holdout_objectives(masks), F_test)
    assert all(r["n_eval"] == 32 for r in done.results.records)
    # runs of one algorithm use different seeds
    fronts = _fronts(done)
    for name in ALGORITHMS:
        a, b = fronts[name, 0][0], fronts[name, 1][0]
        assert a.shape != b.shape or not np.array_equal(a, b)


def test_results_csv_holds_the_indicators_pymoo_computes(done):
    header, rows = _read_csv(done.paths["results"])
    assert header == list(RESULT_COLUMNS)
    assert [(row[0], int(row[1])) for row in rows] == [(a, k) for a in ALGORITHMS
                                                       for k in range(2)]
    fronts = _fronts(done)
    reference_train = nondominated(np.vstack([f[1] for f in fronts.values()]))
    reference_test = nondominated(np.vstack([f[2] for f in fronts.values()]))
    for row in rows:
        masks, F_train, F_test = fronts[row[0], int(row[1])]
        hv_train, igd_train, hv_test, igd_test = map(float, row[2:6])
        assert hv_train == pytest.approx(HV(ref_point=np.ones(2))(F_train))
        assert igd_train == pytest.approx(IGD(reference_train)(F_train))
        # a test front may hold dominated points: IGD uses its non-dominated part
        assert igd_test == pytest.approx(IGD(reference_test)(nondominated(F_test)))
        assert 0 < hv_train <= 1 and 0 <= hv_test <= 1
        assert int(row[6]) == 32 and int(row[8]) == masks.shape[0] and float(row[7]) >= 0


def test_fronts_csv_lists_every_front_member(done):
    header, rows = _read_csv(done.paths["fronts"])
    assert header == list(FRONT_COLUMNS)
    fronts = _fronts(done)
    expected = [(a, k, mask, f_tr, f_te) for a in ALGORITHMS for k in range(2)
                for mask, f_tr, f_te in zip(*fronts[a, k])]
    assert len(rows) == len(expected)
    for row, (name, k, mask, f_tr, f_te) in zip(rows, expected):
        features = [int(i) for i in row[6].split()]
        assert (row[0], int(row[1])) == (name, k)
        assert int(row[2]) == len(features) == mask.sum()
        np.testing.assert_array_equal(features, np.flatnonzero(mask))
        assert float(row[3]) == pytest.approx(int(row[2]) / 60)
        assert float(row[4]) == f_tr[0] and float(row[5]) == f_te[0]


def test_the_directory_holds_the_store_the_files_and_the_report(done, monkeypatch):
    out = done.paths["results"].parent
    assert {"study.json", "runs", "timing", "reference", "provenance.json", "results.csv",
            "fronts.csv", "fronts.png", "report"} == {p.name for p in out.iterdir()}
    assert done.paths["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert done.paths["report"] == out / "report" / "report.html"
    figure = comparison.fronts_figure(done.results, "sonar")
    for ax in figure.axes:
        labels = ax.get_legend_handles_labels()[1]
        # seed 003's "best" and "average" fronts of each algorithm, and the all-features line
        assert labels == ([f"{a}-Best" for a in ALGORITHMS] + [f"{a}-Ave" for a in ALGORITHMS]
                          + ["all features"])


def test_a_rerun_resumes_and_a_larger_one_adds_runs(done, tmp_path):
    out = done.paths["results"].parent
    timing = {p: p.read_bytes() for p in (out / "timing").rglob("*.json")}
    again = compare("sonar", **SETTINGS, out=out)
    assert {p: p.read_bytes() for p in (out / "timing").rglob("*.json")} == timing  # none rerun
    assert _read_csv(again.paths["fronts"]) == _read_csv(done.paths["fronts"])
    # the same comparison elsewhere gives the same runs, to the last digit
    fresh = compare("sonar", **SETTINGS, out=tmp_path / "fresh")
    fronts = _read_csv(fresh.paths["fronts"])
    assert fronts == _read_csv(done.paths["fronts"])
    # a third NSGA-II run joins the two stored ones; the files hold what was asked
    more = compare("sonar", **dict(SETTINGS, runs=3), algorithms=["NSGA-II"],
                   out=tmp_path / "fresh")
    assert [r["run"] for r in more.results.records] == [0, 1, 2]
    header, rows = _read_csv(more.paths["results"])
    assert [row[:2] for row in rows] == [["NSGA-II", "0"], ["NSGA-II", "1"], ["NSGA-II", "2"]]
    header, rows = _read_csv(more.paths["fronts"])
    assert [r for r in rows if r[1] != "2"] == [r for r in fronts[1] if r[0] == "NSGA-II"]


def test_a_directory_of_another_comparison_is_refused(done):
    out = done.paths["results"].parent
    with pytest.raises(StudySpecError, match="different budget"):
        compare("sonar", **dict(SETTINGS, generations=5), out=out)


def test_format_table_names_every_algorithm_and_its_sign(done):
    lines = format_table(done).splitlines()
    assert lines[0].startswith("sonar (60 features): 2 runs x 4 generations x 8; objective "
                               "pareto")
    assert "ISRPSO significantly better" in lines[1]
    assert "HV train" in lines[2] and "IGD test" in lines[2] and "T_HV" in lines[2]
    for name, line in zip(ALGORITHMS, lines[4:]):
        assert line.startswith(name) and "±" in line
    # the all-features scores have no hypervolume: a line of their own under the table
    assert lines[-1].startswith("All 60 features: training (inner CV) accuracy ")
    assert len(lines) == 5 + len(ALGORITHMS)


def test_paes_gets_pop_size_times_generations_evaluations(tmp_path):
    c = compare("sonar", algorithms=["PAES", "SPEA2"], runs=1, generations=4, pop_size=8,
                cv=3, out=tmp_path)
    assert [(r["algorithm"], r["n_eval"]) for r in c.results.records] == [("PAES", 32),
                                                                          ("SPEA2", 32)]
    assert 1 <= len(c.results.records[0]["features"]) <= 32


@pytest.mark.parametrize("kwargs,match", [
    (dict(dataset="no-such-dataset"), "no-such-dataset"),
    (dict(algorithms=["FOO"]), "unknown algorithm"),
    (dict(algorithms=["NSGA-II", "PSO"]), "PSO is single-objective; objective 'pareto' needs"),
    (dict(algorithms=[]), "algorithms"),
    (dict(runs=0), "runs"),
    (dict(runs=1.5), "runs"),
    (dict(generations=1), "generations"),
    (dict(pop_size=1), "pop_size"),
    (dict(cv=1), "cv"),
    (dict(algorithms=["SPEA2", "SPEA2"]), r"algorithms lists SPEA2 twice: each algorithm runs "
                                          r"once per comparison; use runs"),
    (dict(algorithms=["nsga2", "SPEA2", "NSGA-II"]),
     r"algorithms lists NSGA-II twice \(as 'nsga2' and 'NSGA-II'\)"),
    (dict(seed=-1), r"seed must be an int in \[0, 2\*\*32 - 1\], got -1"),
    (dict(seed=2**32), r"seed must be an int in \[0, 2\*\*32 - 1\], got 4294967296"),
    (dict(seed=1.5), r"seed must be an int"),
    (dict(seed=None), r"seed must be an int"),
    (dict(test_size=0.001), r"test_size=0\.001 is too small: it puts 1 of 208 samples"),
    (dict(test_size=0.999), r"test_size=0\.999 is too large"),
    (dict(alpha=0.5), "alpha is a weight of objective 'weighted', not of 'pareto'"),
    (dict(mu=0.5), "mu is a weight of objective 'fitb', not of 'pareto'"),
    (dict(reference="SPEA2"), "reference 'SPEA2' is not one of the algorithms"),
])
def test_compare_spec_rejects_bad_arguments(kwargs, match):
    args = dict(dataset="sonar", runs=1, generations=2, pop_size=4, cv=3)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        compare_spec(**args)


# ------------------------------------------------------------------ single objective
@pytest.fixture(scope="module")
def weighted(tmp_path_factory):
    return compare("sonar", ["FSIPSO", "PSO", "SFS"], runs=3, generations=4, pop_size=6, cv=3,
                   objective="weighted", alpha=0.8, reference="PSO",
                   out=tmp_path_factory.mktemp("weighted"))


def test_weighted_comparison_writes_seed_000s_table(weighted):
    assert weighted.spec.protocol.objective.alpha == 0.8
    header, rows = _read_csv(weighted.paths["summary"])  # numbers, one row per algorithm
    assert header == list(SUBSET_SUMMARY_COLUMNS[1:])
    assert [row[0] for row in rows] == ["FSIPSO", "PSO", "SFS"]
    for name, row in zip(["FSIPSO", "PSO", "SFS"], rows):
        row = dict(zip(header, row))
        records = [r for r in weighted.results.records if r["algorithm"] == name]
        sizes = [len(r["features"][0]) for r in records]
        tests = [r["score_test"][0] for r in records]
        assert float(row["n_features_mean"]) == np.mean(sizes)
        assert float(row["test_score_best"]) == max(tests)
        assert float(row["test_score_mean"]) == pytest.approx(np.mean(tests), abs=1e-15)
        assert row["reference"] == str(name == "PSO")
        assert row["n_features_sign"] in ("+", "=", "-", "")
        assert row["test_score_sign"] in ("+", "=", "-", "")
    text_header, text_rows = summary_tables(weighted.results)["sonar"]  # the printed table
    assert text_header[:6] == ("algorithm", "#features", "T_f", "best test", "test", "T_a")
    assert [r[0] for r in text_rows] == ["all features", "FSIPSO", "PSO (reference)", "SFS"]
    for r in weighted.results.records:
        assert np.shape(r["F_train"]) == (1, 1)
        assert r["F_train"][0][0] == pytest.approx(0.8 * (1 - r["score_train"][0])
                                                    + 0.2 * len(r["features"][0]) / 60)
    # SFS is deterministic: three identical runs
    sfs = [r["features"] for r in weighted.results.records if r["algorithm"] == "SFS"]
    assert all(f == sfs[0] for f in sfs)


def test_weighted_table_text_and_files(weighted):
    text = format_table(weighted)
    assert "objective weighted (alpha 0.8)" in text and "PSO (reference)" in text
    out = weighted.paths["results"].parent
    assert {"results.csv", "summary.csv"} < {p.name for p in out.iterdir()}
    assert not (out / "fronts.csv").exists()
    with open(weighted.paths["results"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == list(SUBSET_COLUMNS)
    assert [row["algorithm"] for row in rows] == ["FSIPSO"] * 3 + ["PSO"] * 3 + ["SFS"] * 3
    assert all(len(row["features"].split()) == int(row["n_selected"]) for row in rows)


def test_every_single_objective_can_be_compared(tmp_path):
    fite = compare("sonar", ["CEPSO-FL", "BPSO"], runs=1, generations=3, pop_size=6, cv=3,
                   objective="fite", out=tmp_path / "fite")
    assert fite.spec.protocol.objective.name == "fite" and "summary" in fite.paths
    fitb = compare_spec("sonar", ["AMSO"], runs=1, generations=3, pop_size=6, cv=3,
                        n_neighbors=1, objective="fitb", mu=0.7)
    assert fitb.protocol.objective.mu == 0.7
    with pytest.raises(ValueError, match="needs n_neighbors=1"):
        compare_spec("sonar", ["AMSO"], objective="fitb")


@pytest.mark.parametrize("kwargs,match", [
    (dict(algorithms=["PSO", "NSGA-II"], objective="weighted"), "NSGA-II is bi-objective"),
    (dict(algorithms=["PSO"], objective="scalar"), "objective must be"),
    (dict(algorithms=["PSO", "SFS"], objective="weighted", reference="CSO"), "reference"),
    (dict(algorithms=["PSO"], objective="weighted", alpha=2.0), "alpha"),
])
def test_compare_spec_rejects_bad_single_objective_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        compare_spec("sonar", runs=1, generations=2, pop_size=4, cv=3, **kwargs)


def test_plan_of_a_comparison_is_algorithm_by_algorithm():
    spec = compare_spec("sonar", ["PSO", "SFS"], objective="weighted", **SETTINGS)
    assert [(k.algorithm, k.run) for k in plan_runs(spec)] == [
        ("PSO", 0), ("PSO", 1), ("SFS", 0), ("SFS", 1)]


def test_equal_budget_gives_every_algorithm_the_same_evaluations(tmp_path):
    from pymoo_fs.comparison import compare, compare_spec, format_table

    spec = compare_spec("sonar", ["ISRPSO", "NSGA-II", "PAES"], runs=1, generations=4,
                        pop_size=6, cv=3, equal_budget=True)
    assert [a.budget.termination for a in spec.algorithms] == [("n_eval", 24)] * 3
    with pytest.raises(ValueError, match="equal_budget must be True or False"):
        compare_spec("sonar", ["NSGA-II"], equal_budget="yes")
    done = compare("sonar", ["ISRPSO", "NSGA-II"], runs=1, generations=4, pop_size=6, cv=3,
                   equal_budget=True, out=tmp_path / "equal")
    # ISRPSO's local searches spend from the 24 evaluations; pymoo checks after a generation
    assert all(r["n_eval"] <= 24 + 6 for r in done.results.records)
    table = format_table(done)
    assert "equal budget: 24 evaluations each" in table
    assert "too few runs for a test" in table  # 1 run against 1: said, not "="
