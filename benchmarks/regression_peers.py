"""KNN regression feature selection against peer libraries, in one run: speed as a ratio,
exact scores, and the held-out quality of the selected subsets (issue 44).

Usage::

    python benchmarks/regression_peers.py                      # default budget (420 evaluations)
    python benchmarks/regression_peers.py --pop 10 --gens 5    # a smaller budget
    python benchmarks/regression_peers.py --mafese-python /path/to/venv/bin/python

Peers: sklearn-genetic-opt's ``GAFeatureSelectionCV``, mafese's ``MhaSelector`` (metaheuristic
wrapper, mealpy optimizers) and scikit-learn's ``SequentialFeatureSelector``; pymoo-fs's side
is :func:`pymoo.optimize.minimize` of :class:`~pymoo_fs.problems.FitEFeatureSelection` (the
inner-CV error, equal errors won by fewer features) with ``BPSO`` and ``PSO``
(:func:`~pymoo_fs.algorithms.make_algorithm`) on a
:class:`~pymoo_fs.evaluation.KNNEvaluator` (one thread).

Datasets: ``diabetes`` (442 x 10), ``concrete`` (1,030 x 8) and
``make_relevant_regression(n_samples=300, n_features=60, n_relevant=6, random_state=0)``, each
split 70/30 (shuffled, seed 0) and min-max scaled on the training part, as
``benchmarks/regression.py`` does. Every method selects on the training part with
``KNeighborsRegressor(5)`` scored by ``neg_mean_squared_error`` on the same 10-fold ``KFold``
(shuffled, seed 0) of it.

Budget (``--pop P``, ``--gens G``; defaults 20 and 10): ``GAFeatureSelectionCV(
population_size=P, generations=G)`` (its ``eaMuPlusLambda`` asks for ``P + 2 P G``
evaluations, 420, fewer scored because it caches repeated subsets); pymoo-fs stops after the
generation reaching ``P + 2 P G`` evaluations (pymoo's ``n_eval``, the evaluator's cache
answers repeats); mafese's mealpy optimizers (``OriginalPSO``, ``BaseGA``) run ``2 G`` epochs of
``P`` agents (``P + 2 P G`` objective calls, no cache). ``SequentialFeatureSelector`` adds
``min(5, n_features - 1)`` features (its own budget: ``sum(n_features - i)`` evaluations).

mafese: ``MhaSelector(problem="regression", estimator=KNeighborsRegressor(5),
obj_name="MSE")`` scores a subset on one train/validation split of the data it is given
(``test_size=0.2``, ``random_state=41``) and takes no ``cv``; its ``fit(fs_problem=...)`` hook
accepts a problem of our own, so ``mafese-*-cv`` rows score each subset by
``cross_val_score`` on the shared folds (MSE = minus the mean neg-MSE;
``fit_weights=(1, 0)``: the error alone, as the other methods minimise it), and the
``mafese-PSO-split`` row is mafese's own objective unchanged (its single split, its
``fit_weights=(0.9, 0.1)`` of MSE and feature fraction). mafese needs numpy 1.26 and scipy
1.16 (it would downgrade this environment's), so it may run in a separate environment: the
data and folds go to it as ``.npz`` and the masks come back as JSON; its wall seconds are
measured there, in the same run.

Columns, per dataset and method: ``s`` wall seconds of the selection (imports and compilation
excluded: pymoo-fs's kernels are loaded on other masks first); ``asked`` evaluations the
search asked for; ``scored`` subsets actually cross-validated (cache misses); ``scored/s``;
``ours x`` pymoo-fs BPSO's ``scored/s`` over the row's (how many times faster pymoo-fs scores
a subset); ``cv MSE`` the inner-CV MSE of the selected subset (from a fresh evaluator, cache
off); ``cv=`` whether that equals ``-cross_val_score(...).mean()`` bit for bit; ``peer=``
whether it equals the score the method itself reported for its subset (GA: the hall of
fame's fitness; mafese: ``get_best_information()["obj"]``, for the split row computed by an
evaluator on mafese's split; pymoo-fs: ``res.F`` as ``1 - unit_scores``; ``-``: none
reported), else the relative difference; ``k`` features selected; ``test MSE`` of
``KNeighborsRegressor(5)`` fitted on the training part with those features and
``test=`` whether :meth:`~pymoo_fs.evaluation.KNNEvaluator.holdout_score` gives it exactly;
``rel`` on the synthetic set, relevant features found (of 6). On ``diabetes`` and
``concrete`` an ``exhaustive`` row scores every non-empty subset (1,023 and 255) with the
evaluator, for the lowest inner-CV MSE there is (equal scores: fewest features).

mafese's returned subset is not the one its reported score belongs to: mealpy's
``TransferBinaryVar.decode`` applies the stochastic transfer function again (random draws), so
``obj_func`` scores a random thinning of each agent and ``selected_feature_masks`` is another
draw from the best agent. A ``#`` line under each dataset therefore names the subset mafese
actually scored best, whether the evaluator reproduces mafese's score of it, and how far the
returned subset is from it.

BLAS and OpenMP run on one thread everywhere (threadpoolctl; pymoo-fs's evaluator with
``n_threads=1``): scikit-learn's neighbour search at its default two OpenMP threads, beside
other jobs on a two-core machine, measured 25x slower than at one. Seeds: 0 for every method
(GA: python's and numpy's global RNGs).

Timings are one run each on whatever machine runs this: on a shared machine they are
"measured under shared load"; only the ratios within one run are meaningful.
"""

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time

