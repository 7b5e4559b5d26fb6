"""Running a study: the plan of runs, one run, and the executors (in-process, joblib, Dask).

Every run is independent and identified by (dataset, algorithm label, run index, outer fold);
its seed is ``run_seed(study seed, dataset, label, run, fold)``, so results do not depend on the
number of workers or the order in which runs finish. Finished runs are written to the store as
they arrive; a run already in the store is never recomputed. Each session that runs runs adds
its provenance to the store (:func:`environment`: versions, machine; the date and the spec's
hash), which the report prints.
"""

import datetime
import hashlib
import os
import platform
import shlex
import sys
import time
import warnings
from collections import OrderedDict

import numpy as np
from pymoo.optimize import minimize

from pymoo_fs._signals import workers_stopped_on_term
from pymoo_fs.analysis import hypervolume
from pymoo_fs.compilation import compile_seconds
from pymoo_fs.pareto import dominated_rows
from pymoo_fs.seeds import run_seed
from pymoo_fs.studies.protocols import (dataset_fingerprint, make_problem, outer_splits,
                                        prepare_split)
from pymoo_fs.studies.spec import Protocol, StudySpec, StudySpecError
from pymoo_fs.studies.store import ResultStore, RunKey

__all__ = ["check_study", "environment", "execute_run", "plan_runs", "prepare_study",
           "problem_of", "reference_record", "run_study"]

#: problems kept per process (each holds an evaluator with its training data)
_PROBLEM_CACHE_SIZE = 4
_problems = OrderedDict()


def plan_runs(spec):
    """Every run of a study, in a fixed order (dataset, fold, algorithm, run).

    Parameters
    ----------
    spec : StudySpec

    Returns
    -------
    keys : list of RunKey
        ``RunKey.dataset`` is the dataset's name (:attr:`pymoo_fs.datasets.Dataset.name`).
    """
    keys = []
    for dataset in spec.datasets:
        name = _dataset_name(dataset, spec)
        for fold in range(spec.protocol.n_outer):
            for algorithm in spec.algorithms:
                for run in range(spec.runs):
                    keys.append(RunKey(name, algorithm.label, run, fold))
    return keys


def check_study(spec):
    """Check everything a study needs before its first run.

    Builds every algorithm, loads every dataset, and makes every split and problem, so that an
    unknown parameter, a class too small for the folds, or k larger than a fold fails now.

    Parameters
    ----------
    spec : StudySpec

    Raises
    ------
    StudySpecError
        Naming the algorithm or dataset, or two datasets with the same name.
    """
    spec.validate()
    names = [_dataset_name(d, spec) for d in spec.datasets]
    if len(set(names)) != len(names):
        raise StudySpecError(f"two datasets share a name: {names}")
    for dataset, name in zip(spec.datasets, names):
        try:
            for fold in range(spec.protocol.n_outer):
                _problem(spec, dataset, name, fold, n_threads=None)
        except ValueError as exc:
            raise StudySpecError(f"dataset {dataset!r}: {exc}") from None


def prepare_study(spec, directory, data_change="refuse", say=None):
    """Check a study (:func:`check_study`) and open its store.

    Parameters
    ----------
    spec : StudySpec
    directory : path
        The study directory; created if missing.
    data_change : {"refuse", "new", "moved"}, default="refuse"
        What to do with a dataset that is not the data the stored runs were made on
        (:func:`pymoo_fs.studies.identity.check_data`): refuse it, store it as a new dataset
        (``NAME-2``), or record the new source of the same content.
    say : callable, optional
        Called with one line of text before each split's all-features scores are computed
        (seconds on large data), so a caller can show progress.

    Returns
    -------
    store : ResultStore
        Its attribute ``spec`` is the spec the runs are made with: ``spec``, or with
        ``data_change="new"`` a copy naming the changed datasets anew.

    Raises
    ------
    StudySpecError
        As :func:`check_study`, or for a directory holding a study made with a different spec
        (a changed seed, protocol, budget, or algorithm configuration would mix incompatible
        runs; adding runs, datasets or algorithms is fine), or a dataset whose data (its
        content or the file it is read from) is not what the stored runs were made on
        (:class:`~pymoo_fs.studies.identity.DataChangedError`, naming the dataset, its old and
        new source and what differs).
    OSError
        If the directory cannot be written.

    Notes
    -----
    ``study.json`` holds each dataset's fingerprint under ``"data"``
    (:func:`~pymoo_fs.studies.protocols.data_fingerprint`); a store written before it was
    kept adopts the data found on its first resume, with a warning
    (:mod:`pymoo_fs.studies.identity`).
    """
    from pymoo_fs.studies.identity import check_data

    check_study(spec)
    store = ResultStore(directory)
    stored = store.read_spec()
    if stored is not None:
        _check_compatible(stored, spec.as_dict(), store.directory)
    spec, data = check_data(spec, stored, store, data_change)
    if spec.names:
        check_study(spec)  # datasets stored anew: their splits and problems
    merged = _merged_spec(stored, spec.as_dict())
    merged["data"] = dict(sorted(data.items()))
    store.write_spec(merged)
    store.spec = spec
    for dataset in spec.datasets:
        name = _dataset_name(dataset, spec)
        for fold in range(spec.protocol.n_outer):
            if store.read_reference(name, fold) is None:
                path = store.reference_path(name, fold)
                if path.exists():
                    warnings.warn(f"reference file {path} is damaged (not JSON, or keys "
                                  f"missing): it is computed again", UserWarning, stacklevel=2)
                if say is not None:
                    say(f"preparing the study: all-features scores of {name}, split {fold}")
                store.write_reference(name, fold, reference_record(spec, dataset, fold))
    return store


