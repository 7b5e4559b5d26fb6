"""Compare feature-selection algorithms on one dataset: a one-dataset study and its report.

This is the library side of ``pymoo-fs compare``. :func:`compare_spec` turns the command's
arguments into a :class:`~pymoo_fs.studies.StudySpec` (one dataset, a stratified hold-out
protocol, an objective, a generation budget) and checks it; :func:`run_comparison` runs that
study into a directory with the study runner, so a stopped comparison resumes where it stopped
when the same command runs again, then writes the command's files and the study's report;
:func:`format_table` is the table the command prints. :func:`compare` does all three.

What the files hold, beside the study store (``study.json``, ``runs/``, ``timing/``,
``reference/``) and its report (``report/``, see :func:`pymoo_fs.studies.report.write_report`):

- runs returning fronts (``objective="pareto"``): ``results.csv``, one row per algorithm and
  run (:data:`RESULT_COLUMNS`: hypervolume, reference point (1, 1), and IGD, reference the
  non-dominated union of all runs' fronts, on the training and test fronts), ``fronts.csv``,
  one row per front member (:data:`FRONT_COLUMNS`), and ``fronts.png``, each algorithm's best
  and average front on the training and test data;
- runs returning one subset (``"weighted"``, ``"fite"``, ``"fitb"``): ``results.csv``
  (:data:`SUBSET_COLUMNS`) and ``summary.csv``, the numbers of the report's table (the layout
  of Li, Xue & Zhang's Tables II and III, CEC 2021: sizes, test accuracies, Wilcoxon signs and
  p-values against the reference algorithm; columns
  :data:`pymoo_fs.studies.report.SUBSET_SUMMARY_COLUMNS` without ``dataset``).
"""

import os
from dataclasses import dataclass
from pathlib import Path

from pymoo_fs._files import commit_files, csv_text
from pymoo_fs._validation import check_int, check_seed
from pymoo_fs.algorithms.registry import algorithm_info, canonical_name, n_objectives
from pymoo_fs.problems.objectives import make_objective, objective_names
from pymoo_fs.studies import AlgorithmSpec, Budget, Protocol, StudySpec, StudySpecError
from pymoo_fs.studies.report import (all_features_line, front_table, fronts_figure,
                                     load_results, run_table, summary_data, summary_tables,
                                     text_table, write_report)
from pymoo_fs.studies.report.tables import TOO_FEW
from pymoo_fs.studies.runner import check_study, plan_runs, run_study
from pymoo_fs.analysis.statistics import min_runs_for_test

__all__ = ["DEFAULT_ALGORITHMS", "FRONT_COLUMNS", "RESULT_COLUMNS",
           "SUBSET_COLUMNS", "Comparison", "compare", "compare_spec", "format_table",
           "run_comparison", "write_comparison"]

DEFAULT_ALGORITHMS = ("ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II")

RESULT_COLUMNS = ("algorithm", "run", "hv_train", "igd_train", "hv_test", "igd_test", "n_eval",
                  "seconds", "front_size")
FRONT_COLUMNS = ("algorithm", "run", "n_selected", "selection_ratio", "train_error",
                 "test_error", "features")
#: ``results.csv`` of a comparison whose runs return one subset
SUBSET_COLUMNS = ("algorithm", "run", "n_selected", "train_score", "test_score",
                  "train_objective", "test_objective", "n_eval", "seconds", "features")


@dataclass
class Comparison:
    """A finished comparison: its study, what the directory holds, where the files are.

    Attributes
    ----------
    spec : StudySpec
        The comparison as a study.
    results : pymoo_fs.studies.report.StudyResults
        The runs the spec asks for, read from the directory (with their seconds).
    paths : dict of {str: pathlib.Path}
        The command's files (``"results"``, and ``"fronts"`` and ``"figure"``, or
        ``"summary"``) and the report's (``"report"``: its HTML page).
    """

    spec: StudySpec
    results: object
    paths: dict

    @property
    def dataset(self):
        """str: the dataset's name."""
        return self.results.datasets[0]


