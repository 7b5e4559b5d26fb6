"""The ``pymoo-fs`` command line (also ``python -m pymoo_fs``)."""

import argparse
import contextlib
import errno
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

from pymoo_fs import __version__
from pymoo_fs._signals import InterruptGuard


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error message and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


class _HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Defaults shown once.

    ``(default: ...)`` is added only where the help does not say its default already and the
    default is a value (not None, not a flag's False). Building the parser imports nothing
    heavy (no registry, scikit-learn or kernels), so that ``--help`` answers at once; the
    names an option takes are checked when the command runs.
    """

    def _get_help_string(self, action):
        text = action.help or ""
        if ("default" in text or action.default is None or action.default is False
                or action.default is argparse.SUPPRESS or not action.option_strings):
            return text
        return f"{text} (default: %(default)s)"


#: ``compare``'s default --algorithms: pymoo_fs.comparison.DEFAULT_ALGORITHMS, written here so
#: that building the parser imports nothing heavy (a test keeps the two equal)
_DEFAULT_ALGORITHMS = "ISRPSO,MOPSO,CMDPSOFS,NSGA-II"


def build_parser():
    """The argument parser of ``pymoo-fs``.

    Returns
    -------
    parser : argparse.ArgumentParser
    """
    parser = _Parser(prog="pymoo-fs", description="Wrapper feature selection with pymoo.")
    parser.add_argument("--version", action="version", version=f"pymoo-fs {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser(
        "compare",
        help="compare bi-objective feature-selection algorithms on one dataset",
        description="Run bi-objective feature-selection algorithms several times on one "
                    "dataset (stratified train/test split, min-max scaling fitted on the "
                    "training part, KNN wrapper with inner cross-validation), then compare "
                    "their training and test fronts by hypervolume and IGD. On a regression "
                    "dataset (diabetes, concrete) the split is shuffled, the wrapper is KNN "
                    "regression and the error is the normalised MSE.",
        formatter_class=_HelpFormatter,
    )
    p.add_argument("--dataset", default="musk1",
                   help="bundled name (musk1, sonar; regression: diabetes, concrete), a name "
                        "in --data-dir/$PYMOO_FS_DATA, or a CSV/ARFF/MAT path")
    p.add_argument("--data-dir", default=None, help="directory of datasets looked up by name")
    p.add_argument("--algorithms", default=_DEFAULT_ALGORITHMS,
                   help="comma-separated registered names ('pymoo-fs algorithms' lists "
                        f"them; default: {_DEFAULT_ALGORITHMS})")
    p.add_argument("--runs", type=int, default=3, help="independent runs per algorithm")
    p.add_argument("--generations", type=int, default=100,
                   help="generations per run (the first is the initial population); PAES, "
                        "one evaluation per generation, gets pop-size x generations "
                        "evaluations")
    p.add_argument("--pop-size", type=int, default=30, help="population / swarm size")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the split and folds; each run's seed is derived from it and the run index")
    p.add_argument("--n-neighbors", type=int, default=5, help="k of the KNN wrapper")
    p.add_argument("--folds", default="10", help="inner cross-validation folds, or 'loo'")
    p.add_argument("--test-size", type=float, default=0.3, help="fraction held out for testing")
    p.add_argument("--objective", default="pareto", metavar="OBJECTIVE",
                   help="pareto: bi-objective fronts (error, selection ratio); weighted: "
                        "alpha*error + (1-alpha)*|S|/D; fite: error, ties to fewer features; "
                        "fitb: FIT-B of Tran et al. 2019 (--n-neighbors 1); the single objectives "
                        "take single-objective algorithms and print a table like Li et al. "
                        "2021's")
    p.add_argument("--alpha", type=float, default=None,
                   help="weight of the error in the weighted objective (default 0.9)")
    p.add_argument("--mu", type=float, default=None,
                   help="weight of the balanced accuracy in FIT-B (default 0.8)")
    p.add_argument("--reference", default=None,
                   help="algorithm the others are tested against (Wilcoxon rank-sum signs; "
                        "default: the first)")
    p.add_argument("--equal-budget", action="store_true",
                   help="give every algorithm pop-size x generations evaluations, ISRPSO's "
                        "local searches included (default: the same generations, ISRPSO's "
                        "local searches on top)")
    p.add_argument("--out", default="pymoo-fs-results", help="output directory")

    p = sub.add_parser(
        "study",
        help="run a study (algorithms x datasets x runs) from a TOML spec; resumable",
        description="Run every run of a study that its directory does not hold yet: "
                    "algorithms x datasets x independent runs under one protocol and budget, "
                    "as the TOML spec says. Each finished run is stored at once, so a stopped "
                    "study resumes where it stopped when the same command is run again.",
        formatter_class=_HelpFormatter,
    )
    p.add_argument("spec", help="the study's TOML file")
    p.add_argument("--out", default=None,
                   help="study directory (default: the spec's name, beside the spec)")
    p.add_argument("--jobs", type=int, default=1,
                   help="local worker processes (-1: one per core); threads are shared out")
    p.add_argument("--scheduler", default=None,
                   help="run on Dask: 'local' starts a LocalCluster of --jobs workers; else "
                        "the address of a running scheduler (tcp://host:8786)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument("--data-change", choices=("refuse", "new", "moved"), default="refuse",
                   help="when a dataset is not the data the stored runs were made on: refuse "
                        "(default), store it as a new dataset NAME-2, or (same content read "
                        "from another file) record the new source")

    p = sub.add_parser(
        "report",
        help="write the HTML report and Markdown tables of a study directory",
        description="Read a study directory and write report.html (tables and figures "
                    "embedded) and report.md; an unfinished study is reported as far as it "
                    "goes, with its missing runs listed.",
        formatter_class=_HelpFormatter,
    )
    p.add_argument("study", help="a study directory made by 'pymoo-fs study'")
    p.add_argument("--out", default=None, help="report directory (default: STUDY/report)")
    p.add_argument("--no-tsne", action="store_true",
                   help="skip the t-SNE views (the slowest figures on large datasets)")
    p.add_argument("--figure-width", default="two-column",
                   help="figure width: 'two-column' (7.16 in), 'one-column' (3.5 in) or inches")
    p.add_argument("--palette", default="okabe-ito",
                   help="colours of the algorithms: okabe-ito, tol-bright (both colour-blind "
                        "safe) or tab10 (matplotlib's default)")
    p.add_argument("--font-size", type=float, default=None,
                   help="text size in points at the figure width (7 to 14; default 8)")
    p.add_argument("--latex-columns", default=None,
                   help="comma-separated columns of the per-dataset tables of tables.tex "
                        "(e.g. hv_test,T_HV,A12_HV,p_holm_HV; default: a set that fits a "
                        "one-column page)")
    p.add_argument("--latex-float", default="table*", choices=("table*", "table"),
                   help="LaTeX float of tables.tex: table* spans both columns of a "
                        "two-column paper, table stays in one")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p = sub.add_parser(
        "algorithms",
        help="list the registered algorithms: name, objectives, aliases",
        description="List every registered algorithm by the name that --algorithms, study "
                    "specs and the selector take, with its number of objectives (1: "
                    "single-objective, 2: bi-objective), its aliases and its class.",
    )
    p.add_argument("--objectives", type=int, choices=(1, 2), default=None,
                   help="only the algorithms of this many objectives")
    _add_datasets_parser(sub)
    return parser


def main(argv=None):
    """Entry point of the ``pymoo-fs`` console script.

    Parameters
    ----------
    argv : list of str, optional
        Arguments without the program name; default ``sys.argv[1:]``.

    Returns
    -------
    status : int
        0 on success; 1 when the reader of the output went away (a closed pipe). Otherwise the
        process exits (:class:`SystemExit`) after a one-line message on stderr: 2 for a bad
        option, dataset or output directory (found before any run), or no command at all (then
        the usage and the list of commands), 1 when the results cannot be written (a full
        disk, a file-size limit, a full standard output: one line naming the file, the fix and
        what is stored), 130 when interrupted (Ctrl-C), 128 + the signal's number after
        SIGTERM (143) or SIGHUP (129), which stop the worker processes at once, remove the
        temporary files and say what is stored.

    Notes
    -----
    While a command works, Ctrl-C (SIGINT) is only recorded
    (:class:`pymoo_fs._signals.InterruptGuard`); the command stops at the next safe point
    (before each run, after each generation, between output files) with status 130 and a line
    saying what is kept: ``compare`` and ``study`` store every finished run, so the same
    command resumes; a half-made run or file is never left behind. A second Ctrl-C stops at
    once during the runs and the kernels' compilation (every finished run is already on
    disk); while output files are written it is deferred like the first. The previous SIGINT handler is restored on return. Warnings
    (e.g. a CSV file read without a header row) are printed as one line each, and the first
    compilation of the evaluator's kernels is announced, as it takes about a minute.
    """
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv:  # bare ``pymoo-fs``: how to call it, not a one-line error
        parser.exit(2, f"{parser.format_usage()}commands: compare, study, report, algorithms, "
                       f"datasets; 'pymoo-fs COMMAND --help' explains each, 'pymoo-fs --help' "
                       f"all of them\n")
    args = parser.parse_args(argv)
    command = {"compare": _compare, "study": _study, "report": _report,
               "algorithms": _algorithms, "datasets": _datasets}[args.command]
    guard = InterruptGuard(args.command)
    try:
        with guard, _one_line_warnings(args.command), _compile_notice():
            status = command(parser, args, guard)
            sys.stdout.flush()  # a full disk behind stdout fails here, not at exit
            return status
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):  # the reader went away (``pymoo-fs algorithms | head``)
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 1
        parser.exit(1, _write_failure(args.command, exc, guard))
    except KeyboardInterrupt:  # a Ctrl-C before the guard was installed, or from its checks
        parser.exit(130, f"\n{guard.message}\n")


def _study(parser, args, guard):
    from pymoo_fs.studies import StudySpecError, load_study, plan_runs, prepare_study, run_study

    try:
        spec = load_study(args.spec)
        out = Path(args.out) if args.out else Path(args.spec).resolve().parent / spec.name
        store = prepare_study(spec, out, data_change=args.data_change)
        spec = store.spec
    except (StudySpecError, ValueError) as exc:
        parser.exit(2, f"pymoo-fs study: error: {_one_line(exc)}\n")
    except OSError as exc:
        parser.exit(2, f"pymoo-fs study: error: cannot write the study directory: "
                       f"{_one_line(exc)}\n")
    total = len(plan_runs(spec))
    guard.message = (f"pymoo-fs study: interrupted; {{done}} of {total} runs are stored in "
                     f"{str(out)!r}; run the same command to resume")
    guard.done = lambda: sum(store.has(k) for k in plan_runs(spec))
    guard.stop_at_once = True  # every finished run is already on disk
    try:
        run_study(spec, out, n_jobs=args.jobs, scheduler=args.scheduler,
                  progress=not args.quiet, check=guard.check)
    except KeyboardInterrupt:
        raise
    except Exception as exc:  # noqa: BLE001 - a worker stopped by the same Ctrl-C, or a bad value
        if guard.interrupted:
            raise KeyboardInterrupt from None
        if isinstance(exc, ValueError):
            parser.exit(2, f"pymoo-fs study: error: {_one_line(exc)}\n")
        raise
    print(f"{total} run{'' if total == 1 else 's'} stored in {out}; write the report with: "
          f"pymoo-fs report {out}")
    return 0


def _report(parser, args, guard):
    from pymoo_fs.studies import StoreFileError
    from pymoo_fs.studies.report import write_report

    study = Path(args.study)
    if not (study / "study.json").is_file():
        parser.exit(2, f"pymoo-fs report: error: {str(study)!r} is not a study directory (no "
                       f"study.json)\n")
    out = Path(args.out) if args.out else study / "report"
    guard.message = "pymoo-fs report: interrupted; the report was not written"
    from pymoo_fs.analysis.style import figure_style

    try:
        width = float(args.figure_width)
    except ValueError:
        width = args.figure_width
    try:
        style = figure_style(None, palette=args.palette, width=width, font_size=args.font_size)
    except ValueError as exc:
        parser.exit(2, f"pymoo-fs report: error: {_one_line(exc)}\n")
    columns = (None if args.latex_columns is None
               else [c.strip() for c in args.latex_columns.split(",") if c.strip()])
    start = time.monotonic()

    def say(line):
        print(f"[{time.monotonic() - start:5.1f} s] {line}", file=sys.stderr, flush=True)

    try:
        paths = write_report(study, out, tsne=not args.no_tsne, check=guard.check,
                             style=style, latex_columns=columns,
                             latex_environment=args.latex_float,
                             progress=None if args.quiet else say,
                             command=_report_command(args))
    except StoreFileError as exc:  # a damaged file of the study: named, with the fix
        if exc.path.parent.parent.parent.name == "runs":
            fix = "run 'pymoo-fs study' on the study's spec again to redo the run"
        elif exc.path.parent.name == "reference":
            fix = "run 'pymoo-fs study' on the study's spec again to compute it"
        else:
            fix = "restore it from a copy, or run the study again in a new directory"
        parser.exit(2, f"pymoo-fs report: error: {_one_line(exc)}; {fix}\n")
    except ValueError as exc:
        parser.exit(2, f"pymoo-fs report: error: {_one_line(exc)}\n")
    except OSError as exc:
        parser.exit(1, f"pymoo-fs report: error: cannot write the report to {str(out)!r}: "
                       f"{_one_line(exc)}\n")
    print(f"wrote {paths['html']} and {paths['markdown']} (tables, legend, figures and "
          f"provenance), {paths['latex'].name} (LaTeX), {paths['summary'].name} and "
          f"{paths['summary_json'].name} (the tables' numbers), the figures as PNG, PDF and SVG")
    if paths.get("checks") is not None:  # a study under S003: the paper's statements
        print("\nStatements of Nguyen et al. (2016) checked on the study's fronts (the rules "
              "and the paper in report.md):")
        for c in paths["checks"]:
            print(f"  {c.verdict:<8}  {c.dataset:<8}  {c.runs} runs  {c.statement}\n"
                  f"  {'':<8}  {'':<8}  measured: {c.measured}")
    if paths["removed"]:
        print(f"removed {len(paths['removed'])} files of an earlier report that this one does "
              f"not write again: {', '.join(p.name for p in paths['removed'])}")
    if paths["missing"]:
        missing = paths["missing"]
        print(f"the study is unfinished: {missing} run{' is' if missing == 1 else 's are'} "
              f"missing (listed in the report)")
    return 0


def _report_command(args):
    """The ``pymoo-fs report`` command line of ``args``, for the report's provenance."""
    import shlex

    words = ["pymoo-fs", "report", args.study]
    for flag, value, default in (("--out", args.out, None),
                                 ("--figure-width", args.figure_width, "two-column"),
                                 ("--palette", args.palette, "okabe-ito"),
                                 ("--font-size", args.font_size, None),
                                 ("--latex-columns", args.latex_columns, None),
                                 ("--latex-float", args.latex_float, "table*")):
        if value != default:
            words += [flag, str(value)]
    words += ["--no-tsne"] * bool(args.no_tsne) + ["--quiet"] * bool(args.quiet)
    return shlex.join(words)