def execute_run(spec, key, n_threads=None, callback=None):
    """Make one run and return its record and its timing.

    Parameters
    ----------
    spec : StudySpec
    key : RunKey
    n_threads : int, optional
        Threads of the evaluator and of BLAS in this process.
    callback : callable, optional
        Called with the algorithm after each generation (after the trace is recorded); an
        exception it raises (e.g. ``KeyboardInterrupt``) ends the run.

    Returns
    -------
    record : dict
        Plain JSON values: ``features`` (selected indices of every returned mask; for two
        objectives, the returned masks that no other returned mask dominates on the grid of
        :func:`pymoo_fs.pareto.on_grid`, so pymoo's NSGA-II and SPEA2, whose result filter
        compares exact floats, return the same kind of front as the swarms' archives),
        ``F_train``/``F_test`` (objectives on inner CV and on the test part), ``score_train``/
        ``score_test`` (the classifier's score of each mask), ``n_eval`` (pymoo's count),
        ``n_evaluations``/``n_cache_hits`` (the evaluator's), ``n_gen``, ``trace`` (per
        generation: ``n_eval``, ``best`` — the best objective, or the HV of the current front
        for two objectives — and ``n_selected`` — the best's size, or the front's smallest), the
        run's ``seed`` and ``config``.
    timing : dict
        ``seconds``: wall-clock seconds of the optimisation (the evaluator's cache emptied
        first) less the seconds numba spent compiling kernels meanwhile
        (:func:`pymoo_fs.compilation.compile_seconds`: a run that compiles a kernel the
        warm-up did not, such as the flip kernels of a local search, is not charged for it);
        ``cpu_seconds``: CPU seconds of this process over the same time (all its threads),
        less the compilations' CPU seconds; ``compile_seconds``: the wall-clock seconds
        subtracted. Loading a kernel from numba's disk cache is not subtracted (milliseconds).
    """
    from threadpoolctl import threadpool_limits

    algorithm = next(a for a in spec.algorithms if a.label == key.algorithm)
    dataset = next(d for d in spec.datasets if _dataset_name(d, spec) == key.dataset)
    with threadpool_limits(limits=n_threads):
        problem = _problem(spec, dataset, key.dataset, key.fold, n_threads)
        problem.clear_cache()
        computed, hits = problem.evaluation_counts
        seed = run_seed(spec.seed, key.dataset, key.algorithm, key.run, key.fold)
        trace = _Trace(problem.n_obj, callback)
        compiled = compile_seconds()
        start, cpu_start = time.perf_counter(), time.process_time()
        res = minimize(problem, algorithm.make(), spec.budget_of(algorithm).termination,
                       seed=seed, callback=trace, copy_algorithm=False)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu_start
        compile_wall, compile_cpu = (now - before for now, before in zip(compile_seconds(),
                                                                         compiled))
        timing = {"seconds": max(0.0, wall - compile_wall),
                  "cpu_seconds": max(0.0, cpu - compile_cpu),
                  "compile_seconds": compile_wall}
        computed, hits = (now - before for now, before in zip(problem.evaluation_counts,
                                                              (computed, hits)))
        masks = np.atleast_2d(np.asarray(res.X, dtype=bool))
        F_train = np.atleast_2d(res.F)
        if problem.n_obj > 1:  # pymoo's own result filter compares exact floats
            front = ~dominated_rows(F_train)
            masks, F_train = masks[front], F_train[front]
        F_test = problem.holdout_objectives(masks)
        score_train = problem.score(masks)
        score_test = problem.holdout_score(masks)
    record = {
        "dataset": key.dataset, "algorithm": key.algorithm, "run": key.run, "fold": key.fold,
        "seed": seed, "config": _config(spec, algorithm), "n_features": int(problem.n_var),
        "features": [np.flatnonzero(m).tolist() for m in masks],
        "F_train": F_train.tolist(), "F_test": F_test.tolist(),
        "score_train": score_train.tolist(), "score_test": score_test.tolist(),
        "n_eval": int(res.algorithm.evaluator.n_eval), "n_evaluations": int(computed),
        "n_cache_hits": int(hits), "n_gen": int(res.algorithm.n_gen - 1), "trace": trace.data,
        "data_sha256": dataset_fingerprint(spec.load_dataset(dataset))["sha256"],
    }
    return record, timing