import numpy as np
import sklearn
from sklearn.metrics import mean_squared_error
from sklearn.model_selection import KFold, cross_val_score, train_test_split
from sklearn.neighbors import KNeighborsRegressor
from threadpoolctl import threadpool_limits

SCORING = "neg_mean_squared_error"
K = 5


# ---------------------------------------------------------------- mafese side (any venv) ---

def _mafese_worker(npz_path, json_path, pop, gens):
    """Run mafese on the data and folds of ``npz_path``; write masks and timings as JSON."""
    import mafese
    from mafese.utils.mealpy_util import FeatureSelectionProblem
    from mafese.wrapper.mha import MhaSelector

    class CVProblem(FeatureSelectionProblem):
        """mafese's problem, scored on the given folds instead of its single split."""

        folds = None
        seen = None

        def obj_func(self, solution):
            x = self.decode_solution(solution)["my_var"]
            cols = np.flatnonzero(x)
            scores = cross_val_score(KNeighborsRegressor(n_neighbors=K), self.data.X[:, cols],
                                     self.data.y, cv=self.folds, scoring=SCORING)
            obj = -scores.mean()
            fitness = (self.fit_weights[0] * obj
                       + self.fit_weights[1] * self.fit_sign * (np.sum(x) / self.n_dims))
            self.seen.append((tuple(int(c) for c in cols), float(fitness), float(obj)))
            return [fitness, obj, np.sum(x)]

    class SplitProblem(FeatureSelectionProblem):
        """mafese's own problem, counting its calls."""

        seen = None

        def obj_func(self, solution):
            # mafese's own objective, with the decoded mask kept (decode_solution draws
            # random numbers, so the mask is decoded once, here, and scored as mafese does)
            x = self.decode_solution(solution)["my_var"]
            cols = np.flatnonzero(x)
            self.estimator.fit(self.data.X_train[:, cols], self.data.y_train)
            pred = self.estimator.predict(self.data.X_test[:, cols])
            obj = self.metric_class(self.data.y_test, pred).get_metric_by_name(
                self.obj_name, paras=self.obj_paras)[self.obj_name]
            fitness = (self.fit_weights[0] * obj
                       + self.fit_weights[1] * self.fit_sign * (np.sum(x) / self.n_dims))
            self.seen.append((tuple(int(c) for c in cols), float(fitness), float(obj)))
            return [fitness, obj, np.sum(x)]

    data = np.load(npz_path)
    out = {"versions": {"mafese": mafese.__version__, "numpy": np.__version__,
                        "scikit-learn": sklearn.__version__,
                        "python": platform.python_version()}, "runs": {}}
    names = [str(n) for n in data["names"]]
    for name in names:
        X, y = data[f"{name}_X"], data[f"{name}_y"]
        fold_of = data[f"{name}_fold"]
        folds = [(np.flatnonzero(fold_of != f), np.flatnonzero(fold_of == f))
                 for f in range(int(fold_of.max()) + 1)]
        for label, optimizer, kind in (("mafese-PSO-cv", "OriginalPSO", "cv"),
                                       ("mafese-GA-cv", "BaseGA", "cv"),
                                       ("mafese-PSO-split", "OriginalPSO", "split")):
            seen = []
            if kind == "cv":
                def make(seen=seen, folds=folds, **kw):
                    prob = CVProblem(**kw)
                    prob.folds, prob.seen = folds, seen
                    return prob
                weights = (1.0, 0.0)
            else:
                def make(seen=seen, **kw):
                    prob = SplitProblem(**kw)
                    prob.seen = seen
                    return prob
                weights = (0.9, 0.1)
            sel = MhaSelector(problem="regression", obj_name="MSE",
                              estimator=KNeighborsRegressor(n_neighbors=K),
                              optimizer=optimizer,
                              optimizer_paras={"epoch": 2 * gens, "pop_size": pop},
                              mode="single", seed=0, verbose=False)
            with threadpool_limits(limits=1):
                t = time.perf_counter()
                sel.fit(X, y, test_size=0.2, fit_weights=weights, fs_problem=make)
                wall = time.perf_counter() - t
            info = sel.get_best_information()
            # the subset mafese scored best (the first call of the lowest fitness): the one
            # its reported objective belongs to
            best = min(range(len(seen)), key=lambda i: seen[i][1])
            scored = np.zeros(X.shape[1], dtype=bool)
            scored[list(seen[best][0])] = True
            out["runs"][f"{name}/{label}"] = {
                "mask": np.asarray(sel.selected_feature_masks, dtype=bool).tolist(),
                "scored_mask": scored.tolist(), "scored_obj": seen[best][2],
                "wall": wall, "asked": len(seen), "scored": len(seen),
                "distinct": len({c for c, _, _ in seen}), "obj": float(info["obj"]),
                "kind": kind}
    with open(json_path, "w") as fh:
        json.dump(out, fh)


