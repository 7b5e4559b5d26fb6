"""ISRPSO's local search as the number of features grows: seconds and evaluations per call.

Usage::

    python benchmarks/isrpso_scaling.py                       # the four default datasets
    python benchmarks/isrpso_scaling.py --datasets musk1 dlbcl:6   # dlbcl: 6 generations
    python benchmarks/isrpso_scaling.py --write               # also update RESULTS.md
    python benchmarks/isrpso_scaling.py --datasets isolet --progress   # each local search as it ends

For each dataset (seed 003's protocol: stratified 70/30 split, [0, 1] scaling fitted on the
training part, KNN-5 with 10-fold inner CV) one ISRPSO run with seed 003's budget (30
particles, ``--generations`` 101 = the initial swarm and 100 iterations, a local search every
5 iterations) is timed, and every local search is logged: archive size, |S|, evaluations the
sequential definition spends (seed 003's cost measure), masks computed, seconds.

Then the batched local search is checked against a plain sequential implementation of the
same definition (one evaluation per candidate, ``tests/algorithms/test_isrpso.py``) on a
subset: the first member of the first local search's archive, with the union ``S`` cut to
the member's own features plus the ``--subset`` best outside features by acc1 (so the
sequential run stays short on every dataset). Both must give the same subset, objectives and
sequential count; the table gives their seconds and the ratio.

Timings depend on the machine and its load; the ratio of the two implementations is measured
in the same process, one after the other.

``--flips`` times the flip kernels alone instead (no ISRPSO run)::

    python benchmarks/isrpso_scaling.py --flips --datasets isolet mfeat --before HEAD~1

For each dataset (same protocol, ``--threads`` evaluator threads), ``--bases`` random masks of
``--flip-size`` features each get ``--n-flips`` additions and as many removals: seconds of
:func:`~pymoo_fs.evaluation.knn.kernels.flips.flip_tables` per base and of ``flip_predict``
per flip (process CPU seconds, less sensitive to other jobs than wall seconds on a loaded
machine, and wall seconds), with the determined windows and with every window switched off
(each row scanned), and with ``--before``, the flip kernels of that git revision loaded beside
the current ones (``git show REV:pymoo_fs/evaluation/knn/kernels/flips.py``), one after the
other on the same matrices. Every prediction a path certifies must equal the others'.
"""

import argparse
import datetime
import sys
import time
import warnings
from pathlib import Path

import numpy as np
from pymoo.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from _results import module_at  # noqa: E402

from pymoo_fs.algorithms import ISRPSO  # noqa: E402
from pymoo_fs.algorithms.moo.isrpso import improve_member  # noqa: E402
from pymoo_fs.datasets import holdout_split, load_dataset  # noqa: E402
from pymoo_fs.problems import BiObjectiveFeatureSelection  # noqa: E402
from tests.algorithms.test_isrpso import sequential_local_search  # noqa: E402

MARKER = "## ISRPSO local search scaling"
DATASETS = ("musk1", "isolet", "srbct", "dlbcl")


class RecordingISRPSO(ISRPSO):
    """ISRPSO that keeps the archive it saw at its first local search.

    With ``progress``, each local search's log entry is written to stderr when it ends, with
    the wall seconds since the first search began (a long run shows where it is).
    """

    progress = False

    def _local_search(self):
        if not hasattr(self, "first_archive_"):
            self.first_archive_ = self.archive_.copy()
            self.started_ = time.perf_counter()
        super()._local_search()
        if self.progress and self.ls_log_:
            print(f"[{time.perf_counter() - self.started_:8.1f} s] {self.ls_log_[-1]}",
                  file=sys.stderr, flush=True)


