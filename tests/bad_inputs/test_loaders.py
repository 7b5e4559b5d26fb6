"""Bad inputs to the dataset loaders and the splitting and scaling helpers."""

import gzip
from pathlib import Path

import numpy as np
import pytest
from scipy.io import savemat

from pymoo_fs.datasets import holdout_indices, holdout_split, load_dataset, min_max_scale
from pymoo_fs.datasets.folds import JavaRandom, WekaStratifiedKFold

from .corpus import Accepts, Case, Raises, check_case, ids

GOOD_ROWS = "a,b,class\n0.1,0.2,x\n0.3,0.4,y\n0.5,0.6,x\n0.7,0.8,y\n"


def _file(name, content):
    """A call that writes ``content`` (bytes or str) to ``tmp/name`` and loads it."""
    def call(tmp_path):
        path = tmp_path / name
        path.write_bytes(content if isinstance(content, bytes) else content.encode())
        return load_dataset(path)
    return call


def _mat(name, **variables):
    def call(tmp_path):
        path = tmp_path / name
        savemat(path, variables)
        return load_dataset(path)
    return call


def _shape(n, d, n_classes=2):
    def check(data):
        assert (data.n_samples, data.n_features, data.n_classes) == (n, d, n_classes)
    return check


_GZ = gzip.compress(GOOD_ROWS.encode())
_WIDE = np.linspace(-1, 1, 20)[:, None] * np.array([1.0, 1e308])
_LABELS = np.repeat([0, 1], 10)

