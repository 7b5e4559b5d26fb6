"""FIT-B's distance-matrix update against the kernels of an earlier revision, and whole runs.

Usage::

    python benchmarks/fitb_update.py --before f708a26
    python benchmarks/fitb_update.py --before f708a26 --datasets srbct,brain_tumor1 --generations 11
    python benchmarks/fitb_update.py --before f708a26 --write     # also update RESULTS.md
    python benchmarks/fitb_update.py --before f708a26 --no-runs     # the update kernel only

FIT-B (AMSO's fitness, seed 001) keeps integer L1 distance matrices and turns the stored
matrix nearest to a new mask into that mask's matrix column by column
(:func:`pymoo_fs.evaluation._fitb_kernels.update_matrix`). ``--before REV`` loads
``pymoo_fs/evaluation/_fitb_kernels.py`` of that git revision beside the current one, and
each measurement runs both, one after the other, in this process:

- **update**: on the S001 problem of each dataset's first outer fold (the spec in
  ``benchmarks/seed001/<dataset>.toml``: its training part, quantised as the evaluator
  quantises it), a random mask of half the features and moves of 1, 4, 40 and 500 columns
  (half added, half removed): microseconds per update (minimum over ``--repeats`` rounds of
  a loop of updates there and back). The two matrices must be equal.
- **run**: each algorithm of that spec for ``--generations`` generations (seed 0, cache
  emptied, after a 2-generation warm-up), in a fresh process of each revision: the earlier
  one from a ``git worktree`` of it (``--worktree``, made if missing) through
  ``PYTHONPATH``, the current one from this checkout, alternated over ``--repeats``: wall
  seconds of the run (median), and the result (objective, mask, evaluations), which must
  be the same. This measures the whole evaluator (kernels and their Python callers).

The script exits 1 if any matrix or result differs. Timings depend on the machine and its
load; the ratios compare two timings of the same process.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from pymoo_fs.evaluation import _fitb_kernels
from pymoo_fs.studies import load_study
from pymoo_fs.studies.runner import problem_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import cpu_name, markdown_table, module_at, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MARKER = "## FIT-B matrix updates (seed 001)"
MOVES = (1, 4, 40, 500)


def load_before(rev):
    """The FIT-B kernels of git revision ``rev``, imported beside the current ones."""
    return module_at(rev, "pymoo_fs/evaluation/_fitb_kernels.py",
                     "pymoo_fs.evaluation._fitb_kernels_before")


def time_updates(q_t, rng, repeats, before):
    """Rows ``(h, us before, us now, same)`` for moves of ``h`` columns from a half mask."""
    D, n = q_t.shape
    base = rng.random(D) < 0.5
    M0 = np.zeros((n, n), dtype=np.int64)
    _fitb_kernels.update_matrix(M0, q_t, np.zeros(D, dtype=bool), base)
    rows = []
    for h in MOVES:
        moved = base.copy()
        moved[rng.choice(D, min(h, D), replace=False)] ^= True
        loops = max(3, int(4e6 // (h * n * n)))
        result, best = {}, {}
        for label, update in (("before", before.update_matrix),
                              ("now", _fitb_kernels.update_matrix)):
            M = M0.copy()
            update(M, q_t, base, moved)
            result[label] = M.copy()
            update(M, q_t, moved, base)
            if not np.array_equal(M, M0):
                result[label] = None
            seconds = []
            for _ in range(repeats):
                start = time.perf_counter()
                for _ in range(loops):
                    update(M, q_t, base, moved)
                    update(M, q_t, moved, base)
                seconds.append((time.perf_counter() - start) / (2 * loops))
            best[label] = min(seconds)
        same = (result["before"] is not None and result["now"] is not None
                and np.array_equal(result["before"], result["now"]))
        rows.append((h, 1e6 * best["before"], 1e6 * best["now"], same))
    return rows


CHILD = """
import json, sys, time
from pathlib import Path
import pymoo_fs
from pymoo.optimize import minimize
from pymoo_fs.studies import load_study
from pymoo_fs.studies.runner import problem_of
spec_path, name, label, generations = sys.argv[1:5]
spec = load_study(Path(spec_path))
problem = problem_of(spec, name, fold=0)
algorithm = next(a for a in spec.algorithms if a.label == label)
minimize(problem, algorithm.make(), ("n_gen", 2), seed=99)
problem.evaluator.clear_cache()
count = problem.evaluator.n_evaluations
start = time.perf_counter()
res = minimize(problem, algorithm.make(), ("n_gen", int(generations)), seed=0)
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "F": float(res.F[0]),
                  "features": [int(f) for f in res.X.nonzero()[0]],
                  "evaluations": problem.evaluator.n_evaluations - count,
                  "source": pymoo_fs.__file__}))
