"""Speed of KNNEvaluator against the plain scikit-learn loop, measured in one run.

Usage::

    python benchmarks/evaluator.py                  # print the report
    python benchmarks/evaluator.py --write          # also write benchmarks/RESULTS.md

Datasets come from ``PYMOO_FS_DATA`` (default ``../shared/datasets``): musk1, sonar, isolet
(1560 x 617), mfeat (2000 x 649) and srbct (83 x 2308), plus ``heavy``, the heavy-tailed
reproduction of the evaluator issue (450 x 100, rows scaled over five orders of magnitude, then
min-max scaled; used whole, as in the issue). Each shared dataset is split 70/30 (stratified,
seed 0) and min-max scaled on the training part; everything runs on the training part with
KNN-5 and 10-fold stratified CV (srbct: 5-fold, its smallest class has 8 training samples).

Cases, each timed as evaluations per second for the scikit-learn loop
(``cross_val_score(KNeighborsClassifier(5), X[:, m], y, cv=ev.folds).mean()`` per mask, library
defaults) and for the evaluator (cache off, kernels compiled before timing):

a. 30 random masks with ~50 % of the features, scored as one batch;
b. the same with ~10 %;
c. all single-feature flips of one ~50 % mask (``score_flips``); the scikit-learn loop scores a
   sample of the flipped masks;
d. leave-one-out on ~50 % masks (scikit-learn scores a few masks: it refits n times per mask).

The evaluator runs with its defaults (``precision="auto"``: float32 Gram products, moved to
float64 for good on data where float32's rounding band keeps sending rows to a float64
re-measurement; the ``precision`` column says which was in use when timed, after the untimed
warm-up batch). Cases a and d are also timed with ``precision="float64"`` (rows marked
float64), the default before ``"auto"``, which is as exact (checked the same way). The evaluator's kept Gram matrices are
dropped (``clear_cache``) before every timed repetition, so no case is answered from a matrix
kept from the previous repetition; ``uncertified`` is the fraction of rows the rounding bound
could not certify (settled by the exact path).

With ``--all`` the report ends with one table over every shared dataset: 30 random masks of
about 50 % of the features (at most 200 features), KNN-5 (fewer where a class is small),
evaluator masks/s, the scikit-learn loop on a few of the masks, the ratio and the uncertified
fraction.

Each timing is the median of ``--repeats`` runs (at least 3). The scores of every mask the
scikit-learn loop scored are compared with the evaluator's for equality. For the large cases the
report also gives the fraction of the machine's matrix-multiply throughput the evaluator reaches:
the float64 GEMM rate is measured in the same run (2 threads, 2000 x 2000), and the evaluator's
rate is counted as the work of a plain GEMM of the selected columns, 2 * n_train^2 * |S| flops
per mask.
"""

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np
import sklearn
from sklearn.model_selection import cross_val_score
from sklearn.neighbors import KNeighborsClassifier
from threadpoolctl import threadpool_limits

from _results import cpu_name

import pymoo_fs
from pymoo_fs.datasets import holdout_split, load_dataset, make_heavy_tailed
from pymoo_fs.evaluation import KNNEvaluator

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DATA = ROOT.parent / "shared" / "datasets"
DATASETS = {"musk1": 10, "sonar": 10, "heavy": 10, "isolet": 10, "mfeat": 10, "srbct": 5}
#: datasets with n_train >= 1,000 (the 70 % part): their rows of cases a and b get GEMM % and SYRK %
LARGE = ("isolet", "mfeat", "gas6", "splice", "coil20", "semeion")


def load_split(name, data_dir):
    """The 70 % training part of a shared dataset; all 450 rows of the heavy-tailed one."""
    if name == "heavy":
        from types import SimpleNamespace

        X, y = make_heavy_tailed()  # the reproduction: min-max scaled, used whole
        return SimpleNamespace(X_train=X, y_train=y)
    return holdout_split(load_dataset(name, data_dir=data_dir), test_size=0.3,
                            random_state=0)


def timed(fn, value=False):
    start = time.perf_counter()
    out = fn()
    seconds = time.perf_counter() - start
    return (out, seconds) if value else seconds


def median_time(fn, repeats):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def sklearn_scores(X, y, masks, folds):
    return np.array([
        cross_val_score(KNeighborsClassifier(n_neighbors=5), X[:, m], y, cv=folds).mean()
        for m in masks
    ])


