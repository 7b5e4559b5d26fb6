"""The evaluator on a shared machine: default threads against one thread, under load.

Usage::

    python benchmarks/contention.py                 # print the table
    python benchmarks/contention.py --write         # and write benchmarks/contention.md
    python benchmarks/contention.py --quick         # one repeat, shorter jobs

Four jobs on musk1 (476 x 166, KNN-5, 10-fold inner CV, as issue 40 measured), each timed
inside its own fresh process after its kernels are loaded (compilation and start-up are not
timed):

- ``batch``: 30 batches of 60 random masks (half the features each), the cache emptied
  before each;
- ``flips``: every single flip of 80 random half-full masks (``score_flips``);
- ``mopso``: a MOPSO run (30 particles, 50 generations);
- ``isrpso``: an ISRPSO run (30 particles, 12 generations; its local search flips).

``--quick`` halves each.

Each job runs with three settings: ``default`` (this revision's defaults: numba's fork-safe
threading layer, the default thread count chosen from the cores other processes leave free),
``one`` (``NUMBA_NUM_THREADS=1``, the one-thread figure) and ``before`` (the behaviour before
issue 40: GNU OpenMP layer, ``PYMOO_FS_THREADS`` fixed at the cores), in five situations:

- ``idle``: alone;
- ``busy1``/``busy2``: beside one or two busy processes (a Python loop each);
- ``array2``/``array4``: as 2 or 4 concurrent processes of the same job (a job array); the
  figure is the mean of the processes' times.

The settings are interleaved within each situation, ``--repeats`` times (median), so that what
else the machine does falls on all three. The ratio column is ``default / one``: the target
of issue 40 is at most 1.25 in every row.
"""

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _results import cpu_name, markdown_table

ROOT = Path(__file__).resolve().parents[1]
OUT = Path(__file__).resolve().parent / "contention.md"
JOBS = ("batch", "flips", "mopso", "isrpso")
SETTINGS = {
    "default": {},
    "one": {"NUMBA_NUM_THREADS": "1"},
    "before": {"NUMBA_THREADING_LAYER": "omp", "PYMOO_FS_THREADS": str(os.cpu_count() or 1)},
}
SITUATIONS = ("idle", "busy1", "busy2", "array2", "array4")


def job(name, quick):
    """Run one job in this process; return its seconds (the timed part only)."""
    import numpy as np
    from pymoo.optimize import minimize

    from pymoo_fs.datasets import load_dataset
    from pymoo_fs.problems import BiObjectiveFeatureSelection

    data = load_dataset("musk1")
    problem = BiObjectiveFeatureSelection.from_data(data.X, data.y, cv=10, random_state=0)
    ev = problem.evaluator
    rng = np.random.default_rng(0)
    warm = rng.random((4, data.n_features)) < 0.5
    ev.score(warm)          # load the kernels
    ev.score_flips(warm[0])
    ev.score(warm[:1, :] & (np.arange(data.n_features) < 3))
    ev.clear_cache()
    start = time.perf_counter()
    if name == "batch":
        for _ in range(15 if quick else 30):
            ev.score(rng.random((60, data.n_features)) < 0.5)
            ev.clear_cache()
    elif name == "flips":
        for _ in range(40 if quick else 80):
            ev.score_flips(rng.random(data.n_features) < 0.5)
    elif name == "mopso":
        from pymoo_fs.algorithms import MOPSO

        minimize(problem, MOPSO(pop_size=30), ("n_gen", 25 if quick else 50), seed=1)
    elif name == "isrpso":
        from pymoo_fs.algorithms import ISRPSO

        minimize(problem, ISRPSO(pop_size=30), ("n_gen", 6 if quick else 12), seed=1)
    else:
        raise ValueError(f"unknown job {name!r}")
    return time.perf_counter() - start


