"""Fetching the benchmark datasets: a local ``file://`` mirror stands in for GitHub (no network).

Each conversion is checked on a small source file against CSV text written out by hand; the
checksums, the skipping of verified files and the refusals against files altered on purpose.
"""

import gzip
import hashlib
import io
import re
import zipfile
from pathlib import Path

import numpy as np
import pytest
from scipy.io import savemat

from pymoo_fs import cli
from pymoo_fs.datasets import (
    BENCHMARK_SOURCES,
    ChecksumError,
    DatasetSource,
    SourceFile,
    default_data_dir,
    fetch_datasets,
    load_dataset,
)
from pymoo_fs.datasets.fetch import convert

COMMIT = "0123456789abcdef0123456789abcdef01234567"
REPO = "someone/data"


def _sha(data):
    return hashlib.sha256(data).hexdigest()


def _gz(text):
    return gzip.compress(text.encode())


def _mat(**variables):
    buffer = io.BytesIO()
    savemat(buffer, variables)
    return buffer.getvalue()


def _xlsx(sheets):
    """A minimal .xlsx workbook: {sheet name: rows}; strings go to the shared strings."""
    main = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    rel = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    shared = []
    members = {}
    entries = []
    relations = []
    for k, (name, rows) in enumerate(sheets.items(), start=1):
        xml_rows = []
        for r, row in enumerate(rows, start=1):
            cells = []
            for c, value in enumerate(row):
                ref = f"{chr(ord('A') + c)}{r}"
                if isinstance(value, str):
                    shared.append(value)
                    cells.append(f'<c r="{ref}" t="s"><v>{len(shared) - 1}</v></c>')
                else:
                    cells.append(f'<c r="{ref}"><v>{value!r}</v></c>')
            xml_rows.append(f'<row r="{r}">{"".join(cells)}</row>')
        members[f"xl/worksheets/sheet{k}.xml"] = (
            f'<worksheet xmlns="{main}"><sheetData>{"".join(xml_rows)}</sheetData></worksheet>')
        entries.append(f'<sheet name="{name}" sheetId="{k}" r:id="rId{k}"/>')
        relations.append(f'<Relationship Id="rId{k}" Target="worksheets/sheet{k}.xml"/>')
    members["xl/workbook.xml"] = (f'<workbook xmlns="{main}" xmlns:r="{rel}"><sheets>'
                                  f'{"".join(entries)}</sheets></workbook>')
    members["xl/_rels/workbook.xml.rels"] = (
        '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        f'{"".join(relations)}</Relationships>')
    members["xl/sharedStrings.xml"] = (
        f'<sst xmlns="{main}">{"".join(f"<si><t>{s}</t></si>" for s in shared)}</sst>')
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as book:
        for member, text in members.items():
            book.writestr(member, text)
    return buffer.getvalue()


def _mfeat_files():
    """Six PMLB-like files of two rows: digits 0 and 7 (pixel file 0-9, the others 1-10)."""
    widths = (2, 1, 1, 2, 1, 1)
    files = []
    for k, width in enumerate(widths):
        header = "\t".join([f"a{j}" for j in range(width)] + ["target"])
        offset = 0 if k == 3 else 1
        rows = ["\t".join([f"{k}.{j}0" for j in range(width)] + [str(0 + offset)]),
                "\t".join([f"-{k}.5" for _ in range(width)] + [f"{7 + offset}.0"])]
        files.append(_gz("\n".join([header, *rows]) + "\n"))
    return files


def _semeion_line(digit, pixels):
    bits = ["0"] * 10
    bits[digit] = "1"
    return " ".join(pixels + bits)


_PIXELS_A = ["1.0000", "0.0000"] * 128
_PIXELS_B = ["0.0000", "1.0000"] * 128
_SEMEION_CSV = ("f" + ",f".join(str(j) for j in range(256)) + ",class\n"
                + ",".join(["1", "0"] * 128) + ",3\n" + ",".join(["0", "1"] * 128) + ",0\n")

# converter -> (source files' bytes, the CSV text they must give), worked out by hand
CASES = {
    "csv": ([b"1.50,2,a\n3.25,-4.0,b\n"], "f0,f1,class\n1.5,2,a\n3.25,-4,b\n"),
    "csv_header": ([b"x,y,label\n0.1000,7,R\n1e-06,0.123456789012,M\n"],
                   "f0,f1,class\n0.1,7,R\n1e-06,0.123456789,M\n"),
    "whitespace": ([b"   1   6  12   1 \n   2  48   2   2 \n"],
                   "f0,f1,f2,class\n1,6,12,1\n2,48,2,2\n"),
    "pmlb": ([_gz("A1\tA2\ttarget\n1\t27.580\t1\n2.0\t0.5\t0\n")],
             "f0,f1,class\n1,27.58,1\n2,0.5,0\n"),
    "mfeat": (_mfeat_files(),
              "f0,f1,f2,f3,f4,f5,f6,f7,class\n"
              "0,0.1,1,2,3,3.1,4,5,0\n-0.5,-0.5,-1.5,-2.5,-3.5,-3.5,-4.5,-5.5,7\n"),
    "mat": ([_mat(X=np.array([[0.25, 1.0 / 3.0], [2.0, -1.5]]), Y=np.array([[1], [2]]))],
            "f0,f1,class\n0.25,0.3333333333,1\n2,-1.5,2\n"),
    "gas": ([b"2 1 12714.609900 2 -3.000000\n5 1 0.500000 2 7.250000\n"],
            "f0,f1,class\n12714.6099,-3,2\n0.5,7.25,5\n"),
    "musk": ([b"MUSK-188,188_1+1,42,-198,1.\nNON-MUSK-j146,j146_2+1,40,-3,0.\n"],
             "f0,f1,class\n42,-198,1\n40,-3,0\n"),
    "semeion": ([(_semeion_line(3, _PIXELS_A) + " \r\n" + _semeion_line(0, _PIXELS_B)
                  + " \r\n").encode()], _SEMEION_CSV),
    "splice": ([b"C,A,G,T,EI\nD,N,R,S,N\n"], "f0,f1,f2,f3,class\n1,0,2,3,EI\n4,5,6,7,N\n"),
    "urban": ([b"class,a,b\ncar ,1.27,91\n", b"class,a,b\ntree ,0.5,-2\ngrass ,3,4.0\n"],
              "f0,f1,class\n1.27,91,car\n0.5,-2,tree\n3,4,grass\n"),
    "lsvt_xlsx": ([_xlsx({"Data": [["F0_abs", "F0_pct"], [0.08811235311234, 2.5],
                                   [-3.7233044811e-06, 47.0]],
                          "Binary response": [["Binary class"], [1], [2]],
                          "Subject demographics": [["Age"], [60], [70]]})],
                  "f0,f1,class\n0.08811235311,2.5,1\n-3.723304481e-06,47,2\n"),
}


def _mirror(root, files):
    """Lay ``{path: bytes}`` out as ``<root>/<REPO>/<COMMIT>/<path>``; the mirror's URL."""
    for path, data in files.items():
        target = root / REPO / COMMIT / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
    return root.resolve().as_uri()


def _source(name, converter, blobs, expected_csv):
    files = tuple(SourceFile(REPO, COMMIT, f"{name}/part {k}.bin", _sha(blob))
                  for k, blob in enumerate(blobs))
    return DatasetSource(name, converter, _sha(expected_csv.encode()), files)


def _setup(tmp_path, cases=CASES):
    """A mirror and a table of one dataset per case."""
    table, files = {}, {}
    for converter, (blobs, expected) in cases.items():
        name = f"toy_{converter}"
        table[name] = _source(name, converter, blobs, expected)
        files.update({f.path: blob for f, blob in zip(table[name].files, blobs)})
    return table, _mirror(tmp_path / "mirror", files)


@pytest.mark.parametrize("converter", sorted(CASES))
def test_each_conversion_gives_the_hand_written_csv(converter):
    blobs, expected = CASES[converter]
    assert convert(converter, blobs) == expected


def test_fetch_from_a_file_mirror_writes_verified_gzipped_csv(tmp_path):
    table, mirror = _setup(tmp_path)
    out = tmp_path / "data"
    lines = []
    results = fetch_datasets(None, out, mirror=mirror, sources=table, progress=lines.append)
    assert [r.name for r in results] == list(table)
    assert {r.status for r in results} == {"fetched"}
    for converter, (_, expected) in CASES.items():
        path = out / f"toy_{converter}.csv.gz"
        raw = path.read_bytes()
        assert raw[4:8] == b"\0\0\0\0"  # mtime 0: the same data give the same bytes
        assert gzip.decompress(raw).decode() == expected
    assert len(lines) == len(table) and all("fetched" in line for line in lines)
    data = load_dataset("toy_urban", data_dir=out)
    assert data.classes.tolist() == ["car", "grass", "tree"]
    np.testing.assert_array_equal(data.X, [[1.27, 91], [0.5, -2], [3, 4]])
    assert not (out / "MANIFEST.tsv").exists()  # toy datasets have no benchmark provenance


def test_files_present_and_verified_are_not_downloaded_again(tmp_path):
    table, mirror = _setup(tmp_path, {"csv": CASES["csv"], "splice": CASES["splice"]})
    out = tmp_path / "data"
    fetch_datasets(["toy_csv"], out, mirror=mirror, sources=table)
    before = (out / "toy_csv.csv.gz").stat().st_mtime_ns
    for path in (tmp_path / "mirror").rglob("*.bin"):
        if "toy_csv" in str(path):
            path.unlink()  # a second download would fail
    results = fetch_datasets(None, out, mirror=mirror, sources=table)
    assert [(r.name, r.status) for r in results] == [("toy_csv", "present"),
                                                      ("toy_splice", "fetched")]
    assert (out / "toy_csv.csv.gz").stat().st_mtime_ns == before


def test_a_download_with_another_checksum_is_refused_naming_the_file(tmp_path):
    table, mirror = _setup(tmp_path, {"csv": CASES["csv"]})
    source = next(iter((tmp_path / "mirror").rglob("*.bin")))
    source.write_bytes(source.read_bytes().replace(b"1.50", b"1.51"))
    out = tmp_path / "data"
    with pytest.raises(ChecksumError, match=r"toy_csv/part%200\.bin: downloaded .* expected"):
        fetch_datasets("toy_csv", out, mirror=mirror, sources=table)
    assert not (out / "toy_csv.csv.gz").exists()


def test_a_conversion_with_another_checksum_is_refused_naming_the_dataset(tmp_path):
    table, mirror = _setup(tmp_path, {"csv": CASES["csv"]})
    blobs, expected = CASES["csv"]
    table["toy_csv"] = _source("toy_csv", "csv", blobs, expected.replace("3.25", "3.2"))
    out = tmp_path / "data"
    with pytest.raises(ChecksumError, match="toy_csv: the data converted from its sources"):
        fetch_datasets("toy_csv", out, mirror=mirror, sources=table)
    assert not (out / "toy_csv.csv.gz").exists()


def test_a_present_file_with_other_content_is_refused_unless_forced(tmp_path):
    table, mirror = _setup(tmp_path, {"csv": CASES["csv"]})
    out = tmp_path / "data"
    out.mkdir()
    mine = out / "toy_csv.csv.gz"
    mine.write_bytes(_gz("f0,class\n1,a\n"))
    with pytest.raises(ChecksumError, match=r"toy_csv\.csv\.gz is present but .*--force"):
        fetch_datasets("toy_csv", out, mirror=mirror, sources=table)
    assert gzip.decompress(mine.read_bytes()) == b"f0,class\n1,a\n"
    [result] = fetch_datasets("toy_csv", out, mirror=mirror, sources=table, force=True)
    assert result.status == "fetched"
    assert gzip.decompress(mine.read_bytes()).decode() == CASES["csv"][1]


def test_unknown_names_and_a_file_as_data_dir_are_refused(tmp_path):
    with pytest.raises(ValueError, match=r"unknown dataset name\(s\) \['nope'\].*'zoo'"):
        fetch_datasets(["wine", "nope"], tmp_path)
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="data_dir is not a directory"):
        fetch_datasets(["wine"], tmp_path / "file")
    with pytest.raises(ValueError, match="unknown converter 'xls'"):
        convert("xls", [b""])


