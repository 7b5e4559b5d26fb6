"""Seconds of one AMSO run on srbct under the seed-001 protocol (the paper: 2.0 min, 121.2 s).

Run: ``python benchmarks/amso_srbct.py [--repeats 3] [--write]`` (about a minute per repeat on
a quiet 2-core machine). The problem is the S001 study's first outer fold of srbct (seed 1:
the split, scaling, FIT-B folds and SU ranking of ``benchmarks/seed001/srbct.toml``); AMSO
runs with that study's settings (100 iterations, w = 0.9) and seeds 0, 1, ...; the cache is
emptied before each run. Reported: median wall-clock and CPU seconds, evaluations, selected
features and test accuracy, with the load average (the machine may be shared), and, measured
in the same run, FIT-B's compiled incremental evaluator against the plain-numpy statement of
what it computes, on a random walk of masks like the local search's. ``--write`` replaces the
section of ``benchmarks/RESULTS.md`` that this script writes.
"""

import argparse
import datetime
import os
import time
from pathlib import Path

import numpy as np
from pymoo.optimize import minimize

from pymoo_fs.algorithms import AMSO
from pymoo_fs.evaluation import _fitb_reference as reference
from pymoo_fs.studies import load_study
from pymoo_fs.studies.runner import problem_of

ROOT = Path(__file__).resolve().parents[1]
MARKER = "## AMSO on srbct (seed 001)"


def _walk(D, rng, n=200, start=0.05, flips=10):
    masks = [rng.random(D) < start]
    for _ in range(n - 1):
        m = masks[-1].copy()
        m[rng.choice(D, flips, replace=False)] ^= True
        masks.append(m if m.any() else masks[-1])
    return np.array(masks)


def evaluator_ratio(problem, rng):
    """Seconds per mask: the compiled evaluator (cache off) vs the plain-numpy statement."""
    ev = problem.evaluator
    masks = _walk(problem.n_var, rng)
    ev.clear_cache()
    size, ev.cache_size = ev.cache_size, 0
    start = time.perf_counter()
    scores = [ev.score(m)[0] for m in masks]
    fast = (time.perf_counter() - start) / len(masks)
    ev.cache_size = size
    Q = ev._q_t.T
    start = time.perf_counter()
    plain = [reference.fitness(Q, m, ev.y, ev.fold_of, ev.step, ev.mu, ev.balanced_accuracy,
                               ev.distance) for m in masks[:40]]
    slow = (time.perf_counter() - start) / 40
    assert np.array_equal(scores[:40], plain), "the evaluator differs from the reference"
    return fast, slow, float(masks.sum(axis=1).mean())


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    spec = load_study(ROOT / "benchmarks" / "seed001" / "srbct.toml")
    problem = problem_of(spec, "srbct", fold=0)
    params = next(a.params for a in spec.algorithms if a.label == "AMSO")
    load_before = os.getloadavg()
    minimize(problem, AMSO(**{**params, "ls_iterations": 2}), ("n_gen", 3), seed=99)  # warm-up
    rows = []
    for seed in range(args.repeats):
        problem.evaluator.clear_cache()
        wall, cpu = time.perf_counter(), time.process_time()
        res = minimize(problem, AMSO(**params), spec.budget.termination, seed=seed)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        test = problem.evaluator.holdout_score(res.X, problem.X_test, problem.y_test)[0]
        rows.append((wall, cpu, res.algorithm.evaluator.n_eval, int(res.X.sum()), test))
        particles = res.algorithm.n_particles_
        print(f"seed {seed}: {wall:.1f} s wall, {cpu:.1f} s CPU, {rows[-1][2]} evaluations, "
              f"{rows[-1][3]} features, test accuracy {test:.4f}", flush=True)
    fast, slow, size = evaluator_ratio(problem, np.random.default_rng(0))
    load_after = os.getloadavg()
    wall, cpu, n_eval = (float(np.median([r[i] for r in rows])) for i in range(3))
    text = "\n".join([
        "", MARKER, "",
        f"`python benchmarks/amso_srbct.py --repeats {args.repeats}` on "
        f"{datetime.date.today().isoformat()}: one AMSO run (S001 protocol, first outer fold of "
        f"srbct: {problem.evaluator.n_samples} training instances x {problem.n_var} features; "
        f"the settings of `benchmarks/seed001/srbct.toml`: {particles} particles in 13 "
        f"subswarms, 100 iterations, local search of 100 tries), cache emptied before each "
        f"run, median of "
        f"{args.repeats} seeds. Load average {load_before[0]:.1f} before, {load_after[0]:.1f} "
        f"after (2 cores, shared).",
        "",
        f"- one run: **{wall:.1f} s wall-clock, {cpu:.1f} s CPU** for {n_eval:.0f} FIT-B "
        f"evaluations ({n_eval / cpu:.0f} per CPU second, local search included); the paper "
        f"reports 2.0 min (121.2 s) per run on its machine.",
        f"- selected features {np.median([r[3] for r in rows]):.0f}, test accuracy "
        f"{np.median([r[4] for r in rows]):.4f} (median; the 10 x 10-fold study is in "
        f"`benchmarks/seed001.md`).",
        f"- FIT-B evaluator on a random walk of 200 masks (10 flips per step, {size:.0f} "
        f"features on average, cache off): {1e3 * fast:.2f} ms per mask, against "
        f"{1e3 * slow:.1f} ms for the plain-numpy statement (`_fitb_reference.fitness`, same "
        f"scores): {slow / fast:.0f}x.",
        ""])
    print(text)
    if args.write:
        path = ROOT / "benchmarks" / "RESULTS.md"
        body = path.read_text() if path.exists() else ""
        rest = ""
        if MARKER in body:  # replace this section only; keep any section after it
            start = body.index(MARKER)
            after = body.find("\n## ", start + len(MARKER))
            rest = body[after:] if after != -1 else ""
            body = body[:start].rstrip("\n") + "\n"
        path.write_text(body + text + rest)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