def _compare(parser, args, guard):
    from pymoo_fs.comparison import compare_spec, format_table, write_comparison
    from pymoo_fs.studies import ResultStore, plan_runs, run_study

    folds = args.folds if args.folds == "loo" else _int_or_none(args.folds)
    if folds is None:
        parser.error(f"argument --folds: expected an int or 'loo', got {args.folds!r}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"argument --out: {str(out)!r} exists and is not a directory")
    if out.is_dir() and any(out.iterdir()) and not (out / "study.json").is_file():
        parser.exit(2, f"pymoo-fs compare: error: argument --out: {str(out)!r} is not empty "
                       f"and holds no comparison (no study.json): choose a new or empty "
                       f"directory\n")
    from pymoo_fs.problems.objectives import objective_names

    if args.objective not in objective_names():
        parser.exit(2, f"pymoo-fs compare: error: argument --objective: invalid choice: "
                       f"{args.objective!r} (choose from {', '.join(objective_names())})\n")
    algorithms = [a for a in args.algorithms.split(",") if a.strip()]
    try:
        spec = compare_spec(
            dataset=args.dataset, algorithms=algorithms, runs=args.runs,
            generations=args.generations, pop_size=args.pop_size, seed=args.seed,
            n_neighbors=args.n_neighbors, cv=folds, test_size=args.test_size,
            data_dir=args.data_dir, objective=args.objective, alpha=args.alpha, mu=args.mu,
            reference=args.reference, equal_budget=args.equal_budget,
        )
    except ValueError as exc:
        parser.exit(2, f"pymoo-fs compare: error: {_flags(_one_line(exc))}\n")
    guard.check()
    created = _writable_out(parser, out)
    guard.cleanups.append(lambda: _remove_empty(created))
    keys = plan_runs(spec)
    guard.message = (f"pymoo-fs compare: interrupted; {{done}} of {len(keys)} runs are stored "
                     f"in {str(out)!r}; run the same command to resume")
    guard.done = lambda: sum(ResultStore(out).has(k) for k in keys)
    try:
        try:
            run_study(spec, out, progress=True, check=guard.check)
        except ValueError as exc:  # another comparison's directory, a damaged study.json
            if guard.interrupted:
                raise KeyboardInterrupt from None
            parser.exit(2, f"pymoo-fs compare: error: {_one_line(exc)}\n")
        guard.check()
        guard.stop_at_once = False  # from here on files are written: never stop mid-file
        guard.message = (f"pymoo-fs compare: interrupted; every run is stored in {str(out)!r}, "
                         f"the results were not written; run the same command to write them")
        try:
            comparison = write_comparison(spec, out, check=guard.check)
        except OSError as exc:
            parser.exit(1, f"pymoo-fs compare: error: cannot write results to {str(out)!r}: "
                           f"{_one_line(exc)}\n")
    except BaseException:  # interrupted, or exiting: leave no directory made for nothing
        _remove_empty(created)
        raise
    if guard.interrupted:  # Ctrl-C while the finished files were moved into place
        parser.exit(130, f"pymoo-fs compare: interrupted after the results were written to "
                         f"{str(out)!r}\n")
    print(format_table(comparison))
    *first, last = [str(path) for path in comparison.paths.values()]
    print(f"\nwrote {', '.join(first)} and {last}")
    return 0


def _algorithms(parser, args, guard):
    from pymoo_fs.algorithms.registry import algorithm_info, algorithm_names

    rows = [("name", "objectives", "aliases", "class")]
    for name in algorithm_names(args.objectives):
        info = algorithm_info(name)
        rows.append((name, str(info.n_objectives), ", ".join(info.aliases) or "-",
                     info.reference))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    for row in rows:
        print("  ".join(cell.ljust(w) for cell, w in zip(row[:3], widths)) + "  " + row[3])
    return 0


def _add_datasets_parser(sub):
    """The ``datasets`` command and its ``fetch`` subcommand."""
    p = sub.add_parser(
        "datasets",
        help="download the 34 benchmark datasets (with checksums) into a data directory",
        description="Work with the benchmark datasets that studies and presets name.",
    )
    datasets = p.add_subparsers(dest="datasets_command", metavar="COMMAND", required=True,
                                parser_class=_Parser)
    p = datasets.add_parser(
        "fetch",
        help="download benchmark datasets from their public sources, with checksums",
        description="Download each benchmark dataset's source files from the GitHub "
                    "repository and commit it was taken from, check their SHA-256, convert "
                    "them to <name>.csv.gz and check the result's SHA-256. Files already "
                    "present and verified are skipped; a checksum mismatch is refused, naming "
                    "the file. Then point PYMOO_FS_DATA at the directory.",
    )
    p.add_argument("names", nargs="*", metavar="NAME",
                   help="datasets to fetch (default: all 34)")
    p.add_argument("--data-dir", default=None,
                   help="where to write (default: $PYMOO_FS_DATA if set, else the user's "
                        "cache directory, e.g. ~/.cache/pymoo-fs/datasets)")
    p.add_argument("--force", action="store_true",
                   help="replace a present <name>.csv.gz whose content differs from the "
                        "recorded checksum (refused by default)")
    p.add_argument("--mirror", default=None,
                   help="base URL to download from instead of https://raw.githubusercontent.com "
                        "(laid out as <owner>/<repo>/<commit>/<path>; file:// URLs work)")


def _datasets(parser, args, guard):
    from pymoo_fs.datasets import (
        BENCHMARK_SOURCES,
        DATA_ENV_VAR,
        ChecksumError,
        default_data_dir,
        fetch_datasets,
    )

    unknown = [name for name in args.names if name not in BENCHMARK_SOURCES]
    if unknown:
        parser.exit(2, f"pymoo-fs datasets fetch: error: unknown dataset(s) "
                       f"{', '.join(unknown)}; known: {', '.join(sorted(BENCHMARK_SOURCES))}\n")
    directory = Path(args.data_dir).expanduser() if args.data_dir else default_data_dir()
    if directory.exists() and not directory.is_dir():
        where = ("--data-dir" if args.data_dir else
                 f"{DATA_ENV_VAR} (={os.environ.get(DATA_ENV_VAR)!r})")
        parser.exit(2, f"pymoo-fs datasets fetch: error: {where} names {str(directory)!r}, "
                       f"which is a file, not a directory: point {where.split(' ')[0]} at a "
                       "folder for the datasets\n")
    guard.message = (f"pymoo-fs datasets fetch: interrupted; the datasets fetched so far are "
                     f"in {str(directory)!r}; run the same command to fetch the rest")
    guard.stop_at_once = True  # every file is written whole (temporary file and rename)

    def say(line):
        print(line, flush=True)
        guard.check()

    try:
        results = fetch_datasets(args.names or None, directory, force=args.force,
                                 mirror=args.mirror, progress=say)
    except ChecksumError as exc:
        parser.exit(1, f"pymoo-fs datasets fetch: error: {_one_line(exc)}\n")
    except ValueError as exc:
        parser.exit(2, f"pymoo-fs datasets fetch: error: {_one_line(exc)}\n")
    except OSError as exc:
        parser.exit(1, f"pymoo-fs datasets fetch: error: {_one_line(exc)}\n")
    fetched = sum(r.status == "fetched" for r in results)
    print(f"{len(results)} dataset(s) in {directory} ({fetched} fetched, "
          f"{len(results) - fetched} already present and verified)")
    current = os.environ.get(DATA_ENV_VAR)
    if current and Path(current).expanduser().resolve() == directory.resolve():
        print(f"{DATA_ENV_VAR} points there: load them by name, e.g. "
              f"load_dataset({results[0].name!r}) or pymoo-fs compare --dataset "
              f"{results[0].name}")
    else:
        print(f"to load them by name, point {DATA_ENV_VAR} at that directory:\n"
              f"  export {DATA_ENV_VAR}={directory}\n"
              f"(or pass --data-dir {directory} to compare, data_dir= to load_dataset)")
    return 0


def _writable_out(parser, out):
    """Create ``out`` if needed and prove it writable; exit 2 otherwise.

    Returns the directories created (innermost first), to be removed again if nothing ends up
    in them.
    """
    missing = [p for p in (out, *out.parents) if not p.exists()]
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".pymoo-fs-probe-", dir=out)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        _remove_empty(missing)
        reason = exc.strerror or _one_line(exc)
        parser.exit(2, f"pymoo-fs compare: error: argument --out: cannot write to "
                       f"{str(out)!r}: {reason}\n")
    return missing