def test_a_download_that_fails_names_the_url(tmp_path):
    table, _ = _setup(tmp_path, {"csv": CASES["csv"]})
    missing = (tmp_path / "empty").resolve().as_uri()
    with pytest.raises(OSError, match=r"cannot download file://.*toy_csv/part%200\.bin"):
        fetch_datasets("toy_csv", tmp_path / "data", mirror=missing, sources=table)


def test_sources_that_do_not_have_the_expected_layout_are_refused():
    with pytest.raises(ValueError, match="semeion: line 1: the last 10 values are not one-hot"):
        convert("semeion", [(" ".join(["0"] * 255 + ["1"] * 11) + "\n").encode()])
    with pytest.raises(ValueError, match=r"splice: line 2: unknown nucleotide codes \['X'\]"):
        convert("splice", [b"A,C,EI\nX,A,N\n"])
    with pytest.raises(ValueError, match="mfeat: expected 6 files"):
        convert("mfeat", _mfeat_files()[:5])
    with pytest.raises(ValueError, match="row 1 has 3 fields, row 0 has 2"):
        convert("csv", [b"1,a\n1,2,a\n"])


def test_default_data_dir_is_pymoo_fs_data_else_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("PYMOO_FS_DATA", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "mine"
    monkeypatch.delenv("PYMOO_FS_DATA")
    monkeypatch.setattr("sys.platform", "linux")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert default_data_dir() == tmp_path / "cache" / "pymoo-fs" / "datasets"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_data_dir() == Path.home() / ".cache" / "pymoo-fs" / "datasets"


def test_the_benchmark_table_names_the_34_datasets_of_the_manifest():
    from importlib import resources

    manifest = (resources.files("pymoo_fs.datasets") / "data" / "BENCHMARKS.tsv").read_text()
    files = [line.split("\t")[0] for line in manifest.splitlines()[1:]]
    assert sorted(BENCHMARK_SOURCES) == sorted(f.removesuffix(".csv.gz") for f in files)
    assert len(BENCHMARK_SOURCES) == 34
    for name, source in BENCHMARK_SOURCES.items():
        assert source.name == name
        assert re.fullmatch(r"[0-9a-f]{64}", source.sha256)
        for file in source.files:
            assert re.fullmatch(r"[0-9a-f]{40}", file.commit), name
            assert re.fullmatch(r"[0-9a-f]{64}", file.sha256), name
            assert file.url == (f"https://raw.githubusercontent.com/{file.repository}/"
                                f"{file.commit}/{file.path}")


def test_the_recorded_checksums_are_those_of_the_project_copies(shared_data_dir):
    for name, source in BENCHMARK_SOURCES.items():
        with gzip.open(shared_data_dir / f"{name}.csv.gz", "rb") as stream:
            assert _sha(stream.read()) == source.sha256, name


def test_the_real_table_fetches_wine_and_zoo_with_their_manifest_rows(shared_data_dir,
                                                                      tmp_path):
    # wine's and zoo's sources are the project's CSV text without its header row
    files = {}
    for name in ("wine", "zoo"):
        text = gzip.decompress((shared_data_dir / f"{name}.csv.gz").read_bytes())
        [file] = BENCHMARK_SOURCES[name].files
        files[(file.repository, file.commit, file.path)] = text.split(b"\n", 1)[1]
    root = tmp_path / "mirror"
    for (repo, commit, path), data in files.items():
        (root / repo / commit / path).parent.mkdir(parents=True, exist_ok=True)
        (root / repo / commit / path).write_bytes(data)
    out = tmp_path / "data"
    (out).mkdir()
    (out / "MANIFEST.tsv").write_text("file\tcitation\nmine.csv\tMe (2026)\n")
    fetch_datasets(["wine", "zoo"], out, mirror=root.as_uri())
    for name in ("wine", "zoo"):
        assert (out / f"{name}.csv.gz").read_bytes() == (
            shared_data_dir / f"{name}.csv.gz").read_bytes()
    assert load_dataset("wine", data_dir=out).citation.startswith("Aeberhard, S. & Forina")
    rows = (out / "MANIFEST.tsv").read_text().splitlines()
    assert [row.split("\t")[0] for row in rows] == ["file", "wine.csv.gz", "zoo.csv.gz",
                                                    "mine.csv"]
    assert rows[-1].split("\t")[-1] == "Me (2026)"


def test_cli_fetch_says_how_to_point_pymoo_fs_data_and_refuses_a_mismatch(
        tmp_path, monkeypatch, capsys):
    table, mirror = _setup(tmp_path, {"csv": CASES["csv"]})
    monkeypatch.setattr("pymoo_fs.datasets.fetch.BENCHMARK_SOURCES", table)
    monkeypatch.setattr("pymoo_fs.datasets.BENCHMARK_SOURCES", table)
    monkeypatch.delenv("PYMOO_FS_DATA", raising=False)
    out = tmp_path / "data"
    args = ["datasets", "fetch", "--data-dir", str(out), "--mirror", mirror]
    assert cli.main(args) == 0
    text = capsys.readouterr().out
    assert "toy_csv: fetched" in text
    assert f"export PYMOO_FS_DATA={out}" in text
    assert cli.main(args) == 0
    assert "(0 fetched, 1 already present and verified)" in capsys.readouterr().out
    (out / "toy_csv.csv.gz").write_bytes(_gz("f0,class\n1,a\n"))
    with pytest.raises(SystemExit) as stop:
        cli.main(args)
    assert stop.value.code == 1
    assert re.search(r"datasets fetch: error: .*toy_csv\.csv\.gz is present",
                     capsys.readouterr().err)
    with pytest.raises(SystemExit) as stop:
        cli.main(["datasets", "fetch", "nope", "--data-dir", str(out)])
    assert stop.value.code == 2
    assert "unknown dataset(s) nope; known: toy_csv" in capsys.readouterr().err
