"""The comparison behind ``pymoo-fs compare``: runs, indicators, result files, table."""

import csv
import io
import signal

import numpy as np
import pytest
from pymoo.indicators.hv import HV
from pymoo.indicators.igd import IGD

from pymoo_fs import comparison
from pymoo_fs.analysis import nondominated
from pymoo_fs.comparison import (FRONT_COLUMNS, RESULT_COLUMNS, ConsoleProgress, compare,
                                 format_table, prepare, run, write_results)

ALGORITHMS = ["ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II"]  # the default set
SETTINGS = dict(runs=2, generations=4, pop_size=8, cv=3)


@pytest.fixture(scope="module")
def prepared():
    return prepare("sonar", **SETTINGS)


@pytest.fixture(scope="module")
def result(prepared):
    events = []
    out = run(prepared, progress=lambda event, **info: events.append((event, info)))
    out.events = events
    return out


def test_prepare_builds_the_problem_and_settings(prepared):
    assert prepared.algorithms == ALGORITHMS
    assert prepared.problem.n_var == 60 and prepared.problem.n_obj == 2
    assert prepared.settings["runs"] == 2 and prepared.settings["cv"] == 3
    assert prepared.problem.X_test.shape[0] + prepared.problem.evaluator.n_samples == 208
    assert prepare("sonar", algorithms=["nsga2", "spea2"], **SETTINGS).algorithms == [
        "NSGA-II", "SPEA2"]


def test_every_run_has_the_asked_evaluations_and_consistent_fronts(result, prepared):
    assert [(r.algorithm, r.run) for r in result.runs] == [
        (a, k) for a in ALGORITHMS for k in range(2)]
    assert result.algorithms == ALGORITHMS
    problem = prepared.problem
    for r in result.runs:
        assert r.n_eval == 32
        assert r.masks.dtype == bool and r.masks.shape[1] == 60
        assert r.F_train.shape == r.F_test.shape == (r.masks.shape[0], 2)
        np.testing.assert_allclose(problem.evaluate(r.masks), r.F_train, rtol=0, atol=1e-12)
        np.testing.assert_allclose(problem.holdout_objectives(r.masks), r.F_test)
        np.testing.assert_allclose(r.F_train[:, 1], r.masks.sum(axis=1) / 60)
        assert r.seconds >= 0


def test_runs_of_one_algorithm_use_different_seeds(result):
    for name in ALGORITHMS:
        first, second = [r for r in result.runs if r.algorithm == name]
        assert (first.masks.shape != second.masks.shape
                or not np.array_equal(first.masks, second.masks))


def test_indicators_are_finite_and_agree_with_pymoo(result):
    for r in result.runs:
        for value in (r.hv_train, r.igd_train, r.hv_test, r.igd_test):
            assert np.isfinite(value)
        assert r.igd_train >= 0 and r.igd_test >= 0
        assert 0 < r.hv_train <= 1 and 0 <= r.hv_test <= 1
        assert r.hv_train == pytest.approx(HV(ref_point=np.ones(2))(r.F_train))
        assert r.igd_train == pytest.approx(IGD(result.reference_train)(r.F_train))
        # a test front may hold dominated points: IGD uses its non-dominated part
        assert r.igd_test == pytest.approx(IGD(result.reference_test)(nondominated(r.F_test)))


def test_reference_fronts_are_the_nondominated_unions(result):
    train = nondominated(np.vstack([r.F_train for r in result.runs]))
    np.testing.assert_array_equal(result.reference_train, train)
    test = nondominated(np.vstack([r.F_test for r in result.runs]))
    np.testing.assert_array_equal(result.reference_test, test)
    # every reference point comes from some run, and a run whose front holds the whole
    # reference set would have IGD 0: here each run's IGD is its distance to the others' best
    for point in result.reference_train:
        assert any(np.any(np.all(r.F_train == point, axis=1)) for r in result.runs)
    contributing = [r for r in result.runs
                    if any(np.any(np.all(r.F_train == p, axis=1)) for p in train)]
    assert contributing and all(r.igd_train >= 0 for r in contributing)