CASES = [
    # ---------------------------------------------------------------- load_dataset arguments
    Case("load_dataset", "int name", "wrong type", lambda: load_dataset(3),
         Raises(ValueError, "name_or_path must be a str or path-like, got int")),
    Case("load_dataset", "None name", "wrong type", lambda: load_dataset(None),
         Raises(ValueError, "name_or_path must be a str or path-like, got NoneType")),
    Case("load_dataset", "int target", "wrong type", lambda: load_dataset("sonar", target=3),
         Raises(ValueError, r"target must be a column name \(str\) or None, got int 3")),
    Case("load_dataset", "int data_dir", "wrong type",
         lambda: load_dataset("nothing", data_dir=3),
         Raises(ValueError, "data_dir must be a str or path-like, got int")),
    Case("load_dataset", "empty name", "empty", lambda: load_dataset(""),
         Raises(ValueError, "is a directory|unknown dataset name|file not found")),
    Case("load_dataset", "unknown keyword", "unknown keyword",
         lambda: load_dataset("sonar", label="class"),
         Raises(TypeError, "unexpected keyword argument 'label'")),
    Case("load_dataset", "unknown target", "out of range",
         lambda: load_dataset("sonar", target="nope"),
         Raises(ValueError, "target column 'nope' not found in bundled sonar")),
    # ---------------------------------------------------------------- corrupt files
    Case("load_dataset", "truncated csv.gz", "corrupt file",
         _file("trunc.csv.gz", _GZ[:-12]), Raises(ValueError, r"cannot read gzipped CSV file "
                                                 r".*trunc\.csv\.gz: the file is truncated"),
         needs=("tmp_path",)),
    Case("load_dataset", "plain text named csv.gz", "corrupt file",
         _file("plain.csv.gz", GOOD_ROWS), Raises(ValueError, r"plain\.csv\.gz: the file is "
                                                  r"truncated or not gzip data"),
         needs=("tmp_path",)),
    Case("load_dataset", "empty csv.gz", "empty", _file("nothing.csv.gz", b""),
         Raises(ValueError, r"empty CSV file: .*nothing\.csv\.gz"), needs=("tmp_path",)),
    Case("load_dataset", "latin-1 csv", "corrupt file",
         _file("latin.csv", "a,b,c\n1,2,\xe9\n3,4,x\n".encode("latin-1")),
         Raises(ValueError, r"latin\.csv is not UTF-8 text \(byte 10"), needs=("tmp_path",)),
    Case("load_dataset", "empty csv", "empty", _file("empty.csv", b""),
         Raises(ValueError, r"empty CSV file: .*empty\.csv"), needs=("tmp_path",)),
    Case("load_dataset", "header only csv", "empty", _file("head.csv", "a,b,class\n"),
         Raises(ValueError, r"no data rows in .*head\.csv"), needs=("tmp_path",)),
    Case("load_dataset", "ragged csv", "wrong shape",
         _file("ragged.csv", "a,b,class\n1,2,x\n3,y\n"),
         Raises(ValueError, r"row on line 3 of .*ragged\.csv has 2 fields, header has 3"),
         needs=("tmp_path",)),
    Case("load_dataset", "text in a feature column", "string for number",
         _file("text.csv", "a,b,class\n1,two,x\n3,4,y\n"),
         Raises(ValueError, r"feature column 'b' of .*text\.csv is not numeric \(value 'two'\)"),
         needs=("tmp_path",)),
    Case("load_dataset", "inf in a feature column", "nan/inf",
         _file("inf.csv", "a,b,class\n1,inf,x\n3,4,y\n"),
         Raises(ValueError, r"features of .*inf\.csv hold 1 infinite value\(s\) in column\(s\) "
                            r"b"), needs=("tmp_path",)),
    Case("load_dataset", "missing value", "nan/inf",
         _file("gap.csv", "a,b,class\n1,,x\n3,4,y\n"),
         Raises(ValueError, r"gap\.csv hold 1 NaN \(missing\) value\(s\) in column\(s\) b"),
         needs=("tmp_path",)),
    Case("load_dataset", "missing label", "empty",
         _file("nolabel.csv", "a,b,class\n1,2,\n3,4,y\n5,6,x\n"),
         Raises(ValueError, r"1 missing class label\(s\) in .*nolabel\.csv"),
         needs=("tmp_path",)),
    Case("load_dataset", "one class", "out of range",
         _file("one.csv", "a,b,class\n1,2,x\n3,4,x\n"),
         Raises(ValueError, r"one\.csv has 1 class .*at least 2 classes"), needs=("tmp_path",)),
    Case("load_dataset", "malformed ARFF data row", "corrupt file",
         _file("bad.arff", "@relation r\n@attribute a numeric\n@attribute c {x,y}\n@data\n1\n"),
         Raises(ValueError, r"cannot read ARFF file .*bad\.arff: it is malformed or empty "
                            r"\(IndexError"), needs=("tmp_path",)),
    Case("load_dataset", "empty ARFF", "empty", _file("empty.arff", b""),
         Raises(ValueError, r"cannot read ARFF file .*empty\.arff: it is malformed or empty"),
         needs=("tmp_path",)),
    Case("load_dataset", "binary ARFF", "corrupt file", _file("bin.arff", b"\x00\xff" * 50),
         Raises(ValueError, r"cannot read ARFF file .*bin\.arff"), needs=("tmp_path",)),
    Case("load_dataset", "empty .mat", "empty", _file("empty.mat", b""),
         Raises(ValueError, r"cannot read MATLAB file .*empty\.mat: it is truncated, corrupt "
                            r"or not a \.mat file \(MatReadError"), needs=("tmp_path",)),
    Case("load_dataset", "text named .mat", "corrupt file", _file("junk.mat", b"junk" * 64),
         Raises(ValueError, r"cannot read MATLAB file .*junk\.mat"), needs=("tmp_path",)),
    Case("load_dataset", "complex X in .mat", "wrong type",
         _mat("cx.mat", X=np.array([[1 + 2j, 2], [3, 4j], [1, 1], [2, 2]]), Y=[0, 1, 0, 1]),
         Raises(ValueError, r"feature matrix 'X' of .*cx\.mat is complex \(complex128\): "
                            r"features must be real"), needs=("tmp_path",)),
    Case("load_dataset", "cell labels in .mat", "wrong type",
         _mat("cell.mat", X=np.ones((2, 2)),
              Y=np.array([np.array([1, 2]), np.array([3])], dtype=object)),
         Raises(ValueError, r"cell\.mat"), needs=("tmp_path",)),
    Case("load_dataset", ".mat without Y", "empty", _mat("nolab.mat", X=np.ones((3, 2))),
         Raises(ValueError, r"nolab\.mat must hold variables 'X' and 'Y' \(or 'y'\)"),
         needs=("tmp_path",)),
    Case("load_dataset", "unsupported extension", "wrong type", _file("data.xlsx", b"PK"),
         Raises(ValueError, r"unsupported file extension for 'data\.xlsx'"),
         needs=("tmp_path",)),
    # ---------------------------------------------------------------- header heuristics
    Case("load_dataset", "headerless, labels repeat", "odd but valid",
         _file("nohead.csv", "0.1,0.2,x\n0.3,0.4,y\n0.5,0.6,x\n0.7,0.8,y\n"),
         Accepts(_shape(4, 2), warns=r"nohead\.csv has no header row"), needs=("tmp_path",)),
    Case("load_dataset", "headerless, first label unique", "odd but valid",
         _file("uniq.csv", "1,2,z\n1,2,x\n3,4,y\n5,6,x\n3,4,y\n"),
         Accepts(_shape(4, 2), warns=r"uniq\.csv: its first row \(1, 2, z\) was read as the "
                                     r"header row"), needs=("tmp_path",)),
    Case("load_dataset", "numeric header", "odd but valid",
         _file("numhead.csv", "1,2,3\n1,2,0\n3,4,1\n5,6,0\n3,4,1\n"),
         Accepts(_shape(4, 2), warns=r"numhead\.csv: its first row \(1, 2, 3\) was read as "
                                     r"the header row"), needs=("tmp_path",)),
    Case("load_dataset", "BOM and CRLF", "odd but valid",
         _file("bom.csv", ("\ufeff" + GOOD_ROWS.replace("\n", "\r\n")).encode()),
         Accepts(_shape(4, 2)), needs=("tmp_path",)),
    # ---------------------------------------------------------------- splitting and scaling
    Case("holdout_split", "string matrix", "string for number",
         lambda: holdout_split([["a", "b"]] * 10, [0, 1] * 5),
         Raises(ValueError, "X must be a 2-D numeric array: could not convert")),
    Case("holdout_split", "range overflows", "huge",
         lambda: holdout_split(_WIDE, _LABELS, random_state=0),
         Raises(ValueError, r"column\(s\) \[1\] of X span a range that overflows float64")),
    Case("holdout_split", "bool test_size", "bool for int",
         lambda: holdout_split(np.ones((10, 2)), [0, 1] * 5, test_size=True),
         Raises(ValueError, "test_size")),
    Case("holdout_split", "string test_size", "string for number",
         lambda: holdout_split(np.ones((10, 2)), [0, 1] * 5, test_size="0.3"),
         Raises(ValueError, "test_size")),
    Case("holdout_split", "1-D X", "wrong shape",
         lambda: holdout_split(np.ones(10), [0, 1] * 5),
         Raises(ValueError, r"X must be 2-D \(n_samples, n_features\)")),
    Case("min_max_scale", "range overflows", "huge", lambda: min_max_scale(_WIDE),
         Raises(ValueError, r"column\(s\) \[1\] of X_train span a range that overflows")),
    Case("min_max_scale", "large but representable range", "odd but valid",
         lambda: min_max_scale(_WIDE / 4),
         Accepts(lambda X: np.testing.assert_allclose(X[[0, -1]], [[0, 0], [1, 1]]))),
]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_loader_input(case, request):
    check_case(case, *[request.getfixturevalue(name) for name in case.needs])