def problem_of(name, seed, threads):
    data = load_dataset(name)
    split = holdout_split(data, test_size=0.3, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # classes smaller than 10 in microarray data
        return BiObjectiveFeatureSelection.from_data(
            split.X_train, split.y_train, n_neighbors=5, cv=10, random_state=seed,
            n_threads=threads, X_test=split.X_test, y_test=split.y_test)


def run_one(name, generations, seed, threads, subset, progress=False):
    problem = problem_of(name, seed, threads)
    problem.evaluator.score(np.ones((2, problem.n_var), dtype=bool))  # compile / load kernels
    alg = RecordingISRPSO(pop_size=30)
    alg.progress = progress
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = minimize(problem, alg, ("n_gen", generations), seed=seed, copy_algorithm=False)
    total = time.perf_counter() - start
    log = alg.ls_log_
    row = dict(dataset=name, generations=generations, D=problem.n_var,
               n_train=problem.evaluator.n_samples,
               seconds=total, ls_seconds=sum(e["seconds"] for e in log), calls=len(log),
               n_eval=alg.evaluator.n_eval, sequential=alg.n_ls_sequential_,
               computed=alg.n_ls_computed_, front=len(res.F),
               union=[e["union"] for e in log], archive=[e["archive"] for e in log],
               log=log)
    row.update(check_against_sequential(problem, alg, subset))
    return row


def check_against_sequential(problem, alg, subset):
    """The first member of the first archive on a cut union: batched vs sequential."""
    member = alg.first_archive_[0]
    acc1 = alg.acc1_
    outside = np.flatnonzero(alg.first_archive_.get("X").any(axis=0) & ~member.X)
    union = member.X.copy()
    union[outside[np.argsort(-acc1[outside], kind="stable")][:subset]] = True
    problem.evaluator.clear_cache()
    start = time.perf_counter()
    mask, F, n = sequential_local_search(problem, member.X, member.F, union, acc1)
    sequential = time.perf_counter() - start
    problem.evaluator.clear_cache()
    start = time.perf_counter()
    found = improve_member(member.X, member.F, union, acc1, alg.flip_objectives)
    batched = time.perf_counter() - start
    same = (np.array_equal(found.mask, mask) and np.array_equal(found.F, F)
            and found.n_sequential == n)
    return dict(check_member=int(member.X.sum()), check_union=int(union.sum()),
                check_sequential_evals=n, check_computed=found.n_computed,
                check_sequential_s=sequential, check_batched_s=batched, check_same=same)


def load_flips_before(rev):
    """The flip kernels of git revision ``rev``, imported beside the current ones."""
    return module_at(rev, "pymoo_fs/evaluation/knn/kernels/flips.py",
                     "pymoo_fs.evaluation.knn.kernels._flips_before")


def time_flips(name, seed, threads, size, n_bases, n_flips, before):
    """Seconds of the flip kernels on ``n_bases`` random masks of ``size`` features."""
    from pymoo_fs.evaluation.knn.kernels import flips
    from pymoo_fs.evaluation.knn.parallel import ParallelContext

    problem = problem_of(name, seed, threads)
    ev = problem.evaluator
    D = problem.n_var
    rng = np.random.default_rng(seed)
    folds = ev._layout.kernel_folds()
    data = ev._gram.data(float64=True)
    paths = {"windows": flips, "scan": flips}
    if before is not None:
        paths["before"] = before
    stats = {}
    warm = True
    for _ in range(n_bases):
        mask = np.zeros(D, dtype=bool)
        mask[rng.choice(D, size, replace=False)] = True
        G, sq, m2, r2, eps = ev._gram.base_matrix(mask, folds, ev._seeds, threads)
        cols = np.flatnonzero(mask)
        kinds = (("add", rng.choice(np.flatnonzero(~mask), n_flips, replace=False)),
                 ("remove", rng.choice(cols, min(n_flips, cols.size), replace=False)))
        with ParallelContext(threads):
            for kind, feats in kinds:
                feats = feats.astype(np.int64)
                if warm:  # compile or load every kernel before timing
                    for module in set(paths.values()):
                        module.flip_predict(data, folds, G, sq, m2, r2, eps, cols, feats[:1],
                                            *_tables(module, G, sq, folds, threads),
                                            4 * threads)
                    warm = False
                preds = {}
                for label, module in paths.items():
                    c0, w0 = time.process_time(), time.perf_counter()
                    tables = _tables(module, G, sq, folds, threads)
                    c1, w1 = time.process_time(), time.perf_counter()
                    if label == "scan":
                        tables = (*tables[:3], np.full_like(tables[3], -1), *tables[4:])
                    preds[label] = module.flip_predict(data, folds, G, sq, m2, r2, eps, cols,
                                                       feats, *tables, 4 * threads)[:3]
                    c2, w2 = time.process_time(), time.perf_counter()
                    acc = stats.setdefault((kind, label), np.zeros(5))
                    acc += (c1 - c0, c2 - c1, w1 - w0, w2 - w1, feats.size)
                ref_pred, ref_unc, _ = preds["scan" if before is None else "before"]
                for label, (pred, unc, _) in preds.items():
                    if unc[~ref_unc].any() or not np.array_equal(pred[~ref_unc],
                                                                 ref_pred[~ref_unc]):
                        raise AssertionError(f"{name}: the {label} path differs ({kind})")
    return dict(dataset=name, n_train=ev.n_samples, D=D, size=size, bases=n_bases,
                stats=stats)


def _tables(module, G, sq, folds, threads):
    """``module.flip_tables`` without a seed (a revision before the seed took five arguments)."""
    try:
        return module.flip_tables(G, sq, folds, 64, threads, module.NO_SEED)
    except AttributeError:
        return module.flip_tables(G, sq, folds, 64, threads)


def format_flips(rows, command, threads):
    labels = [lab for lab in ("before", "scan", "windows")
              if any((k, lab) in r["stats"] for r in rows for k in ("add", "remove"))]
    head = (f"`python benchmarks/isrpso_scaling.py {command}` on "
            f"{datetime.date.today().isoformat()} ({threads} evaluator threads, load average "
            f"{_load()} when it ended): flip kernels alone, seed 003's protocol (70/30, KNN-5, "
            f"10-fold inner CV); CPU ms per flip of flip_predict (wall ms in brackets), CPU "
            f"ms per base of flip_tables; every certified prediction equal across paths.")
    lines = ["| dataset | n train | D | base size | flip | "
             + " | ".join(f"{lab} ms/flip" for lab in labels)
             + " | tables ms/base (" + ", ".join(labels) + ") | "
             + " | ".join(f"{lab} / windows" for lab in labels if lab != "windows") + " |",
             "|---|---:|---:|---:|---|" + "---:|" * (2 * len(labels))]
    for r in rows:
        for kind in ("add", "remove"):
            cells, per = [], {}
            for lab in labels:
                t_cpu, p_cpu, t_wall, p_wall, nf = r["stats"][(kind, lab)]
                per[lab] = p_cpu / nf
                cells.append(f"{1e3 * p_cpu / nf:.3f} ({1e3 * p_wall / nf:.3f})")
            tables = ", ".join(f"{1e3 * r['stats'][(kind, lab)][0] / r['bases']:.1f}"
                               for lab in labels)
            ratios = [f"{per[lab] / per['windows']:.2f}x" for lab in labels if lab != "windows"]
            lines.append(f"| {r['dataset']} | {r['n_train']} | {r['D']} | {r['size']} | {kind} | "
                         + " | ".join(cells) + f" | {tables} | " + " | ".join(ratios) + " |")
    return "\n".join([head, "", *lines])


def format_rows(rows, command, threads):
    lines = [
        "| dataset | D | n train | generations | run s | local search s | calls | s / call | "
        "sequential evals / call | computed / call | n_eval | front |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        calls = max(r["calls"], 1)
        lines.append(
            f"| {r['dataset']} | {r['D']} | {r['n_train']} | {r['generations']} | "
            f"{r['seconds']:.1f} | "
            f"{r['ls_seconds']:.1f} | {r['calls']} | {r['ls_seconds'] / calls:.2f} | "
            f"{r['sequential'] / calls:,.0f} | {r['computed'] / calls:,.0f} | "
            f"{r['n_eval']:,} | {r['front']} |")
    lines += ["", "Batched vs plain sequential on the first archive member (union cut to the "
              "member's features plus the best outside ones by acc1):", "",
              "| dataset | member size | union | sequential evals | computed (batched) | "
              "sequential s | batched s | speed-up | same result |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in rows:
        lines.append(
            f"| {r['dataset']} | {r['check_member']} | {r['check_union']} | "
            f"{r['check_sequential_evals']:,} | {r['check_computed']:,} | "
            f"{r['check_sequential_s']:.2f} | {r['check_batched_s']:.2f} | "
            f"{r['check_sequential_s'] / max(r['check_batched_s'], 1e-9):.1f}x | "
            f"{'yes' if r['check_same'] else 'NO'} |")
    lines += ["", "Per local search (move: archive size, |S|, sequential evals, computed, s):", ""]
    for r in rows:
        calls = "; ".join(f"{e['move']}: {e['archive']}, {e['union']}, {e['sequential']:,}, "
                          f"{e['computed']:,}, {e['seconds']:.1f}" for e in r["log"])
        lines.append(f"- {r['dataset']}: {calls}")
    head = (f"`python benchmarks/isrpso_scaling.py {command}` on "
            f"{datetime.date.today().isoformat()} ({threads} evaluator threads, load average "
            f"{_load()} when it ended): one ISRPSO run per dataset (30 particles, generations "
            f"= the initial swarm + the iterations, a local search every 5 iterations), seed "
            f"003's protocol (70/30, KNN-5, 10-fold inner CV).")
    return "\n".join(["", MARKER, "", head, "", *lines, ""])


def _load():
    try:
        with open("/proc/loadavg") as fh:
            return fh.read().split()[0]
    except OSError:
        return "unknown"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS),
                        help="names, each optionally with its own generations: dlbcl:6")
    parser.add_argument("--generations", type=int, default=101)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--subset", type=int, default=10,
                        help="outside features kept in the union of the sequential check")
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--progress", action="store_true",
                        help="print each local search's log entry to stderr as it ends")
    parser.add_argument("--flips", action="store_true",
                        help="time the flip kernels alone (see the module docstring)")
    parser.add_argument("--flip-size", type=int, default=200)
    parser.add_argument("--bases", type=int, default=3)
    parser.add_argument("--n-flips", type=int, default=100)
    parser.add_argument("--before", default=None,
                        help="git revision whose flip kernels are timed beside the current")
    args = parser.parse_args(argv)
    if args.flips:
        before = None if args.before is None else load_flips_before(args.before)
        rows = [time_flips(item.partition(":")[0], args.seed, args.threads, args.flip_size,
                           args.bases, args.n_flips, before) for item in args.datasets]
        print(format_flips(rows, " ".join(sys.argv[1:] if argv is None else argv),
                           args.threads))
        return
    rows = []
    for item in args.datasets:
        name, _, gens = item.partition(":")
        rows.append(run_one(name, int(gens or args.generations), args.seed, args.threads,
                            args.subset, args.progress))
        r = rows[-1]
        print(f"{name}: D={r['D']} run {r['seconds']:.1f} s, local search {r['ls_seconds']:.1f} s "
              f"in {r['calls']} calls, sequential {r['sequential']:,} computed "
              f"{r['computed']:,}; check same={r['check_same']} "
              f"({r['check_sequential_s']:.2f} s vs {r['check_batched_s']:.2f} s)", flush=True)
    text = format_rows(rows, " ".join(sys.argv[1:] if argv is None else argv), args.threads)
    print(text)
    if args.write:
        path = ROOT / "benchmarks" / "RESULTS.md"
        body = path.read_text()
        if MARKER in body:  # replace this section only
            start = body.index(MARKER)
            end = body.find("\n## ", start + len(MARKER))
            body = body[:start].rstrip("\n") + "\n" + (body[end:] if end >= 0 else "")
        path.write_text(body.rstrip("\n") + "\n" + text)


if __name__ == "__main__":
    main()
