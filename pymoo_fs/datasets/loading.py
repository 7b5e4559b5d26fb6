"""Loading classification datasets: the bundled ones, a data directory, or a file.

A dataset is returned as a :class:`Dataset`: a float64 feature matrix, integer-coded labels, the
original class labels, the feature names, the dataset's name and the citation to give.

Readers for three formats are provided: CSV (optionally gzipped) with a header row, ARFF (via
:func:`scipy.io.arff.loadarff`) and MATLAB ``.mat`` (via :func:`scipy.io.loadmat`). Missing
values are never imputed: a feature matrix with NaN or infinite values is rejected.
"""

from __future__ import annotations

import csv
import gzip
import io
import os
import warnings
import zlib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

__all__ = ["Dataset", "load_dataset", "list_datasets", "BUNDLED_DATASETS", "DATA_ENV_VAR"]

#: Names of the datasets shipped inside the package (``pymoo_fs/datasets/data``).
BUNDLED_DATASETS = ("musk1", "sonar")

#: Names read by another module's loader (``{name: loader(name, target=...)}``): the
#: regression datasets register theirs (:mod:`pymoo_fs.datasets.regression`).
NAMED_LOADERS: dict = {}

#: Environment variable naming the directory searched for datasets by name.
DATA_ENV_VAR = "PYMOO_FS_DATA"

# Supported extensions, in the order they are tried when a name is resolved in a directory.
_EXTENSIONS = (".csv.gz", ".csv", ".arff", ".mat")
_MANIFEST = "MANIFEST.tsv"
_MAX_LISTED = 10


