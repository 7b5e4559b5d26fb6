"""What makes a study's store evidence: the data its runs were made on, and runs that are its own.

A study records, in ``study.json`` under ``"data"``, each dataset's fingerprint
(:func:`~pymoo_fs.studies.protocols.data_fingerprint`: the SHA-256 of the data as loaded and the
file it was read from), and every run file records the fingerprint's hash (``data_sha256``)
beside the study seed, the run's seed and the algorithm's resolved configuration. Resuming a
study compares the data found now with what is stored (:func:`check_data`) and every stored run
file with what the spec gives (:func:`run_file_problems`), so a store never mixes runs made on
other data, with other seeds or by another configuration, and never holds values no run can
give (an error outside [0, 1], a selection ratio outside (0, 1], a hypervolume above the
reference box).

Stores written before fingerprints were kept (no ``"data"`` in ``study.json``) keep working: on
their first resume the data found then is adopted as the data of the stored runs, with a
``UserWarning`` naming each dataset and its source, and compared from then on; their run files,
which lack ``data_sha256``, are checked on every other field.
"""

import math
import warnings

from pymoo_fs._files import json_text
from pymoo_fs.seeds import run_seed
from pymoo_fs.studies.protocols import dataset_fingerprint
from pymoo_fs.studies.spec import Protocol, StudySpecError

__all__ = ["DATA_CHANGES", "DataChangedError", "ForeignRunError", "check_data",
           "run_file_problems"]

#: what a resume does with a dataset whose data changed: refuse it, store it as a new dataset
#: (``NAME-2``, ...), or accept a new source holding the same content (a moved folder)
DATA_CHANGES = ("refuse", "new", "moved")


class DataChangedError(StudySpecError):
    """A resumed study whose dataset is not the data its stored runs were made on; the message
    names the dataset, the old and new source and what differs, and the fix."""


class ForeignRunError(StudySpecError):
    """A stored run file that is not a run of the study (another seed, configuration or data);
    the message names the file and the field.

    Attributes
    ----------
    path : pathlib.Path
    field : str
    """

    def __init__(self, path, field, message):
        self.path = path
        self.field = field
        super().__init__(message)


def _short(fp):
    return (f"{fp.get('n_samples', '?')} x {fp.get('n_features', '?')}, "
            f"{fp.get('n_classes', '?')} classes, sha256 {str(fp.get('sha256', '?'))[:12]}")


def _difference(old, new):
    """What differs between two fingerprints, in words ("" when nothing does)."""
    parts = []
    if old.get("sha256") != new["sha256"]:
        shape = [f"{k[2:]} {old.get(k)} -> {new[k]}" for k in ("n_samples", "n_features",
                                                               "n_classes")
                 if old.get(k) != new[k]]
        parts.append("the content (" + ("; ".join(shape) if shape else "same shape, other "
                                        "values or labels") + ")")
    if old.get("source") != new["source"]:
        parts.append("the source file")
    return " and ".join(parts)


def _free_name(name, stored_data, fp):
    """The name changed data gets with ``data_change="new"``: the first ``NAME-k`` (k >= 2)
    that holds this very content, else the first free one."""
    k = 2
    while True:
        candidate = f"{name}-{k}"
        held = stored_data.get(candidate)
        if held is None or held.get("sha256") == fp["sha256"]:
            return candidate
        k += 1