def run_study(spec, directory, n_jobs=1, scheduler=None, progress=True, stream=None,
              check=None, data_change="refuse"):
    """Run every run of a study that is not in its store yet.

    Parameters
    ----------
    spec : StudySpec
    directory : path
        The study directory (see :mod:`pymoo_fs.studies.store`); a rerun resumes.
    n_jobs : int, default=1
        Local worker processes (joblib's loky backend); 1 runs in this process, -1 uses every
        core. Each worker's evaluator, numba and BLAS threads are held to ``cores // n_jobs``.
    scheduler : str, optional
        ``"local"`` starts a Dask ``LocalCluster`` of ``n_jobs`` single-threaded worker
        processes; any other value is the address of a running Dask scheduler
        (``tcp://host:8786``), given 10 seconds to answer (a ``ValueError`` naming the
        address if it does not). Needs ``dask.distributed`` (``pip install "pymoo-fs[dask]"``).
    progress : bool, default=True
        A tqdm progress bar over the runs (with an ETA), a line per finished run and, when
        the runs are made in this process and ``stream`` is a terminal, a second bar over the
        current run's budget (its generations, evaluations or seconds, with an ETA).
    stream : file-like, optional
        Where progress goes (default ``sys.stderr``).
    check : callable, optional
        Called with no argument before each run and after each generation (in this process)
        or after each finished run (with workers); an exception it raises (e.g.
        ``KeyboardInterrupt`` for a recorded Ctrl-C) stops the study, and every run stored so
        far stays in the store. The command line uses it to stop at a safe point.
    data_change : {"refuse", "new", "moved"}, default="refuse"
        As :func:`prepare_study`.

    Returns
    -------
    store : ResultStore

    Raises
    ------
    StudySpecError, OSError
        As :func:`prepare_study`, before any run starts (a damaged ``study.json`` is a
        :class:`~pymoo_fs.studies.store.StoreFileError`, a ``ValueError`` naming it).
    KeyboardInterrupt
        When interrupted; every run finished before is in the store.
    ForeignRunError
        (a :class:`StudySpecError`) For a stored run file that is not a run of this study:
        its seed, configuration or data fingerprint is not what the spec gives; the message
        names the file and the field (:mod:`pymoo_fs.studies.identity`). Nothing is run.

    Warns
    -----
    UserWarning
        For each run file of the plan that exists but is damaged (truncated, not JSON, keys
        missing, another run's identity: :meth:`~pymoo_fs.studies.ResultStore.damaged`), or
        holds a value outside its domain (an error outside [0, 1], a selection ratio outside
        (0, 1], a hypervolume above the reference box), naming the file: the run is made
        again and its file rewritten. Likewise for a damaged
        reference file (computed again by :func:`prepare_study`).

    Notes
    -----
    When there are runs to make, a session is added to the store's ``provenance.json``
    (:meth:`~pymoo_fs.studies.ResultStore.add_session`) before the first: ``started`` (UTC,
    ISO 8601), :func:`environment`'s ``versions`` and ``machine``, ``spec_sha256`` (of the
    stored ``study.json``), ``runs_planned``, ``n_jobs``, ``workers`` (the worker processes
    used), ``scheduler``, ``git_commit`` (:func:`git_commit`, where a checkout) and ``command``
    (the process's command line); when the session
    ends, ``finished``, ``runs_computed`` and ``status`` (``"completed"``, ``"interrupted"``
    or ``"failed"``) are added. The run files themselves hold nothing of the session, so they
    stay identical whoever makes them.
    """
    if not isinstance(spec, StudySpec):
        raise TypeError(f"spec must be a StudySpec, got {type(spec).__name__}")
    def say(line):  # the all-features references can take seconds before the first run
        print(line, file=sys.stderr if stream is None else stream, flush=True)

    store = prepare_study(spec, directory, data_change, say=say if progress else None)
    spec = store.spec
    keys = plan_runs(spec)
    damaged = {exc.path: exc for exc in _damaged(store, spec, keys)}
    for exc in damaged.values():  # a truncated or corrupt run file is never trusted: redo it
        warnings.warn(f"run file {exc.path} is damaged ({exc.reason}): the run is made "
                      f"again", UserWarning, stacklevel=2)
    todo = [k for k in keys if not store.has(k) or store.run_path(k) in damaged]
    bar = _Progress(len(keys), len(keys) - len(todo), progress, stream, pending=todo)
    if not todo:
        bar.close()
        return store
    workers = _workers(n_jobs, len(todo))
    bar.workers = workers
    session = store.add_session({
        "started": _now(), **environment(),
        "spec_sha256": hashlib.sha256(store.spec_path.read_bytes()).hexdigest(),
        "runs_planned": len(todo), "n_jobs": n_jobs, "workers": workers,
        "scheduler": scheduler, "git_commit": git_commit(),
        "command": shlex.join(sys.argv) if sys.argv and sys.argv[0] else None})
    check = check if check is not None else (lambda: None)
    computed, status = 0, "failed"
    try:
        for key, record, timing in _executor(spec, todo, n_jobs, scheduler, check, bar):
            store.write_run(key, record, timing)
            computed += 1
            bar.done(key, record, timing["seconds"])
            check()
        status = "completed"
    except KeyboardInterrupt:
        status = "interrupted"
        raise
    finally:
        bar.close()
        store.update_session(session, finished=_now(), runs_computed=computed, status=status)
    return store