@dataclass(frozen=True, eq=False)
class Dataset:
    """A labelled classification dataset.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), dtype float64
        Feature values, C-contiguous, all finite. Converted on construction.
    y : ndarray of shape (n_samples,), dtype int64
        Class of each sample coded ``0 .. n_classes - 1``.
    classes : ndarray of shape (n_classes,)
        The original class labels, sorted as :func:`numpy.unique` sorts them, so that
        ``classes[y]`` gives each sample's original label.
    feature_names : list of str, length n_features
        Column names.
    name : str, default=""
        Short name of the dataset (the file name without its extensions, e.g. ``"musk1"``).
    citation : str, default=""
        The reference to give when using the data; ``""`` when unknown.
    source : str, default=""
        Where the data was read from: the file's absolute path, or ``"bundled NAME.csv.gz"``
        for a bundled dataset (what a study records beside the data's fingerprint); ``""``
        for data built in memory.

    Raises
    ------
    ValueError
        If ``X`` is not numeric or not 2-D, ``y`` is not 1-D with one entry per row of ``X``,
        ``y`` holds a code outside ``0 .. len(classes) - 1``, or ``feature_names`` does not have
        one name per column.

    Notes
    -----
    The dataclass is frozen (fields cannot be reassigned) but the arrays themselves stay
    writeable; treat them as read-only.

    Examples
    --------
    >>> from pymoo_fs.datasets import load_dataset
    >>> data = load_dataset("sonar")
    >>> data.n_samples, data.n_features, data.n_classes
    (208, 60, 2)
    >>> data.classes.tolist()
    ['M', 'R']
    """

    X: np.ndarray
    y: np.ndarray
    classes: np.ndarray
    feature_names: list = field(default_factory=list)
    name: str = ""
    citation: str = ""
    source: str = ""

    def __post_init__(self):
        try:
            X = np.ascontiguousarray(self.X, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"X must be a numeric 2-D array: {error}") from None
        y = np.asarray(self.y)
        classes = np.asarray(self.classes)
        names = [str(f) for f in self.feature_names]
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
        if y.ndim != 1 or y.shape[0] != X.shape[0]:
            raise ValueError(
                f"y must have shape ({X.shape[0]},) to match X {X.shape}, got {y.shape}"
            )
        if y.size and (not np.issubdtype(y.dtype, np.integer) or y.min() < 0
                       or y.max() >= classes.shape[0]):
            raise ValueError(
                f"y must hold integer codes in 0..{classes.shape[0] - 1} (one per class)"
            )
        if len(names) != X.shape[1]:
            raise ValueError(
                f"feature_names has {len(names)} names for {X.shape[1]} feature columns"
            )
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y.astype(np.int64, copy=False))
        object.__setattr__(self, "classes", classes)
        object.__setattr__(self, "feature_names", names)
        object.__setattr__(self, "name", str(self.name))
        object.__setattr__(self, "citation", str(self.citation))
        object.__setattr__(self, "source", str(self.source))

    @property
    def n_samples(self) -> int:
        """int: Number of samples (rows of ``X``)."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """int: Number of features (columns of ``X``)."""
        return int(self.X.shape[1])

    @property
    def n_classes(self) -> int:
        """int: Number of distinct classes."""
        return int(self.classes.shape[0])

    def __repr__(self):
        return (f"Dataset(name={self.name!r}, n_samples={self.n_samples}, "
                f"n_features={self.n_features}, n_classes={self.n_classes})")


# ----------------------------------------------------------------------------------------------
# public functions
# ----------------------------------------------------------------------------------------------

def list_datasets(data_dir: str | os.PathLike[str] | None = None) -> list[str]:
    """Names of the datasets that :func:`load_dataset` can find by name now.

    Parameters
    ----------
    data_dir : str or path-like, optional
        Directory to list. When None (default), the directory named by the ``PYMOO_FS_DATA``
        environment variable is listed, if it is set and exists.

    Returns
    -------
    names : list of str
        Sorted, without duplicates: the bundled names (``musk1``, ``sonar``) plus the stem of
        every ``.csv.gz``, ``.csv``, ``.arff`` or ``.mat`` file in the directory.

    Raises
    ------
    ValueError
        If ``data_dir`` is given and is not a directory.

    Examples
    --------
    >>> from pymoo_fs.datasets import list_datasets
    >>> "sonar" in list_datasets()
    True
    """
    names = set(BUNDLED_DATASETS)
    directory = _search_dir(data_dir)
    if directory is not None:
        for entry in directory.iterdir():
            ext = _extension(entry.name)
            if ext is not None and entry.is_file():
                names.add(entry.name[: -len(ext)])
    return sorted(names)


def load_dataset(name_or_path: str | os.PathLike[str],
                 data_dir: str | os.PathLike[str] | None = None, *,
                 target: str | None = None) -> Dataset:
    """Load a classification dataset by name or from a file.

    A string is resolved in this order:

    1. a bundled name (``"musk1"``, ``"sonar"``), read from the package data; a regression
       name (``"diabetes"``, ``"concrete"``) gives a
       :class:`~pymoo_fs.datasets.RegressionDataset` (see
       :func:`~pymoo_fs.datasets.load_regression_dataset`, which also reads files with a
       real-valued target);
    2. a file ``<name>.csv.gz``, ``<name>.csv``, ``<name>.arff`` or ``<name>.mat`` (tried in
       that order) in ``data_dir`` if given, else in the directory named by the
       ``PYMOO_FS_DATA`` environment variable;
    3. a path to an existing file.

    A :class:`os.PathLike` (e.g. :class:`pathlib.Path`) is always taken as a path.

    Parameters
    ----------
    name_or_path : str or path-like
        Dataset name or file path. Supported files: CSV or gzipped CSV (with a header row, or
        without one: see Notes), ARFF, MATLAB ``.mat`` holding variables ``X`` (n_samples,
        n_features) and ``Y`` or ``y`` of shape (n_samples,), (n_samples, 1) or (1, n_samples).
    data_dir : str or path-like, optional
        Directory searched for names (step 2). Default None: use ``PYMOO_FS_DATA``.
    target : str, optional, keyword-only
        Name of the class column (CSV header name or ARFF attribute name). Default None: the
        last column / attribute. Ignored for ``.mat`` files.

    Returns
    -------
    dataset : Dataset
        ``X`` float64 (n_samples, n_features), ``y`` int64 (n_samples,), ``classes`` the
        sorted original labels, ``feature_names``, ``name`` (file name without extensions) and
        ``citation``: the ``citation`` column of the row for this file in a ``MANIFEST.tsv``
        next to it (tab-separated, columns ``file`` and ``citation``), else ``""``.

    Raises
    ------
    ValueError
        - the name is neither bundled, nor in the data directory, nor an existing file (the
          message lists the known names, as :func:`list_datasets` returns them);
        - a path does not exist (the message names it), or is a directory;
        - ``data_dir`` is given and is not a str or path-like naming a directory;
        - ``target`` is neither None nor a str;
        - the file cannot be read as its format: a truncated or non-gzip ``.csv.gz``, a CSV
          file that is not UTF-8, a malformed or empty ARFF file, a truncated or corrupt
          ``.mat`` file (the message names the file);
        - the file extension is not one of ``.csv``, ``.csv.gz``, ``.arff``, ``.mat``;
        - ``target`` is not a column of the file, or is given for a CSV file without a
          header row;
        - a feature column is not numeric (the message names the column);
        - the features hold NaN or infinite values (the message gives how many and in which
          columns; empty CSV fields and ARFF ``?`` are read as NaN and not imputed);
        - a class label is missing, or there are fewer than 2 classes;
        - the file has no data rows or no feature column, or rows of unequal length;
        - a ``.mat`` file lacks ``X`` or ``Y``/``y``, their shapes do not agree, ``X`` is
          complex, or the labels are neither numbers nor strings.

    Warns
    -----
    UserWarning
        When a CSV file has no header row, or a header row of numbers (see Notes); the
        message names the file.

    Notes
    -----
    A CSV file's first row is read as data, not as a header, when every cell but the last
    parses as a number and the last one is the class label of another row (as in
    ``0.02,0.037,R``). Its features are then named ``f0 .. f{d-1}``, its last column is the
    class, and a ``UserWarning`` says so; ``target`` cannot name a column of such a file (it
    has no names), except that a first row naming ``target`` is always taken as the header.
    A first row whose cells but the last are numbers and whose last cell is no other row's
    label (``1,2,3`` or ``0.5,0.7,z``) would make a one-member class as data: it is read as
    the header, and a ``UserWarning`` names the file and the row (pass ``target`` to confirm
    such a header without the warning).

    Class labels are kept as the file gives them, except that labels which all parse as
    integral numbers (``1``, ``2.0``) become int64 and other all-numeric labels float64, so
    that ``classes`` sorts numerically. String labels (``"M"``, ``"R"``) stay strings.
    ``.mat`` features are named ``f0 .. f{d-1}``.

    Examples
    --------
    >>> from pymoo_fs.datasets import load_dataset
    >>> data = load_dataset("sonar")
    >>> data.X.shape, data.X.dtype
    ((208, 60), dtype('float64'))
    >>> data.classes[data.y[:3]].tolist()
    ['R', 'R', 'R']
    """
    if target is not None and not isinstance(target, str):
        raise ValueError(
            f"target must be a column name (str) or None, got {type(target).__name__} "
            f"{target!r}"
        )
    if isinstance(name_or_path, os.PathLike):
        return _load_file(Path(name_or_path), target)
    if not isinstance(name_or_path, str):
        raise ValueError(
            f"name_or_path must be a str or path-like, got {type(name_or_path).__name__}"
        )
    name = name_or_path
    if name in BUNDLED_DATASETS:
        return _load_bundled(name, target)
    if name in NAMED_LOADERS:  # e.g. a RegressionDataset (real-valued target)
        return NAMED_LOADERS[name](name, target=target)

    directory = _search_dir(data_dir)
    is_bare = Path(name).name == name and _extension(name) is None
    if is_bare and directory is not None:
        for ext in _EXTENSIONS:
            candidate = directory / (name + ext)
            if candidate.is_file():
                return _load_file(candidate, target)

    path = Path(name).expanduser()
    if path.is_file() or (path.exists() and not path.is_dir()):  # a device or a pipe: named
        return _load_file(path, target)
    if path.is_dir():
        raise ValueError(_directory_message(path))
    if is_bare and not Path(name).suffix:
        where = (f"no file {name}.<csv.gz|csv|arff|mat> in {directory}" if directory
                 else _no_directory(data_dir))
        raise ValueError(
            f"unknown dataset name {name!r}: not bundled, {where}, and not an existing file; "
            f"known names: {list_datasets(data_dir)}"
        )
    raise ValueError(f"file not found: {path.resolve()}")


# ----------------------------------------------------------------------------------------------
# resolution helpers
# ----------------------------------------------------------------------------------------------

def _extension(filename):
    """The supported extension ``filename`` ends with (case-insensitive), or None."""
    lower = filename.lower()
    for ext in _EXTENSIONS:
        if lower.endswith(ext) and len(lower) > len(ext):
            return filename[-len(ext):]
    return None


def _directory_message(path):
    """The error for a dataset path that is a directory."""
    return (
        f"dataset path {str(path.resolve())!r} is a directory, not a file: expected a "
        f"{', '.join(_EXTENSIONS)} file or a dataset name (to look names up in this directory, "
        "pass it as data_dir, --data-dir on the command line)"
    )


def _search_dir(data_dir):
    """The directory searched by name: ``data_dir`` (checked) or ``$PYMOO_FS_DATA`` (if any)."""
    if data_dir is not None:
        if not isinstance(data_dir, (str, os.PathLike)):
            raise ValueError(
                f"data_dir must be a str or path-like, got {type(data_dir).__name__}"
            )
        directory = Path(data_dir).expanduser()
        if not directory.is_dir():
            raise ValueError(f"data_dir is not a directory: {directory}")
        return directory
    env = os.environ.get(DATA_ENV_VAR)
    if env:
        directory = Path(env).expanduser()
        if directory.is_dir():
            return directory
    return None


def _file_kind(path):
    """What a path that exists and is not a regular file or a directory is, in words."""
    import stat

    try:
        mode = path.stat().st_mode
    except OSError:
        return "something that cannot be read"
    for test, words in ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a character device"),
                        (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a file"


def _no_directory(data_dir):
    """Why no directory is searched by name: none given, or ``PYMOO_FS_DATA`` naming no
    directory (a file, or nothing), said with the fix."""
    env = os.environ.get(DATA_ENV_VAR)
    if data_dir is None and env:
        what = "a file" if Path(env).expanduser().is_file() else "nothing that exists"
        return (f"{DATA_ENV_VAR}={env!r} names {what}, not a directory (point "
                f"{DATA_ENV_VAR} at the folder holding the dataset files, or pass data_dir=)")
    return f"no data directory (pass data_dir= or set {DATA_ENV_VAR})"


def _read_manifest(path):
    """The text of a MANIFEST.tsv; a ValueError naming the file if it is not UTF-8."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"{path} is not UTF-8 text (byte {error.start}: {error.reason}); save the "
            "manifest as UTF-8"
        ) from None