def test_headerless_row_is_not_lost_silently(tmp_path):
    # issue 26: a header-less file whose first label is unique lost that row without a word
    path = tmp_path / "uniq.csv"
    path.write_text("0.5,0.25,z\n0.1,0.2,x\n0.3,0.4,y\n0.5,0.6,x\n0.7,0.8,y\n")
    with pytest.warns(UserWarning, match=r"first row \(0\.5, 0\.25, z\) was read as the header "
                                         r"row.*add a header row"):
        data = load_dataset(path)
    assert data.feature_names == ["0.5", "0.25"]


def test_numeric_header_confirmed_by_target_does_not_warn(tmp_path, recwarn):
    path = Path(tmp_path) / "num.csv"
    path.write_text("1,2,3\n1,2,0\n3,4,1\n5,6,0\n")
    data = load_dataset(path, target="3")
    assert data.classes.tolist() == [0, 1]
    assert not [w for w in recwarn if issubclass(w.category, UserWarning)]


def test_dataset_of_strings_is_named():
    from pymoo_fs.datasets import Dataset

    case = Case("Dataset", "string matrix", "string for number",
                lambda: Dataset(X=[["a", "b"]], y=[0], classes=["x"], feature_names=["a", "b"]),
                Raises(ValueError, "X must be a numeric 2-D array: could not convert"))
    check_case(case)