def _damaged(store, spec, keys):
    """The stored run files of ``keys`` that are damaged or hold impossible values (to redo);
    a ForeignRunError for one that is a run of another study (refused: nothing is run)."""
    from pymoo_fs.studies.identity import run_file_problems
    from pymoo_fs.studies.store import StoreFileError

    study = store.read_spec()
    found = []
    for key in keys:
        if not store.has(key):
            continue
        reference = store.read_reference(key.dataset, key.fold) or {}
        try:
            run_file_problems(store, study, key, reference.get("n_features"))
        except StoreFileError as exc:
            found.append(exc)
    return found


def git_commit():
    """The commit of the pymoo-fs checkout this code runs from, or None.

    Returns
    -------
    str or None
        The first 12 hexadecimal digits of ``HEAD``, with ``" (with local changes)"`` where
        tracked files differ from it; None for an installed (non-checkout) copy or where git
        cannot be run.
    """
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        sha = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=10, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain",
                                "--untracked-files=no"], capture_output=True, text=True,
                               timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return sha[:12] + (" (with local changes)" if dirty else "")


def environment():
    """The versions and the machine a study runs with (its provenance).

    Returns
    -------
    env : dict
        ``"versions"``: ``{"pymoo-fs", "pymoo", "numpy", "scipy", "scikit-learn", "numba",
        "python"}`` -> version string (``"?"`` where unknown); ``"machine"``: ``"node"`` (host
        name), ``"system"`` (e.g. ``"Linux 6.8.0"``), ``"machine"`` (e.g. ``"x86_64"``),
        ``"processor"`` (the CPU's model name where the system says it), ``"cores"``
        (``os.cpu_count()``).

    Examples
    --------
    >>> from pymoo_fs.studies.runner import environment
    >>> sorted(environment()["versions"])
    ['numba', 'numpy', 'pymoo', 'pymoo-fs', 'python', 'scikit-learn', 'scipy']
    """
    from importlib import metadata

    from pymoo_fs import __version__

    versions = {"pymoo-fs": __version__}
    for name in ("pymoo", "numpy", "scipy", "scikit-learn", "numba"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:  # pragma: no cover - all are dependencies
            versions[name] = "?"
    versions["python"] = platform.python_version()
    machine = {"node": platform.node(), "system": f"{platform.system()} {platform.release()}",
               "machine": platform.machine(), "processor": _processor(),
               "cores": os.cpu_count()}
    return {"versions": versions, "machine": machine}


def _processor():
    """The CPU's model name: /proc/cpuinfo's where there is one, else platform's."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.lower().startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _now():
    return datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")


# ---------------------------------------------------------------------------------- executors
def _executor(spec, keys, n_jobs, scheduler, check, progress=None):
    """Yield ``(key, record, timing)`` as runs finish (:func:`execute_run`)."""
    if not keys:
        return
    workers = _workers(n_jobs, len(keys))
    threads = max(1, (os.cpu_count() or 1) // workers)
    if scheduler is not None:
        with workers_stopped_on_term():  # SIGTERM/SIGHUP: no worker left computing
            yield from _dask(spec, keys, workers, scheduler)
    elif workers == 1:  # in this process, with all its threads
        _warm_up(spec, keys[0])
        for key in keys:
            check()
            if progress is not None:
                progress.start(key)

            def callback(algorithm):
                if progress is not None:
                    progress.step(algorithm)
                check()

            yield (key, *execute_run(spec, key, callback=callback))
    else:
        from joblib import Parallel, delayed, parallel_config

        with parallel_config(backend="loky", inner_max_num_threads=threads), \
                workers_stopped_on_term():
            results = Parallel(n_jobs=workers, return_as="generator_unordered")(
                delayed(_keyed_run)(spec, key, threads) for key in keys)
            yield from results


def _warm_up(spec, key):
    """Compile (or load) the evaluator's batch kernels before the first timed run, so that the
    first run's seconds are not a compilation's: two distinct masks scored as a batch on the
    run's problem (its counters move; runs count from where they are)."""
    dataset = next(d for d in spec.datasets if _dataset_name(d, spec) == key.dataset)
    problem = _problem(spec, dataset, key.dataset, key.fold, n_threads=None)
    masks = np.ones((2, problem.n_var), dtype=bool)
    if problem.n_var > 1:
        masks[0, 0] = masks[1, 1] = False
    problem.score(masks)


def _keyed_run(spec, key, threads):
    return (key, *execute_run(spec, key, n_threads=threads))


def _dask(spec, keys, workers, scheduler):
    try:
        from distributed import Client, LocalCluster, as_completed
    except ImportError:  # pragma: no cover - distributed is a declared extra
        raise RuntimeError('a Dask scheduler needs dask.distributed: pip install '
                           '"pymoo-fs[dask]"') from None
    cluster = None
    if scheduler == "local":
        cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    else:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise ValueError(
                f"cannot reach the Dask scheduler {scheduler!r} ({type(exc).__name__}: "
                f"{exc}); start one (dask scheduler), check the address "
                "(tcp://host:8786), or use scheduler='local'") from None
    try:
        futures = [client.submit(_keyed_run, spec, key, 1, key=f"pymoo-fs-{_key_id(key)}",
                                 pure=False) for key in keys]
        for future in as_completed(futures):
            yield future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _workers(n_jobs, n_tasks):
    cores = os.cpu_count() or 1
    workers = cores if n_jobs == -1 else n_jobs
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ValueError(f"n_jobs must be a positive int or -1, got {n_jobs!r}")
    return max(1, min(workers, n_tasks))


def _key_id(key):
    return f"{key.dataset}-{key.algorithm}-{key.run}-{key.fold}"


# ---------------------------------------------------------------------------------- pieces
def _dataset_name(dataset, spec):
    return spec.dataset_name(dataset)


def _problem(spec, dataset, name, fold, n_threads):
    data = spec.load_dataset(dataset)  # the key holds the data read (an edited file: anew)
    key = (dataset, data, name, spec.protocol, spec.seed, fold, n_threads)
    if key in _problems:
        _problems.move_to_end(key)
        return _problems[key]
    train, test = outer_splits(data.y, spec.protocol, spec.seed, name)[fold]
    try:
        parts = prepare_split(data.X, data.y, train, test, spec.protocol)
    except ValueError as exc:  # a column min-max scaling cannot represent: name the dataset
        raise ValueError(f"dataset {name!r}, split {fold}: {exc}") from None
    problem = make_problem(spec.protocol, *parts, spec.seed, name, fold, n_threads=n_threads)
    _problems[key] = problem
    while len(_problems) > _PROBLEM_CACHE_SIZE:
        _problems.popitem(last=False)
    return problem


def problem_of(spec, dataset, fold=0, n_threads=None):
    """The feature-selection problem of one split of a study (cached in this process).

    Parameters
    ----------
    spec : StudySpec
    dataset : str
        One of ``spec.datasets``.
    fold : int, default=0
        The outer split.
    n_threads : int, optional
        Threads of its evaluator.

    Returns
    -------
    problem : FeatureSelectionProblem
        With the split's test part attached.
    """
    return _problem(spec, dataset, _dataset_name(dataset, spec), fold, n_threads)


def reference_record(spec, dataset, fold=0):
    """All-features scores and sizes of one split.

    Returns
    -------
    record : dict
        ``dataset``, ``fold``, ``n_features``, ``n_train``, ``n_test``, ``classes`` and
        ``score_train``/``score_test``: the classifier's inner-CV and hold-out scores with every
        feature selected.
    """
    name = _dataset_name(dataset, spec)
    problem = _problem(spec, dataset, name, fold, n_threads=None)
    every = np.ones((1, problem.n_var), dtype=bool)
    return {"dataset": name, "fold": fold, "n_features": int(problem.n_var),
            "n_train": int(problem.n_train), "n_test": int(problem.X_test.shape[0]),
            "classes": [str(c) for c in (spec.load_dataset(dataset).classes
                                         if spec.load_dataset(dataset).classes is not None
                                         else [])],
            "score_train": float(problem.score(every)[0]),
            "score_test": float(problem.holdout_score(every)[0])}


def _config(spec, algorithm):
    return {"algorithm": algorithm.name, "params": algorithm.params,
            "budget": spec.budget_of(algorithm).as_dict(), "protocol": spec.protocol.as_dict(),
            "study_seed": spec.seed}


def _check_compatible(stored, current, directory):
    stored = dict(stored)
    if "protocol" in stored:  # a study stored before objectives were objects compares too
        stored["protocol"] = Protocol.from_dict(stored["protocol"]).as_dict()
    for field in ("seed", "protocol", "budget"):
        if stored.get(field) != current.get(field):
            raise StudySpecError(
                f"{directory} holds a study made with a different {field} "
                f"({stored.get(field)!r}, now {current.get(field)!r}); use a new directory")
    stored_targets, targets = stored.get("targets", {}), current.get("targets", {})
    for d in set(stored.get("datasets", [])) & set(current["datasets"]):
        if stored_targets.get(d) != targets.get(d):
            raise StudySpecError(
                f"{directory} holds runs of dataset {d!r} with another class column "
                f"(target {stored_targets.get(d)!r}, now {targets.get(d)!r}); use a new "
                "directory")
    before = {a["label"]: a for a in stored.get("algorithms", [])}
    for a in current["algorithms"]:
        old = before.get(a["label"])
        if old is not None and old != a:
            raise StudySpecError(
                f"{directory} holds runs of algorithm {a['label']!r} with another "
                f"configuration ({old!r}, now {a!r}); use a new label or a new directory")


def _merged_spec(stored, current):
    """The stored spec grown by what the current spec adds (runs, datasets, algorithms)."""
    if stored is None:
        return current
    merged = dict(current)
    merged["runs"] = max(stored.get("runs", 0), current["runs"])
    merged["datasets"] = list(dict.fromkeys(stored.get("datasets", []) + current["datasets"]))
    labels = {a["label"] for a in current["algorithms"]}
    merged["algorithms"] = current["algorithms"] + [a for a in stored.get("algorithms", [])
                                                    if a["label"] not in labels]
    targets = {**stored.get("targets", {}), **current.get("targets", {})}
    if targets:
        merged["targets"] = dict(sorted(targets.items()))
    return merged


class _Trace:
    """pymoo callback: per generation, evaluations, best objective or HV, and subset size."""

    def __init__(self, n_obj, callback=None):
        self.n_obj = n_obj
        self.callback = callback
        self.data = {"n_eval": [], "best": [], "n_selected": []}

    def __call__(self, algorithm):
        opt = algorithm.opt
        F = opt.get("F")
        sizes = opt.get("X").sum(axis=1)
        self.data["n_eval"].append(int(algorithm.evaluator.n_eval))
        if self.n_obj == 1:
            i = int(np.argmin(F[:, 0]))
            self.data["best"].append(float(F[i, 0]))
            self.data["n_selected"].append(int(sizes[i]))
        else:
            self.data["best"].append(hypervolume(F))
            self.data["n_selected"].append(int(sizes.min()))
        if self.callback is not None:
            self.callback(algorithm)


class _Progress:
    """A tqdm bar over the runs, one line per finished run, and a bar over the current run.

    The runs' bar shows its own estimate of the time left (tqdm's rate would count the first
    run's compilation and mix fast and slow algorithms): for each pending run, the mean
    seconds of the finished runs of its algorithm (of all finished runs where none of its
    algorithm has finished), summed and divided by the worker processes."""

    def __init__(self, total, done, enabled, stream, pending=()):
        self.enabled = enabled
        self.stream = sys.stderr if stream is None else stream
        self.total = total
        self.count = done
        self.bar = None
        self.run_bar = None
        self.workers = 1
        self.pending = list(pending)
        self.seconds = {}            # algorithm label -> seconds of its finished runs
        if enabled:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=done, unit="run", file=self.stream,
                            dynamic_ncols=True, desc="runs",
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| {n_fmt}/{total_fmt} "
                                       "[{elapsed}{postfix}]")
            if done:
                self.bar.write(f"{done} of {total} runs already in the store", file=self.stream)

    def start(self, key):
        """A run begins in this process: a bar over its budget (on a terminal only; in a log
        file its redrawings would be noise)."""
        if self.bar is None or not getattr(self.stream, "isatty", lambda: False)():
            return
        from tqdm.auto import tqdm

        self._close_run()
        self.run_bar = tqdm(total=100, desc=f"  {key}", unit="%", file=self.stream,
                            leave=False, position=1, dynamic_ncols=True,
                            bar_format="{desc}: {percentage:3.0f}%|{bar}| "
                                       "{elapsed}<{remaining}{postfix}")

    def step(self, algorithm):
        """After a generation of the current run: its share of the budget, its counts."""
        if self.run_bar is None:
            return
        share = getattr(algorithm.termination, "perc", 0.0) or 0.0
        done = int(round(100 * min(max(float(share), 0.0), 1.0)))
        if done > self.run_bar.n:
            self.run_bar.update(done - self.run_bar.n)
        self.run_bar.set_postfix_str(f"generation {algorithm.n_gen}, "
                                     f"{algorithm.evaluator.n_eval} evaluations")

    def _close_run(self):
        if self.run_bar is not None:
            self.run_bar.close()
            self.run_bar = None

    def left(self):
        """Estimated seconds left (None before any run has finished)."""
        every = [t for times in self.seconds.values() for t in times]
        if not every:
            return None
        overall = sum(every) / len(every)
        total = sum(sum(self.seconds[k.algorithm]) / len(self.seconds[k.algorithm])
                    if self.seconds.get(k.algorithm) else overall for k in self.pending)
        return total / max(1, self.workers)

    def done(self, key, record, seconds):
        self.count += 1
        self._close_run()
        if key in self.pending:
            self.pending.remove(key)
        if seconds == seconds:  # not NaN
            self.seconds.setdefault(key.algorithm, []).append(float(seconds))
        if self.bar is not None:
            left = self.left()
            if left is not None and self.pending:
                self.bar.set_postfix_str(f"about {_duration(left)} left", refresh=False)
            self.bar.write(
                f"[{self.count}/{self.total}] {key}: {_count(len(record['features']), 'solution')}, "
                f"{record['n_eval']} evaluations, {seconds:.1f} s", file=self.stream)
            self.bar.update(1)

    def close(self):
        self._close_run()
        if self.bar is not None:
            self.bar.close()


def _duration(seconds):
    """``"45 s"``, ``"3 min"``, ``"1 h 20 min"``: a rounded duration for the ETA."""
    if seconds < 90:
        return f"{max(1, round(seconds))} s"
    minutes = round(seconds / 60)
    return f"{minutes} min" if minutes < 90 else f"{minutes // 60} h {minutes % 60} min"


def _count(n, noun):
    """``"1 solution"``, ``"2 solutions"``: a count with its noun in the right number."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
