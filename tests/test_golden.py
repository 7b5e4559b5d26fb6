"""Golden outputs: the same seeds give the same results, bit for bit, across refactors.

Every registered algorithm runs on small problems built from the bundled Sonar data, a small
study runs under each seed preset (S000 ... S004: every objective and protocol), and the
``compare``, ``study`` and ``report`` commands run as a user types them. What they return
(masks, objectives as exact floats, evaluation counts, traces, files) is compared with
``tests/golden/golden.json``, written before the code was moved.

A change that is *meant* to change results regenerates the file, in a commit of its own that
says why::

    python -m tests.test_golden --write
"""

import csv
import io
import json
import sys
from contextlib import redirect_stdout
from pathlib import Path

import numpy as np
import pytest
from pymoo.optimize import minimize

GOLDEN = Path(__file__).resolve().parent / "golden" / "golden.json"

#: (preset, algorithms, protocol overrides) of the small studies
STUDIES = [
    ("S000", ["FSIPSO", "PSO", "CSO(C)", "SFS"], {}),
    ("S001", ["AMSO", "VLPSO", "PSO"], {"outer_folds": 3}),
    ("S002", ["SCTSOFS", "PSO"], {}),
    ("S003", ["CMDPSOFS", "ISRPSO", "NSGA-II"], {}),
    ("S004", ["CEPSO-FL", "BPSO", "CSO", "VLPSO"], {"outer_folds": 3}),
    ("S000", ["PSO", "UBPSO"], {"inner_repetitions": 3}),
]
#: keys of a run record that must not change (timing and configuration wording excluded)
RECORD_KEYS = ("features", "F_train", "F_test", "score_train", "score_test", "n_eval",
               "n_evaluations", "n_cache_hits", "n_gen", "trace", "seed", "n_features")


def _sonar():
    from pymoo_fs.datasets import load_dataset

    data = load_dataset("sonar")
    rows = np.r_[0:60, 100:160]  # both classes, 120 samples
    return data.X[rows][:, :30], data.y[rows]


def _masks(X):
    X = np.atleast_2d(np.asarray(X, dtype=bool))
    return [np.flatnonzero(m).tolist() for m in X]


def algorithm_runs():
    """Every registered algorithm, minimised on a 120 x 30 part of Sonar, two seeds."""
    from pymoo_fs.algorithms import algorithm_names, make_algorithm
    from pymoo_fs.algorithms.registry import algorithm_info
    from pymoo_fs.algorithms.registry import n_objectives
    from pymoo_fs.problems import BiObjectiveFeatureSelection, WeightedFeatureSelection

    X, y = _sonar()
    out = {}
    # the library's own algorithms: a test may have registered one of its own (user_algorithms)
    names = [n for n in algorithm_names()
             if algorithm_info(n).reference.startswith(("pymoo_fs.", "pymoo."))]
    for name in names:
        for seed in (1, 2):
            problem = (WeightedFeatureSelection.from_data(X, y, cv=5) if n_objectives(name) == 1
                       else BiObjectiveFeatureSelection.from_data(X, y, cv=5))
            res = minimize(problem, make_algorithm(name, pop_size=8), ("n_gen", 6), seed=seed)
            out[f"{name} seed {seed}"] = {
                "features": _masks(res.X), "F": np.atleast_2d(res.F).tolist(),
                "n_eval": int(res.algorithm.evaluator.n_eval),
                "n_evaluations": int(problem.evaluator.n_evaluations),
            }
    return out


def _study_toml(preset, algorithms, overrides, i):
    lines = [f'name = "golden{i}"', "seed = 3", "runs = 2", 'datasets = ["sonar"]',
             "[budget]", "n_gen = 4", "[protocol]", f'preset = "{preset}"']
    lines += [f"{k} = {v!r}" for k, v in overrides.items()]
    for name in algorithms:
        lines += ["[[algorithms]]", f'name = "{name}"']
        if name not in ("SFS", "SBS"):
            lines.append("pop_size = 6")
    return "\n".join(lines) + "\n"


def study_runs(tmp):
    """A small study per preset through the command line, and its report's tables."""
    from pymoo_fs.cli import main

    out = {}
    for i, (preset, algorithms, overrides) in enumerate(STUDIES):
        spec = Path(tmp) / f"golden{i}.toml"
        spec.write_text(_study_toml(preset, algorithms, overrides, i))
        directory = Path(tmp) / f"study{i}"
        with redirect_stdout(io.StringIO()):
            assert main(["study", str(spec), "--out", str(directory), "--quiet"]) == 0
            assert main(["report", str(directory), "--no-tsne"]) == 0
        runs = {}
        for path in sorted((directory / "runs").rglob("*.json")):
            record = json.loads(path.read_text())
            runs[str(path.relative_to(directory / "runs"))] = {k: record[k] for k in RECORD_KEYS}
        references = {str(p.name): json.loads(p.read_text())
                      for p in sorted((directory / "reference").glob("*.json"))}
        summary = _without_seconds(json.loads((directory / "report" / "summary.json")
                                              .read_text()))
        out[f"{preset} {'+'.join(algorithms)} {overrides}"] = {
            "runs": runs, "references": references, "summary": summary}
    return out