def test_full_error_and_progress_events(result, prepared):
    ones = np.ones((1, 60), dtype=bool)
    assert result.full_error == (pytest.approx(prepared.problem.evaluate(ones)[0, 0]),
                                 pytest.approx(prepared.problem.holdout_objectives(ones)[0, 0]))
    kinds = [event for event, _ in result.events]
    assert kinds.count("run_start") == 8 and kinds.count("run_end") == 8
    assert kinds.count("generation") == 8 * 4
    ends = [info for event, info in result.events if event == "run_end"]
    assert [info["index"] for info in ends] == list(range(1, 9))
    assert all(info["total"] == 8 for info in ends)


def test_same_seed_reproduces_the_comparison(result):
    again = compare("sonar", **SETTINGS)
    assert len(again.runs) == len(result.runs)
    for a, b in zip(result.runs, again.runs):
        np.testing.assert_array_equal(a.masks, b.masks)
        np.testing.assert_array_equal(a.F_train, b.F_train)
        np.testing.assert_array_equal(a.F_test, b.F_test)
        assert (a.hv_train, a.igd_train, a.hv_test, a.igd_test) == (
            b.hv_train, b.igd_train, b.hv_test, b.igd_test)
    np.testing.assert_array_equal(result.reference_train, again.reference_train)
    other = compare("sonar", algorithms=["NSGA-II"], seed=1, **SETTINGS)
    assert not all(np.array_equal(a.masks, b.masks)
                   for a, b in zip(result.runs[2:4], other.runs))


def _read_csv(path):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    return rows[0], rows[1:]


def test_write_results_files(result, tmp_path, monkeypatch):
    figures = []
    original = comparison.plot_fronts

    def capture(*args, **kwargs):
        fig = original(*args, **kwargs)
        figures.append(fig)
        return fig

    monkeypatch.setattr(comparison, "plot_fronts", capture)
    out = tmp_path / "new" / "dir"
    paths = write_results(result, out)
    assert paths == {"results": out / "results.csv", "fronts": out / "fronts.csv",
                     "figure": out / "fronts.png"}
    assert sorted(p.name for p in out.iterdir()) == ["fronts.csv", "fronts.png", "results.csv"]

    header, rows = _read_csv(paths["results"])
    assert header == list(RESULT_COLUMNS)
    assert header[:8] == ["algorithm", "run", "hv_train", "igd_train", "hv_test", "igd_test",
                          "n_eval", "seconds"]
    assert [(row[0], int(row[1])) for row in rows] == [(a, k) for a in ALGORITHMS
                                                       for k in range(2)]
    for row, r in zip(rows, result.runs):
        assert float(row[2]) == r.hv_train and float(row[5]) == r.igd_test
        assert int(row[6]) == 32
        assert int(row[header.index("front_size")]) == r.masks.shape[0]

    header, rows = _read_csv(paths["fronts"])
    assert header == ["algorithm", "run", "n_selected", "selection_ratio", "train_error",
                      "test_error", "features"] == list(FRONT_COLUMNS)
    assert len(rows) == sum(r.masks.shape[0] for r in result.runs)
    expected = [(r.algorithm, r.run, mask, f_tr, f_te) for r in result.runs
                for mask, f_tr, f_te in zip(r.masks, r.F_train, r.F_test)]
    for row, (name, k, mask, f_tr, f_te) in zip(rows, expected):
        features = [int(i) for i in row[6].split()]
        assert (row[0], int(row[1])) == (name, k)
        assert int(row[2]) == len(features) == mask.sum()
        np.testing.assert_array_equal(features, np.flatnonzero(mask))
        assert float(row[3]) == pytest.approx(int(row[2]) / 60)
        assert float(row[4]) == f_tr[0] and float(row[5]) == f_te[0]

    assert paths["figure"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    (fig,) = figures
    for ax in fig.axes:
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        # seed 003's "best" and "average" fronts of each algorithm, and the full-feature line
        assert labels == ([f"{a}-Best" for a in ALGORITHMS] + [f"{a}-Ave" for a in ALGORITHMS]
                          + ["all features"])


def test_write_results_overwrites(result, tmp_path):
    write_results(result, tmp_path)
    (tmp_path / "results.csv").write_text("stale")
    write_results(result, tmp_path)
    header, _ = _read_csv(tmp_path / "results.csv")
    assert header == list(RESULT_COLUMNS)


@pytest.mark.parametrize("stop_at", [1, 2, 3, 4])
def test_write_results_stopped_by_check_leaves_the_previous_files(result, tmp_path, stop_at):
    old = {"results.csv": b"old results", "fronts.csv": b"old fronts", "fronts.png": b"old"}
    for name, content in old.items():
        (tmp_path / name).write_bytes(content)
    calls = []

    def check():
        calls.append(sorted(p.name for p in tmp_path.iterdir()))
        if len(calls) == stop_at:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        write_results(result, tmp_path, check=check)
    assert len(calls) == stop_at
    # while writing, only a staging directory appeared beside the old files
    assert all(len(names) == 4 and set(old) < set(names) for names in calls)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(old)
    assert all((tmp_path / name).read_bytes() == content for name, content in old.items())


def test_write_results_checks_four_times_then_replaces_all_three(result, tmp_path):
    calls = []
    for name in ("results.csv", "fronts.csv", "fronts.png"):
        (tmp_path / name).write_bytes(b"old")
    write_results(result, tmp_path, check=lambda: calls.append(1))
    assert len(calls) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fronts.csv", "fronts.png",
                                                          "results.csv"]
    assert all((tmp_path / name).read_bytes() != b"old"
               for name in ("results.csv", "fronts.csv", "fronts.png"))


