"""Compare feature-selection algorithms on one dataset: runs, indicators, files, figure.

This is the library side of ``pymoo-fs compare``, a small study (:mod:`pymoo_fs.studies`) kept
in memory: :func:`prepare` turns its arguments into a :class:`~pymoo_fs.studies.StudySpec` (one
dataset, a 70/30 hold-out protocol, the bi-objective problem, a generation budget) and checks
it; :func:`run` makes the study's runs with the study runner and measures the training and test
fronts with HV and IGD; :func:`write_results` writes the CSV files and the figure;
:func:`format_table` makes the summary table.

With ``objective="weighted"`` the comparison is single-objective (seed 000's FIT-A,
``alpha (1 - acc) + (1 - alpha) |S| / D``): each run returns one subset, and the table is the
study report's seed-000 table (Tables II and III: #features, best and mean test accuracy,
Wilcoxon rank-sum signs against a reference algorithm, time), computed by
:func:`pymoo_fs.studies.report.summary_tables` on the in-memory records.
"""

import contextlib
import csv
import os
import shutil
import signal
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from pymoo.core.callback import Callback

from pymoo_fs._validation import check_int, check_seed
from pymoo_fs.algorithms.registry import canonical_name, n_objectives
from pymoo_fs.analysis import (average_front, best_front, hypervolume, igd, nondominated,
                               plot_fronts)
from pymoo_fs.analysis import reference_front
from pymoo_fs.studies import AlgorithmSpec, Budget, Protocol, StudySpec, StudySpecError
from pymoo_fs.studies.report import StudyResults, summary_tables
from pymoo_fs.studies.runner import (check_study, execute_run, plan_runs, problem_of,
                                     reference_record)

DEFAULT_ALGORITHMS = ("ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II")
#: algorithms that evaluate one solution per generation; a comparison gives them
#: ``pop_size * generations`` evaluations, the budget of the population-based ones
EVALUATION_BUDGETED = ("PAES",)

RESULT_COLUMNS = ("algorithm", "run", "hv_train", "igd_train", "hv_test", "igd_test", "n_eval",
                  "seconds", "front_size")
FRONT_COLUMNS = ("algorithm", "run", "n_selected", "selection_ratio", "train_error",
                 "test_error", "features")
#: ``results.csv`` of a single-objective (``objective="weighted"``) comparison
SUBSET_COLUMNS = ("algorithm", "run", "n_selected", "train_score", "test_score",
                  "train_objective", "test_objective", "n_eval", "seconds", "features")


@dataclass
class RunResult:
    """One run of one algorithm.

    Attributes
    ----------
    algorithm : str
    run : int
        0-based run index; the run's seed is :func:`pymoo_fs.seeds.run_seed` ``(seed, run)``.
    masks : ndarray of bool, shape (n_front, D)
        The returned front's feature subsets.
    F_train : ndarray of float64, shape (n_front, 2)
        (inner-CV error, selection ratio) of each mask.
    F_test : ndarray of float64, shape (n_front, 2)
        (hold-out test error, selection ratio) of each mask.
    n_eval : int
        Evaluations pymoo counted for the run.
    seconds : float
        Wall-clock time of the run (optimisation only, without test re-scoring). The
        evaluator's cache is cleared before each run and its kernels are compiled beforehand,
        so runs are timed alike whatever their order.
    hv_train, igd_train, hv_test, igd_test : float
        Indicators, filled by :func:`compare` once every run is done (IGD needs the reference
        front of all runs).
    """

    algorithm: str
    run: int
    masks: np.ndarray
    F_train: np.ndarray
    F_test: np.ndarray
    n_eval: int
    seconds: float
    hv_train: float = np.nan
    igd_train: float = np.nan
    hv_test: float = np.nan
    igd_test: float = np.nan


