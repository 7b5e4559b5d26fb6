"""The ``pymoo-fs`` command line (also ``python -m pymoo_fs``)."""

import argparse
import sys
from pathlib import Path

from pymoo_fs import __version__


class _Parser(argparse.ArgumentParser):
    """argparse with a one-line error message and exit status 2."""

    def error(self, message):
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser():
    """The argument parser of ``pymoo-fs``.

    Returns
    -------
    parser : argparse.ArgumentParser
    """
    from pymoo_fs.algorithms.registry import algorithm_names
    from pymoo_fs.comparison import DEFAULT_ALGORITHMS

    parser = _Parser(prog="pymoo-fs", description="Wrapper feature selection with pymoo.")
    parser.add_argument("--version", action="version", version=f"pymoo-fs {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    p = sub.add_parser(
        "compare",
        help="compare bi-objective feature-selection algorithms on one dataset",
        description="Run bi-objective feature-selection algorithms several times on one "
                    "dataset (stratified train/test split, min-max scaling fitted on the "
                    "training part, KNN wrapper with inner cross-validation), then compare "
                    "their training and test fronts by hypervolume and IGD.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument("--dataset", default="musk1",
                   help="bundled name (musk1, sonar), a name in --data-dir/$PYMOO_FS_DATA, or "
                        "a CSV/ARFF/MAT path")
    p.add_argument("--data-dir", default=None, help="directory of datasets looked up by name")
    p.add_argument("--algorithms", default=",".join(DEFAULT_ALGORITHMS),
                   help=f"comma-separated, from {', '.join(algorithm_names(2))}")
    p.add_argument("--runs", type=int, default=3, help="independent runs per algorithm")
    p.add_argument("--generations", type=int, default=100,
                   help="generations per run (the first is the initial population)")
    p.add_argument("--pop-size", type=int, default=30, help="population / swarm size")
    p.add_argument("--seed", type=int, default=0,
                   help="seed of the split and folds; run r uses seed + r")
    p.add_argument("--n-neighbors", type=int, default=5, help="k of the KNN wrapper")
    p.add_argument("--folds", default="10", help="inner cross-validation folds, or 'loo'")
    p.add_argument("--test-size", type=float, default=0.3, help="fraction held out for testing")
    p.add_argument("--out", default="pymoo-fs-results", help="output directory")
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
        0 on success, 2 on a bad option or dataset (after a one-line message on stderr).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    from pymoo_fs.comparison import ConsoleProgress, format_table, prepare, run, write_results

    folds = args.folds if args.folds == "loo" else _int_or_none(args.folds)
    if folds is None:
        parser.error(f"argument --folds: expected an int or 'loo', got {args.folds!r}")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"argument --out: {str(out)!r} exists and is not a directory")
    algorithms = [a for a in args.algorithms.split(",") if a.strip()]
    try:
        setup = prepare(
            dataset=args.dataset, algorithms=algorithms, runs=args.runs,
            generations=args.generations, pop_size=args.pop_size, seed=args.seed,
            n_neighbors=args.n_neighbors, cv=folds, test_size=args.test_size,
            data_dir=args.data_dir,
        )
    except ValueError as exc:
        parser.exit(2, f"pymoo-fs compare: error: {exc}\n")
    try:
        comparison = run(setup, progress=ConsoleProgress())
    except KeyboardInterrupt:
        parser.exit(130, "\npymoo-fs compare: interrupted; nothing written\n")
    try:
        paths = write_results(comparison, out)
    except OSError as exc:
        parser.exit(1, f"pymoo-fs compare: error: cannot write results to {str(out)!r}: {exc}\n")
    print(format_table(comparison))
    print(f"\nwrote {paths['results']}, {paths['fronts']} and {paths['figure']}")
    return 0


def _int_or_none(text):
    try:
        return int(text)
    except ValueError:
        return None


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
