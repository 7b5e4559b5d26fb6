"""Start-up: a fresh process, from nothing to its first score (issue 22, item 4).

Usage::

    PYMOO_FS_DATA=/work/shared/datasets python benchmarks/startup.py             # ~5 min
    PYMOO_FS_DATA=/work/shared/datasets python benchmarks/startup.py \\
        --base /tmp/wt_startup_base                                  # before and after
    python benchmarks/startup.py --repeats 1 --cases floor,numba,evaluator     # smoke test

Every case runs in a fresh interpreter (``sys.executable``; the console script for the
``--help`` cases), ``--repeats`` times; the table gives the median wall time the parent
measured around the subprocess (interpreter start included) and the median CPU time of the
child (user + system, from ``getrusage``; on a loaded machine the steadier of the two, as
long as start-up is one thread's work, which it is up to the first score). Cases:

* ``floor``: ``import sklearn.model_selection`` alone, the floor pymoo-fs does not own
  (``import sklearn`` alone imports scipy.stats and pandas already);
* ``numba``: ``import numba`` alone;
* ``evaluator``: ``import pymoo_fs.evaluation``;
* ``first sonar`` / ``first isolet``: import, ``load_dataset``, ``KNNEvaluator(X, y)``
  (KNN-5, 10 folds) and the first ``score`` of one mask of half the features (every other
  one: the Gram path); ``first isolet 5f``: the same with a mask of 5 features (the tree path
  and its self-check against scikit-learn);
* ``help`` / ``compare help``: ``pymoo-fs --help`` and ``pymoo-fs compare --help``;
* ``loky x2``: ``joblib.Parallel(n_jobs=2, backend="loky")`` of two first sonar scores from a
  parent that imported pymoo-fs: wall time of the call (the workers are started by it); each
  worker also reports its own share (below); ``loky selector x2``: the same, each worker
  importing :mod:`pymoo_fs.selector` first (what a ``GridSearchCV`` worker over the selector
  unpickles).

**Own share** = the case's median minus the floor's median of the same tree in the same run.
For the first scores each child also reports its phases (``perf_counter`` inside the child):
scikit-learn's import (``sklearn.model_selection`` and ``sklearn.neighbors``: imported first,
so that they are not counted as ours), pymoo-fs's import, the load, the construction and the
first score; their medians are listed under the table. A loky worker reports the same phases
(scikit-learn imported first, as a ``GridSearchCV`` worker has it): its ``ours`` is what a
worker pays for pymoo-fs.

``--base DIR``: also measure another checkout of pymoo-fs (e.g. ``git worktree add
/tmp/wt_startup_base HEAD`` before a change), through ``PYTHONPATH=DIR`` with this same
interpreter; each child checks that ``pymoo_fs.__file__`` lies in the tree it is meant to
measure. Base and current runs alternate within each repeat, so that a change of the machine's
load reaches both alike. An untimed warm-up run of every case and tree comes first (numba's
disk cache loaded or written, files in the page cache).

Nothing here is a speed claim unless the machine was idle: the output records the load
average (``os.getloadavg``) before and after.
"""

import argparse
import datetime
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _results import cpu_name

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "datasets"

#: child code: import, load, construct, score; prints its phases as JSON (last line)
FIRST_SCORE = """
import json, sys, time
clock = lambda: (time.perf_counter(), time.process_time())
t0 = clock()
import sklearn.model_selection, sklearn.neighbors
t1 = clock()
import numpy as np
import pymoo_fs
from pymoo_fs.datasets import load_dataset
from pymoo_fs.evaluation import KNNEvaluator
t2 = clock()
data = load_dataset(NAME)
t3 = clock()
ev = KNNEvaluator(data.X, data.y, n_neighbors=5, cv=10, random_state=0)
t4 = clock()
mask = np.zeros(data.n_features, dtype=bool)
if SIZE:
    mask[:SIZE] = True
else:
    mask[::2] = True
score = float(ev.score(mask)[0])
t5 = clock()
out = {"file": pymoo_fs.__file__, "score": score}
for i, unit in enumerate(("", "cpu_")):
    out.update({unit + "sklearn": t1[i] - t0[i], unit + "import": t2[i] - t1[i],
                unit + "load": t3[i] - t2[i], unit + "construct": t4[i] - t3[i],
                unit + "score_s": t5[i] - t4[i], unit + "ours": t5[i] - t1[i]})
print(json.dumps(out))
"""