def check_data(spec, stored, store, data_change="refuse"):
    """Compare the data a study finds now with what its store was made on.

    Parameters
    ----------
    spec : StudySpec
        The spec being resumed (its datasets loaded).
    stored : dict or None
        ``study.json`` as stored (None for a new study).
    store : ResultStore
    data_change : {"refuse", "new", "moved"}, default="refuse"
        What to do with a dataset whose data is not what its runs were made on: refuse (a
        :class:`DataChangedError`); store the new data as another dataset, ``NAME-2`` (or the
        next free ``NAME-k``; one that already holds this content is used again), made with
        its own splits and runs; or, for the same content read from another file (a moved or
        copied folder, another ``PYMOO_FS_DATA`` or working directory), record the new source
        (a changed content is still refused).

    Returns
    -------
    spec : StudySpec
        ``spec``, or with ``data_change="new"`` a copy whose :attr:`~StudySpec.names` give the
        changed datasets their new names.
    data : dict
        ``{name: fingerprint}`` to store under ``"data"`` in ``study.json``: the stored ones,
        updated by the current ones.

    Raises
    ------
    DataChangedError
        Naming the dataset, its stored and current source and shape, what differs, and the
        fixes.
    ValueError
        For an unknown ``data_change``.

    Warns
    -----
    UserWarning
        For a store without fingerprints (written by an earlier version): the current data is
        adopted as that of its stored runs, naming each dataset and its source; and for a
        source accepted with ``data_change="moved"``.
    """
    from dataclasses import replace

    if data_change not in DATA_CHANGES:
        raise ValueError(f"data_change must be one of {', '.join(DATA_CHANGES)}, got "
                         f"{data_change!r}")
    legacy = stored is not None and "data" not in stored
    stored_data = dict((stored or {}).get("data") or {})
    names = dict(spec.names)
    current = {}
    for dataset in spec.datasets:
        name = spec.dataset_name(dataset)
        fp = dataset_fingerprint(spec.load_dataset(dataset))
        old = stored_data.get(name)
        if old is None:
            if legacy and any(k.dataset == name for k in store.finished()):
                warnings.warn(
                    f"{store.spec_path} holds no data fingerprints (stored by an earlier "
                    f"pymoo-fs): the data of dataset {name!r} read now ({fp['source']}, "
                    f"{_short(fp)}) is recorded as the data of its stored runs; later resumes "
                    "are compared with it", UserWarning, stacklevel=3)
            current[name] = fp
            continue
        differs = _difference(old, fp)
        if not differs:
            current[name] = fp
            continue
        same_content = old.get("sha256") == fp["sha256"]
        if data_change == "moved" and same_content:
            warnings.warn(f"dataset {name!r}: the same data is now read from {fp['source']} "
                          f"(stored: {old.get('source')}); the new source is recorded",
                          UserWarning, stacklevel=3)
            current[name] = fp
            continue
        if data_change == "new":
            new_name = _free_name(name, stored_data, fp)
            names[dataset] = new_name
            current[new_name] = fp
            continue
        fixes = ["restore the data the runs were made on", "use a new study directory",
                 f"pass --data-change new (data_change='new') to store it as dataset "
                 f"{_free_name(name, stored_data, fp)!r}"]
        if same_content:
            fixes.append("pass --data-change moved (data_change='moved') to record the new "
                         "source of the same data")
        raise DataChangedError(
            f"{store.directory}: dataset {name!r} is not the data its stored runs were made "
            f"on: {differs} changed; stored: {old.get('source')} ({_short(old)}), now: "
            f"{fp['source']} ({_short(fp)}); {', or '.join(fixes)}")
    if names != spec.names:
        spec = replace(spec, names=names)
    return spec, {**stored_data, **current}


def _same(a, b):
    return json_text(a) == json_text(b)


def _protocol(value):
    try:
        return Protocol.from_dict(value).as_dict()
    except (TypeError, ValueError, AttributeError):
        return value


def expected_fields(study, key):
    """What a run file of ``key`` must hold, from a stored spec (``study.json``).

    Returns
    -------
    fields : dict
        ``seed``, ``config`` and, where the study stores the dataset's fingerprint,
        ``data_sha256``; empty when the spec does not name the run's algorithm.
    """
    algorithm = next((a for a in study.get("algorithms", []) if a.get("label") == key.algorithm),
                     None)
    if algorithm is None:
        return {}
    fields = {"seed": run_seed(study["seed"], key.dataset, key.algorithm, key.run, key.fold),
              "config": {"algorithm": algorithm.get("name"), "params": algorithm.get("params"),
                         "budget": algorithm.get("budget") or study.get("budget"),
                         "protocol": _protocol(study.get("protocol")),
                         "study_seed": study["seed"]}}
    data = (study.get("data") or {}).get(key.dataset)
    if data is not None:
        fields["data_sha256"] = data.get("sha256")
    return fields