# ------------------------------------------------------------------- main side (pymoo-fs) ---

def _data():
    from sklearn.preprocessing import MinMaxScaler

    from pymoo_fs.datasets import load_dataset, make_relevant_regression

    out = {}
    for name in ("diabetes", "concrete"):
        d = load_dataset(name)
        out[name] = (d.X, d.y, None)
    syn = make_relevant_regression(n_samples=300, n_features=60, n_relevant=6, random_state=0)
    out["synthetic"] = (syn.X, syn.y, np.asarray(syn.relevant))
    for name, (X, y, relevant) in out.items():
        tr, te = train_test_split(np.arange(y.size), test_size=0.3, random_state=0)
        scaler = MinMaxScaler().fit(X[tr])
        out[name] = (np.ascontiguousarray(scaler.transform(X[tr])), y[tr],
                     np.ascontiguousarray(scaler.transform(X[te])), y[te], relevant)
    return out


def _pymoo_fs(X, y, folds, name, pop, budget):
    from pymoo.optimize import minimize

    from pymoo_fs.algorithms import make_algorithm
    from pymoo_fs.evaluation import KNNEvaluator
    from pymoo_fs.problems import FitEFeatureSelection

    ev = KNNEvaluator(X, y, n_neighbors=K, cv=folds, scoring=SCORING, n_threads=1)
    problem = FitEFeatureSelection(ev)
    t = time.perf_counter()
    res = minimize(problem, make_algorithm(name, pop_size=pop), ("n_eval", budget), seed=0)
    wall = time.perf_counter() - t
    mask = np.asarray(res.X, dtype=bool).ravel()
    return {"mask": mask, "wall": wall, "asked": int(res.algorithm.evaluator.n_eval),
            "scored": int(ev.n_evaluations), "F": float(np.asarray(res.F).ravel()[0])}