def compare_spec(dataset="musk1", algorithms=DEFAULT_ALGORITHMS, runs=3, generations=100,
                 pop_size=30, seed=0, n_neighbors=5, cv=10, test_size=0.3, data_dir=None,
                 objective="pareto", alpha=None, mu=None, reference=None,
                 equal_budget=False):
    """The study a comparison runs, checked before any run.

    Parameters
    ----------
    dataset : str or path, default="musk1"
        A name or path understood by :func:`pymoo_fs.datasets.load_dataset`. A regression
        dataset (``"diabetes"``, ``"concrete"``) makes a regression comparison: a shuffled
        hold-out split, ``KNeighborsRegressor`` as the wrapper and the normalised MSE as the
        error (``scoring="neg_mean_squared_error"``).
    algorithms : sequence of str, default=("ISRPSO", "MOPSO", "CMDPSOFS", "NSGA-II")
        Algorithm names (:func:`pymoo_fs.algorithms.algorithm_names`) whose number of
        objectives suits ``objective``.
    runs : int, default=3
        Independent runs per algorithm.
    generations : int, default=100
        pymoo generations (``("n_gen", generations)``; generation 1 is the initial population,
        so a run costs ``pop_size * generations`` evaluations; ISRPSO's local searches come on
        top, counted in its ``n_eval``). PAES, which evaluates one solution per generation,
        runs for ``("n_eval", pop_size * generations)`` instead (30 x 100 = 3,000 in Nguyen et
        al., Soft Computing 2016, doi:10.1007/s00500-016-2128-8).
    pop_size : int, default=30
        Population or swarm size (SFS and SBS have none).
    seed : int, default=0
        Seed of the split, of the inner folds and, through :func:`pymoo_fs.seeds.run_seed`, of
        each run; an int in [0, 2**32 - 1].
    n_neighbors : int, default=5
        k of the KNN wrapper.
    cv : int or "loo", default=10
        Inner cross-validation of the training part.
    test_size : float, default=0.3
        Fraction held out for testing (stratified, seeded).
    data_dir : path, optional
        Where dataset names are looked up (default: ``PYMOO_FS_DATA``).
    objective : str or Objective, default="pareto"
        What the algorithms minimise (:func:`pymoo_fs.problems.objective_names`): the
        bi-objective ``"pareto"``, or the single objectives ``"weighted"``, ``"fite"``,
        ``"fitb"`` (FIT-B needs ``n_neighbors=1`` and an int ``cv``).
    alpha : float, optional
        Weight of the error of the ``"weighted"`` objective (default 0.9: the FIT-A of Li, Xue
        & Zhang, IEEE CEC 2021, doi:10.1109/CEC45853.2021.9504949; 1 is accuracy alone).
        Refused for an objective without it.
    mu : float, optional
        Weight of the balanced accuracy of ``"fitb"`` (default 0.8). Refused for an
        objective without it.
    reference : str, optional
        The algorithm the others are tested against (the Wilcoxon signs of the table; default
        the first).
    equal_budget : bool, default=False
        Give every algorithm the same number of evaluations, ``pop_size * generations``
        (``("n_eval", ...)``), instead of the same generations: ISRPSO's local searches then
        spend from that budget like any other evaluation (they are cut to what is left), so
        its ``n_eval`` is no longer far above the others' (58,002 against 3,000 with the
        defaults on musk1). pymoo checks the limit after each generation, so a run may end
        up to one generation past it.

    Returns
    -------
    spec : StudySpec
        Named ``"compare"``: one dataset, a hold-out protocol scaled to [0, 1] on the training
        part, the budget above.

    Raises
    ------
    ValueError
        For a ``dataset`` that is not a name or path, ``algorithms`` given as one string
        instead of a list, an unknown or unreadable dataset, an unknown algorithm or one that
        does not suit the objective, an algorithm named twice (also under two spellings, ``nsga2`` and
        ``NSGA-II``), a non-positive ``runs``, ``generations`` below 2, ``pop_size`` below 2,
        a ``seed`` that is not an int in [0, 2**32 - 1], ``alpha`` or ``mu`` given to an
        objective that has no such weight, a ``test_size`` that leaves a part too small for
        one sample per class, or evaluator settings the data cannot support (e.g. a class
        smaller than ``cv``).
    """
    if isinstance(algorithms, str):  # "NSGA-II" would be read letter by letter
        raise ValueError(f"algorithms must be a list of names, got the string {algorithms!r} "
                         f"(write [{algorithms!r}])")
    if not isinstance(dataset, (str, os.PathLike)):
        raise ValueError(f"dataset must be a name or a path, got {type(dataset).__name__} "
                         f"{dataset!r}")
    names = [canonical_name(a) for a in algorithms]
    if not names:
        raise ValueError("algorithms must name at least one algorithm")
    _reject_duplicates(algorithms, names)
    check_seed("seed", seed)
    objective = _objective(objective, alpha=alpha, mu=mu)
    for name in names:
        if n_objectives(name) != objective.n_obj:
            suitable = ", ".join(_suitable(objective.n_obj))
            kind = "single-objective" if n_objectives(name) == 1 else "bi-objective"
            raise ValueError(f"{name} is {kind}; objective {objective.name!r} needs one of "
                             f"{suitable}")
    if reference is not None:
        reference = canonical_name(reference)
        if reference not in names:
            raise ValueError(f"reference {reference!r} is not one of the algorithms "
                             f"({', '.join(names)})")
    check_int("runs", runs, low=1)
    if not isinstance(equal_budget, bool):
        raise ValueError(f"equal_budget must be True or False, got {equal_budget!r}")
    check_int("generations", generations, low=2)
    check_int("pop_size", pop_size, low=2)
    protocol = Protocol("compare", split="holdout", test_size=test_size, scaling="minmax",
                        n_neighbors=n_neighbors, inner_cv=cv,
                        scoring=_scoring_of(dataset, data_dir), objective=objective)
    spec = StudySpec(name="compare", datasets=[str(dataset)], runs=runs, seed=seed,
                     algorithms=[AlgorithmSpec(n, {"pop_size": pop_size},
                                               budget=(Budget(n_eval=pop_size * generations)
                                                       if equal_budget else
                                                       _budget_of(n, pop_size, generations)))
                                 for n in names],
                     budget=Budget(n_gen=generations), protocol=protocol, data_dir=data_dir,
                     reference=reference)
    try:
        check_study(spec)
    except StudySpecError as exc:  # name the problem without the study's wording
        raise ValueError(str(exc).split(": ", 1)[-1]) from None
    return spec


