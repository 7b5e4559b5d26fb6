"""Wall-clock time of one seed-002 PSO run on mfeat, now and with an earlier revision.

Usage::

    python benchmarks/pso_run.py                         # time the working tree
    python benchmarks/pso_run.py --before REV            # also time revision REV
    python benchmarks/pso_run.py --before REV --write    # and write benchmarks/RESULTS.md

The run follows the S002 protocol: a stratified 2/3 training split of mfeat (seed 0, min-max
scaled on the training part), :class:`~pymoo_fs.problems.WeightedFeatureSelection` with
``alpha=1.0`` over 1-NN with 10-fold inner CV, :class:`~pymoo_fs.algorithms.PSO` with 30
particles for 51 generations (``seed=2``). The kernels are compiled and warmed up before the
timed run. An earlier revision is checked out into a temporary git worktree and timed in its own
process with the same script; both runs' best masks and fitness must be identical. Each side is
timed ``--repeats`` times (median), the two sides interleaved so that load from other processes
falls on both.
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

from _results import write_section

ROOT = Path(__file__).resolve().parents[1]
MARKER = "## Seed-002 PSO run on mfeat"


def run_once(data_dir, dataset, n_gen, seed):
    """One timed run in this process; returns a dict (seconds, fitness, mask, n_eval)."""
    import numpy as np
    from pymoo.optimize import minimize

    from pymoo_fs.algorithms import PSO
    from pymoo_fs.datasets import load_dataset
    from pymoo_fs.problems import WeightedFeatureSelection

    try:
        from pymoo_fs.datasets import holdout_split
    except ImportError:  # a revision before d67bec5 (--before): the same function's old name
        from pymoo_fs.datasets import train_test_split as holdout_split

    split = holdout_split(load_dataset(dataset, data_dir=data_dir), test_size=1 / 3,
                             random_state=0)
    problem = WeightedFeatureSelection.from_data(split.X_train, split.y_train, alpha=1.0,
                                                 n_neighbors=1, cv=10, random_state=0)
    ev = problem.evaluator
    warm = np.random.default_rng(0).random((4, problem.n_var)) < 0.5
    ev.score(warm)  # compile (or load) the kernels
    ev.score_flips(warm[0], [0, 1])
    ev.clear_cache()
    start = time.perf_counter()
    res = minimize(problem, PSO(pop_size=30), ("n_gen", n_gen), seed=seed)
    seconds = time.perf_counter() - start
    mask = np.asarray(res.X, dtype=bool).ravel()
    return dict(seconds=seconds, fitness=float(np.ravel(res.F)[0]),
                mask=np.flatnonzero(mask).tolist(), n_eval=int(res.algorithm.evaluator.n_eval))


def _seconds(runs):
    return ", ".join(f"{r['seconds']:.1f}" for r in runs)


def time_in(tree, args):
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", "--dataset", args.dataset,
           "--n-gen", str(args.n_gen), "--seed", str(args.seed)]
    out = subprocess.run(cmd, cwd=tree, env=env, check=True, capture_output=True, text=True)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"{tree}: {result['seconds']:.1f} s, fitness {result['fitness']:.6f}", file=sys.stderr,
          flush=True)
    return result


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", help="git revision to compare with")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--dataset", default="mfeat")
    parser.add_argument("--n-gen", type=int, default=51)
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--write", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    data_dir = os.environ.get("PYMOO_FS_DATA", str(ROOT.parent / "shared" / "datasets"))
    if args.child:
        print(json.dumps(run_once(data_dir, args.dataset, args.n_gen, args.seed)))
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        tree = None
        if args.before:
            tree = Path(tmp) / "before-tree"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.before],
                           cwd=ROOT, check=True, capture_output=True)
        try:
            now, before = [], []
            for _ in range(args.repeats):
                if tree is not None:
                    before.append(time_in(tree, args))
                now.append(time_in(ROOT, args))
        finally:
            if tree is not None:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                               capture_output=True)
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                          capture_output=True, text=True).stdout.strip()
    med = lambda runs: sorted(r["seconds"] for r in runs)[len(runs) // 2]  # noqa: E731
    lines = [f"- working tree (HEAD {head}): {med(now):.1f} s "
             f"(runs: {_seconds(now)}); best fitness "
             f"{now[0]['fitness']:.6f} with {len(now[0]['mask'])} features, "
             f"{now[0]['n_eval']} evaluations"]
    same = True
    if before:
        same = all(r["mask"] == now[0]["mask"] and r["fitness"] == now[0]["fitness"]
                   for r in before + now)
        lines.insert(0, f"- revision {args.before}: {med(before):.1f} s (runs: "
                        f"{_seconds(before)})")
        lines.append(f"- speed-up: {med(before) / med(now):.1f}x; identical best mask and "
                     f"fitness: {'yes' if same else 'NO'}")
    text = "\n".join([
        "", MARKER, "",
        f"`python benchmarks/pso_run.py --before {args.before} --repeats {args.repeats}` on "
        f"{datetime.date.today().isoformat()}: {args.dataset}, 2/3 training split, "
        f"`WeightedFeatureSelection(alpha=1.0)` over 1-NN with 10-fold CV, `PSO(pop_size=30)` "
        f"for {args.n_gen} generations, seed {args.seed}; kernels compiled before timing; "
        f"median of {args.repeats}, the two sides interleaved.", "", *lines, ""])
    print(text)
    if args.write:
        write_section(MARKER, text)
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