def _manifest_citation(text, filename):
    """Citation of ``filename`` in the text of a MANIFEST.tsv, or ``""``."""
    for row in csv.DictReader(io.StringIO(text), delimiter="\t"):
        if row.get("file") == filename:
            return (row.get("citation") or "").strip()
    return ""


def _load_bundled(name, target):
    data = resources.files("pymoo_fs.datasets") / "data"
    filename = f"{name}.csv.gz"
    citation = _manifest_citation((data / _MANIFEST).read_text(encoding="utf-8"), filename)
    with (data / filename).open("rb") as stream:
        text = gzip.decompress(stream.read()).decode("utf-8-sig")
    X, labels, names = _parse_csv(text, target, source=f"bundled {filename}")
    return _make_dataset(X, labels, names, name, citation, f"bundled {filename}",
                         resolved=f"bundled {filename}")


def _load_file(path, target):
    if not path.exists():
        raise ValueError(f"file not found: {path.resolve()}")
    if path.is_dir():
        raise ValueError(_directory_message(path))
    if not path.is_file():
        raise ValueError(f"{path} is not a regular file but {_file_kind(path)}: give the path "
                         "of a dataset file (.csv, .csv.gz, .arff, .mat)")
    ext = _extension(path.name)
    if ext is None:
        raise ValueError(
            f"unsupported file extension for {path.name!r}: expected one of "
            f"{', '.join(_EXTENSIONS)}"
        )
    kind = ext.lower()
    if kind in (".csv", ".csv.gz"):
        text = _read_text(path, gzipped=kind == ".csv.gz")
        X, labels, names = _parse_csv(text, target, source=str(path))
    elif kind == ".arff":
        X, labels, names = _read_arff(path, target)
    else:
        X, labels, names = _read_mat(path)
    citation = ""
    manifest = path.parent / _MANIFEST
    if manifest.is_file():
        citation = _manifest_citation(_read_manifest(manifest), path.name)
    return _make_dataset(X, labels, names, path.name[: -len(ext)], citation, str(path),
                         resolved=str(path.resolve()))