def _scoring_of(dataset, data_dir):
    """``"neg_mean_squared_error"`` for a regression dataset (the error: normalised MSE),
    else ``"accuracy"``; a dataset that cannot be read is left to the study's checks."""
    from pymoo_fs.studies.protocols import load_dataset_cached

    try:
        data = load_dataset_cached(str(dataset), data_dir)
    except ValueError:
        return "accuracy"
    return ("neg_mean_squared_error" if getattr(data, "target_type", "") == "regression"
            else "accuracy")


def _objective(objective, **weights):
    """The objective with the weights that were given; a weight it lacks is refused."""
    base = make_objective(objective)
    given = {k: v for k, v in weights.items() if v is not None}
    for key in given:
        if key not in base.parameters():
            raise ValueError(f"{key} is a weight of objective "
                             f"{_owner(key)!r}, not of {base.name!r}")
    return base.replace(**given) if given else base


def _owner(parameter):
    return next(n for n in objective_names() if parameter in make_objective(n).parameters())


def _suitable(n_obj):
    from pymoo_fs.algorithms.registry import algorithm_names

    return algorithm_names(n_obj)


def _budget_of(name, pop_size, generations):
    """The budget of one algorithm when it differs from the study's generations: the
    algorithm's own matched budget (PAES, one evaluation per generation: ``pop_size *
    generations`` evaluations; :meth:`~pymoo_fs.algorithms.metadata.AlgorithmInfo.matched_budget`)."""
    key, value = algorithm_info(name).matched_budget(pop_size, generations)
    return None if key == "n_gen" else Budget(**{key: value})


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


