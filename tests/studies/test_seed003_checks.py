"""Nguyen et al. (2016)'s statements as checks (issue 23 item 4): every rule on hand-made
fronts where it holds and where it does not, and the report of a small S003 study printing the
table (report.md, report.html, summary.json, the ``report`` command)."""

import json

import numpy as np
import pytest

from pymoo_fs.cli import main
from pymoo_fs.studies import PRESETS, load_study, run_study
from pymoo_fs.studies.report import (CHECK_COLUMNS, CHECK_DATASETS, CHECKS, StudyResults,
                                     check_fronts, load_results, report_checks,
                                     statement_checks, write_report)


def _check(dataset, first="ISRPSO-"):
    """The check about ``dataset`` (for "all": the one whose statement starts with
    ``first``)."""
    found = [c for c in CHECKS if c.dataset == dataset and c.statement.startswith(first)] \
        if dataset == "all" else [c for c in CHECKS if c.dataset == dataset]
    assert len(found) == 1
    return found[0]


def _runs(train, test=None, full_train=0.2, full_test=0.2, n=20):
    """One algorithm's entry of :func:`check_fronts`: lists of (error, n_selected) per run."""
    def fronts(runs):
        return [np.array([[e, k / n] for e, k in run], dtype=float) for run in runs]
    return (fronts(train), fronts(test if test is not None else train), full_train, full_test,
            n)


# ------------------------------------------------------------------------ the rules, one by one
def test_best_front_small_subset_rule_holds_only_below_ten_percent_and_all_features():
    check = _check("all", "ISRPSO-Best")
    # 1 of 20 features (5 %), test error 0.15 < 0.2: held; the training front's hit is shown
    held, measured = check.decide({"ISRPSO": _runs([[(0.18, 1), (0.05, 9)]],
                                                   [[(0.15, 1), (0.10, 9)]])})
    assert held is True
    assert measured == "train / test: 1 features, error 0.1800 / 1 features, error 0.1500"
    # 2 of 20 is exactly 10 %: not below it
    held, measured = check.decide({"ISRPSO": _runs([[(0.15, 2), (0.05, 9)]])})
    assert held is False and measured == "train / test: none / none"
    # small enough, but no better than all features on the test data (the training hit alone
    # does not decide)
    held, measured = check.decide({"ISRPSO": _runs([[(0.10, 1)]], [[(0.20, 1)]])})
    assert held is False and measured.endswith("1 features, error 0.1000 / none")


def test_average_front_rule_needs_three_sizes_below_all_features():
    check = _check("all", "ISRPSO-Ave")
    # two runs; the average front has sizes 1, 2, 3 (errors 0.15, 0.15, 0.1) and 20 (all)
    test = [[(0.10, 1), (0.10, 2), (0.10, 3), (0.01, 20)], [(0.20, 1), (0.20, 2), (0.10, 3)]]
    held, measured = check.decide({"ISRPSO": _runs(test, test, full_test=0.18)})
    assert held is True and measured.endswith("3 / 3")  # the size 20 does not count
    # raise one size above the all-features error: two sizes left
    test[1][1] = (0.30, 2)
    held, measured = check.decide({"ISRPSO": _runs(test, test, full_test=0.18)})
    assert held is False and measured.endswith("2 / 2")  # training: 0.2 is not below 0.2


def test_musk1_rule_compares_seven_features_with_mopsos_twenty():
    check = _check("musk1")
    n = 166
    isr = _runs([[(0.10, 7), (0.05, 30)]], n=n)
    assert check.decide({"ISRPSO": isr, "MOPSO": _runs([[(0.10, 20)]], n=n)})[0] is True
    held, measured = check.decide({"ISRPSO": isr, "MOPSO": _runs([[(0.09, 20)]], n=n)})
    assert held is False
    assert measured == ("training error: ISRPSO <= 7 features 0.1000, MOPSO <= 20 features "
                        "0.0900")
    # ISRPSO's smallest subset has 8 features: nothing within 7, never as good
    held, measured = check.decide({"ISRPSO": _runs([[(0.01, 8)]], n=n),
                                   "MOPSO": _runs([[(0.30, 20)]], n=n)})
    assert held is False and "<= 7 features inf" in measured
    # MOPSO missing: not run
    assert check.decide({"ISRPSO": isr}) == (None, "MOPSO not run")
    # MOPSO has no subset of <= 20 features: nothing to match, undecided (not a vacuous held)
    held, measured = check.decide({"ISRPSO": isr, "MOPSO": _runs([[(0.10, 30)]], n=n)})
    assert held is None and measured.endswith("undecided, MOPSO found no subset of <= 20 "
                                              "features")