def test_write_results_holds_ctrl_c_back_until_all_files_are_in_place(result, tmp_path,
                                                                       monkeypatch):
    replace = comparison.os.replace
    moved = []

    def replace_then_signal(src, dst):
        replace(src, dst)
        moved.append(dst)
        if len(moved) == 1:
            signal.raise_signal(signal.SIGINT)  # Python's own handler: KeyboardInterrupt

    monkeypatch.setattr(comparison.os, "replace", replace_then_signal)
    # a process started in the background by a non-interactive shell ignores SIGINT: install
    # Python's own handler for the test, whatever the runner inherited
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        before = signal.getsignal(signal.SIGINT)
        with pytest.raises(KeyboardInterrupt):
            write_results(result, tmp_path)
        assert signal.getsignal(signal.SIGINT) is before
    finally:
        signal.signal(signal.SIGINT, inherited)
    assert len(moved) == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fronts.csv", "fronts.png",
                                                          "results.csv"]


def test_write_results_refuses_a_directory_in_place_of_a_file(result, tmp_path):
    (tmp_path / "results.csv").write_bytes(b"old")
    (tmp_path / "fronts.png").mkdir()
    with pytest.raises(IsADirectoryError, match=r"fronts\.png: it is a directory"):
        write_results(result, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fronts.png", "results.csv"]
    assert (tmp_path / "results.csv").read_bytes() == b"old"


def test_format_table_names_every_algorithm(result):
    table = format_table(result)
    lines = table.splitlines()
    assert len(lines) == 3 + len(ALGORITHMS)
    assert lines[0].startswith("sonar (60 features): 2 runs x 4 generations x 8")
    for name, line in zip(ALGORITHMS, lines[3:]):
        assert line.startswith(name)
        assert "±" in line
    assert "HV train" in lines[1] and "IGD test" in lines[1]


def test_paes_gets_pop_size_times_generations_evaluations():
    c = compare("sonar", algorithms=["PAES", "SPEA2"], runs=1, generations=4, pop_size=8,
                cv=3)
    assert [(r.algorithm, r.n_eval) for r in c.runs] == [("PAES", 32), ("SPEA2", 32)]
    assert 1 <= c.runs[0].masks.shape[0] <= 32


def test_seed_003_algorithms_are_all_known():
    setup = prepare("sonar", algorithms=["isrpso", "mopso", "cmdpsofs", "nsga2", "spea2",
                                         "paes"], **SETTINGS)
    assert setup.algorithms == ["ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II", "SPEA2", "PAES"]
    budgets = {a.name: setup.spec.budget_of(a).as_dict() for a in setup.spec.algorithms}
    assert budgets["PAES"] == {"n_eval": 32} and budgets["ISRPSO"] == {"n_gen": 4}


def test_console_progress_writes_one_line_per_run(result):
    stream = io.StringIO()
    progress = ConsoleProgress(stream)
    for event, info in result.events:
        progress(event, **info)
    lines = stream.getvalue().splitlines()
    assert len(lines) == 8
    assert lines[0].startswith("[1/8] ISRPSO run 1:") and "32 evaluations" in lines[0]


@pytest.mark.parametrize("kwargs,match", [
    (dict(dataset="no-such-dataset"), "no-such-dataset"),
    (dict(algorithms=["FOO"]), "unknown algorithm"),
    (dict(algorithms=["NSGA-II", "PSO"]), "single-objective"),
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
])
def test_prepare_rejects_bad_arguments(kwargs, match):
    args = dict(dataset="sonar", runs=1, generations=2, pop_size=4, cv=3)
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        prepare(**args)


# ------------------------------------------------------------------ single objective
@pytest.fixture(scope="module")
def weighted():
    return compare("sonar", ["FSIPSO", "PSO", "SFS"], runs=3, generations=4, pop_size=6, cv=3,
                   objective="weighted", alpha=0.8, reference="PSO")


def test_weighted_comparison_builds_seed_000s_table(weighted):
    assert weighted.objective == "weighted" and weighted.settings["reference"] == "PSO"
    header, rows = weighted.table
    assert header[:6] == ["algorithm", "#features mean (std)", "T_f", "best test",
                          "test mean (std)", "T_a"]
    assert [row[0] for row in rows] == ["all features", "FSIPSO", "PSO (reference)", "SFS"]
    for name, row in zip(["FSIPSO", "PSO", "SFS"], rows[1:]):
        records = [r for r in weighted.records if r["algorithm"] == name]
        sizes = [len(r["features"][0]) for r in records]
        tests = [r["score_test"][0] for r in records]
        assert row[1].startswith(f"{np.mean(sizes):.1f}")
        assert row[3] == f"{max(tests):.4f}"
        assert row[4].startswith(f"{np.mean(tests):.4f}")
        assert row[2] in ("+", "=", "-", "") and row[5] in ("+", "=", "-", "")
    for r, rec in zip(weighted.runs, weighted.records):
        assert r.F_train.shape == (1, 1) and np.isnan(r.hv_train)
        assert r.F_train[0, 0] == pytest.approx(0.8 * (1 - rec["score_train"][0])
                                                 + 0.2 * r.masks.sum() / 60)
    # SFS is deterministic: three identical runs
    sfs = [r.masks for r in weighted.runs if r.algorithm == "SFS"]
    assert all(np.array_equal(sfs[0], m) for m in sfs)


def test_weighted_table_text_and_files(weighted, tmp_path):
    text = format_table(weighted)
    assert "Wilcoxon rank-sum against PSO" in text and "PSO (reference)" in text
    paths = write_results(weighted, tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv", "summary.csv"]
    with open(paths["results"], newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert [row["algorithm"] for row in rows] == ["FSIPSO"] * 3 + ["PSO"] * 3 + ["SFS"] * 3
    assert all(len(row["features"].split()) == int(row["n_selected"]) for row in rows)


@pytest.mark.parametrize("kwargs,match", [
    (dict(algorithms=["PSO", "NSGA-II"], objective="weighted"), "NSGA-II is bi-objective"),
    (dict(algorithms=["PSO"], objective="scalar"), "objective must be"),
    (dict(algorithms=["PSO", "SFS"], objective="weighted", reference="CSO"), "reference"),
    (dict(algorithms=["PSO"], objective="weighted", alpha=2.0), "alpha"),
])
def test_prepare_rejects_bad_single_objective_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        prepare("sonar", runs=1, generations=2, pop_size=4, cv=3, **kwargs)