@dataclass
class Comparison:
    """Everything :func:`compare` measured.

    Attributes
    ----------
    dataset : str
        Dataset name.
    n_features : int
    runs : list of RunResult
        In the order algorithm by algorithm, run by run.
    reference_train, reference_test : ndarray of float64, shape (k, 2)
        IGD reference fronts: the non-dominated union of all runs' training (test) fronts.
    full_error : tuple of float
        (inner-CV error, test error) with all features selected.
    settings : dict
        The arguments the comparison ran with.
    objective : {"pareto", "weighted"}
        Bi-objective fronts, or one subset per run (then ``runs`` hold (1, 1) objectives, the
        indicators are NaN and the reference fronts empty).
    records : list of dict
        The runs' study records (with ``"seconds"``), in run order.
    table : tuple of (list of str, list of list of str)
        Weighted comparisons: the seed-000 table (header, rows) of
        :func:`pymoo_fs.studies.report.summary_tables`.
    """

    dataset: str
    n_features: int
    runs: list
    reference_train: np.ndarray
    reference_test: np.ndarray
    full_error: tuple
    settings: dict = field(default_factory=dict)
    objective: str = "pareto"
    records: list = field(default_factory=list)
    table: tuple = None

    @property
    def algorithms(self):
        """list of str: algorithm names in run order, each once."""
        return list(dict.fromkeys(r.algorithm for r in self.runs))


@dataclass
class Setup:
    """A validated comparison, ready to run (see :func:`prepare`).

    Attributes
    ----------
    spec : StudySpec
        The comparison as a study: one dataset, the algorithms, runs, budget and protocol.
    problem : BiObjectiveFeatureSelection
        The study's problem: on the scaled training part, with the test part attached.
    algorithms : list of str
        Canonical algorithm names.
    settings : dict
        The arguments of :func:`prepare`.
    """

    spec: StudySpec
    problem: object
    algorithms: list
    settings: dict


def prepare(dataset="musk1", algorithms=DEFAULT_ALGORITHMS, runs=3, generations=100,
            pop_size=30, seed=0, n_neighbors=5, cv=10, test_size=0.3, data_dir=None,
            objective="pareto", alpha=0.9, reference=None):
    """Check the arguments of a comparison, load and split the data, build the problem.

    Parameters
    ----------
    dataset : str or path, default="musk1"
        A name or path understood by :func:`pymoo_fs.datasets.load_dataset`.
    algorithms : sequence of str, default=("ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II")
        Multi-objective algorithm names (:func:`pymoo_fs.algorithms.algorithm_names` with
        ``n_obj=2``): ISRPSO, MOPSO, CMDPSOFS, NSGA-II, SPEA2, PAES.
    runs : int, default=3
        Independent runs per algorithm.
    generations : int, default=100
        pymoo generations (``("n_gen", generations)``); generation 1 is the initial population,
        so a run costs ``pop_size * generations`` evaluations (ISRPSO's local searches come
        on top, counted in its ``n_eval``). PAES, which evaluates one solution per
        generation, runs for ``("n_eval", pop_size * generations)`` instead (seed 003: 30 x
        100 = 3,000).
    pop_size : int, default=30
        Population or swarm size.
    seed : int, default=0
        Seed of the split, of the inner folds and, through :func:`pymoo_fs.seeds.run_seed`, of
        each run; an int in [0, 2**32 - 1].
    n_neighbors : int, default=5
        k of the KNN wrapper.
    cv : int or "loo", default=10
        Inner cross-validation of the training part.
    test_size : float, default=0.3
        Fraction held out for testing.
    data_dir : path, optional
        Where dataset names are looked up (default: ``PYMOO_FS_DATA``).
    objective : {"pareto", "weighted"}, default="pareto"
        Bi-objective algorithms on (error, selection ratio), or single-objective ones on the
        weighted problem.
    alpha : float, default=0.9
        Weight of the error in the weighted problem (seed 000's FIT-A; 1 is accuracy alone).
    reference : str, optional
        Weighted comparisons: the algorithm the others are tested against (default: the
        first).

    Returns
    -------
    setup : Setup

    Raises
    ------
    ValueError
        For an unknown or unreadable dataset, an unknown or single-objective algorithm, an
        algorithm named twice (also under two spellings, ``nsga2`` and ``NSGA-II``), a
        non-positive ``runs``, ``generations`` below 2, ``pop_size`` below 2, a ``seed`` that
        is not an int in [0, 2**32 - 1], a ``test_size`` that leaves a part too small for one
        sample per class (see :func:`pymoo_fs.datasets.train_test_split`), or evaluator
        settings the data cannot support (e.g. a class smaller than ``cv``).
    """
    names = [canonical_name(a) for a in algorithms]
    if not names:
        raise ValueError("algorithms must name at least one algorithm")
    _reject_duplicates(algorithms, names)
    check_seed("seed", seed)
    if objective not in ("pareto", "weighted"):
        raise ValueError(f"objective must be 'pareto' or 'weighted', got {objective!r}")
    for name in names:
        if n_objectives(name) == 1 and objective == "pareto":
            raise ValueError(f"{name} is single-objective; compare needs bi-objective algorithms "
                             f"(or objective='weighted')")
        if n_objectives(name) == 2 and objective == "weighted":
            raise ValueError(f"{name} is bi-objective; objective='weighted' needs "
                             f"single-objective algorithms, e.g. FSIPSO,PSO,CSO(C),SFS")
    if reference is not None:
        reference = canonical_name(reference)
        if reference not in names:
            raise ValueError(f"reference {reference!r} is not one of the algorithms "
                             f"({', '.join(names)})")
    check_int("runs", runs, low=1)
    check_int("generations", generations, low=2)
    check_int("pop_size", pop_size, low=2)
    protocol = Protocol("compare", split="holdout", test_size=test_size, scaling="minmax",
                        n_neighbors=n_neighbors, inner_cv=cv, scoring="accuracy",
                        objective={"name": objective, "alpha": alpha} if objective == "weighted"
                        else objective)
    spec = StudySpec(name="compare", datasets=[str(dataset)], runs=runs, seed=seed,
                     algorithms=[AlgorithmSpec(n, {"pop_size": pop_size},
                                               budget=_budget_of(n, pop_size, generations))
                                 for n in names],
                     budget=Budget(n_gen=generations), protocol=protocol, data_dir=data_dir,
                     reference=reference)
    try:
        check_study(spec)
    except StudySpecError as exc:  # name the problem without the study's wording
        raise ValueError(str(exc).split(": ", 1)[-1]) from None
    settings = dict(dataset=str(dataset), algorithms=names, runs=runs, generations=generations,
                    pop_size=pop_size, seed=seed, n_neighbors=n_neighbors, cv=cv,
                    test_size=test_size)
    if objective == "weighted":
        settings.update(objective=objective, alpha=alpha, reference=spec.reference_label)
    return Setup(spec, problem_of(spec, spec.datasets[0]), names, settings)