def test_vehicle_rule_needs_a_lower_average_front_than_each_of_three():
    check = _check("vehicle")
    n = 18
    isr = _runs([[(0.20, 2), (0.10, 5)]], n=n)
    worse = _runs([[(0.30, 2), (0.20, 5)]], n=n)  # 10 points above at both sizes
    fronts = {"ISRPSO": isr, "NSGA-II": worse, "SPEA2": worse, "PAES": worse}
    held, measured = check.decide(fronts)
    assert held is True and "NSGA-II +10.0 points" in measured
    # one of the three better on average over the common sizes: not held
    better = _runs([[(0.15, 2), (0.12, 5), (0.01, 9)]], n=n)  # -5 and +2 points: -1.5
    held, measured = check.decide(dict(fronts, SPEA2=better))
    assert held is False and "SPEA2 -1.5 points" in measured
    # no common size: no gap, not held
    held, measured = check.decide(dict(fronts, PAES=_runs([[(0.5, 1)]], n=n)))
    assert held is False and "PAES +nan points" in measured
    assert check.decide({"ISRPSO": isr, "NSGA-II": worse})[0] is None


def test_libras_rule_takes_the_median_multiple_of_features():
    check = _check("libras")
    n = 90
    isr = _runs([[(0.20, 2), (0.10, 5), (0.05, 10)]], n=n)
    # CMDPSOFS as accurate with 6, 10, 40 features: multiples 3, 2, 4 -> median 3
    held, measured = check.decide({"ISRPSO": isr,
                                   "CMDPSOFS": _runs([[(0.2, 6), (0.1, 10), (0.05, 40)]], n=n)})
    assert held is True and "min 2.0, median 3.0, max 4.0" in measured
    # with 3, 5, never: multiples 1.5, 1, inf -> median 1.5
    held, measured = check.decide({"ISRPSO": isr,
                                   "CMDPSOFS": _runs([[(0.2, 3), (0.1, 5)]], n=n)})
    assert held is False and "min 1.0, median 1.5, max inf" in measured


def test_isolet_rule_compares_the_lowest_test_errors():
    check = _check("isolet")
    n = 617
    isr = _runs([[(0.2, 5)]], [[(0.0088, 74), (0.02, 10)]], n=n)
    cmd = _runs([[(0.2, 5)]], [[(0.013, 200)]], n=n)
    nsga = _runs([[(0.2, 5)]], [[(0.012, 230)]], n=n)
    held, measured = check.decide({"ISRPSO": isr, "CMDPSOFS": cmd, "NSGA-II": nsga})
    assert held is True
    assert measured.startswith("lowest test error: ISRPSO 0.88 % with 74 features, CMDPSOFS "
                               "1.30 % with 200 features, NSGA-II 1.20 % with 230 features")
    tie = _runs([[(0.2, 5)]], [[(0.0088, 300)]], n=n)  # equal is not below
    assert check.decide({"ISRPSO": isr, "CMDPSOFS": cmd, "NSGA-II": tie})[0] is False


# ------------------------------------------------------------------ on a study's results
def _results(protocol="S003", datasets=("sonar",), labels=("ISRPSO", "MOPSO")):
    """A StudyResults made by hand: one run per algorithm and dataset, 10 features."""
    spec = {"name": "hand", "runs": 1, "reference": labels[0],
            "protocol": PRESETS[protocol].as_dict(),
            "algorithms": [{"name": label.split("-")[0], "label": label} for label in labels]}
    records, references = [], {}
    for dataset in datasets:
        references[(dataset, 0)] = {"dataset": dataset, "fold": 0, "n_features": 10,
                                    "score_train": 0.8, "score_test": 0.75}
        for label in labels:
            records.append({"dataset": dataset, "algorithm": label, "run": 0, "fold": 0,
                            "n_features": 10, "F_train": [[0.1, 0.05], [0.3, 0.5]],
                            "F_test": [[0.15, 0.05], [0.2, 0.3], [0.22, 0.2], [0.4, 0.1]]})
    return StudyResults(spec, records, references)


def test_statement_checks_cover_every_statement_and_dataset():
    checks = statement_checks(_results(datasets=("sonar", "musk1")))
    n_all = sum(c.dataset == "all" for c in CHECKS)
    assert len(checks) == n_all * len(CHECK_DATASETS) + len(CHECKS) - n_all
    by = {(c.dataset, c.statement): c for c in checks}
    best = by["sonar", _check("all", "ISRPSO-Best").statement]
    # 0.5 of a feature rounds to 0 here; the point is the rule saw the test front's 0.15 < 0.25
    assert best.held is True and best.runs == 1 and best.verdict == "held"
    musk1 = by["musk1", _check("musk1").statement]
    assert musk1.held is True and musk1.runs == 1
    vehicle = by["vehicle", _check("vehicle").statement]
    assert (vehicle.held, vehicle.runs, vehicle.verdict, vehicle.measured) == \
        (None, 0, "not run", "dataset not in the study")
    libras = [c for c in checks if c.dataset == "libras"]
    assert all(c.held is None for c in libras)