"""


def worktree(rev, path):
    """A checkout of ``rev`` at ``path`` (``git worktree add``), made if missing."""
    path = Path(path)
    if not (path / "pymoo_fs" / "__init__.py").exists():
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
                       check=True, capture_output=True)
    return path


def run_child(tree, spec_path, name, label, generations):
    """One timed run in a fresh process importing pymoo-fs from ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([sys.executable, "-c", CHILD, str(spec_path), name, label,
                          str(generations)], check=True, capture_output=True, text=True,
                         env=env, cwd=tempfile.gettempdir()).stdout
    record = json.loads(out.strip().splitlines()[-1])
    if not record["source"].startswith(str(tree)):
        raise RuntimeError(f"the child imported {record['source']}, not the tree {tree}")
    return record


def time_run(trees, spec_path, name, label, generations, repeats):
    """``(s before, s now, same, evaluations)``: runs in each revision's fresh processes."""
    seconds = {"before": [], "now": []}
    outcome = {}
    for r in range(repeats):
        for side in (("before", "now") if r % 2 == 0 else ("now", "before")):
            record = run_child(trees[side], spec_path, name, label, generations)
            seconds[side].append(record["seconds"])
            outcome[side] = (record["F"], record["features"], record["evaluations"])
    return (float(np.median(seconds["before"])), float(np.median(seconds["now"])),
            outcome["before"] == outcome["now"], outcome["now"][2])


def _revision():
    """This checkout's short commit hash, marked when the working tree differs from it."""
    head = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or "unknown"
    dirty = subprocess.run(["git", "-C", str(ROOT), "status", "--porcelain", "--",
                            "pymoo_fs"], capture_output=True, text=True).stdout.strip()
    return head + (" with uncommitted changes in pymoo_fs/" if dirty else "")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="git revision to compare against")
    parser.add_argument("--datasets", default="srbct,9_tumors,brain_tumor1",
                        help="comma-separated names with a spec in benchmarks/seed001/")
    parser.add_argument("--generations", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--worktree", default=None,
                        help="checkout of --before for the runs (default: a folder under the "
                             "temporary directory named after the revision)")
    parser.add_argument("--no-runs", action="store_true", help="time the update kernel only")
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    before = load_before(args.before)
    trees = {"now": ROOT}
    if not args.no_runs:
        trees["before"] = worktree(args.before, args.worktree or Path(tempfile.gettempdir())
                                   / f"pymoo_fs_worktree_{args.before}")
    load_start = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.timezone.utc)
    update_rows, run_rows, ok = [], [], True
    for name in args.datasets.split(","):
        spec_path = ROOT / "benchmarks" / "seed001" / f"{name}.toml"
        spec = load_study(spec_path)
        problem = problem_of(spec, name, fold=0)
        ev = problem.evaluator
        shape = f"{ev.n_samples} x {problem.n_var}"
        for h, t_before, t_now, same in time_updates(ev._q_t, np.random.default_rng(0),
                                                     args.repeats, before):
            ok &= same
            update_rows.append([name, shape, str(h), f"{t_before:.1f}", f"{t_now:.1f}",
                                f"{t_before / t_now:.2f}x", "yes" if same else "**no**"])
            print(update_rows[-1], flush=True)
        for algorithm in ([] if args.no_runs else spec.algorithms):
            t_before, t_now, same, n_eval = time_run(trees, spec_path, name, algorithm.label,
                                                      args.generations, args.repeats)
            ok &= same
            run_rows.append([name, algorithm.label, str(n_eval), f"{t_before:.2f}",
                             f"{t_now:.2f}", f"{t_before / t_now:.2f}x",
                             "yes" if same else "**no**"])
            print(run_rows[-1], flush=True)
    ended = datetime.datetime.now(datetime.timezone.utc)
    text = "\n".join([
        "", MARKER, "",
        f"`python benchmarks/fitb_update.py --before {args.before} --datasets {args.datasets} "
        f"--generations {args.generations} --repeats {args.repeats}` on "
        f"{started:%Y-%m-%d} ({started:%H:%M}-{ended:%H:%M} UTC; {cpu_name()}, one evaluator "
        f"thread; load average {load_start:.1f} at the start, {os.getloadavg()[0]:.1f} at "
        f"the end, 2 cores shared). `before`: {args.before}; `now`: this checkout "
        f"({_revision()}). Each "
        f"dataset's S001 problem of outer fold 0 "
        f"(`benchmarks/seed001/<dataset>.toml`).",
        "",
        "Microseconds per update of a half mask's matrix by h columns (`update_matrix` of "
        f"each revision in this process; minimum of {args.repeats} rounds); `same`: equal "
        "matrices.",
        "",
        markdown_table(["dataset", "n_train x D", "h", "before us", "now us", "ratio", "same"],
                       update_rows),
        "",
        f"Wall seconds of {args.generations} generations (seed 0, cache emptied, after a "
        f"2-generation warm-up; a fresh process per run, median of {args.repeats}, the two "
        f"revisions alternated: {args.before} from a git worktree); `same`: equal objective, "
        "mask and evaluations.",
        "",
        markdown_table(["dataset", "algorithm", "evaluations", "before s", "now s", "ratio",
                        "same"], run_rows),
        ""])
    print(text)
    if args.write:
        write_section(MARKER, text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