def settle():
    """Let OpenBLAS's worker threads go to sleep before an evaluator timing.

    After a threaded BLAS call (numpy's GEMM, scikit-learn's distance chunks) OpenBLAS's workers
    keep spinning for about 0.1 s and take a core from the evaluator's threads: measured on
    musk1, the eight batches of 30 masks right after the GEMM-rate measurement took 0.31-1.07
    ms per mask against 0.20 ms afterwards.
    """
    time.sleep(0.3)


def gemm_rate(repeats):
    a = np.random.default_rng(0).random((2000, 2000))
    a @ a
    return 2 * 2000**3 / median_time(lambda: a @ a, repeats)


def random_masks(rng, n, d, density):
    masks = rng.random((n, d)) < density
    masks[:, 0] |= ~masks.any(axis=1)
    return masks


def bench_case(name, case, ev, X, y, masks_ev, masks_sk, run_ev, repeats, gemm, sk=None):
    """Time one case; returns a result row (dict). ``sk``: scikit-learn timings of the same
    masks from the previous row (the float32 rows reuse those of their float64 row)."""
    n_ev = masks_ev.shape[0]

    def fresh():
        ev.clear_cache()  # no kept matrix from the previous repetition
        return run_ev()

    fresh()  # compile / warm up
    settle()
    before = ev._settler.n_uncertified
    # the two sides in separate phases: a scikit-learn call right before a timed evaluator call
    # slowed that call by up to 2x (srbct, 30 masks: 3,283 against 6,871 masks/s back to back),
    # OpenBLAS's workers still spinning after scikit-learn's threaded BLAS calls (see settle),
    # not the evaluator; until 2026-11-24 the default rows were timed that way and the option
    # rows not
    ev_times = [timed(fresh) for _ in range(repeats)]
    if sk is None:
        sk_times, sk1_times = [], []
        for _ in range(repeats):
            scores_sk, t = timed(lambda: sklearn_scores(X, y, masks_sk, ev.folds), value=True)
            sk_times.append(t)
            with threadpool_limits(1, user_api="openmp"):
                sk1_times.append(timed(lambda: sklearn_scores(X, y, masks_sk, ev.folds)))
    else:
        scores_sk, sk_times, sk1_times = sk
    t_ev = float(np.median(ev_times)) / n_ev
    unc = (ev._settler.n_uncertified - before) / (repeats * n_ev * ev._layout.rows.size)
    scores_ev = fresh()
    t_sk = float(np.median(sk_times)) / masks_sk.shape[0]
    t_sk1 = float(np.median(sk1_times)) / masks_sk.shape[0]
    # the masks scikit-learn scored are the first rows of the evaluator's
    exact = bool(np.array_equal(scores_ev[: masks_sk.shape[0]], scores_sk))
    row = dict(dataset=name, case=case, n=X.shape[0], d=X.shape[1],
               size=float(masks_ev.sum(axis=1).mean()), n_ev=n_ev, n_sk=masks_sk.shape[0],
               sk_rate=1 / t_sk, ev_rate=1 / t_ev, ratio=t_sk / t_ev, exact=exact,
               gemm_fraction=None, uncertified=unc, ratio1=t_sk1 / t_ev,
               precision=ev.gram_precision,
               sk=(scores_sk, sk_times, sk1_times))
    row["syrk_fraction"] = None
    if name in LARGE and case.startswith(("a", "b")):
        flops = 2.0 * X.shape[0] ** 2 * row["size"]
        row["gemm_fraction"] = flops / t_ev / gemm
        row["syrk_fraction"] = syrk_seconds(X, masks_ev, ev.gram_precision, repeats) / t_ev
    return row


def syrk_seconds(X, masks, precision, repeats):
    """Seconds per mask of a bare BLAS SYRK (``X[:, m] X[:, m]^T``, the lower triangle) of
    each mask's columns, in ``precision``, with BLAS's default threads: the Gram product alone,
    without the gather of the columns (not timed) nor anything the evaluator does besides."""
    from scipy.linalg import blas

    dtype, syrk = (np.float32, blas.ssyrk) if precision == "float32" else (np.float64,
                                                                           blas.dsyrk)
    parts = [np.asfortranarray(X[:, m], dtype=dtype) for m in masks]
    syrk(1.0, parts[0], lower=1)  # warm up
    settle()
    return median_time(lambda: [syrk(1.0, a, lower=1) for a in parts], repeats) / len(parts)