def foreign_field(record, study, key):
    """The first field of a run record that is not what the stored spec gives, or None.

    Returns
    -------
    found : tuple (field, held, expected) or None
        A field absent from the record, or from its ``config`` (a file of an older version),
        is not compared.
    """
    for field, want in expected_fields(study, key).items():
        if field not in record:
            continue
        held = record[field]
        if field == "config" and isinstance(held, dict):
            held = dict(held)
            if "protocol" in held:
                held["protocol"] = _protocol(held["protocol"])
            bad = next((k for k in sorted(set(held) & set(want))  # an older file's keys
                        if not _same(held[k], want[k])), None)
            if bad is not None:
                return f"config.{bad}", held[bad], want[bad]
            continue
        if not _same(held, want):
            return field, held, want
    return None


def _finite(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def impossible_value(record, study, n_features=None):
    """The first value of a run record outside its domain, in words, or None.

    Checked: at least one solution (an empty front); every objective finite; every score in
    [0, 1] (the protocols' scorers are accuracies); under the Pareto objective, every error
    in [0, 1], every selection ratio in (0, 1] and equal to the mask's size over the width,
    and every hypervolume of the trace within the reference box ([0, 1]); the width equal to
    the split's (``n_features``, from its reference file) where given.
    """
    features = record.get("features")
    if isinstance(features, list) and not features:
        return "its features hold no solution (an empty front)"
    width = record.get("n_features")
    if n_features is not None and width is not None and width != n_features:
        return (f"its n_features is {width}, but the split's reference holds {n_features} "
                "features (a run of other data)")
    for field in ("F_train", "F_test"):
        for row in record.get(field, []):
            if not all(_finite(v) for v in row):
                return f"its {field} holds a value that is not a finite number ({row!r})"
    for field in ("score_train", "score_test"):
        for v in record.get(field, []):
            if not 0.0 <= v <= 1.0:
                return f"its {field} holds {v!r}, outside [0, 1] (an accuracy)"
    objective = (_protocol(study.get("protocol")) or {}).get("objective") or {}
    if isinstance(objective, dict) and objective.get("name") == "pareto":
        for field in ("F_train", "F_test"):
            for i, row in enumerate(record.get(field, [])):
                if len(row) != 2:
                    return f"its {field} row {i} has {len(row)} objectives, not 2"
                error, ratio = row
                if not 0.0 <= error <= 1.0:
                    return f"its {field} holds the error {error!r}, outside [0, 1]"
                if not 0.0 < ratio <= 1.0:
                    return f"its {field} holds the selection ratio {ratio!r}, outside (0, 1]"
                if (isinstance(width, int) and isinstance(features, list)
                        and isinstance(features[i], list)
                        and abs(ratio - len(features[i]) / width) > 1e-9):
                    return (f"its {field} row {i} holds the selection ratio {ratio!r}, but "
                            f"its mask selects {len(features[i])} of {width} features")
        for v in (record.get("trace") or {}).get("best", []):
            if not _finite(v) or not 0.0 <= v <= 1.0:
                return (f"its trace holds the hypervolume {v!r}, outside the reference box "
                        "[0, 1]")
    return None


def run_file_problems(store, study, key, n_features=None):
    """Check one stored run file against a stored spec: damaged, foreign or impossible.

    Parameters
    ----------
    store : ResultStore
    study : dict
        ``study.json``.
    key : RunKey
    n_features : int, optional
        The split's width (from its reference file).

    Returns
    -------
    record : dict
        The verified record.

    Raises
    ------
    StoreFileError
        Naming the file: damaged (:meth:`~pymoo_fs.studies.ResultStore.check_run`) or holding
        a value outside its domain (:func:`impossible_value`).
    ForeignRunError
        Naming the file and the field: a run of another study (its seed, configuration or
        data are not what the spec gives).
    """
    from pymoo_fs.studies.store import StoreFileError

    path = store.run_path(key)
    record = store.check_run(key)
    found = foreign_field(record, study, key)
    if found is not None:
        field, held, want = found
        raise ForeignRunError(
            path, field,
            f"run file {path} is not a run of this study: its {field} is {held!r}, the study "
            f"gives {want!r} (a file of another study, seed or data); move it out of the "
            "study directory (the run is then made again) or use the spec it was made with")
    reason = impossible_value(record, study, n_features)
    if reason is not None:
        raise StoreFileError(path, f"{reason}: no run gives this")
    return record