def _remove_empty(directories):
    """Remove the directories the command created, innermost first, while they are empty."""
    for directory in directories:
        try:
            directory.rmdir()
        except OSError:
            return


#: compare_spec's keywords and the ``compare`` options that give them
_COMPARE_FLAGS = {"dataset": "--dataset", "algorithms": "--algorithms", "runs": "--runs",
                  "generations": "--generations", "pop_size": "--pop-size", "seed": "--seed",
                  "n_neighbors": "--n-neighbors", "inner_cv": "--folds", "cv": "--folds",
                  "test_size": "--test-size", "data_dir": "--data-dir",
                  "objective": "--objective", "alpha": "--alpha", "mu": "--mu",
                  "reference": "--reference"}


def _flags(message):
    """``message``, when it starts with a Python keyword, with ``compare``'s option instead."""
    import re

    return re.sub(r"^(" + "|".join(sorted(_COMPARE_FLAGS, key=len, reverse=True))
                  + r")(?![\w-])", lambda m: _COMPARE_FLAGS[m.group(1)], message, count=1)


def _stdout_failed():
    """Whether standard output cannot take what was printed (a full disk, /dev/full)."""
    try:
        sys.stdout.flush()
    except OSError:
        return True
    return False


def _write_failure(command, exc, guard):
    """The one line for an error writing a file (a full disk, a file-size limit, a read-only
    folder) or standard output: the file, the reason, the fix, and what is kept."""
    reason = exc.strerror or _one_line(exc)
    kept = guard.message
    kept = kept.split(": interrupted; ", 1)[1] if ": interrupted; " in kept else ""
    fixes = {errno.ENOSPC: "free space on that disk", errno.EFBIG: "raise the file-size "
             "limit (ulimit -f)", errno.EDQUOT: "free space within your disk quota",
             errno.EROFS: "write to a writable folder (--out)", errno.EACCES: "write to a "
             "folder you may write to (--out)"}
    if exc.filename is None and (_stdout_failed() or exc.errno in (
            errno.ENOSPC, errno.EFBIG, errno.EDQUOT, errno.EIO)):  # print's error: no file
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # no second error when Python flushes stdout
        what, fix = "standard output", "redirect the output to a file on a disk with space"
    else:
        what = str(exc.filename) if exc.filename is not None else "a file"
        fix = fixes.get(exc.errno, "check the path and the disk")
    line = f"pymoo-fs {command}: error: cannot write {what}: {reason}; {fix}"
    if kept and what != "standard output":
        line += f"; {kept.replace('run the same command', 'then run the same command')}"
    return line + "\n"