FOLD_CASES = [
    Case("holdout_indices", "None labels", "empty", lambda: holdout_indices(None),
         Raises(ValueError, r"y must be a non-empty 1-D array of labels, got shape \(\)")),
    Case("holdout_indices", "no labels", "empty", lambda: holdout_indices([]),
         Raises(ValueError, r"y must be a non-empty 1-D array of labels, got shape \(0,\)")),
    Case("holdout_indices", "2-D labels", "wrong shape",
         lambda: holdout_indices(np.zeros((10, 2))),
         Raises(ValueError, r"y must be a non-empty 1-D array of labels, got shape \(10, 2\)")),
    Case("JavaRandom", "float seed", "wrong type", lambda: JavaRandom(1.5),
         Raises(ValueError, r"seed must be an int \(a Java long\), got 1\.5")),
    Case("JavaRandom", "string seed", "string for number", lambda: JavaRandom("42"),
         Raises(ValueError, r"seed must be an int \(a Java long\), got '42'")),
    Case("JavaRandom", "huge seed", "odd but valid", lambda: JavaRandom(2**80 + 42).next_int(10),
         Accepts(lambda v: v == JavaRandom(42 + (2**80 % 2**48)).next_int(10)
                 or pytest.fail(str(v)))),
    Case("WekaStratifiedKFold", "n_splits True", "bool for int",
         lambda: WekaStratifiedKFold(True),
         Raises(ValueError, "n_splits must be an int >= 2, got True")),
    Case("WekaStratifiedKFold", "more folds than samples", "out of range",
         lambda: list(WekaStratifiedKFold(5).split(np.ones((3, 1)), [0, 1, 0])),
         Raises(ValueError, "n_splits=5 folds need at least 5 samples, got 3")),
    Case("WekaStratifiedKFold", "random_state as a string", "string for number",
         lambda: WekaStratifiedKFold(3, random_state="1"),
         Raises(ValueError, "random_state must be an int or None, got '1'")),
]


@pytest.mark.parametrize("case", FOLD_CASES, ids=ids(FOLD_CASES))
def test_fold_input(case):
    check_case(case)


@pytest.mark.parametrize("preset, where", [("S000", "the dataset"),
                                           ("S003", "the training part")])
def test_study_scaling_names_a_column_whose_range_overflows(preset, where):
    from pymoo_fs.studies import PRESETS
    from pymoo_fs.studies.protocols import prepare_split

    X = np.linspace(-1, 1, 20)[:, None] * np.array([1.0, 1e308])
    train = np.r_[0:7, 13:20]  # both extremes in the training part
    with pytest.raises(ValueError, match=rf"column\(s\) \[1\] of {where} span a range that "
                                         rf"overflows float64"):
        prepare_split(X, _LABELS, train, np.arange(7, 13), PRESETS[preset])