def test_an_algorithm_is_found_under_its_name_when_its_label_differs():
    results = _results(labels=("ISRPSO-30", "MOPSO"))
    fronts = check_fronts(results, "sonar")
    assert fronts["ISRPSO"] is fronts["ISRPSO-30"]
    sonar = [c for c in statement_checks(results) if c.dataset == "sonar"]
    assert [c.held for c in sonar] == [True, True] and sonar[0].runs == 1  # not None


def test_only_studies_under_the_papers_protocol_get_the_checks():
    assert report_checks(_results("S003")) is not None
    assert report_checks(_results("S000")) is None
    with pytest.raises(ValueError, match="one subset per run"):
        statement_checks(_results("S000"))


# ------------------------------------------------------------------ a small study's report
SPEC = """\
name = "s003-checks"
seed = 1
runs = 2
datasets = ["sonar"]
protocol = "S003"
reference = "ISRPSO"

[budget]
n_gen = 3

[[algorithms]]
name = "ISRPSO"
pop_size = 4

[[algorithms]]
name = "CMDPSOFS"
pop_size = 4
"""


@pytest.fixture(scope="module")
def study(tmp_path_factory):
    root = tmp_path_factory.mktemp("checks")
    (root / "spec.toml").write_text(SPEC)
    run_study(load_study(root / "spec.toml"), root / "study", progress=False)
    return root / "study"


def test_the_report_of_an_s003_study_writes_the_checks(study, tmp_path):
    paths = write_report(study, tmp_path / "report", tsne=False)
    expected = [c for c in statement_checks(load_results(study)) if c.dataset == "sonar"]
    assert paths["checks"] == expected and len(expected) == 2  # only the study's datasets
    summary = json.loads(paths["summary_json"].read_text())["checks"]
    assert summary["columns"] == list(CHECK_COLUMNS)
    assert summary["rows"] == [c.as_row() for c in expected]
    assert "Nguyen" in summary["source"]
    sonar = [row for row in summary["rows"] if row[0] == "sonar"]
    assert len(sonar) == 2 and all(row[2] == 2 and row[3] in (True, False) for row in sonar)
    assert all(row[3] is None for row in summary["rows"] if row[0] != "sonar")
    markdown = paths["markdown"].read_text()
    assert "## Statements of Nguyen et al. (2016): held / not held" in markdown
    for c in expected:
        verdict = "**not held**" if c.held is False else c.verdict
        assert f"| {c.dataset} | {c.statement} | {c.runs} | {verdict} | {c.measured} |" \
            in markdown
    assert markdown.index("## Statements of") < markdown.index("## Provenance")
    assert "seed 00" not in markdown.lower()  # the report names papers, not our seeds
    html = paths["html"].read_text()
    assert "Statements of Nguyen et al. (2016)" in html and html.count("<td>sonar</td>") == 2


def test_the_report_command_prints_the_checks(study, tmp_path, capsys):
    assert main(["report", str(study), "--no-tsne", "--out", str(tmp_path / "r")]) == 0
    out = capsys.readouterr().out
    assert "Statements of Nguyen et al. (2016) checked on the study's fronts" in out
    for c in statement_checks(load_results(study)):
        line = f"{c.verdict:<8}  {c.dataset:<8}  {c.runs} runs  {c.statement}"
        assert (line in out) == (c.dataset == "sonar")  # not the datasets it does not hold
        if c.dataset == "sonar":
            assert f"measured: {c.measured}" in out


def test_a_study_under_another_protocol_has_no_checks(tmp_path):
    (tmp_path / "spec.toml").write_text(SPEC.replace('"S003"', '"S000"')
                                        .replace('reference = "ISRPSO"', 'reference = "PSO"')
                                        .replace('"ISRPSO"', '"PSO"').replace(
                                            '"CMDPSOFS"', '"FSIPSO"').replace("runs = 2",
                                                                              "runs = 1"))
    run_study(load_study(tmp_path / "spec.toml"), tmp_path / "study", progress=False)
    paths = write_report(tmp_path / "study", tsne=False)
    assert paths["checks"] is None
    assert "checks" not in json.loads(paths["summary_json"].read_text())
    assert "Statements of Nguyen" not in paths["markdown"].read_text()
