"""Downloading the 34 benchmark datasets from their public sources, with checksums.

The benchmark datasets that the studies' presets, the examples and the tests name
(``allaml``, ``gas6``, ``isolet``, ...; see :data:`BENCHMARK_SOURCES`) are not bundled: only
``musk1`` and ``sonar`` ship inside the package. :func:`fetch_datasets` (or
``pymoo-fs datasets fetch`` on the command line) downloads each one's source files from the
public GitHub repository and commit it was taken from (``raw.githubusercontent.com``), checks
each download's SHA-256, converts it to the package's format (a gzipped CSV with a header row
``f0,...,f{d-1},class``) and checks the SHA-256 of the result, so that a fetched dataset holds
exactly the values every study of this project was run on. Point ``PYMOO_FS_DATA`` at the
directory to load them by name (:func:`pymoo_fs.datasets.load_dataset`).

Nothing is downloaded at import time, and nothing but :func:`fetch_datasets` goes online.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
import sys
import urllib.parse
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pymoo_fs._files import write_atomic

from ._sources import BENCHMARK_SOURCES, DEFAULT_MIRROR, DatasetSource, SourceFile
from .loading import DATA_ENV_VAR

__all__ = [
    "BENCHMARK_SOURCES",
    "ChecksumError",
    "DEFAULT_MIRROR",
    "DatasetSource",
    "FetchResult",
    "SourceFile",
    "default_data_dir",
    "fetch_datasets",
]

_MANIFEST = "MANIFEST.tsv"
_BENCHMARK_MANIFEST = "BENCHMARKS.tsv"
_TIMEOUT_S = 60.0


class ChecksumError(ValueError):
    """A file's SHA-256 differs from the one recorded for it.

    Raised by :func:`fetch_datasets` for a downloaded source file, for the data converted from
    the sources, or for a dataset file already in the data directory (unless ``force=True``).
    The message names the file (or URL), the expected and the actual checksum.
    """


@dataclass(frozen=True)
class FetchResult:
    """What :func:`fetch_datasets` did for one dataset.

    Attributes
    ----------
    name : str
        The dataset's name (``"gas6"``).
    path : pathlib.Path
        The dataset file, ``<data_dir>/<name>.csv.gz``.
    status : {"fetched", "present"}
        ``"fetched"``: downloaded, converted and verified now; ``"present"``: the file was
        already there and its content has the recorded checksum, so nothing was downloaded.
    """

    name: str
    path: Path
    status: str


def default_data_dir() -> Path:
    """The directory :func:`fetch_datasets` writes into when none is given.

    Returns
    -------
    path : pathlib.Path
        ``$PYMOO_FS_DATA`` if that environment variable is set and not empty; otherwise the
        user's cache directory: ``$XDG_CACHE_HOME/pymoo-fs/datasets`` (default
        ``~/.cache/pymoo-fs/datasets``) on Linux and other POSIX systems,
        ``~/Library/Caches/pymoo-fs/datasets`` on macOS, and
        ``%LOCALAPPDATA%\\pymoo-fs\\datasets`` on Windows. The directory is not created.

    Examples
    --------
    >>> from pymoo_fs.datasets import default_data_dir
    >>> default_data_dir()  # doctest: +SKIP
    PosixPath('/home/me/.cache/pymoo-fs/datasets')
    """
    env = os.environ.get(DATA_ENV_VAR)
    if env:
        return Path(env).expanduser()
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "pymoo-fs" / "datasets"


def fetch_datasets(
    names: str | Iterable[str] | None = None,
    data_dir: str | os.PathLike[str] | None = None,
    *,
    force: bool = False,
    mirror: str | None = None,
    sources: Mapping[str, DatasetSource] | None = None,
    progress: Callable[[str], object] | None = None,
) -> list[FetchResult]:
    """Download benchmark datasets, check them and write them as ``<name>.csv.gz``.

    For each dataset, each source file is downloaded from
    ``<mirror>/<repository>/<commit>/<path>`` and its SHA-256 compared with the recorded one;
    the sources are converted to the package's CSV format (header ``f0,...,f{d-1},class``,
    numbers written with 10 significant digits, ``%.10g``, as the project's copies were) and
    the SHA-256 of that CSV text compared with the recorded one; then the file is written
    gzipped (``mtime`` 0, so the bytes are reproducible) through a temporary file and a
    rename. A ``MANIFEST.tsv`` beside the files gives each benchmark file's provenance and
    citation (read by :func:`~pymoo_fs.datasets.load_dataset` as ``Dataset.citation``); rows
    of other files already in it are kept.

    Parameters
    ----------
    names : str or iterable of str, optional
        Datasets to fetch, by name (``"gas6"``). Default None: all of ``sources``.
    data_dir : str or path-like, optional
        Where to write; created if missing. Default None: :func:`default_data_dir`
        (``$PYMOO_FS_DATA``, else the user's cache directory).
    force : bool, default=False, keyword-only
        Replace a dataset file that is present but whose content differs from the recorded
        checksum (by default that is refused: it may be a file of the user's own).
    mirror : str, optional, keyword-only
        Base URL the files are downloaded from, in place of :data:`DEFAULT_MIRROR`
        (``https://raw.githubusercontent.com``): any URL that ``urllib`` opens, e.g. a
        ``file://`` directory laid out as ``<repository>/<commit>/<path>``.
    sources : mapping of {str: DatasetSource}, optional, keyword-only
        The table of datasets. Default None: :data:`BENCHMARK_SOURCES`.
    progress : callable, optional, keyword-only
        Called with one line of text per dataset (what was done); default None: silent.

    Returns
    -------
    results : list of FetchResult
        One per dataset, in the order asked: its path and whether it was ``"fetched"`` or
        already ``"present"`` (verified, not downloaded again).

    Raises
    ------
    ValueError
        If a name is not in ``sources`` (the message lists the known names), or ``data_dir``
        exists and is not a directory.
    ChecksumError
        If a download's SHA-256 differs from the recorded one (the message names the URL),
        if the converted data's differs (names the dataset), or if ``<name>.csv.gz`` is
        already present with other content and ``force`` is False (names the file). Nothing
        is written for that dataset; the datasets before it are kept.
    OSError
        If a download fails (the message names the URL) or the directory cannot be written.

    Examples
    --------
    >>> from pymoo_fs.datasets import fetch_datasets, load_dataset
    >>> results = fetch_datasets(["wine", "zoo"], "~/pymoo-fs-data")  # doctest: +SKIP
    >>> load_dataset("wine", data_dir="~/pymoo-fs-data").X.shape  # doctest: +SKIP
    (178, 13)
    """
    table = BENCHMARK_SOURCES if sources is None else sources
    if names is None:
        wanted = list(table)
    else:
        wanted = [names] if isinstance(names, str) else list(names)
        unknown = [n for n in wanted if n not in table]
        if unknown:
            raise ValueError(f"unknown dataset name(s) {unknown}: known names are "
                             f"{sorted(table)}")
    directory = default_data_dir() if data_dir is None else Path(data_dir).expanduser()
    if directory.exists() and not directory.is_dir():
        raise ValueError(f"data_dir is not a directory: {directory}")
    base = (DEFAULT_MIRROR if mirror is None else mirror).rstrip("/")
    say = progress if progress is not None else (lambda line: None)

    results = []
    for name in dict.fromkeys(wanted):
        source = table[name]
        path = directory / f"{name}.csv.gz"
        if path.is_file():
            actual = _sha256(_decoded(path))
            if actual == source.sha256:
                results.append(FetchResult(name, path, "present"))
                say(f"{name}: present and verified ({path})")
                continue
            if not force:
                raise ChecksumError(
                    f"{path} is present but its data's sha256 is {actual}, not {source.sha256} "
                    "as recorded for this dataset: remove it, or fetch with force=True "
                    "(--force) to replace it"
                )
        blobs = [_download(f"{base}/{_url_path(f)}", f.sha256) for f in source.files]
        text = convert(source.converter, blobs)
        actual = _sha256(text.encode("utf-8"))
        if actual != source.sha256:
            raise ChecksumError(
                f"{name}: the data converted from its sources has sha256 {actual}, not "
                f"{source.sha256} as recorded ({source.converter} conversion); nothing written"
            )
        write_atomic(path, _gzip(text.encode("utf-8"), f"{name}.csv"))
        results.append(FetchResult(name, path, "fetched"))
        say(f"{name}: fetched {', '.join(f.path for f in source.files)} "
            f"({source.files[0].repository}@{source.files[0].commit[:7]}) -> {path}")
    benchmark = [r.path.name for r in results if BENCHMARK_SOURCES.get(r.name) == table[r.name]]
    if benchmark:
        _write_manifest(directory, benchmark)
    return results


# ----------------------------------------------------------------------------------------------
# download, checksums, files
# ----------------------------------------------------------------------------------------------

def _url_path(file: SourceFile) -> str:
    return "/".join((file.repository, file.commit, urllib.parse.quote(file.path)))


def _download(url: str, sha256: str) -> bytes:
    """The bytes at ``url``, refused unless their SHA-256 is ``sha256``."""
    import urllib.error  # here: urllib.request (http, email) costs every load_dataset's import
    import urllib.request

    import http.client

    try:
        with urllib.request.urlopen(url, timeout=_TIMEOUT_S) as response:
            data = response.read()
    except urllib.error.URLError as error:
        raise OSError(f"cannot download {url}: {error.reason}") from error
    except http.client.IncompleteRead as error:  # the connection closed before the end
        got = len(error.partial)
        expected = "" if error.expected is None else f" of {got + error.expected}"
        raise OSError(f"cannot download {url}: the download was cut short after {got}"
                      f"{expected} bytes; nothing written, run the command again") from None
    except (http.client.HTTPException, OSError) as error:  # reset, timed out mid-read
        raise OSError(f"cannot download {url}: the connection failed during the download "
                      f"({type(error).__name__}: {error}); nothing written, run the command "
                      "again") from None
    actual = _sha256(data)
    if actual != sha256:
        raise ChecksumError(
            f"{url}: downloaded {len(data)} bytes with sha256 {actual}, expected {sha256}; "
            "the download is damaged or the source changed, nothing written"
        )
    return data


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _decoded(path: Path) -> bytes:
    """The decompressed content of a gzip file, or ``b""`` when it is not a readable gzip."""
    try:
        with gzip.open(path, "rb") as stream:
            return stream.read()
    except (OSError, EOFError):
        return b""


def _gzip(data: bytes, filename: str) -> bytes:
    """gzip bytes of ``data`` as the project's copies were written (level 9, mtime 0)."""
    buffer = io.BytesIO()
    with gzip.GzipFile(filename=filename, mode="wb", fileobj=buffer, mtime=0,
                       compresslevel=9) as stream:
        stream.write(data)
    return buffer.getvalue()


def _write_manifest(directory: Path, filenames: Sequence[str]) -> None:
    """Add the benchmark manifest's rows of ``filenames`` to ``directory/MANIFEST.tsv``.

    Rows of other files already in that manifest are kept (after the benchmark rows, in
    their order); the file is rewritten only when its content changes.
    """
    text = (resources.files("pymoo_fs.datasets") / "data" / _BENCHMARK_MANIFEST).read_text(
        encoding="utf-8")
    header, *rows = [line.split("\t") for line in text.splitlines() if line]
    ours = {row[0]: row for row in rows}
    kept: dict[str, list[str]] = {}
    target = directory / _MANIFEST
    if target.is_file():
        lines = [line.split("\t") for line in target.read_text(encoding="utf-8").splitlines()
                 if line]
        if lines and "file" in lines[0]:
            column = {name: j for j, name in enumerate(lines[0])}
            for line in lines[1:]:
                row = [line[column[h]] if h in column and column[h] < len(line) else ""
                       for h in header]
                kept[row[0]] = row
    kept.update({name: ours[name] for name in filenames if name in ours})
    order = [row[0] for row in rows] + [name for name in kept if name not in ours]
    content = "".join("\t".join(row) + "\n"
                      for row in [header] + [kept[name] for name in order if name in kept])
    if not target.is_file() or target.read_text(encoding="utf-8") != content:
        write_atomic(target, content)


# ----------------------------------------------------------------------------------------------
# conversions: source bytes -> CSV text
# ----------------------------------------------------------------------------------------------

def convert(converter: str, blobs: Sequence[bytes]) -> str:
    """Convert downloaded source files to the package's CSV text.

    Parameters
    ----------
    converter : str
        One of the names below (:attr:`DatasetSource.converter`).
    blobs : sequence of bytes
        The source files' contents, in the order of :attr:`DatasetSource.files`.

    Returns
    -------
    text : str
        CSV text: a header row ``f0,...,f{d-1},class``, then one row per sample, ``\\n``
        line ends. Numbers are written ``"%.10g" % float(value)``; labels as noted.

    Raises
    ------
    ValueError
        If ``converter`` is unknown, or a source does not have the layout it expects (the
        message says what differs).

    Notes
    -----
    ``csv``: comma-separated, no header, class last. ``csv_header``: the same after one header
    row. ``whitespace``: whitespace-separated, no header, class last. ``pmlb``: PMLB's
    tab-separated ``.tsv.gz`` with a header, ``target`` last (the label written as a
    number). ``mat``: MATLAB file with ``X``/``Y`` or ``fea``/``gnd`` (integer matrices as
    integers). ``mfeat``: the six PMLB ``mfeat_*`` files' columns side by side; the class is
    the pixel file's digit, checked against the others' ``digit + 1``. ``gas``: UCI gas-drift
    lines ``class 1 v1 2 v2 ...``. ``musk``: molecule and conformation names dropped.
    ``semeion``: 256 pixels and a one-hot digit. ``splice``: nucleotides A, C, G, T coded 0-3
    and the ambiguity codes D, N, R, S 4-7. ``urban``: the training then the test file, class
    moved from first to last, trailing spaces stripped. ``lsvt_xlsx``: the ``Data`` sheet's
    features and the ``Binary response`` sheet's class, read with the standard library.
    """
    try:
        function = _CONVERTERS[converter]
    except KeyError:
        raise ValueError(f"unknown converter {converter!r}: known are "
                         f"{sorted(_CONVERTERS)}") from None
    rows = function(blobs)
    if not rows:
        raise ValueError(f"{converter}: the source holds no data row")
    width = len(rows[0])
    for i, row in enumerate(rows):
        if len(row) != width:
            raise ValueError(f"{converter}: row {i} has {len(row)} fields, row 0 has {width}")
    lines = [",".join([f"f{j}" for j in range(width - 1)] + ["class"])]
    lines.extend(",".join(row) for row in rows)
    return "\n".join(lines) + "\n"


def _number(value: object) -> str:
    return "%.10g" % float(value)  # type: ignore[arg-type]


def _lines(blob: bytes) -> list[str]:
    return [line for line in blob.decode("utf-8-sig").splitlines() if line.strip()]


def _delimited(blob: bytes, *, header: bool, separator: str | None) -> list[list[str]]:
    lines = _lines(blob)[1 if header else 0:]
    rows = []
    for line in lines:
        cells = line.split(separator)
        rows.append([_number(v) for v in cells[:-1]] + [cells[-1].strip()])
    return rows


def _csv(blobs: Sequence[bytes]) -> list[list[str]]:
    return _delimited(blobs[0], header=False, separator=",")


def _csv_header(blobs: Sequence[bytes]) -> list[list[str]]:
    return _delimited(blobs[0], header=True, separator=",")


def _whitespace(blobs: Sequence[bytes]) -> list[list[str]]:
    return _delimited(blobs[0], header=False, separator=None)


def _pmlb_rows(blob: bytes) -> list[list[str]]:
    lines = _lines(gzip.decompress(blob))
    if not lines or lines[0].split("\t")[-1] != "target":
        raise ValueError("pmlb: expected a tab-separated header ending with 'target'")
    return [line.split("\t") for line in lines[1:]]


def _pmlb(blobs: Sequence[bytes]) -> list[list[str]]:
    return [[_number(v) for v in row] for row in _pmlb_rows(blobs[0])]


_MFEAT_PIXEL = 3  # index of mfeat_pixel among the six files (its digits are 0-9, the others 1-10)


def _mfeat(blobs: Sequence[bytes]) -> list[list[str]]:
    if len(blobs) != 6:
        raise ValueError(f"mfeat: expected 6 files (fourier, factors, karhunen, pixel, "
                         f"zernike, morphological), got {len(blobs)}")
    parts = [_pmlb_rows(blob) for blob in blobs]
    if len({len(p) for p in parts}) != 1:
        raise ValueError(f"mfeat: the files have {[len(p) for p in parts]} rows")
    rows = []
    for i in range(len(parts[0])):
        digit = int(float(parts[_MFEAT_PIXEL][i][-1]))
        for k, part in enumerate(parts):
            label = int(float(part[i][-1]))
            if k != _MFEAT_PIXEL and label != digit + 1:
                raise ValueError(f"mfeat: row {i}: file {k} has class {label}, the pixel file "
                                 f"{digit} (expected {digit + 1})")
        features = [_number(v) for part in parts for v in part[i][:-1]]
        rows.append(features + [str(digit)])
    return rows


def _mat(blobs: Sequence[bytes]) -> list[list[str]]:
    import numpy as np
    from scipy.io import loadmat

    content = loadmat(io.BytesIO(blobs[0]))
    keys = ("X", "Y") if "X" in content else ("fea", "gnd")
    if keys[0] not in content or keys[1] not in content:
        raise ValueError(f"mat: expected variables X and Y (or fea and gnd), found "
                         f"{sorted(k for k in content if not k.startswith('__'))}")
    X = np.asarray(content[keys[0]])
    y = np.asarray(content[keys[1]]).ravel()
    integral = np.issubdtype(X.dtype, np.integer)
    rows = []
    for i in range(X.shape[0]):
        values = [str(int(v)) for v in X[i]] if integral else [_number(v) for v in X[i]]
        rows.append(values + [str(int(y[i]))])
    return rows


def _gas(blobs: Sequence[bytes]) -> list[list[str]]:
    rows = []
    for n, line in enumerate(_lines(blobs[0])):
        cells = line.split()
        indices, values = cells[1::2], cells[2::2]
        if [int(i) for i in indices] != list(range(1, len(indices) + 1)):
            raise ValueError(f"gas: line {n + 1}: feature indices are not 1, 2, 3, ...")
        rows.append([_number(v) for v in values] + [cells[0]])
    return rows


def _musk(blobs: Sequence[bytes]) -> list[list[str]]:
    rows = []
    for line in _lines(blobs[0]):
        cells = line.split(",")
        rows.append([_number(v) for v in cells[2:]])
    return rows


def _semeion(blobs: Sequence[bytes]) -> list[list[str]]:
    rows = []
    for n, line in enumerate(_lines(blobs[0])):
        cells = line.split()
        bits = [int(float(b)) for b in cells[256:]]
        if len(bits) != 10 or sorted(bits) != [0] * 9 + [1]:
            raise ValueError(f"semeion: line {n + 1}: the last 10 values are not one-hot")
        rows.append([_number(v) for v in cells[:256]] + [str(bits.index(1))])
    return rows


_NUCLEOTIDES = {"A": 0, "C": 1, "G": 2, "T": 3, "D": 4, "N": 5, "R": 6, "S": 7}


def _splice(blobs: Sequence[bytes]) -> list[list[str]]:
    rows = []
    for n, line in enumerate(_lines(blobs[0])):
        cells = [c.strip() for c in line.split(",")]
        unknown = sorted(set(cells[:-1]) - set(_NUCLEOTIDES))
        if unknown:
            raise ValueError(f"splice: line {n + 1}: unknown nucleotide codes {unknown}")
        rows.append([str(_NUCLEOTIDES[c]) for c in cells[:-1]] + [cells[-1]])
    return rows


def _urban(blobs: Sequence[bytes]) -> list[list[str]]:
    rows = []
    for blob in blobs:
        for line in _lines(blob)[1:]:
            cells = line.split(",")
            rows.append([_number(v) for v in cells[1:]] + [cells[0].strip()])
    return rows


_XLSX = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_XLSX_REL = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"


def _xlsx_sheets(blob: bytes) -> dict[str, list[list[str | None]]]:
    """The cell values of every sheet of an ``.xlsx`` workbook, as text, by sheet name."""
    import xml.etree.ElementTree as ET
    import zipfile

    book = zipfile.ZipFile(io.BytesIO(blob))
    shared = []
    if "xl/sharedStrings.xml" in book.namelist():
        for item in ET.fromstring(book.read("xl/sharedStrings.xml")).iter(_XLSX + "si"):
            shared.append("".join(t.text or "" for t in item.iter(_XLSX + "t")))
    relations = {rel.get("Id"): rel.get("Target", "")
                 for rel in ET.fromstring(book.read("xl/_rels/workbook.xml.rels"))}
    sheets = {}
    for sheet in ET.fromstring(book.read("xl/workbook.xml")).iter(_XLSX + "sheet"):
        target = relations[sheet.get(_XLSX_REL + "id")]
        member = target[1:] if target.startswith("/") else "xl/" + target
        rows = []
        for row in ET.fromstring(book.read(member)).iter(_XLSX + "row"):
            cells: dict[int, str | None] = {}
            for cell in row.iter(_XLSX + "c"):
                letters = re.match(r"[A-Z]+", cell.get("r", "")).group()  # type: ignore[union-attr]
                column = 0
                for letter in letters:
                    column = column * 26 + ord(letter) - ord("A") + 1
                value = cell.find(_XLSX + "v")
                text = None if value is None else value.text
                if cell.get("t") == "s" and text is not None:
                    text = shared[int(text)]
                elif cell.get("t") == "inlineStr":
                    text = "".join(t.text or "" for t in cell.iter(_XLSX + "t"))
                cells[column - 1] = text
            rows.append([cells.get(j) for j in range(max(cells) + 1)] if cells else [])
        sheets[sheet.get("name", "")] = rows
    return sheets


def _lsvt_xlsx(blobs: Sequence[bytes]) -> list[list[str]]:
    sheets = _xlsx_sheets(blobs[0])
    if "Data" not in sheets or "Binary response" not in sheets:
        raise ValueError(f"lsvt_xlsx: expected sheets 'Data' and 'Binary response', found "
                         f"{sorted(sheets)}")
    data, response = sheets["Data"][1:], sheets["Binary response"][1:]
    if len(data) != len(response):
        raise ValueError(f"lsvt_xlsx: {len(data)} data rows but {len(response)} responses")
    return [[_number(v) for v in row] + [_number(label[0])] for row, label in zip(data, response)]


_CONVERTERS: dict[str, Callable[[Sequence[bytes]], list[list[str]]]] = {
    "csv": _csv,
    "csv_header": _csv_header,
    "gas": _gas,
    "lsvt_xlsx": _lsvt_xlsx,
    "mat": _mat,
    "mfeat": _mfeat,
    "musk": _musk,
    "pmlb": _pmlb,
    "semeion": _semeion,
    "splice": _splice,
    "urban": _urban,
    "whitespace": _whitespace,
}