def _ga(X, y, folds, pop, gens):
    from sklearn_genetic import GAFeatureSelectionCV

    random.seed(0)
    np.random.seed(0)
    sel = GAFeatureSelectionCV(KNeighborsRegressor(n_neighbors=K), cv=folds, scoring=SCORING,
                               population_size=pop, generations=gens, n_jobs=None,
                               keep_top_k=1, verbose=False)
    t = time.perf_counter()
    sel.fit(X, y)
    wall = time.perf_counter() - t
    asked = len(sel.logbook.chapters["parameters"])
    return {"mask": np.asarray(sel.best_features_, dtype=bool), "wall": wall, "asked": asked,
            "scored": len(sel.fitness_cache), "score": float(sel.hof[0].fitness.values[0])}


def _exhaustive(X, y, folds):
    """Every non-empty subset scored by a fresh evaluator: the best inner-CV error there is."""
    from pymoo_fs.evaluation import KNNEvaluator

    D = X.shape[1]
    masks = ((np.arange(1, 2 ** D)[:, None] >> np.arange(D)) & 1).astype(bool)
    ev = KNNEvaluator(X, y, n_neighbors=K, cv=folds, scoring=SCORING, n_threads=1)
    t = time.perf_counter()
    scores = ev.score(masks)
    wall = time.perf_counter() - t
    best = np.flatnonzero(scores == scores.max())
    best = best[np.argmin(masks[best].sum(axis=1))]  # equal scores: the fewest features
    return {"mask": masks[best], "wall": wall, "asked": masks.shape[0],
            "scored": int(ev.n_evaluations)}


def _sfs(X, y, folds):
    from sklearn.feature_selection import SequentialFeatureSelector

    D = X.shape[1]
    n_sel = min(5, D - 1)
    sfs = SequentialFeatureSelector(KNeighborsRegressor(n_neighbors=K),
                                    n_features_to_select=n_sel, cv=folds, scoring=SCORING)
    t = time.perf_counter()
    sfs.fit(X, y)
    wall = time.perf_counter() - t
    n = sum(D - i for i in range(n_sel))
    return {"mask": sfs.get_support(), "wall": wall, "asked": n, "scored": n}