#: the loky case: two first scores in two fresh workers
LOKY = """
import json, os, time
import pymoo_fs
from joblib import Parallel, delayed

def first_score(name):
    import time
    t0, c0 = time.perf_counter(), time.process_time()
    import sklearn.model_selection, sklearn.neighbors
    t1, c1 = time.perf_counter(), time.process_time()
    import numpy as np
    import pymoo_fs
    IMPORT
    from pymoo_fs.datasets import load_dataset
    from pymoo_fs.evaluation import KNNEvaluator
    t2 = time.perf_counter()
    data = load_dataset(name)
    ev = KNNEvaluator(data.X, data.y, n_neighbors=5, cv=10, random_state=0)
    mask = np.zeros(data.n_features, dtype=bool)
    mask[::2] = True
    score = float(ev.score(mask)[0])
    t3, c3 = time.perf_counter(), time.process_time()
    return {"file": pymoo_fs.__file__, "pid": os.getpid(), "score": score,
            "sklearn": t1 - t0, "import": t2 - t1, "ours": t3 - t1,
            "cpu_sklearn": c1 - c0, "cpu_ours": c3 - c1}

start = time.perf_counter()
parts = Parallel(n_jobs=2, backend="loky")(delayed(first_score)("sonar") for _ in range(2))
wall = time.perf_counter() - start
assert len({p["pid"] for p in parts}) == 2, "both scores ran in one worker"
print(json.dumps({"file": pymoo_fs.__file__, "wall": wall, "workers": parts}))
"""

CASES = {
    "floor": "import sklearn.model_selection",
    "numba": "import numba",
    "evaluator": ("import json, pymoo_fs, pymoo_fs.evaluation; "
                  "print(json.dumps({'file': pymoo_fs.__file__}))"),
    "first sonar": FIRST_SCORE.replace("NAME", "'sonar'").replace("SIZE", "0"),
    "first isolet": FIRST_SCORE.replace("NAME", "'isolet'").replace("SIZE", "0"),
    "first isolet 5f": FIRST_SCORE.replace("NAME", "'isolet'").replace("SIZE", "5"),
    "help": ["--help"],
    "compare help": ["compare", "--help"],
    "loky x2": LOKY.replace("IMPORT", "pass"),
    "loky selector x2": LOKY.replace("IMPORT", "import pymoo_fs.selector"),
}
#: cases that do not import scikit-learn: no own share against its floor
NO_FLOOR = ("floor", "numba", "help", "compare help")
#: cases whose child prints the file of the pymoo_fs it imported
CHECKED = ("evaluator", "first sonar", "first isolet", "first isolet 5f", "loky x2",
           "loky selector x2")


def console_script():
    """The ``pymoo-fs`` console script beside this interpreter (else on the PATH)."""
    here = Path(sys.executable).with_name("pymoo-fs")
    return str(here) if here.exists() else shutil.which("pymoo-fs")


def run_case(case, tree, env):
    """Wall seconds of one fresh run of ``case``, its CPU seconds (user + system, the child
    and the descendants it waited for) and what the child printed (JSON or None).

    Raises
    ------
    RuntimeError
        If the child fails, or imported a pymoo_fs outside ``tree``.
    """
    what = CASES[case]
    argv = ([sys.executable, console_script(), *what] if isinstance(what, list)
            else [sys.executable, "-c", what])
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd="/")
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - usage.ru_utime) + (after.ru_stime - usage.ru_stime)
    if done.returncode != 0:
        raise RuntimeError(f"{case} ({tree}) failed:\n{done.stderr[-3000:]}")
    out = None
    if case in CHECKED:
        out = json.loads(done.stdout.strip().splitlines()[-1])
        files = [out["file"]] + [w["file"] for w in out.get("workers", [])]
        for f in files:
            if not Path(f).resolve().is_relative_to(Path(tree).resolve()):
                raise RuntimeError(f"{case}: imported pymoo_fs from {f}, not from {tree}")
    return wall, cpu, out


def environment(tree, data_dir):
    env = dict(os.environ, PYMOO_FS_DATA=str(data_dir))
    env["PYTHONPATH"] = str(tree) + (os.pathsep + env["PYTHONPATH"]
                                     if env.get("PYTHONPATH") else "")
    env.pop("PYTHONWARNINGS", None)
    return env


def measure(trees, cases, repeats, data_dir):
    """``{tree: {case: [(wall, child output), ...]}}``, trees alternating in each repeat."""
    envs = {t: environment(t, data_dir) for t in trees}
    for tree in trees:  # warm-up (kernels loaded or compiled, page cache)
        for case in cases:
            run_case(case, tree, envs[tree])
    runs = {t: {c: [] for c in cases} for t in trees}
    for r in range(repeats):
        for case in cases:
            for tree in (trees if r % 2 == 0 else trees[::-1]):
                runs[tree][case].append(run_case(case, tree, envs[tree]))
        print(f"repeat {r + 1}/{repeats} done, load average {os.getloadavg()[0]:.2f}",
              file=sys.stderr, flush=True)
    return runs