# ----------------------------------------------------------------------------------------------
# format readers: each returns (X float64 (n, d), labels (n,), feature names)
# ----------------------------------------------------------------------------------------------

def _read_text(path, gzipped):
    """The UTF-8 text of a CSV file (gunzipped if ``gzipped``); a ValueError naming the file
    for a truncated or non-gzip ``.csv.gz`` and for bytes that are not UTF-8."""
    try:
        if gzipped:
            with gzip.open(path, "rb") as stream:
                raw = stream.read()
        else:
            raw = path.read_bytes()
    except (EOFError, gzip.BadGzipFile, zlib.error) as error:
        raise ValueError(
            f"cannot read gzipped CSV file {path}: the file is truncated or not gzip data "
            f"({type(error).__name__}: {error}); re-download or re-compress it"
        ) from None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"CSV file {path} is not UTF-8 text (byte {error.start}: {error.reason}); "
            "save it as UTF-8"
        ) from None


def _target_index(names, target, source):
    if target is None:
        return len(names) - 1
    hits = [i for i, n in enumerate(names) if n == target]
    if not hits:
        raise ValueError(f"target column {target!r} not found in {source}; columns: "
                         f"{_short_list(names)}")
    if len(hits) > 1:
        raise ValueError(f"target column {target!r} appears {len(hits)} times in {source}")
    return hits[0]