def _budget_of(name, pop_size, generations):
    """The budget of one algorithm when it differs from the study's generations."""
    if name in EVALUATION_BUDGETED:
        return Budget(n_eval=pop_size * generations)
    return None


def _reject_duplicates(given, names):
    """Refuse an algorithm listed twice: both runs would repeat each other, seed for seed."""
    first = {}
    for spelling, name in zip(given, names):
        if name in first:
            also = "" if first[name] == spelling else f" (as {first[name]!r} and {spelling!r})"
            raise ValueError(
                f"algorithms lists {name} twice{also}: each algorithm runs once per "
                "comparison; use runs for repeated runs"
            )
        first[name] = spelling


def run(setup, progress=None):
    """Run a prepared comparison and measure its fronts.

    Each algorithm minimises (inner-CV KNN error, selection ratio) on the training part,
    ``runs`` times, each run with its own seed derived from ``seed`` and the run's identity
    (:func:`pymoo_fs.studies.execute_run`, the same code as a study's runs, with the evaluator's
    cache emptied before each run); each returned front is re-scored on the test part; HV (reference point (1, 1)) and IGD (reference: the non-dominated union of all
    runs' fronts) are computed on the training and on the test fronts.

    Parameters
    ----------
    setup : Setup
        From :func:`prepare`.
    progress : callable, optional
        Called as ``progress(event, **info)`` with events ``"run_start"``, ``"generation"`` and
        ``"run_end"``; see :class:`ConsoleProgress`.

    Returns
    -------
    comparison : Comparison
    """
    problem, s = setup.problem, setup.settings
    all_features = np.ones((1, problem.n_var), dtype=bool)
    full_error = (float(problem.evaluate(all_features)[0, 0]),
                  float(problem.holdout_objectives(all_features)[0, 0]))
    # compile (or load) the batch kernels before the first timed run
    warm = np.ones((2, problem.n_var), dtype=bool)
    if problem.n_var > 1:
        warm[0, 0] = warm[1, 1] = False  # two distinct masks, scored as a batch
    problem.evaluator.score(warm)
    keys = plan_runs(setup.spec)
    results, records = [], []
    for index, key in enumerate(keys):
        if progress:
            progress("run_start", algorithm=key.algorithm, run=key.run, index=index,
                     total=len(keys))
        budget = _budget_of(key.algorithm, s["pop_size"], s["generations"])
        callback = _GenerationCallback(progress, key.algorithm, key.run,
                                       s["generations"] if budget is None else budget.n_eval)
        record, seconds = execute_run(setup.spec, key, callback=callback if progress else None)
        records.append(dict(record, seconds=seconds))
        masks = np.zeros((len(record["features"]), problem.n_var), dtype=bool)
        for i, features in enumerate(record["features"]):
            masks[i, features] = True
        results.append(RunResult(key.algorithm, key.run, masks, np.array(record["F_train"]),
                                 np.array(record["F_test"]), record["n_eval"], seconds))
        if progress:
            progress("run_end", result=results[-1], index=len(results), total=len(keys))
    if setup.spec.protocol.objective.name == "weighted":
        return _single_objective(setup, problem, results, records, full_error)
    ref_train = reference_front([r.F_train for r in results])
    ref_test = reference_front([nondominated(r.F_test) for r in results])
    for r in results:
        r.hv_train, r.igd_train = hypervolume(r.F_train), igd(r.F_train, ref_train)
        r.hv_test, r.igd_test = hypervolume(r.F_test), igd(r.F_test, ref_test)
    name = plan_runs(setup.spec)[0].dataset
    return Comparison(name, problem.n_var, results, ref_train, ref_test, full_error, dict(s))