def _one_line(exc):
    return " ".join(str(exc).split())


def _int_or_none(text):
    try:
        return int(text)
    except ValueError:
        return None


@contextlib.contextmanager
def _one_line_warnings(command="compare"):
    """Show warnings as ``pymoo-fs COMMAND: warning: ...``, one line each."""
    def show(message, category, filename, lineno, file=None, line=None):
        stream = sys.stderr if file is None else file
        stream.write(f"pymoo-fs {command}: warning: {_one_line(message)}\n")
        stream.flush()

    with warnings.catch_warnings():
        warnings.showwarning = show
        yield


@contextlib.contextmanager
def _compile_notice():
    """Say on stderr when pymoo-fs's kernels are compiled, one line per first compilation.

    :mod:`pymoo_fs.compilation` hears numba's ``"numba:compile"`` event, broadcast exactly when
    a kernel is compiled (its on-disk cache missed), so a line appears only when compiling
    really happens: for the KNN evaluator's kernels, "more of" them for another kernel or
    other argument types, its one-feature flip kernels, its replay of scikit-learn, ...
    (instead of the ``KernelCompilationWarning`` the Python API shows). The line is written
    through tqdm, so a progress bar is redrawn below it.
    """
    from pymoo_fs import compilation

    def say(what):
        from tqdm import tqdm

        # the KNN kernels are cached per user (pymoo_fs.evaluation.knn.kernels.jit) unless
        # numba's own places are asked for; the others beside their sources
        once = "once per installation"
        if "KNN evaluator" in what:
            from pymoo_fs.evaluation.knn.kernels.jit import shared_cache_dir

            if shared_cache_dir() is not None:
                once = "once per user and version"
        tqdm.write(f"compiling {what} ({once}; this can take a minute or more) ...",
                   file=sys.stderr)
        sys.stderr.flush()

    with compilation.announce_to(say):
        yield


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