def small_work(datasets=("wine", "zoo", "sonar", "ionosphere", "wdbc", "musk1"), repeats=5):
    """Idle-machine rows of the small-work rule: every single flip of a half-full mask with one
    and with two threads (explicit ``n_threads``), per dataset; the rule's work estimate
    (training rows x flips) beside them."""
    import numpy as np

    from pymoo_fs.datasets import load_dataset
    from pymoo_fs.evaluation import KNNEvaluator

    rows = []
    for name in datasets:
        data = load_dataset(name)
        seconds = {}
        for threads in (1, 2):
            ev = KNNEvaluator(data.X, data.y, cv=10, n_threads=threads)
            rng = np.random.default_rng(0)
            ev.score_flips(rng.random(data.n_features) < 0.5)  # load the kernels
            times = []
            for _ in range(repeats):
                base = rng.random(data.n_features) < 0.5
                t = time.perf_counter()
                ev.score_flips(base)
                times.append(time.perf_counter() - t)
            seconds[threads] = statistics.median(times)
        work = data.n_samples * data.n_features
        rows.append([name, f"{data.n_samples} x {data.n_features}", f"{work:,}",
                     f"{seconds[1] * 1e3:.2f}", f"{seconds[2] * 1e3:.2f}",
                     f"{seconds[2] / seconds[1]:.2f}"])
        print(" | ".join(rows[-1]), flush=True)
    return ("dataset", "shape", "work", "1 thread (ms)", "2 threads (ms)", "2 / 1"), rows


def _launch(name, setting, quick):
    env = {**os.environ, **SETTINGS[setting]}
    if setting != "before":
        env.pop("NUMBA_THREADING_LAYER", None)
        env.pop("PYMOO_FS_THREADS", None)
    args = [sys.executable, __file__, "--job", name] + (["--quick"] if quick else [])
    return subprocess.Popen(args, env=env, stdout=subprocess.PIPE, text=True, cwd=ROOT)


def _collect(procs):
    times = []
    for p in procs:
        out, _ = p.communicate(timeout=1800)
        if p.returncode != 0:
            raise RuntimeError(f"a job failed (exit {p.returncode})")
        times.append(float(out.strip().splitlines()[-1]))
    return statistics.mean(times)


def measure(name, setting, situation, quick):
    """Seconds of one job in one situation (a job array's mean)."""
    busy = []
    if situation.startswith("busy"):
        busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
                for _ in range(int(situation[-1]))]
        time.sleep(0.5)
    try:
        n = int(situation[-1]) if situation.startswith("array") else 1
        return _collect([_launch(name, setting, quick) for _ in range(n)])
    finally:
        for p in busy:
            p.kill()
            p.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--job", choices=JOBS, help=argparse.SUPPRESS)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--jobs", nargs="+", choices=JOBS, default=list(JOBS))
    parser.add_argument("--situations", nargs="+", choices=SITUATIONS, default=list(SITUATIONS))
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--small-work", action="store_true",
                        help="only the small-work rows (flips with 1 and 2 threads)")
    args = parser.parse_args()
    if args.job:
        print(job(args.job, args.quick))
        return
    if args.small_work:
        os.environ.setdefault("PYMOO_FS_DATA", str(ROOT.parent / "shared" / "datasets"))
        print(markdown_table(*small_work()))
        return
    os.environ.setdefault("PYMOO_FS_DATA", str(ROOT.parent / "shared" / "datasets"))
    # compile (or load) every kernel once, so that no job of the table compiles
    _collect([_launch(name, "default", True) for name in args.jobs])
    rows, started = [], datetime.datetime.now(datetime.timezone.utc)
    for situation in args.situations:
        for name in args.jobs:
            seen = {s: [] for s in SETTINGS}
            for _ in range(args.repeats):
                for setting in SETTINGS:
                    seen[setting].append(measure(name, setting, situation, args.quick))
            med = {s: statistics.median(v) for s, v in seen.items()}
            row = [situation, name, f"{med['default']:.3f}", f"{med['one']:.3f}",
                   f"{med['before']:.3f}", f"{med['default'] / med['one']:.2f}",
                   f"{med['before'] / med['one']:.2f}"]
            rows.append(row)
            print(" | ".join(row), flush=True)
    header = ("situation", "job", "default (s)", "one thread (s)", "before (s)",
              "default / one", "before / one")
    table = markdown_table(header, rows)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=ROOT).stdout.strip()
    meta = {"started": started.isoformat(timespec="seconds"), "commit": commit,
            "cpu": cpu_name(), "cores": os.cpu_count(), "repeats": args.repeats,
            "quick": args.quick}
    print(table)
    if args.write:
        small = markdown_table(*small_work())
        OUT.write_text("# Contention benchmark (`benchmarks/contention.py`)\n\n"
                       + (__doc__.split("\n\n", 2)[2]) + "\n\n```\n" + json.dumps(meta)
                       + "\n```\n\n" + table + "\n\n## Small work on the idle machine "
                       "(`--small-work`)\n\nEvery single flip of a half-full mask, explicit "
                       "`n_threads` 1 and 2, median of 5 (work: CV rows x flips).\n\n"
                       + small + "\n")
        print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