def _median(values):
    return statistics.median(values) if values else float("nan")


def table(runs, tree, cases):
    """Markdown table of one tree's medians, own shares and the children's phases."""
    def med(case, i):
        return _median([run[i] for run in runs[tree].get(case, [])])

    has_floor = "floor" in cases
    lines = ["| case | wall s | own wall s | CPU s | own CPU s | wall runs s |",
             "|---|---|---|---|---|---|"]
    for case in cases:
        wall, cpu = med(case, 0), med(case, 1)
        if case in NO_FLOOR or not has_floor:
            own_wall = own_cpu = "-"
        else:
            own_wall, own_cpu = f"{wall - med('floor', 0):.2f}", f"{cpu - med('floor', 1):.2f}"
        runs_s = ", ".join(f"{run[0]:.2f}" for run in runs[tree][case])
        lines.append(f"| {case} | {wall:.2f} | {own_wall} | {cpu:.2f} | {own_cpu} | {runs_s} |")
    phases = []
    for case in cases:
        outs = [run[2] for run in runs[tree][case] if run[2]]
        if case.startswith("first"):
            def part(key):
                return (f"{_median([o[key] for o in outs]):.2f}/"
                        f"{_median([o['cpu_' + key] for o in outs]):.2f}")
            phases.append(
                f"- {case} (inside the child, median wall/CPU s): scikit-learn import "
                f"{part('sklearn')}; then ours {part('ours')} = pymoo-fs import "
                f"{part('import')} + load {part('load')} + construct {part('construct')} + "
                f"first score {part('score_s')} (score {outs[0]['score']:.6f})")
        elif case.startswith("loky"):
            workers = [w for o in outs for w in o["workers"]]

            def part(key):
                return (f"{_median([w[key] for w in workers]):.2f}/"
                        f"{_median([w['cpu_' + key] for w in workers]):.2f}")
            phases.append(
                f"- {case} (per worker, medians of {len(workers)}, wall/CPU s): scikit-learn "
                f"import {part('sklearn')}, ours {part('ours')} (of which pymoo-fs import "
                f"{_median([w['import'] for w in workers]):.2f} wall)")
    return "\n".join(lines + [""] + phases)


def markdown(runs, trees, labels, cases, argv, repeats, seconds, loads):
    import numpy as np
    import sklearn

    try:
        import numba
        numba_version = numba.__version__
    except ImportError:  # pragma: no cover - numba is a dependency
        numba_version = "?"
    cpu = cpu_name()
    lines = [
        "# Start-up to the first score (issue 22, item 4)",
        "",
        f"Written by `python benchmarks/startup.py {' '.join(argv)}` on "
        f"{datetime.date.today().isoformat()}; whole run {seconds:.0f} s.",
        "",
        f"- Machine: {cpu}, {os.cpu_count()} cores; Python {platform.python_version()}; "
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, numba {numba_version}.",
        f"- Load average (1 min) {loads[0]:.2f} before, {loads[1]:.2f} after.",
        f"- Fresh interpreter per run; median of {repeats} runs after a warm-up; own share = "
        "median minus the floor (`import sklearn.model_selection`) of the same tree; CPU = "
        "user + system seconds of the child process (its waited-for descendants included), "
        "steadier than wall time on a loaded machine.",
        "",
    ]
    for tree, label in zip(trees, labels):
        lines += [f"## {label}: `{tree}`", "", table(runs, tree, cases), ""]
    return "\n".join(lines)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per case (median)")
    parser.add_argument("--cases", default=",".join(CASES),
                        help="comma-separated cases (default: %(default)s)")
    parser.add_argument("--base", type=Path,
                        help="also measure this checkout of pymoo-fs (before a change)")
    parser.add_argument("--output", type=Path, help="also write the Markdown report here")
    args = parser.parse_args(argv)
    cases = [c.strip() for c in args.cases.split(",")]
    unknown = [c for c in cases if c not in CASES]
    if unknown:
        parser.error(f"unknown case(s) {unknown}; choose from {list(CASES)}")
    data_dir = Path(os.environ.get("PYMOO_FS_DATA", DEFAULT_DATA))
    trees, labels = [ROOT], ["current"]
    if args.base is not None:
        trees, labels = [args.base.resolve(), ROOT], ["base", "current"]
    before = os.getloadavg()[0]
    start = time.perf_counter()
    runs = measure(trees, cases, max(1, args.repeats), data_dir)
    seconds = time.perf_counter() - start
    report = markdown(runs, trees, labels, cases, argv, max(1, args.repeats), seconds,
                      (before, os.getloadavg()[0]))
    print(report)
    if args.output is not None:
        args.output.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
