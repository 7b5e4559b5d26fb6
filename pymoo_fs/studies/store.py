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
"""

import os
from dataclasses import dataclass
from pathlib import Path

from pymoo_fs._files import read_json, write_json_atomic

__all__ = ["RunKey", "ResultStore", "read_json", "write_json_atomic"]


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
        self.directory.mkdir(parents=True, exist_ok=True)
        probe = self.directory / f".probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()

    # ------------------------------------------------------------------ spec
    @property
    def spec_path(self):
        """Path: ``study.json``."""
        return self.directory / "study.json"

    def read_spec(self):
        """dict or None: the stored spec."""
        return read_json(self.spec_path) if self.spec_path.exists() else None

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

    def write_run(self, key, record, seconds):
        """Store a finished run: its timing first, then its result file (which marks it done)."""
        write_json_atomic(self.timing_path(key), {"seconds": round(float(seconds), 6)})
        write_json_atomic(self.run_path(key), record)

    def read_run(self, key):
        """dict: a run's record, with ``"seconds"`` added from its timing file (NaN if lost)."""
        record = read_json(self.run_path(key))
        timing = self.timing_path(key)
        record["seconds"] = read_json(timing)["seconds"] if timing.exists() else float("nan")
        return record

    def finished(self):
        """list of RunKey: every stored run, sorted."""
        keys = []
        for path in sorted((self.directory / "runs").glob("*/*/run-*_fold-*.json")):
            run, fold = path.stem.split("_")
            keys.append(RunKey(path.parent.parent.name, path.parent.name,
                               int(run.split("-")[1]), int(fold.split("-")[1])))
        return sorted(keys)

    # ------------------------------------------------------------------ provenance
    @property
    def provenance_path(self):
        """Path: ``provenance.json``."""
        return self.directory / "provenance.json"

    def read_provenance(self):
        """dict or None: ``{"sessions": [session, ...]}``, None if never written."""
        return read_json(self.provenance_path) if self.provenance_path.exists() else None

    def add_session(self, session):
        """Append a session (a dict of plain values) to ``provenance.json``, atomically.

        Returns
        -------
        index : int
            The session's position, for :meth:`update_session`.
        """
        provenance = self.read_provenance() or {"sessions": []}
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
        """dict or None."""
        path = self.reference_path(dataset, fold)
        return read_json(path) if path.exists() else None