def _same(a, b):
    """'=' when bit-equal, else the relative difference."""
    if a == b:
        return "="
    return f"{abs(a - b) / max(abs(a), abs(b)):.1e}"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pop", type=int, default=20, help="population / swarm size (20)")
    parser.add_argument("--gens", type=int, default=10,
                        help="GAFeatureSelectionCV generations (10); sets every budget")
    parser.add_argument("--mafese-python", default=os.environ.get("MAFESE_PYTHON"),
                        help="python of an environment with mafese (default: $MAFESE_PYTHON, "
                             "else this one if mafese imports here, else mafese is skipped)")
    parser.add_argument("--workdir", default=None,
                        help="folder for the .npz/.json exchanged with mafese (default: temp)")
    parser.add_argument("--mafese-worker", nargs=2, metavar=("NPZ", "JSON"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.mafese_worker:
        _mafese_worker(*args.mafese_worker, args.pop, args.gens)
        return 0

    from pymoo_fs.evaluation import KNNEvaluator

    import pymoo_fs
    budget = args.pop + 2 * args.pop * args.gens
    versions = {"python": platform.python_version(), "numpy": np.__version__,
                "scikit-learn": sklearn.__version__}
    try:
        from importlib.metadata import version
        versions["sklearn-genetic-opt"] = version("sklearn-genetic-opt")
    except Exception:
        versions["sklearn-genetic-opt"] = "missing"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, cwd=os.path.dirname(os.path.abspath(__file__))
                                ).stdout.strip()
    except OSError:
        commit = "?"
    mafese_python = args.mafese_python
    if mafese_python is None:
        try:
            import mafese  # noqa: F401
            mafese_python = sys.executable
        except ImportError:
            pass

    data = _data()
    fold_sets = {name: list(KFold(10, shuffle=True, random_state=0).split(d[0]))
                 for name, d in data.items()}

    mafese_runs, mafese_versions = {}, None
    if mafese_python:
        with tempfile.TemporaryDirectory() as tmp:
            work = args.workdir or tmp
            os.makedirs(work, exist_ok=True)
            npz, out = os.path.join(work, "peers_data.npz"), os.path.join(work, "mafese.json")
            arrays = {"names": np.array(list(data))}
            for name, (X, y, *_rest) in data.items():
                fold_of = np.empty(y.size, dtype=np.int64)
                for f, (_, te) in enumerate(fold_sets[name]):
                    fold_of[te] = f
                arrays.update({f"{name}_X": X, f"{name}_y": y, f"{name}_fold": fold_of})
            np.savez(npz, **arrays)
            env = dict(os.environ, PYTHONPATH="")
            subprocess.run([mafese_python, os.path.abspath(__file__), "--pop", str(args.pop),
                            "--gens", str(args.gens), "--mafese-worker", npz, out],
                           check=True, env=env)
            with open(out) as fh:
                got = json.load(fh)
            mafese_runs, mafese_versions = got["runs"], got["versions"]

    print(f"# KNN regression feature selection vs peers: Python {versions['python']}, "
          f"numpy {versions['numpy']}, scikit-learn {versions['scikit-learn']}, "
          f"sklearn-genetic-opt {versions['sklearn-genetic-opt']}, "
          f"pymoo-fs {pymoo_fs.__version__} ({commit})")
    if mafese_versions:
        mv = mafese_versions
        same_env = mafese_python == sys.executable
        print(f"# mafese {mv['mafese']} ({'this environment' if same_env else 'its own environment'}"
              f": numpy {mv['numpy']}, scikit-learn {mv['scikit-learn']}, Python {mv['python']})")
    else:
        print("# mafese: not run (no environment with mafese; see --mafese-python)")
    print(f"# KNN-{K}, 10-fold KFold (shuffled, seed 0) of the 70 % training part, {SCORING}; "
          f"budget {budget} evaluations (pop {args.pop}, {args.gens} GA generations); "
          f"BLAS and OpenMP on one thread; seed 0")
    print("# timings: one run each, measured under shared load unless the machine was idle\n")
    head = (f"{'data':9} {'method':17} {'s':>6} {'asked':>5} {'scored':>6} {'scored/s':>8} "
            f"{'ours x':>7} {'cv MSE':>10} {'cv=':>3} {'peer=':>7} {'k':>3} {'test MSE':>10} "
            f"{'test=':>5} {'rel':>4}")
    print(head)
    with threadpool_limits(limits=1):
        for name, (X, y, Xte, yte, relevant) in data.items():
            folds = fold_sets[name]
            rng = np.random.default_rng(1)
            warm = rng.random((40, X.shape[1])) < 0.5
            warm[:, 0] = True
            KNNEvaluator(X, y, n_neighbors=K, cv=folds, scoring=SCORING,
                         n_threads=1).score(warm)  # load the kernels (not timed)
            rows = {}
            rows["pymoo-fs BPSO"] = _pymoo_fs(X, y, folds, "BPSO", args.pop, budget)
            rows["pymoo-fs PSO"] = _pymoo_fs(X, y, folds, "PSO", args.pop, budget)
            rows["GAFeatureSel.CV"] = _ga(X, y, folds, args.pop, args.gens)
            rows["sklearn SFS-" + str(min(5, X.shape[1] - 1))] = _sfs(X, y, folds)
            for key, run in mafese_runs.items():
                dname, label = key.split("/")
                if dname == name:
                    run = dict(run, mask=np.asarray(run["mask"], dtype=bool))
                    rows[label] = run
            if X.shape[1] <= 12:
                rows["exhaustive"] = _exhaustive(X, y, folds)
            rows["all features"] = {"mask": np.ones(X.shape[1], dtype=bool)}
            ref = KNNEvaluator(X, y, n_neighbors=K, cv=folds, scoring=SCORING, cache_size=0,
                               n_threads=1)
            base_rate = rows["pymoo-fs BPSO"]["scored"] / rows["pymoo-fs BPSO"]["wall"]
            split = train_test_split(np.arange(y.size), test_size=0.2, random_state=41)
            split_ev = KNNEvaluator(X, y, n_neighbors=K, cv=[tuple(split)], scoring=SCORING,
                                    cache_size=0, n_threads=1)
            notes = []
            for method, r in rows.items():
                m = r["mask"]
                if "scored_mask" in r:
                    sm = np.asarray(r["scored_mask"], dtype=bool)
                    e = (ref if r["kind"] == "cv" else split_ev).score(sm[None, :])[0]
                    def show(mask):
                        idx = np.flatnonzero(mask)
                        return str(idx.tolist()) if mask.size <= 10 else f"({idx.size} features)"
                    if np.array_equal(sm, m):
                        returned = "the same"
                    else:
                        returned = f"{show(m)}, {int((sm != m).sum())} features differ"
                    notes.append(
                        f"#   {method}: reported MSE {r['obj']:.4f} is that of the subset it "
                        f"scored best, {show(sm)} (the evaluator on "
                        f"{'the folds' if r['kind'] == 'cv' else 'its split'}: "
                        f"{_same(-float(e), r['obj'])}); returned subset: {returned}")
                ours = float(ref.score(m[None, :])[0])
                sk = float(cross_val_score(KNeighborsRegressor(n_neighbors=K), X[:, m], y,
                                           cv=folds, scoring=SCORING).mean())
                if "score" in r:       # GA: the hall of fame's mean CV score
                    peer = _same(ours, r["score"])
                elif "F" in r:         # pymoo-fs: 1 - unit score of the run's best
                    peer = _same(float(1.0 - ref.unit_scores(np.array([ours]))[0]), r["F"])
                elif r.get("kind") == "cv":
                    peer = _same(-ours, r["obj"])
                elif r.get("kind") == "split":
                    peer = _same(-float(split_ev.score(m[None, :])[0]), r["obj"])
                else:
                    peer = "-"
                model = KNeighborsRegressor(n_neighbors=K).fit(X[:, m], y)
                err = float(mean_squared_error(yte, model.predict(Xte[:, m])))
                hold = float(ref.holdout_score(m[None, :], Xte, yte)[0])
                rel = "" if relevant is None else f"{int(m[relevant].sum())}/{relevant.size}"
                if "wall" in r:
                    rate = r["scored"] / r["wall"]
                    timing = (f"{r['wall']:6.2f} {r['asked']:5d} {r['scored']:6d} {rate:8.1f} "
                              f"{base_rate / rate:6.1f}x")
                else:
                    timing = f"{'':6} {'':5} {'':6} {'':8} {'':7}"
                print(f"{name:9} {method:17} {timing} {-ours:10.4f} "
                      f"{'=' if ours == sk else 'NO':>3} {peer:>7} {int(m.sum()):3d} "
                      f"{err:10.4f} {'=' if hold == -err else 'NO':>5} {rel:>4}")
            for note in notes:
                print(note)
            print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