def _parse_csv(text, target, source):
    rows = [row for row in csv.reader(io.StringIO(text)) if row]
    if not rows:
        raise ValueError(f"empty CSV file: {source}")
    header = [h.strip() for h in rows[0]]
    body = rows[1:]
    first_line = 2
    is_data = _first_row_is_data(header, body, target, source)
    if (not is_data and target is None and body and len(header) >= 2
            and all(_is_float(cell) for cell in header[:-1])):
        warnings.warn(
            f"{source}: its first row ({_short_list(header)}) was read as the header row, "
            f"although its feature names are numbers, because its last cell "
            f"{header[-1]!r} is the class of no other row; if that row is data, add a "
            "header row to the file (or pass target= naming the class column to confirm "
            "the header)",
            UserWarning, stacklevel=4,
        )
    if is_data:
        width = len(header)
        body = rows
        first_line = 1
        header = [f"f{j}" for j in range(width - 1)] + ["class"]
        warnings.warn(
            f"{source} has no header row (its first row holds values, not names): read it as "
            f"data, named the features f0..f{width - 2} and took the last column as the class",
            UserWarning, stacklevel=4,
        )
    if not body:
        raise ValueError(f"no data rows in {source}")
    if len(header) < 2:
        raise ValueError(f"no feature column in {source}: header {header}")
    width = len(header)
    for line, row in enumerate(body, start=first_line):
        if len(row) != width:
            raise ValueError(
                f"row on line {line} of {source} has {len(row)} fields, header has {width}"
            )
    t = _target_index(header, target, source)
    table = np.array(body, dtype=str)
    labels = np.char.strip(table[:, t])
    features = np.delete(table, t, axis=1) if t != width - 1 else table[:, :-1]
    names = header[:t] + header[t + 1:]
    return _to_float(features, names, source), labels, names