def compare(dataset="musk1", algorithms=DEFAULT_ALGORITHMS, runs=3, generations=100,
            pop_size=30, seed=0, n_neighbors=5, cv=10, test_size=0.3, data_dir=None,
            progress=None, objective="pareto", alpha=0.9, reference=None):
    """:func:`prepare` then :func:`run`: the whole comparison in one call.

    Parameters are those of :func:`prepare`, plus ``progress`` of :func:`run`.

    Returns
    -------
    comparison : Comparison

    Raises
    ------
    ValueError
        As :func:`prepare`.

    Examples
    --------
    >>> from pymoo_fs.comparison import compare, format_table
    >>> c = compare("sonar", runs=1, generations=3, pop_size=10, cv=5)
    >>> [(r.algorithm, r.n_eval) for r in c.runs]
    [('ISRPSO', 30), ('MOPSO', 30), ('CMDPSOFS', 30), ('NSGA-II', 30)]
    >>> c = compare("sonar", ["FSIPSO", "PSO", "SFS"], runs=2, generations=3, pop_size=10, cv=5,
    ...             objective="weighted")
    >>> header, rows = c.table
    >>> header[:3]
    ['algorithm', '#features mean (std)', 'T_f']
    >>> [row[0] for row in rows]
    ['all features', 'FSIPSO (reference)', 'PSO', 'SFS']
    """
    setup = prepare(dataset, algorithms, runs, generations, pop_size, seed, n_neighbors, cv,
                    test_size, data_dir, objective, alpha, reference)
    return run(setup, progress)


class _GenerationCallback(Callback):
    def __init__(self, progress, name, run, generations):
        super().__init__()
        self.progress, self.name, self.run, self.generations = progress, name, run, generations

    def notify(self, algorithm):
        self.progress("generation", algorithm=self.name, run=self.run, n_gen=algorithm.n_gen,
                      generations=self.generations)


class ConsoleProgress:
    """Progress of :func:`compare` on a text stream.

    One line per finished run; on a terminal, the current generation is also shown in place.

    Parameters
    ----------
    stream : file-like, default=sys.stderr
    """

    def __init__(self, stream=None):
        self.stream = sys.stderr if stream is None else stream
        self.live = getattr(self.stream, "isatty", lambda: False)()

    def __call__(self, event, **info):
        if event == "generation" and self.live:
            self.stream.write(f"\r  {info['algorithm']} run {info['run'] + 1}: generation "
                              f"{info['n_gen']}/{info['generations']}")
            self.stream.flush()
        elif event == "run_end":
            r = info["result"]
            clear = "\r\033[K" if self.live else ""
            self.stream.write(
                f"{clear}[{info['index']}/{info['total']}] {r.algorithm} run {r.run + 1}: "
                f"{r.F_train.shape[0]} solutions, {r.n_eval} evaluations, {r.seconds:.1f} s\n"
            )
            self.stream.flush()


