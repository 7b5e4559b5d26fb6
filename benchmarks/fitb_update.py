"""FIT-B's distance-matrix update against the kernels of an earlier revision, and whole runs.

Usage::

    python benchmarks/fitb_update.py --before f708a26
    python benchmarks/fitb_update.py --before f708a26 --datasets srbct,brain_tumor1 --generations 11
    python benchmarks/fitb_update.py --before f708a26 --write     # also update RESULTS.md

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
  emptied), once with the earlier revision's ``rebuild`` and once with the current one
  (order alternated over ``--repeats``): wall seconds (median), and the result (objective,
  mask, evaluations), which must be the same.

The script exits 1 if any matrix or result differs. Timings depend on the machine and its
load; the ratios compare two timings of the same process.
"""

import argparse
import datetime
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

import numpy as np
from pymoo.optimize import minimize

from pymoo_fs.evaluation import _fitb_kernels, fitb
from pymoo_fs.studies import load_study
from pymoo_fs.studies.runner import problem_of

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _results import cpu_name, markdown_table, write_section  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
MARKER = "## FIT-B matrix updates (seed 001)"
MOVES = (1, 4, 40, 500)


def load_before(rev):
    """The FIT-B kernels of git revision ``rev``, imported beside the current ones."""
    source = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{rev}:pymoo_fs/evaluation/_fitb_kernels.py"],
        check=True, capture_output=True, text=True).stdout
    folder = Path(tempfile.gettempdir()) / "pymoo_fs_fitb_before" / rev
    folder.mkdir(parents=True, exist_ok=True)  # a fixed path: numba's disk cache applies
    path = folder / "fitb_kernels_before.py"
    if not path.exists() or path.read_text() != source:
        path.write_text(source)
    name = "pymoo_fs.evaluation._fitb_kernels_before"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


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


def time_run(problem, algorithm, generations, repeats, before):
    """``(s before, s now, same, evaluations)``: one run with each revision's ``rebuild``."""
    current = fitb._kernels
    shim = types.SimpleNamespace(**{name: getattr(_fitb_kernels, name)
                                    for name in dir(_fitb_kernels) if not name.startswith("_")})
    shim.rebuild = before.rebuild
    seconds = {"before": [], "now": []}
    outcome = {}
    try:
        for label in ("before", "now"):  # compile or load each revision's kernels first
            fitb._kernels = (lambda: shim) if label == "before" else current
            minimize(problem, algorithm.make(), ("n_gen", 2), seed=99)
        for r in range(repeats):
            order = ("before", "now") if r % 2 == 0 else ("now", "before")
            for label in order:
                fitb._kernels = (lambda: shim) if label == "before" else current
                problem.evaluator.clear_cache()
                count = problem.evaluator.n_evaluations
                start = time.perf_counter()
                res = minimize(problem, algorithm.make(), ("n_gen", generations), seed=0)
                seconds[label].append(time.perf_counter() - start)
                outcome[label] = (float(res.F[0]), np.flatnonzero(res.X).tolist(),
                                  problem.evaluator.n_evaluations - count)
    finally:
        fitb._kernels = current
    return (float(np.median(seconds["before"])), float(np.median(seconds["now"])),
            outcome["before"] == outcome["now"], outcome["now"][2])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="git revision to compare against")
    parser.add_argument("--datasets", default="srbct,9_tumors,brain_tumor1",
                        help="comma-separated names with a spec in benchmarks/seed001/")
    parser.add_argument("--generations", type=int, default=11)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    before = load_before(args.before)
    load_start = os.getloadavg()[0]
    started = datetime.datetime.now(datetime.timezone.utc)
    update_rows, run_rows, ok = [], [], True
    for name in args.datasets.split(","):
        spec = load_study(ROOT / "benchmarks" / "seed001" / f"{name}.toml")
        problem = problem_of(spec, name, fold=0)
        ev = problem.evaluator
        shape = f"{ev.n_samples} x {problem.n_var}"
        for h, t_before, t_now, same in time_updates(ev._q_t, np.random.default_rng(0),
                                                     args.repeats, before):
            ok &= same
            update_rows.append([name, shape, str(h), f"{t_before:.1f}", f"{t_now:.1f}",
                                f"{t_before / t_now:.2f}x", "yes" if same else "**no**"])
            print(update_rows[-1], flush=True)
        for algorithm in spec.algorithms:
            t_before, t_now, same, n_eval = time_run(problem, algorithm, args.generations,
                                                      args.repeats, before)
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
        f"the end, 2 cores shared). `before`: the FIT-B kernels of {args.before}; `now`: this "
        f"checkout's. Each dataset's S001 problem of outer fold 0 "
        f"(`benchmarks/seed001/<dataset>.toml`).",
        "",
        "Microseconds per update of a half mask's matrix by h columns (minimum of "
        f"{args.repeats} rounds); `same`: equal matrices.",
        "",
        markdown_table(["dataset", "n_train x D", "h", "before us", "now us", "ratio", "same"],
                       update_rows),
        "",
        f"Wall seconds of {args.generations} generations (seed 0, cache emptied; median of "
        f"{args.repeats}, the two revisions alternated); `same`: equal objective, mask and "
        "evaluations.",
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