def _first_row_is_data(first, body, target, source):
    """Whether the first CSV row is data rather than a header row.

    It is data when every cell but the last parses as a number and the last one is a class
    label of another row (``0.02,...,R`` or ``0.02,...,1`` in a header-less file); a last cell
    that is no other row's label (a numeric header ``1,2,3``) would make a one-member class, so
    such a row is read as the header (and :func:`_parse_csv` warns).
    With ``target`` given, a first row that names it is a header; one that looks like data
    and does not name it is an error: a header-less file has no column names to match.
    """
    if len(first) < 2 or not all(_is_float(cell) for cell in first[:-1]):
        return False
    last = first[-1].strip()
    is_data = any(row and row[-1].strip() == last for row in body)
    if target is None or not is_data:
        return is_data
    if target in first:
        return False
    raise ValueError(
        f"target={target!r} cannot be used with {source}: it has no header row (its first "
        f"row is data: {_short_list(first)}), so it has no column names; leave target unset "
        "to take the last column as the class"
    )


def _to_float(features, names, source):
    """Convert a string matrix to float64; empty fields become NaN; name a non-numeric column."""
    try:
        return features.astype(np.float64)
    except ValueError:
        pass
    out = np.empty(features.shape, dtype=np.float64)
    for j in range(features.shape[1]):
        column = np.char.strip(features[:, j])
        column = np.where(column == "", "nan", column)
        try:
            out[:, j] = column.astype(np.float64)
        except ValueError:
            bad = str(next(v for v in column if not _is_float(v)))
            raise ValueError(
                f"feature column {names[j]!r} of {source} is not numeric (value {bad!r})"
            ) from None
    return out


def _is_float(text):
    try:
        float(text)
    except ValueError:
        return False
    return True


def _read_arff(path, target):
    from scipy.io import arff

    try:
        data, meta = arff.loadarff(str(path))
    except Exception as error:  # scipy's parser: ArffError, IndexError, StopIteration, ...
        raise ValueError(
            f"cannot read ARFF file {path}: it is malformed or empty "
            f"({type(error).__name__}: {str(error) or 'no header'})"
        ) from None
    attributes = list(meta.names())
    types = list(meta.types())
    t = _target_index(attributes, target, str(path))
    names = attributes[:t] + attributes[t + 1:]
    for name in names:
        if meta[name][0] != "numeric":
            raise ValueError(
                f"feature column {name!r} of {path} is not numeric (ARFF type {meta[name][0]})"
            )
    X = np.empty((data.shape[0], len(names)), dtype=np.float64)
    for j, name in enumerate(names):
        X[:, j] = data[name]
    raw = data[attributes[t]]
    if types[t] == "nominal":
        labels = np.array([v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in raw])
        labels = np.where(labels == "?", "", labels)
    else:
        labels = np.asarray(raw)
    return X, labels, names