def run(datasets, repeats, data_dir, loo_max_n=10**9):
    gemm = gemm_rate(repeats)
    rows = []
    for name in datasets:
        split = load_split(name, data_dir)
        X, y = split.X_train, split.y_train
        cv = DATASETS.get(name, 10)
        ev = KNNEvaluator(X, y, n_neighbors=5, cv=cv, random_state=0, cache_size=0)
        D = X.shape[1]
        rng = np.random.default_rng(1)
        n_sk = 10 if X.shape[0] < 600 else 5
        ev64 = KNNEvaluator(X, y, n_neighbors=5, cv=cv, random_state=0, cache_size=0,
                            precision="float64")
        for case, density in (("a: 50% features", 0.5), ("b: 10% features", 0.1)):
            masks = random_masks(rng, 30, D, density)
            rows.append(bench_case(name, case, ev, X, y, masks, masks[:n_sk],
                                   lambda m=masks, e=ev: e.score(m), repeats, gemm))
            _report_row(rows[-1])
            if case.startswith("a"):
                rows.append(bench_case(name, case + " (float64)", ev64, X, y, masks,
                                       masks[:n_sk], lambda m=masks, e=ev64: e.score(m), repeats,
                                       gemm, sk=rows[-1]["sk"]))
                _report_row(rows[-1])
        base = random_masks(rng, 1, D, 0.5)[0]
        flipped = np.repeat(base[None, :], D, axis=0)
        flipped[np.arange(D), np.arange(D)] ^= True
        order = rng.permutation(D)
        flipped, feats = flipped[order], order  # sample for scikit-learn = first rows
        rows.append(bench_case(name, "c: all single flips", ev, X, y, flipped,
                               flipped[: min(n_sk, 20)],
                               lambda e=ev, b=base, f=feats: e.score_flips(b, f), repeats,
                               gemm))
        _report_row(rows[-1])
        masks = random_masks(rng, 30, D, 0.5)
        n_loo = max(1, min(2, 3000 // X.shape[0]))
        if X.shape[0] > loo_max_n:
            continue  # scikit-learn refits n_train times per mask: minutes on a busy machine
        sk = None
        for precision in ("auto", "float64"):
            loo = KNNEvaluator(X, y, n_neighbors=5, cv="loo", cache_size=0, precision=precision)
            label = "d: leave-one-out, 50%" + (" (float64)" if precision == "float64" else "")
            rows.append(bench_case(name, label, loo, X, y, masks, masks[:n_loo],
                                   lambda m=masks, e=loo: e.score(m), repeats, gemm, sk=sk))
            sk = rows[-1]["sk"]
            _report_row(rows[-1])
    return gemm, rows


def run_all(repeats, data_dir):
    """One row per shared dataset: 30 random ~50 % masks (at most 200 features)."""
    from pymoo_fs.datasets import list_datasets

    rows = []
    for name in list_datasets(data_dir):
        split = load_split(name, data_dir)
        X, y = split.X_train, split.y_train
        counts = np.bincount(y)
        cv = int(min(10, counts[counts > 0].min()))
        if cv < 2:  # a class with one training sample (9_tumors, lymphoma): leave-one-out
            cv, k = "loo", 5
        else:
            k = min(5, cv)
        ev = KNNEvaluator(X, y, n_neighbors=k, cv=cv, random_state=0, cache_size=0)
        D = X.shape[1]
        rng = np.random.default_rng(2)
        masks = random_masks(rng, 30, D, min(0.5, 200 / D))
        n_sk = 5 if X.shape[0] < 1000 else 2

        def fresh():
            ev.clear_cache()
            return ev.score(masks)

        fresh()
        settle()
        before = ev._settler.n_uncertified
        t_ev = median_time(fresh, repeats) / masks.shape[0]
        rows = repeats * masks.shape[0] * ev._layout.rows.size
        unc = (ev._settler.n_uncertified - before) / rows
        scores = fresh()
        def loop():
            return np.array([cross_val_score(KNeighborsClassifier(k), ev.X[:, m], y,
                                             cv=ev.folds).mean() for m in masks[:n_sk]])

        ref, t_sk = timed(loop, value=True)
        with threadpool_limits(1, user_api="openmp"):
            t_sk1 = timed(loop)
        t_sk, t_sk1 = t_sk / n_sk, t_sk1 / n_sk
        row = dict(dataset=name, n=X.shape[0], d=D, cv=cv, k=k,
                   size=float(masks.sum(axis=1).mean()), ev_rate=1 / t_ev, sk_rate=1 / t_sk,
                   ratio=t_sk / t_ev, ratio1=t_sk1 / t_ev, uncertified=unc, n_sk=n_sk,
                   precision=ev.gram_precision,
                   exact=bool(np.array_equal(scores[:n_sk], ref)))
        rows.append(row)
        print(f"{name:18s} {X.shape[0]:5d}x{D:<6d} {row['ev_rate']:9.1f}/s  ratio "
              f"{row['ratio']:7.1f}x ({row['ratio1']:.1f}x vs 1 thread)  uncertified "
              f"{100 * unc:.3f}%  exact={row['exact']}", flush=True)
    return rows


def markdown_all(rows):
    lines = ["", "### Every shared dataset", "",
             "30 random masks of about 50 % of the features (at most 200), KNN-5 (k = cv where "
             "a class has fewer than 5 training samples), stratified cv = min(10, smallest "
             "class; leave-one-out, `loo`, where a class has a single training sample); "
             "scikit-learn timed once on the first 5 masks (2 on n_train >= 1000), with "
             "its default threads and with one OpenMP thread; the evaluator's time is the "
             "median of the repeats. "
             "`uncertified`: fraction of rows the rounding bound left open (settled by the "
             "exact path); `precision`: the Gram products' precision the defaults "
             "(`precision=\"auto\"`) used when timed.", "",
             "| dataset | n_train x D | cv, k | mean \\|S\\| | evaluator masks/s | "
             "scikit-learn masks/s | ratio | ratio vs 1 thread | uncertified | exact | "
             "precision |",
             "|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['dataset']} | {r['n']}x{r['d']} | {r['cv']}, {r['k']} | "
                     f"{r['size']:.0f} | {r['ev_rate']:.1f} | {r['sk_rate']:.2f} | "
                     f"{r['ratio']:.0f}x | {r['ratio1']:.0f}x | {100 * r['uncertified']:.3f}% | "
                     f"{'yes' if r['exact'] else 'NO'} | {r['precision']} |")
    return "\n".join(lines) + "\n"


def _report_row(r):
    frac = "" if r["gemm_fraction"] is None else (
        f", {100 * r['gemm_fraction']:.0f}% of GEMM, {100 * r['syrk_fraction']:.0f}% of SYRK")
    print(f"{r['dataset']:7s} {r['case']:24s} sklearn {r['sk_rate']:10.1f}/s  evaluator "
          f"{r['ev_rate']:10.1f}/s  ratio {r['ratio']:8.1f}x ({r['ratio1']:.1f}x vs 1 thread)  "
          f"exact={r['exact']}{frac}  "
          f"uncertified {100 * r['uncertified']:.3f}%  {r['precision']}", flush=True)


def markdown(gemm, rows, repeats, seconds):
    import numba
    import threadpoolctl

    blas = ", ".join(f"{i['internal_api']} {i['version']} ({i['num_threads']} threads)"
                     for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas")
    cpu = cpu_name()
    lines = [
        "# Evaluator benchmark",
        "",
        f"Written by `python benchmarks/evaluator.py --write` on "
        f"{datetime.date.today().isoformat()}.",
        "",
        f"- Machine: {cpu}, {os.cpu_count()} cores; Python {platform.python_version()}; "
        f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, numba "
        f"{numba.__version__}, pymoo-fs {pymoo_fs.__version__}; BLAS: {blas}.",
        f"- Measured float64 matrix-multiply rate (2000 x 2000 GEMM, 2 threads): "
        f"{gemm / 1e9:.1f} GFLOP/s.",
        f"- Each time is the median of {repeats} repeats; whole run {seconds:.0f} s.",
        "- KNN-5, 10-fold stratified CV on the 70 % training part (srbct: 5-fold), min-max "
        "scaled; scikit-learn loop = `cross_val_score(KNeighborsClassifier(5), X[:, m], y, "
        "cv=ev.folds).mean()` with library defaults; evaluator cache off.",
        "- `exact`: the scores of every mask the scikit-learn loop timed equal the evaluator's.",
        "- `ratio vs 1 thread`: against the same loop with scikit-learn's OpenMP held to one "
        "thread (threadpoolctl); on a loaded machine its two OpenMP threads wait on each other "
        "and the default loop slows down far more than the evaluator does.",
        "- The evaluator's kept Gram matrices are dropped before every timed repetition; "
        "`uncertified`: rows the rounding bound left open (settled by the exact path).",
        "- The evaluator's repetitions run back to back, then the scikit-learn loop's (a "
        "scikit-learn call right before a timed evaluator call slowed that call by up to 2x; "
        "before 2026-11-24 the first row of each case was timed that way, the option rows "
        "not), and each evaluator timing starts 0.3 s after the last BLAS call: OpenBLAS's "
        "workers spin for about 0.1 s after a threaded call and slowed the next evaluator "
        "batches up to 2x (the first case after the GEMM-rate measurement, before "
        "2026-11-24 20:40 UTC).",
        "- `precision`: the Gram products' precision in use when timed (the default "
        "`precision=\"auto\"` starts in float32 and moves to float64 for good during the "
        "untimed warm-up on data where float32's band keeps needing float64).",
        "- `GEMM %`: evaluator evaluations/s times 2 n_train^2 |S| flops (a plain GEMM of the "
        "selected columns), over the measured GEMM rate. `SYRK %`: the seconds per mask of a "
        "bare BLAS SYRK of the same masks' columns (the Gram product alone, lower triangle, in "
        "the row's precision, BLAS's default threads, measured in the same run) over the "
        "evaluator's seconds per mask: 100 % would be an evaluator that costs no more than "
        "its Gram product. Both only on datasets with n_train >= 1,000, cases a and b.",
        "",
        "| dataset (n_train x D) | case | mean \\|S\\| | scikit-learn eval/s | evaluator eval/s "
        "| ratio | ratio vs 1 thread | exact | GEMM % | SYRK % | uncertified | precision |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        frac = "" if r["gemm_fraction"] is None else (
            f"{100 * r['gemm_fraction']:.0f}% | {100 * r['syrk_fraction']:.0f}%")
        frac = frac or " | "
        lines.append(
            f"| {r['dataset']} ({r['n']}x{r['d']}) | {r['case']} | {r['size']:.0f} | "
            f"{r['sk_rate']:.1f} (n={r['n_sk']}) | {r['ev_rate']:.1f} (n={r['n_ev']}) | "
            f"{r['ratio']:.0f}x | {r['ratio1']:.0f}x | {'yes' if r['exact'] else 'NO'} | {frac} | "
            f"{100 * r['uncertified']:.3f}% | {r['precision']} |"
        )
    lines += ["", "Targets of the evaluator issue (rows with the defaults; float64 rows for "
              "comparison):", ""]
    lines += [f"- {t}" for t in targets(rows)]
    return "\n".join(lines) + "\n"


def targets(rows):
    """Each target of the evaluator issues with the measured value and whether it is met."""

    def find(dataset, case):
        return next((r for r in rows if r["dataset"] == dataset and r["case"] == case), None)

    def line(label, r, goal):
        if r is None:
            return None
        return (f"{label}: {r['ratio']:.0f}x (goal {goal}x), "
                f"{'met' if r['ratio'] >= goal else 'NOT met'}")

    out = [line("musk1 batch, 50 % of features", find("musk1", "a: 50% features"), 100),
           line("heavy-tailed reproduction, 50 % of features",
                find("heavy", "a: 50% features"), 30),
           line("leave-one-out on sonar", find("sonar", "d: leave-one-out, 50%"), 3000)]
    for r in rows:
        if r["case"] == "c: all single flips":
            out.append(line(f"single flips on {r['dataset']}", r, 500))
    out.append("scores exact in every case: " + ("yes" if all(r["exact"] for r in rows)
                                                  else "NO"))
    return [o for o in out if o]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", default=",".join(DATASETS))
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--write", action="store_true", help="write benchmarks/RESULTS.md")
    parser.add_argument("--loo-max-n", type=int, default=10**9,
                        help="skip case d on training sets larger than this")
    parser.add_argument("--all", action="store_true",
                        help="also the table over every shared dataset")
    parser.add_argument("--out", default=str(ROOT / "benchmarks" / "RESULTS.md"))
    args = parser.parse_args(argv)
    if args.repeats < 3:
        parser.error("--repeats must be at least 3")
    data_dir = os.environ.get("PYMOO_FS_DATA", str(DEFAULT_DATA))
    start = time.perf_counter()
    gemm, rows = run(args.datasets.split(","), args.repeats, data_dir, args.loo_max_n)
    all_rows = run_all(args.repeats, data_dir) if args.all else []
    text = markdown(gemm, rows, args.repeats, time.perf_counter() - start)
    if all_rows:
        text += markdown_all(all_rows)
    print()
    print(text)
    if args.write:
        out = Path(args.out)
        previous = out.read_text() if out.exists() else ""
        # keep the sections written by compare_cli.py and by hand (from the first "## ")
        start = previous.find("\n## ")
        tail = previous[start:] if start != -1 else ""
        out.write_text(text + tail)
        print(f"wrote {out}")
    return 0 if all(r["exact"] for r in rows + all_rows) else 1


if __name__ == "__main__":
    sys.exit(main())
