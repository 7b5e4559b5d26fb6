"""The result store of a study: one file per finished run, written atomically.

Layout of a study directory::

    study.json                                   the spec the study was made with
    runs/<dataset>/<algorithm>/run-000_fold-00.json
    timing/<dataset>/<algorithm>/run-000_fold-00.json
    reference/<dataset>_fold-00.json             all-features scores of each split
    provenance.json                              who ran it: one entry per session

A run file holds everything the run computed: the masks (as selected feature indices), their
objectives and scores on training (inner CV) and test data, the evaluations counted by pymoo,
computed by the evaluator and answered from its cache, the per-generation trace, and the run's
seed and configuration. Its content depends only on the spec and the run's identity, so a study
resumed after a kill, or run with any number of workers, writes byte-identical run files. The
wall-clock seconds of a run, which differ from one execution to the next, are kept beside it in
``timing/``, and the versions, machine and date of each session that ran runs in
``provenance.json``.

A run file is trusted only after it is verified (:meth:`ResultStore.damaged`): it must parse as
a JSON object holding :data:`RUN_KEYS`, with the identity of the run it is named after. A
truncated or corrupt file (a disk that filled up, a copy cut short, an edit by hand) is redone by
the next session of the study, which says so, naming the file; the report refuses it, naming the
file, rather than reading it.
"""

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from pymoo_fs._files import read_json, sweep_temporaries, write_json_atomic

__all__ = ["REFERENCE_KEYS", "RUN_KEYS", "RunKey", "ResultStore", "StoreFileError",
           "read_json", "write_json_atomic"]

#: keys every run file holds (what the report and the comparison read)
RUN_KEYS = ("dataset", "algorithm", "run", "fold", "features", "F_train", "F_test",
            "score_train", "score_test", "n_eval", "trace")
#: the name of a run file, ``run-RRR_fold-FF.json``
_RUN_FILE = re.compile(r"run-(\d+)_fold-(\d+)\.json")
#: keys every reference file holds
REFERENCE_KEYS = ("dataset", "fold", "n_features", "n_train", "n_test", "score_train",
                  "score_test")


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_index(i, width):
    return (isinstance(i, int) and not isinstance(i, bool) and i >= 0
            and (not isinstance(width, int) or i < width))


class StoreFileError(ValueError):
    """A file of a study directory that cannot be trusted: unreadable, not JSON, or missing
    keys. The message names the file and what is wrong with it.

    Attributes
    ----------
    path : pathlib.Path
        The damaged file.
    reason : str
        What is wrong with it.
    missing : bool
        True for a file that should exist and does not (the message says "is missing").
    """

    def __init__(self, path, reason, missing=False):
        self.path = Path(path)
        self.reason = reason
        self.missing = missing
        super().__init__(f"{self.path} is {'missing' if missing else 'damaged'}: {reason}")


def read_checked(path, keys=()):
    """The JSON object stored in ``path``, after checking that it holds ``keys``.

    Parameters
    ----------
    path : path-like
    keys : sequence of str, default=()
        Keys the object must hold.

    Returns
    -------
    obj : dict

    Raises
    ------
    StoreFileError
        Naming the file, if it cannot be read, is not UTF-8 JSON (truncated, corrupt), is not a
        JSON object, or lacks one of ``keys``.
    """
    try:
        obj = read_json(path)
    except json.JSONDecodeError as exc:
        raise StoreFileError(path, f"not valid JSON ({exc.msg} at line {exc.lineno}, column "
                                   f"{exc.colno}: truncated or corrupt)") from None
    except UnicodeDecodeError as exc:
        raise StoreFileError(path, f"not UTF-8 text (byte {exc.start})") from None
    except OSError as exc:
        raise StoreFileError(path, f"cannot be read ({exc.strerror or exc})") from None
    if not isinstance(obj, dict):
        raise StoreFileError(path, f"holds a JSON {type(obj).__name__}, not an object")
    missing = [k for k in keys if k not in obj]
    if missing:
        raise StoreFileError(path, f"lacks the key(s) {', '.join(missing)}")
    return obj


@dataclass(frozen=True, order=True)
class RunKey:
    """The identity of one run: dataset, algorithm label, run index, outer fold."""

    dataset: str
    algorithm: str
    run: int
    fold: int = 0

    @property
    def filename(self):
        """str: ``run-RRR_fold-FF.json``."""
        return f"run-{self.run:03d}_fold-{self.fold:02d}.json"

    def __str__(self):
        return f"{self.dataset} {self.algorithm} run {self.run + 1}" + (
            f" fold {self.fold + 1}" if self.fold else "")