def _without_seconds(summary):
    """The report's tables (summary.json: numbers) without their wall-clock column."""
    out = {}
    for dataset, table in summary["datasets"].items():
        keep = [i for i, h in enumerate(table["columns"]) if h != "seconds_mean"]
        out[dataset] = {"rows": [[row[i] for i in keep]
                                 for row in [table["columns"], *table["rows"]]],
                        "all_features": table["all_features"]}
    return out


def _csv(path, drop=("seconds", "seconds_mean")):
    with open(path, newline="") as fh:
        rows = list(csv.reader(fh))
    keep = [i for i, h in enumerate(rows[0]) if h not in drop]
    return [[row[i] for i in keep] for row in rows]


def compare_runs(tmp):
    """``pymoo-fs compare``, bi-objective and weighted, as a user types them."""
    from pymoo_fs.cli import main

    out = {}
    commands = {
        "pareto": ["--algorithms", "ISRPSO,MOPSO,CMDPSOFS,NSGA-II,SPEA2,PAES"],
        "weighted": ["--objective", "weighted", "--algorithms", "FSIPSO,PSO,SFS,CSO(A)",
                     "--alpha", "0.8"],
    }
    for name, extra in commands.items():
        directory = Path(tmp) / f"compare-{name}"
        argv = ["compare", "--dataset", "sonar", "--runs", "2", "--generations", "4",
                "--pop-size", "8", "--folds", "5", "--seed", "5", "--out", str(directory)]
        with redirect_stdout(io.StringIO()):
            assert main(argv + extra) == 0
        files = {p.name: _csv(p) for p in sorted(directory.glob("*.csv"))}
        out[name] = files
    return out


def selector_fits():
    """``SwarmFeatureSelector`` fitted with a few settings: its front, choice and history."""
    from pymoo_fs.selector import SwarmFeatureSelector

    X, y = _sonar()
    settings = {
        "CMDPSOFS within_tol": dict(algorithm="CMDPSOFS", n_gen=6, pop_size=8),
        "ISRPSO knee": dict(algorithm="ISRPSO", n_gen=5, pop_size=8, select="knee"),
        "PSO weighted": dict(algorithm="PSO", objective="weighted", n_gen=6, pop_size=8),
        "NSGA-II budget 8": dict(algorithm="NSGA-II", n_gen=6, pop_size=8, select=8, cv=4),
    }
    out = {}
    for name, params in settings.items():
        fitted = SwarmFeatureSelector(random_state=0, **params).fit(X, y)
        front = fitted.pareto_front_
        out[name] = {"support": np.flatnonzero(fitted.support_).tolist(),
                     "front_masks": _masks(fitted.pareto_masks_),
                     "front_error": np.asarray(front["error"]).tolist(),
                     "chosen": int(fitted.chosen_index_),
                     "n_evaluations": int(fitted.n_evaluations_)}
    return out


def compute(tmp):
    """Everything the golden file holds."""
    return {"algorithms": algorithm_runs(), "studies": study_runs(tmp),
            "compare": compare_runs(tmp), "selector": selector_fits()}


# ---------------------------------------------------------------------------------- tests
@pytest.fixture(scope="module")
def golden():
    return json.loads(GOLDEN.read_text())


def _same(expected, got, where):
    """Assert equality, naming the first place that differs."""
    if isinstance(expected, dict):
        assert isinstance(got, dict), where
        assert sorted(expected) == sorted(got), f"{where}: keys {sorted(expected)} != {sorted(got)}"
        for k in expected:
            _same(expected[k], got[k], f"{where}/{k}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(expected) == len(got), f"{where}: {expected} != {got}"
        for i, (a, b) in enumerate(zip(expected, got)):
            _same(a, b, f"{where}[{i}]")
    else:
        assert expected == got, f"{where}: expected {expected!r}, got {got!r}"


def test_every_algorithm_gives_the_golden_result(golden):
    _same(golden["algorithms"], json.loads(json.dumps(algorithm_runs())), "algorithms")


def test_every_preset_study_and_its_report_give_the_golden_result(golden, tmp_path):
    _same(golden["studies"], json.loads(json.dumps(study_runs(tmp_path))), "studies")


def test_compare_command_gives_the_golden_files(golden, tmp_path):
    _same(golden["compare"], json.loads(json.dumps(compare_runs(tmp_path))), "compare")


def test_selector_gives_the_golden_front(golden):
    _same(golden["selector"], json.loads(json.dumps(selector_fits())), "selector")


if __name__ == "__main__":  # python -m tests.test_golden --write
    import tempfile

    if "--write" not in sys.argv:
        sys.exit("usage: python -m tests.test_golden --write")
    with tempfile.TemporaryDirectory() as tmp:
        data = compute(tmp)
    GOLDEN.parent.mkdir(exist_ok=True)
    GOLDEN.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"wrote {GOLDEN}")