def format_table(comparison):
    """Summary table: per algorithm, mean ± std over runs of each indicator.

    Parameters
    ----------
    comparison : Comparison

    Returns
    -------
    table : str
        Columns: algorithm, HV and IGD on the training and test fronts, mean front size, mean
        evaluations and mean seconds per run. HV is to be maximised, IGD minimised; std is the
        sample standard deviation (0 for a single run). A weighted comparison gives seed 000's
        table instead (:attr:`Comparison.table`): #features mean (std) and its Wilcoxon
        rank-sum sign ``T_f``, best and mean (std) test accuracy and its sign ``T_a`` (``+``:
        the reference is significantly better, fewer features or higher accuracy), mean
        training score, evaluations and seconds per run, Q-measure.
    """
    if comparison.objective == "weighted":
        s = comparison.settings
        title = (f"{comparison.dataset} ({comparison.n_features} features): {s['runs']} runs "
                 f"x {s['generations']} generations x {s['pop_size']}; objective "
                 f"{s['alpha']} (1 - accuracy) + {1 - s['alpha']:.2g} |S|/D; Wilcoxon rank-sum "
                 f"against {s['reference']} (alpha 0.05)")
        return "\n".join([title, *_aligned(*comparison.table)])
    header = ("algorithm", "HV train", "IGD train", "HV test", "IGD test", "front", "evals",
              "seconds")
    rows = []
    for name in comparison.algorithms:
        rs = [r for r in comparison.runs if r.algorithm == name]
        cells = [name]
        for key in ("hv_train", "igd_train", "hv_test", "igd_test"):
            cells.append(_mean_std([getattr(r, key) for r in rs]))
        cells.append(f"{np.mean([r.F_train.shape[0] for r in rs]):.1f}")
        cells.append(f"{np.mean([r.n_eval for r in rs]):.0f}")
        cells.append(f"{np.mean([r.seconds for r in rs]):.1f}")
        rows.append(cells)
    lines = _aligned(header, rows)
    s = comparison.settings
    title = (f"{comparison.dataset} ({comparison.n_features} features): {s['runs']} runs x "
             f"{s['generations']} generations x {s['pop_size']}; all features: train error "
             f"{comparison.full_error[0]:.4f}, test error {comparison.full_error[1]:.4f}")
    return "\n".join([title, *lines])


def _aligned(header, rows):
    """Text lines of a table: the first column left-aligned, the others right-aligned."""
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(header)]

    def line(cells):
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))

    return [line(header), "  ".join("-" * w for w in widths), *(line(row) for row in rows)]


def _mean_std(values):
    v = np.asarray(values, dtype=float)
    std = v.std(ddof=1) if v.size > 1 else 0.0
    return f"{v.mean():.4f} ± {std:.4f}"