def _read_mat(path):
    from scipy import sparse
    from scipy.io import loadmat

    try:
        content = loadmat(str(path))
    except Exception as error:  # scipy's reader: MatReadError, ValueError, OSError, ...
        raise ValueError(
            f"cannot read MATLAB file {path}: it is truncated, corrupt or not a .mat file "
            f"({type(error).__name__}: {error})"
        ) from None
    variables = sorted(k for k in content if not k.startswith("__"))
    label_key = "Y" if "Y" in content else ("y" if "y" in content else None)
    if "X" not in content or label_key is None:
        raise ValueError(
            f".mat file {path} must hold variables 'X' and 'Y' (or 'y'); found {variables}"
        )
    X = content["X"]
    if sparse.issparse(X):
        X = X.toarray()
    X = np.asarray(X)
    if X.ndim != 2:
        raise ValueError(f"'X' in {path} must be 2-D, got shape {X.shape}")
    if not (np.issubdtype(X.dtype, np.number) or X.dtype == bool):
        raise ValueError(f"feature matrix 'X' of {path} is not numeric (dtype {X.dtype})")
    if np.iscomplexobj(X):
        raise ValueError(
            f"feature matrix 'X' of {path} is complex ({X.dtype}): features must be real; "
            "split real and imaginary parts (or take magnitudes) before saving"
        )
    Y = content[label_key]
    if sparse.issparse(Y):
        Y = Y.toarray()
    Y = np.asarray(Y)
    if Y.ndim == 2 and 1 in Y.shape:
        Y = Y.ravel()
    if Y.ndim != 1 or Y.shape[0] != X.shape[0]:
        raise ValueError(
            f"'{label_key}' in {path} must have {X.shape[0]} labels, shaped (n,), (n, 1) or "
            f"(1, n), to match 'X' {X.shape}; got shape {Y.shape}"
        )
    if Y.dtype.kind == "U":
        Y = np.char.strip(Y)
    elif Y.dtype.kind not in "biuf":
        raise ValueError(
            f"labels '{label_key}' of {path} must be numbers or strings, got dtype {Y.dtype}"
        )
    names = [f"f{j}" for j in range(X.shape[1])]
    return X.astype(np.float64), Y, names


# ----------------------------------------------------------------------------------------------
# validation and assembly
# ----------------------------------------------------------------------------------------------

def _short_list(items):
    items = list(items)
    if len(items) <= _MAX_LISTED:
        return ", ".join(map(str, items))
    return ", ".join(map(str, items[:_MAX_LISTED])) + f", ... ({len(items) - _MAX_LISTED} more)"


def _normalise_labels(labels):
    """Labels as a 1-D array: integral numbers -> int64, other numbers -> float64, else str."""
    labels = np.asarray(labels)
    if labels.dtype.kind in "US":
        try:
            numeric = labels.astype(np.float64)
        except ValueError:
            return labels.astype(str)
    elif labels.dtype.kind in "biuf":
        numeric = labels.astype(np.float64)
    else:
        return labels.astype(str)
    if not np.all(np.isfinite(numeric)):
        return labels.astype(str)
    if np.all(numeric == np.round(numeric)) and np.all(np.abs(numeric) < 2**53):
        return numeric.astype(np.int64)
    return numeric


def _check_features(X, names, source):
    nan = np.isnan(X)
    inf = np.isinf(X)
    problems = []
    for mask, what in ((nan, "NaN (missing)"), (inf, "infinite")):
        count = int(mask.sum())
        if count:
            columns = [names[j] for j in np.flatnonzero(mask.any(axis=0))]
            problems.append(f"{count} {what} value(s) in column(s) {_short_list(columns)}")
    if problems:
        raise ValueError(
            f"features of {source} hold " + " and ".join(problems)
            + "; missing values are not imputed: impute or drop them before loading"
        )


def _make_dataset(X, labels, names, name, citation, source, resolved=""):
    if X.shape[0] == 0:
        raise ValueError(f"no data rows in {source}")
    if X.shape[1] == 0:
        raise ValueError(f"no feature column in {source}")
    _check_features(X, names, source)
    labels = np.asarray(labels)
    if labels.dtype.kind in "US" or labels.dtype.kind == "f":
        missing = np.flatnonzero(labels == "" if labels.dtype.kind in "US" else np.isnan(labels))
        if missing.size:
            raise ValueError(
                f"{missing.size} missing class label(s) in {source} (rows "
                f"{_short_list(missing.tolist())}, counted from 0)"
            )
    classes, y = np.unique(_normalise_labels(labels), return_inverse=True)
    if classes.shape[0] < 2:
        raise ValueError(
            f"{source} has {classes.shape[0]} class (label {classes.tolist()}); "
            "at least 2 classes are needed"
        )
    return Dataset(X=X, y=y.reshape(-1), classes=classes, feature_names=names, name=name,
                   citation=citation, source=resolved)
