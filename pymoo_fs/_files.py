"""Writing files so that nothing is ever half-written: one atomic writer for the package.

Every file pymoo-fs writes (a study's spec and run files, a report's pages, tables and figures,
the outputs of ``pymoo-fs compare``) goes through :func:`write_atomic`: the content is written
to a temporary file beside the target and renamed over it, so an interrupted or failed write
leaves the old file (or none) and no temporary file. :func:`commit_files` does the same for a
set of files that belong together. Nothing here imports from the rest of :mod:`pymoo_fs` but
:mod:`pymoo_fs._signals`.
"""

import csv
import io
import json
import os
import shutil
import tempfile
from pathlib import Path

from pymoo_fs._signals import TEMPORARIES, sigint_deferred

__all__ = ["commit_files", "csv_text", "json_text", "read_json", "sweep_temporaries",
           "write_atomic", "write_json_atomic"]

#: the prefix of :func:`commit_files`' staging directories (``.pymoo-fs-write-PID-XXXX``)
STAGING_PREFIX = ".pymoo-fs-write-"


def _owner_gone(name, prefix):
    """Whether the process named in a temporary's name (``...PID...``) no longer runs; True
    for a name without a process id (written by an earlier version)."""
    rest = name[len(prefix):]
    head = rest.split("-", 1)[0] if prefix == STAGING_PREFIX else rest
    if not head.isdigit() or prefix == STAGING_PREFIX and "-" not in rest:
        return True
    pid = int(head)
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


def sweep_temporaries(directory, recursive=False):
    """Remove the temporary files and directories a killed process left in ``directory``.

    Parameters
    ----------
    directory : path-like
    recursive : bool, default=False
        Also in its subdirectories (a study's ``runs/``).

    Returns
    -------
    removed : list of pathlib.Path
        The staging directories (``.pymoo-fs-write-*``) of :func:`commit_files` and the
        ``.NAME.PID.tmp`` files of :func:`write_atomic` whose process no longer runs.
    """
    directory = Path(directory)
    removed = []
    if not directory.is_dir():
        return removed
    try:
        staging = list(directory.glob(STAGING_PREFIX + "*"))
        partial = list(directory.rglob(".*.tmp") if recursive else directory.glob(".*.tmp"))
    except OSError:
        return removed
    for path in staging:
        if path.is_dir() and _owner_gone(path.name, STAGING_PREFIX):
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    for path in partial:
        parts = path.name.rsplit(".", 2)  # ".NAME", "PID", "tmp"
        if len(parts) == 3 and path.is_file() and _owner_gone(parts[1], ""):
            try:
                path.unlink()
            except OSError:
                continue
            removed.append(path)
    return removed


def write_atomic(path, data):
    """Write ``data`` (bytes or str, UTF-8) to ``path`` through a temporary file and a rename.

    Parameters
    ----------
    path : path-like
        The target; its directory is created if missing.
    data : bytes or str

    Returns
    -------
    path : pathlib.Path

    Raises
    ------
    OSError
        If the directory cannot be created or written; no temporary file is left.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    TEMPORARIES.add(str(tmp))
    try:
        with open(tmp, "wb") as fh:
            fh.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.replace(tmp, path)
    except OSError as exc:  # a full disk, a file-size limit: named by the target, not tmp
        tmp.unlink(missing_ok=True)
        if exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror, str(path)) from exc
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        TEMPORARIES.discard(str(tmp))
    return path


def json_text(obj):
    """Deterministic JSON text: sorted keys, no spaces, Python's shortest float repr, a newline.

    Equal objects give equal bytes, so a file's content depends on what it holds only.
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), allow_nan=True) + "\n"


def write_json_atomic(path, obj):
    """Write ``obj`` as :func:`json_text` to ``path`` atomically (see :func:`write_atomic`)."""
    return write_atomic(path, json_text(obj))


def read_json(path):
    """The object stored in a JSON file.

    Raises
    ------
    OSError
        If the file cannot be read.
    ValueError
        If it is not valid JSON (``json.JSONDecodeError``).
    """
    with open(path, encoding="utf-8") as fh:
        return json.load(fh)


def csv_text(header, rows):
    """CSV text of a table (the csv module's quoting, ``\\r\\n`` line ends).

    Parameters
    ----------
    header : sequence of str
    rows : iterable of sequences
        Numbers are written as Python writes them (``repr`` of floats: exact).
    """
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def commit_files(directory, files, check=None):
    """Write a set of files into ``directory`` together: all of them, or none.

    Parameters
    ----------
    directory : path-like
        Created if missing.
    files : dict of {str: callable}
        File name -> ``writer(path)`` that writes the file at ``path``.
    check : callable, optional
        Called with no argument before each file is written and once more before the files
        are moved into place; an exception it raises (e.g. ``KeyboardInterrupt`` for a
        recorded Ctrl-C) abandons the set and propagates.

    Returns
    -------
    paths : dict of {str: pathlib.Path}
        Where each file now is.

    Raises
    ------
    OSError
        If ``directory`` cannot be created or written, or a name is taken by a directory
        (checked before anything is written).

    Notes
    -----
    The files are first written into a temporary directory inside ``directory``
    (``.pymoo-fs-write-*``), then moved into place by one rename each, during which Ctrl-C
    (SIGINT) is held back and delivered right after (:func:`pymoo_fs._signals.sigint_deferred`),
    so the directory holds the old set of files or the new one; only a process killed
    outright between two renames could leave a mix. A failure leaves no temporary file; a
    process ended by SIGTERM or SIGHUP under the command line removes its own
    (:class:`pymoo_fs._signals.InterruptGuard`), and one killed outright leaves a staging
    directory named with its process id, which the next :func:`commit_files` into the same
    directory removes (:func:`sweep_temporaries`).
    """
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = {name: directory / name for name in files}
    for path in paths.values():
        if path.is_dir():
            raise IsADirectoryError(f"cannot write {path}: it is a directory")
    check = check if check is not None else (lambda: None)
    sweep_temporaries(directory)  # what a killed command left: its process is gone
    staging = Path(tempfile.mkdtemp(prefix=f"{STAGING_PREFIX}{os.getpid()}-", dir=directory))
    TEMPORARIES.add(str(staging))
    try:
        for name, write in files.items():
            check()
            write(staging / name)
        check()
        with sigint_deferred():
            for name in files:
                os.replace(staging / name, paths[name])
    finally:
        shutil.rmtree(staging, ignore_errors=True)
        TEMPORARIES.discard(str(staging))
    return paths