def write_results(comparison, out_dir, check=None):
    """Write ``results.csv``, ``fronts.csv`` and ``fronts.png`` into ``out_dir``, all or none.

    A weighted comparison writes ``results.csv`` (one row per run, columns
    :data:`SUBSET_COLUMNS`) and ``summary.csv`` (the seed-000 table) instead.

    Parameters
    ----------
    comparison : Comparison
    out_dir : path
        Created if missing. The three files are first written into a temporary directory
        inside it (``.pymoo-fs-write-*``) and moved into place together at the end, so a call
        that fails or is interrupted leaves the previous results (if any) as they were, and
        no half-written or temporary file.
    check : callable, optional
        Called with no argument before each file is written and once more before the files
        are moved into place; an exception it raises (e.g. ``KeyboardInterrupt`` for a
        recorded Ctrl-C) abandons the write as above and propagates. The command line uses it
        to stop at a safe point.

    Returns
    -------
    paths : dict
        ``{"results": Path, "fronts": Path, "figure": Path}``, or ``{"results": Path,
        "summary": Path}`` for a weighted comparison.

    Raises
    ------
    OSError
        If ``out_dir`` cannot be created or written, or one of the three names is taken by a
        directory (checked before anything is written).

    Notes
    -----
    ``results.csv`` has one row per algorithm and run (columns :data:`RESULT_COLUMNS`);
    ``fronts.csv`` one row per front point (columns :data:`FRONT_COLUMNS`; ``features`` holds
    the selected 0-based feature indices separated by spaces). ``fronts.png`` shows, per
    algorithm, seed 003's two fronts of its runs (§7.4): the "best" front, the non-dominated
    union of the runs' fronts (``NAME-Best``), and the "average" front, the mean error of the
    union's members of each subset size (``NAME-Ave``), on the training data (inner-CV
    error) and on the test data (hold-out error; the best front's non-dominance recomputed
    on it), with the all-features error as a dashed line.

    The three files are moved into place by three renames within one directory, during which
    a Ctrl-C (SIGINT) is held back and delivered right after (when called from the main
    thread), so the directory holds the old set of files or the new one; only a process
    killed outright between two renames could leave a mix.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    writers = (_subset_writers(comparison) if comparison.objective == "weighted"
               else _front_writers(comparison))
    paths = {key: out / name for key, (name, _) in writers.items()}
    for path in paths.values():
        if path.is_dir():
            raise IsADirectoryError(f"cannot write {path}: it is a directory")
    check = check if check is not None else (lambda: None)
    staging = Path(tempfile.mkdtemp(prefix=".pymoo-fs-write-", dir=out))
    try:
        for name, write in writers.values():
            check()
            write(staging / name)
        check()
        with _sigint_deferred():
            for key, (name, _) in writers.items():
                os.replace(staging / name, paths[key])
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return paths


def _front_writers(comparison):
    """{key: (file name, writer(path))} of a bi-objective comparison."""
    rows = [[r.algorithm, r.run, r.hv_train, r.igd_train, r.hv_test, r.igd_test, r.n_eval,
             round(r.seconds, 3), r.F_train.shape[0]] for r in comparison.runs]
    front_rows = []
    for r in comparison.runs:
        for mask, f_tr, f_te in zip(r.masks, r.F_train, r.F_test):
            idx = np.flatnonzero(mask)
            front_rows.append([r.algorithm, r.run, idx.size, f_tr[1], f_tr[0], f_te[0],
                               " ".join(map(str, idx))])
    fronts = {}
    for kind, pool in (("best", best_front), ("average", average_front)):
        for part in ("train", "test"):
            fronts[f"{kind}_{part}"] = {
                a: pool([getattr(r, f"F_{part}") for r in comparison.runs if r.algorithm == a])
                for a in comparison.algorithms}

    def figure(path):
        runs = comparison.settings["runs"]
        plot_fronts(fronts["best_train"], fronts["best_test"], path=path,
                    full_error=comparison.full_error, train_average=fronts["average_train"],
                    test_average=fronts["average_test"],
                    title=f"{comparison.dataset}: best and average fronts of {runs} runs")

    return {"results": ("results.csv", lambda path: _write_csv(path, RESULT_COLUMNS, rows)),
            "fronts": ("fronts.csv", lambda path: _write_csv(path, FRONT_COLUMNS, front_rows)),
            "figure": ("fronts.png", figure)}


def _subset_writers(comparison):
    """{key: (file name, writer(path))} of a weighted comparison: runs and the seed-000 table."""
    rows = [[r["algorithm"], r["run"], len(r["features"][0]), r["score_train"][0],
             r["score_test"][0], r["F_train"][0][0], r["F_test"][0][0], r["n_eval"],
             round(r["seconds"], 3), " ".join(map(str, r["features"][0]))]
            for r in comparison.records]
    header, table = comparison.table
    return {"results": ("results.csv", lambda path: _write_csv(path, SUBSET_COLUMNS, rows)),
            "summary": ("summary.csv", lambda path: _write_csv(path, header, table))}


@contextlib.contextmanager
def _sigint_deferred():
    """Hold SIGINT back while the block runs, then deliver it to the previous handler."""
    received = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(frame))
    except ValueError:  # not the main thread: signals cannot be handled here anyway
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
        if received:
            if callable(previous):
                previous(signal.SIGINT, received[-1])
            elif previous != signal.SIG_IGN:
                signal.raise_signal(signal.SIGINT)


def _write_csv(path, header, rows):
    with open(path, "w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(rows)


def _single_objective(setup, problem, results, records, full_error):
    """The Comparison of a weighted run set: the study report's seed-000 table, in memory."""
    spec = setup.spec
    name = records[0]["dataset"]
    stored = StudyResults(spec.as_dict(), records,
                          {(name, 0): reference_record(spec, spec.datasets[0])})
    empty = np.zeros((0, 1))
    return Comparison(name, problem.n_var, results, empty, empty, full_error,
                      dict(setup.settings), objective="weighted", records=records,
                      table=summary_tables(stored)[name])