def run_comparison(spec, out, progress=True, stream=None, check=None):
    """Run a comparison's study into ``out`` (resuming), then write its files and report.

    Parameters
    ----------
    spec : StudySpec
        From :func:`compare_spec`.
    out : path
        The directory: a new or empty one, or one holding this comparison already (its
        finished runs are kept and not run again).
    progress : bool, default=True
        The study runner's progress bar and a line per finished run.
    stream : file-like, optional
        Where progress goes (default ``sys.stderr``).
    check : callable, optional
        Called at safe points (before each run, after each generation, between files); an
        exception it raises (e.g. ``KeyboardInterrupt`` for a recorded Ctrl-C) stops the
        comparison: every finished run stays stored, and the command's files are written all
        or none.

    Returns
    -------
    comparison : Comparison

    Raises
    ------
    StudySpecError
        If ``out`` holds a study made with different settings (another dataset's, objective's
        or seed's comparison, ...).
    OSError
        If ``out`` cannot be written, or a file name is taken by a directory.
    """
    run_study(spec, out, progress=progress, stream=stream, check=check)
    return write_comparison(spec, out, check)


def write_comparison(spec, out, check=None):
    """Write the files and the report of a comparison whose runs are all stored in ``out``.

    Parameters
    ----------
    spec : StudySpec
        From :func:`compare_spec`.
    out : path
        The comparison's directory, after :func:`pymoo_fs.studies.run_study`.
    check : callable, optional
        As :func:`run_comparison`: the command's files are written all or none.

    Returns
    -------
    comparison : Comparison

    Raises
    ------
    ValueError
        If a run of the spec is not stored yet.
    OSError
        As :func:`run_comparison`.
    """
    keys = plan_runs(spec)
    results = load_results(out, keys=keys)
    if results.missing:
        raise ValueError(f"{len(results.missing)} runs of the comparison are not stored in "
                         f"{out} yet, e.g. {results.missing[0]}")
    files = (_front_files(results) if results.pareto else _subset_files(results))
    paths = commit_files(out, files, check)
    report = write_report(out, Path(out) / "report", tsne=False, check=check, keys=keys)
    paths = {{"results.csv": "results", "fronts.csv": "fronts", "fronts.png": "figure",
              "summary.csv": "summary"}[name]: path for name, path in paths.items()}
    paths["report"] = report["html"]
    return Comparison(spec, results, paths)


def _without_split(table, columns):
    """The rows of a report table without its dataset and fold columns (one split here)."""
    header, rows = table
    keep = [header.index(c) for c in columns]
    return columns, [[row[i] for i in keep] for row in rows]


def _write_csv(path, table):
    """Write a (header, rows) table into the staging directory of :func:`commit_files`."""
    Path(path).write_bytes(csv_text(*table).encode("utf-8"))


def _front_files(results):
    dataset = results.datasets[0]

    def figure(path):
        fronts_figure(results, dataset).savefig(path, dpi=110)

    return {
        "results.csv": lambda path: _write_csv(path, _without_split(run_table(results),
                                                                    RESULT_COLUMNS)),
        "fronts.csv": lambda path: _write_csv(path, _without_split(front_table(results),
                                                                   FRONT_COLUMNS)),
        "fronts.png": figure,
    }


def _subset_files(results):
    table = summary_data(results)[results.datasets[0]]
    columns = table.columns[1:]  # one dataset: no dataset column
    rows = [["" if isinstance(v, float) and v != v else v for v in row[1:]]
            for row in table.rows]
    return {
        "results.csv": lambda path: _write_csv(path, _without_split(run_table(results),
                                                                    SUBSET_COLUMNS)),
        "summary.csv": lambda path: _write_csv(path, (columns, rows)),
    }