class ResultStore:
    """A study directory: its spec, finished runs, timings and per-split references.

    Parameters
    ----------
    directory : path
        Created if missing.

    Raises
    ------
    OSError
        If the directory cannot be created or written (checked at construction by writing and
        removing a probe file, so a study never runs into a store it cannot write).
    """

    def __init__(self, directory):
        self.directory = Path(directory)
        #: the spec the runs are made with, set by :func:`~pymoo_fs.studies.prepare_study`
        self.spec = None
        self.directory.mkdir(parents=True, exist_ok=True)
        probe = self.directory / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        sweep_temporaries(self.directory, recursive=True)  # what a killed session left

    # ------------------------------------------------------------------ spec
    @property
    def spec_path(self):
        """Path: ``study.json``."""
        return self.directory / "study.json"

    def read_spec(self):
        """dict or None: the stored spec.

        Raises
        ------
        StoreFileError
            Naming ``study.json``, if it is not a valid JSON object holding ``algorithms`` (a
            non-empty list of tables with a ``label``), ``datasets`` (a non-empty list of
            str) and ``runs`` (a positive int), with ``protocol`` and ``budget`` tables where
            present.
        """
        if not self.spec_path.exists():
            return None
        spec = read_checked(self.spec_path, ("algorithms", "datasets", "runs"))
        runs, algorithms, datasets = spec["runs"], spec["algorithms"], spec["datasets"]
        if isinstance(runs, bool) or not isinstance(runs, int) or runs < 1:
            raise StoreFileError(self.spec_path, f"its runs is not a positive int ({runs!r})")
        if (not isinstance(algorithms, list) or not algorithms
                or not all(isinstance(a, dict) and isinstance(a.get("label"), str)
                           for a in algorithms)):
            raise StoreFileError(self.spec_path, "its algorithms are not a non-empty list of "
                                                 "tables with a label")
        if (not isinstance(datasets, list) or not datasets
                or not all(isinstance(d, str) for d in datasets)):
            raise StoreFileError(self.spec_path, "its datasets are not a non-empty list of "
                                                 "names")
        for table in ("protocol", "budget"):
            if table in spec and not isinstance(spec[table], dict):
                raise StoreFileError(self.spec_path, f"its {table} is not a table "
                                                     f"({spec[table]!r})")
        return spec

    def write_spec(self, spec_dict):
        """Store the spec (atomically)."""
        write_json_atomic(self.spec_path, spec_dict)

    # ------------------------------------------------------------------ runs
    def run_path(self, key):
        """Path of a run's result file."""
        return self.directory / "runs" / key.dataset / key.algorithm / key.filename

    def timing_path(self, key):
        """Path of a run's timing file."""
        return self.directory / "timing" / key.dataset / key.algorithm / key.filename

    def has(self, key):
        """bool: whether the run finished (its result file exists)."""
        return self.run_path(key).exists()

    def write_run(self, key, record, timing):
        """Store a finished run: its timing first, then its result file (which marks it done).

        Parameters
        ----------
        key : RunKey
        record : dict
            The run's record (:func:`~pymoo_fs.studies.runner.execute_run`).
        timing : float or dict
            The run's wall-clock seconds, or a dict of its timings (``seconds``, and
            ``cpu_seconds`` and ``compile_seconds`` where measured), each rounded to the
            microsecond.
        """
        if not isinstance(timing, dict):
            timing = {"seconds": timing}
        write_json_atomic(self.timing_path(key),
                          {name: round(float(value), 6) for name, value in timing.items()})
        write_json_atomic(self.run_path(key), record)

    def read_run(self, key):
        """dict: a run's record, with ``"seconds"`` (wall-clock, compilation excluded) and
        ``"cpu_seconds"`` added from its timing file (NaN if lost or damaged: the timing is
        not part of the result; ``cpu_seconds`` is NaN too in stores written before it was
        measured).

        Raises
        ------
        StoreFileError
            Naming the run file, if it is damaged (see :meth:`check_run`).
        """
        record = self.check_run(key)
        timing = self.timing_path(key)
        try:
            data = read_checked(timing, ("seconds",))
            seconds = float(data["seconds"])
            cpu = float(data.get("cpu_seconds", float("nan")))
        except (StoreFileError, TypeError, ValueError):
            seconds = cpu = float("nan")
        record["seconds"] = seconds
        record["cpu_seconds"] = cpu
        return record

    def check_run(self, key):
        """A run's record, verified: the file parses, holds :data:`RUN_KEYS` and the identity
        of ``key``.

        Returns
        -------
        record : dict

        Raises
        ------
        StoreFileError
            Naming the file and what is wrong with it.
        """
        path = self.run_path(key)
        record = read_checked(path, RUN_KEYS)
        for field, want in (("dataset", key.dataset), ("algorithm", key.algorithm),
                            ("run", key.run), ("fold", key.fold)):
            if record[field] != want:
                raise StoreFileError(path, f"holds the run of another {field} "
                                           f"({record[field]!r}, expected {want!r})")
        features = record["features"]
        width = record.get("n_features")
        if not isinstance(features, list) or not all(
                isinstance(f, list) and f and all(_is_index(i, width) for i in f)
                for f in features):
            raise StoreFileError(path, "its features are not lists of feature indices"
                                       + (f" in [0, {width})" if _is_index(0, width) else ""))
        n = len(features)
        for field in ("F_train", "F_test", "score_train", "score_test"):
            values = record[field]
            if not isinstance(values, list) or len(values) != n:
                raise StoreFileError(path, f"its {field} does not hold one entry per "
                                           f"solution of 'features'")
            rows = values if field.startswith("F_") else [values]
            if not all(isinstance(row, list) and all(_is_number(v) for v in row)
                       for row in rows):
                raise StoreFileError(path, f"its {field} holds something other than numbers")
        trace = record["trace"]
        if not _is_number(record["n_eval"]) or not isinstance(trace, dict) or not all(
                isinstance(v, list) for v in trace.values()):
            raise StoreFileError(path, "its n_eval or trace is not what a run writes (a number "
                                       "and a table of lists)")
        return record

    def damaged(self, keys=None):
        """The run files that exist but cannot be trusted.

        Parameters
        ----------
        keys : iterable of RunKey, optional
            Runs to verify; default every stored run (:meth:`finished`).

        Returns
        -------
        damaged : list of StoreFileError
            One per damaged file, in the order of ``keys`` (its ``path`` and ``reason``).
        """
        keys = self.finished() if keys is None else [k for k in keys if self.has(k)]
        found = []
        for key in keys:
            try:
                self.check_run(key)
            except StoreFileError as exc:
                found.append(exc)
        return found

    def finished(self):
        """list of RunKey: every stored run, sorted (files under ``runs/`` whose names are not
        ``run-<int>_fold-<int>.json``, such as ``run-old_fold-00.json``, are not runs)."""
        keys = []
        for path in sorted((self.directory / "runs").glob("*/*/run-*_fold-*.json")):
            match = _RUN_FILE.fullmatch(path.name)
            if match is None or not path.is_file():  # a stray file, not a run file's name
                continue
            keys.append(RunKey(path.parent.parent.name, path.parent.name,
                               int(match.group(1)), int(match.group(2))))
        return sorted(keys)

    # ------------------------------------------------------------------ provenance
    @property
    def provenance_path(self):
        """Path: ``provenance.json``."""
        return self.directory / "provenance.json"

    def read_provenance(self):
        """dict or None: ``{"sessions": [session, ...]}``, None if never written.

        Raises
        ------
        StoreFileError
            Naming ``provenance.json``, if it is damaged (not a JSON object with a list of
            ``sessions``).
        """
        if not self.provenance_path.exists():
            return None
        provenance = read_checked(self.provenance_path, ("sessions",))
        if not isinstance(provenance["sessions"], list):
            raise StoreFileError(self.provenance_path, "its sessions are not a list")
        return provenance

    def add_session(self, session):
        """Append a session (a dict of plain values) to ``provenance.json``, atomically.

        A damaged ``provenance.json`` is kept as ``provenance.json.damaged`` (what it held is
        not lost) and a new one is started.

        Returns
        -------
        index : int
            The session's position, for :meth:`update_session`.
        """
        try:
            provenance = self.read_provenance() or {"sessions": []}
        except StoreFileError:
            os.replace(self.provenance_path,
                       self.provenance_path.with_name("provenance.json.damaged"))
            provenance = {"sessions": []}
        provenance["sessions"].append(dict(session))
        write_json_atomic(self.provenance_path, provenance)
        return len(provenance["sessions"]) - 1

    def update_session(self, index, **fields):
        """Set fields of a stored session (e.g. when it finished), atomically."""
        provenance = self.read_provenance()
        provenance["sessions"][index].update(fields)
        write_json_atomic(self.provenance_path, provenance)

    # ------------------------------------------------------------------ references
    def reference_path(self, dataset, fold):
        """Path of a split's reference file."""
        return self.directory / "reference" / f"{dataset}_fold-{fold:02d}.json"

    def write_reference(self, dataset, fold, record):
        """Store a split's reference record (all-features scores, sizes)."""
        write_json_atomic(self.reference_path(dataset, fold), record)

    def read_reference(self, dataset, fold):
        """dict or None (None also for a damaged file, which is then written again).

        Returns
        -------
        record : dict or None
            The split's reference record, or None if the file is missing or damaged (not
            JSON, or lacking one of :data:`REFERENCE_KEYS`).
        """
        path = self.reference_path(dataset, fold)
        if not path.exists():
            return None
        try:
            return read_checked(path, REFERENCE_KEYS)
        except StoreFileError:
            return None
