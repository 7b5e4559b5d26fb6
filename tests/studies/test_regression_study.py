"""A comparison on a regression dataset: the regression protocol, its splits and its words."""

import numpy as np
from sklearn.model_selection import KFold, train_test_split

from pymoo_fs.comparison import compare, compare_spec
from pymoo_fs.evaluation.base import error_label, score_label
from pymoo_fs.seeds import run_seed
from pymoo_fs.studies.protocols import is_regression, outer_splits
from pymoo_fs.studies.spec import Protocol


def test_compare_spec_on_a_regression_dataset_takes_the_regression_protocol():
    spec = compare_spec("diabetes", algorithms=["MOPSO"], runs=1, generations=2, pop_size=4,
                        cv=3)
    assert spec.protocol.scoring == "neg_mean_squared_error" and is_regression(spec.protocol)
    assert compare_spec("sonar", algorithms=["MOPSO"]).protocol.scoring == "accuracy"
    y = spec.load_dataset("diabetes").y
    (train, test), = outer_splits(y, spec.protocol, 0, "diabetes")
    ref_train, ref_test = train_test_split(np.arange(y.size), test_size=0.3,
                                           random_state=run_seed(0, "outer split", "diabetes"))
    np.testing.assert_array_equal(train, np.sort(ref_train))
    np.testing.assert_array_equal(test, np.sort(ref_test))


def test_outer_cv_of_a_regression_protocol_is_kfold():
    p = Protocol(split="outer_cv", outer_folds=4, scoring="r2")
    y = np.arange(40.0)
    splits = outer_splits(y, p, 3, "toy")
    ref = KFold(4, shuffle=True, random_state=run_seed(3, "outer split", "toy")).split(y)
    for (a, b), (c, d) in zip(splits, ref, strict=True):
        np.testing.assert_array_equal(a, np.sort(c))
        np.testing.assert_array_equal(b, np.sort(d))


def test_labels_follow_the_target_type():
    assert error_label("accuracy") == "classification error"
    assert error_label("neg_mean_squared_error") == "normalised MSE"
    assert score_label("balanced_accuracy") == "balanced accuracy"
    assert score_label("neg_mean_squared_error") == "1 - normalised MSE"


def test_compare_runs_on_diabetes_and_reports_normalised_mse(tmp_path):
    result = compare("diabetes", algorithms=["MOPSO", "NSGA-II"], runs=1, generations=3,
                     pop_size=6, cv=3, out=tmp_path / "out")
    html = result.paths["report"].read_text()
    assert "normalised MSE" in html and "classification error" not in html
    fronts = np.loadtxt(result.paths["fronts"], delimiter=",", skiprows=1, usecols=(4, 5))
    assert ((fronts >= 0) & (fronts <= 1)).all()


def test_a_study_with_a_regression_protocol_runs_and_reports(tmp_path):
    from pymoo_fs.studies import load_study, run_study
    from pymoo_fs.studies.report import write_report

    spec = load_study("""
name = "reg"
seed = 0
runs = 1
datasets = ["diabetes"]
reference = "MOPSO"

[protocol]
preset = "S003"
scoring = "r2"
split = "outer_cv"
outer_folds = 2
inner_cv = 3

[budget]
n_gen = 2

[[algorithms]]
name = "MOPSO"
pop_size = 4
""")
    run_study(spec, tmp_path / "out", progress=False)
    report = write_report(tmp_path / "out", tsne=True)  # t-SNE skipped: no classes
    text = report["html"].read_text()
    assert "1 - R^2" in text and "classification error" not in text