def compare(dataset="musk1", algorithms=DEFAULT_ALGORITHMS, runs=3, generations=100,
            pop_size=30, seed=0, n_neighbors=5, cv=10, test_size=0.3, data_dir=None,
            objective="pareto", alpha=None, mu=None, reference=None, out="pymoo-fs-results",
            progress=False, equal_budget=False):
    """:func:`compare_spec` then :func:`run_comparison`: the whole comparison in one call.

    Parameters
    ----------
    dataset, algorithms, runs, generations, pop_size, seed, n_neighbors, cv, test_size, \
data_dir, objective, alpha, mu, reference, equal_budget
        As :func:`compare_spec`.
    out : path, default="pymoo-fs-results"
        The comparison's directory (see :func:`run_comparison`).
    progress : bool, default=False
        Show the study runner's progress on stderr.

    Returns
    -------
    comparison : Comparison

    Raises
    ------
    ValueError
        As :func:`compare_spec`, or (:class:`~pymoo_fs.studies.StudySpecError`) when ``out``
        holds another comparison.
    OSError
        If ``out`` cannot be written.

    Examples
    --------
    >>> import tempfile
    >>> from pymoo_fs.comparison import compare, format_table
    >>> out = tempfile.mkdtemp()
    >>> c = compare("sonar", runs=1, generations=3, pop_size=10, cv=5, out=out)
    >>> [(r["algorithm"], r["n_eval"]) for r in c.results.records]
    [('CMDPSOFS', 30), ('ISRPSO', 30), ('MOPSO', 30), ('NSGA-II', 30)]
    >>> sorted(c.paths)
    ['figure', 'fronts', 'report', 'results']
    >>> c = compare("sonar", ["FSIPSO", "PSO", "SFS"], runs=2, generations=3, pop_size=10, cv=5,
    ...             objective="weighted", out=tempfile.mkdtemp())
    >>> format_table(c).splitlines()[2].split()[:4]
    ['algorithm', '#features', 'T_f', 'best']
    """
    spec = compare_spec(dataset, algorithms, runs, generations, pop_size, seed, n_neighbors,
                        cv, test_size, data_dir, objective, alpha, mu, reference,
                        equal_budget=equal_budget)
    return run_comparison(spec, out, progress=progress)


def format_table(comparison):
    """The table ``pymoo-fs compare`` prints: a title, then the report's table of the dataset.

    Parameters
    ----------
    comparison : Comparison

    Returns
    -------
    table : str
        A title line (dataset, runs, budget, objective, reference algorithm), a line saying
        how to read the table, then :func:`pymoo_fs.studies.report.summary_tables`' table
        laid out for a terminal: per algorithm, hypervolume (higher is better) and IGD (lower
        is better) of the training and test fronts as mean ± std over runs, the Wilcoxon sign
        of the test hypervolume against the reference, front size, evaluations, seconds and
        Q-measure, then a line with the all-features scores; or, for single-objective runs,
        the columns of Li, Xue & Zhang's Tables II and III (CEC 2021: sizes, test accuracies,
        their signs), the first row all features.
    """
    spec, results = comparison.spec, comparison.results
    header, rows = summary_tables(results)[comparison.dataset]
    algorithm = spec.algorithms[0]
    first = results.references[(comparison.dataset, 0)]
    title = (f"{comparison.dataset} ({first['n_features']} features): {spec.runs} run{'' if spec.runs == 1 else 's'} x "
             f"{spec.budget.n_gen} generations x {algorithm.params['pop_size']}; objective "
             f"{spec.protocol.objective.describe()}")
    legend = (f"+/=/-: {spec.reference_label} significantly better / no significant "
              f"difference / worse (Wilcoxon rank-sum, alpha 0.05); A12: the probability "
              f"that a value of {spec.reference_label}'s beats the row's (0.5: none); "
              f"(n/n): values compared")
    needed = min_runs_for_test()
    if spec.runs < needed:
        legend += (f"; '{TOO_FEW}': {spec.runs} runs per algorithm cannot reach alpha 0.05 "
                   f"whatever the values (the rank-sum test needs {needed} per side: add "
                   f"--runs {needed} or more)")
    if any(a.budget is not None and a.budget.n_eval is not None for a in spec.algorithms) \
            and all(a.budget is not None and a.budget.n_eval is not None
                    for a in spec.algorithms):
        title += f"; equal budget: {spec.algorithms[0].budget.n_eval:,} evaluations each"
    lines = [title, legend, *text_table(header, rows)]
    if results.pareto:  # the all-features scores have no hypervolume: a line of their own
        line = all_features_line(results, comparison.dataset)
        lines.append(line[:1].upper() + line[1:])
    return "\n".join(lines)
