"""Tests of pymoo_fs.datasets.loading: bundled data, data directories, file formats, errors."""

import gzip

import numpy as np
import pytest
from scipy.io import savemat

from pymoo_fs.datasets import DATA_ENV_VAR, Dataset, list_datasets, load_dataset


@pytest.fixture
def no_env_dir(monkeypatch):
    """Make name resolution independent of the caller's PYMOO_FS_DATA."""
    monkeypatch.delenv(DATA_ENV_VAR, raising=False)


def _write_csv(path, header, rows):
    lines = [",".join(header)] + [",".join(str(v) for v in row) for row in rows]
    text = "\n".join(lines) + "\n"
    if str(path).endswith(".gz"):
        with gzip.open(path, "wt") as stream:
            stream.write(text)
    else:
        path.write_text(text)
    return path


def _toy_rows():
    return [[1.0, 2.5, "a"], [0.5, -1.0, "b"], [3.0, 0.0, "a"], [2.0, 4.0, "b"]]


# ----------------------------------------------------------------------------------------------
# bundled datasets
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "name, shape, classes, counts, doi",
    [
        ("musk1", (476, 166), [0, 1], [269, 207], "10.24432/C5ZK5B"),
        ("sonar", (208, 60), ["M", "R"], [111, 97], "10.24432/C5T01Q"),
    ],
)
def test_bundled_dataset_matches_manifest(no_env_dir, name, shape, classes, counts, doi):
    data = load_dataset(name)
    assert isinstance(data, Dataset)
    assert data.name == name
    assert data.X.shape == shape
    assert (data.n_samples, data.n_features) == shape
    assert data.X.dtype == np.float64 and data.X.flags.c_contiguous
    assert data.y.dtype == np.int64 and data.y.shape == (shape[0],)
    assert data.classes.tolist() == classes
    assert data.n_classes == 2
    assert np.bincount(data.y).tolist() == counts
    assert len(data.feature_names) == shape[1]
    assert data.feature_names[0] == "f0"
    assert doi in data.citation
    assert np.isfinite(data.X).all()


def test_classes_indexed_by_y_give_original_labels(no_env_dir):
    data = load_dataset("sonar")
    labels = data.classes[data.y]
    assert set(labels.tolist()) == {"M", "R"}
    assert (labels == "M").sum() == 111


def test_list_datasets_has_bundled_names_without_data_dir(no_env_dir):
    assert list_datasets() == ["musk1", "sonar"]


def test_dataset_rejects_inconsistent_fields():
    with pytest.raises(ValueError, match="feature_names has 1 names for 2"):
        Dataset(X=np.zeros((3, 2)), y=[0, 1, 0], classes=["a", "b"], feature_names=["x"])
    with pytest.raises(ValueError, match="integer codes in 0..1"):
        Dataset(X=np.zeros((3, 2)), y=[0, 2, 0], classes=["a", "b"], feature_names=["x", "z"])
    with pytest.raises(ValueError, match="y must have shape"):
        Dataset(X=np.zeros((3, 2)), y=[0, 1], classes=["a", "b"], feature_names=["x", "z"])


# ----------------------------------------------------------------------------------------------
# data directory (the shared benchmark datasets)
# ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize(
    "name, shape, n_classes", [("wine", (178, 13), 3), ("zoo", (101, 16), 7),
                               ("srbct", (83, 2308), 4)]
)
def test_load_by_name_from_data_dir(no_env_dir, shared_data_dir, name, shape, n_classes):
    data = load_dataset(name, data_dir=shared_data_dir)
    assert data.name == name
    assert data.X.shape == shape
    assert data.n_classes == n_classes
    assert data.citation != ""


def test_load_by_name_from_env_dir(monkeypatch, shared_data_dir):
    monkeypatch.setenv(DATA_ENV_VAR, str(shared_data_dir))
    data = load_dataset("wine")
    assert data.X.shape == (178, 13)
    assert data.classes.tolist() == [1, 2, 3]
    assert np.bincount(data.y).tolist() == [59, 71, 48]


def test_list_datasets_includes_data_dir_names(monkeypatch, shared_data_dir):
    monkeypatch.delenv(DATA_ENV_VAR, raising=False)
    names = list_datasets(shared_data_dir)
    assert {"wine", "zoo", "srbct", "musk1", "sonar"} <= set(names)
    assert names == sorted(names)
    assert "MANIFEST" not in names
    monkeypatch.setenv(DATA_ENV_VAR, str(shared_data_dir))
    assert list_datasets() == names


def test_load_by_path_reads_manifest_next_to_file(shared_data_dir):
    data = load_dataset(str(shared_data_dir / "zoo.csv.gz"))
    assert data.name == "zoo"
    assert data.X.shape == (101, 16)
    assert "Zoo" in data.citation


def test_bundled_name_wins_over_data_dir(tmp_path):
    _write_csv(tmp_path / "sonar.csv", ["a", "b", "class"], _toy_rows())
    assert load_dataset("sonar", data_dir=tmp_path).X.shape == (208, 60)


def test_data_dir_citation_from_manifest(tmp_path):
    _write_csv(tmp_path / "toy.csv", ["a", "b", "class"], _toy_rows())
    (tmp_path / "MANIFEST.tsv").write_text("file\tname\tcitation\ntoy.csv\tToy\tMe (2024)\n")
    assert load_dataset("toy", data_dir=tmp_path).citation == "Me (2024)"
    assert list_datasets(tmp_path) == ["musk1", "sonar", "toy"]


# ----------------------------------------------------------------------------------------------
# file formats
# ----------------------------------------------------------------------------------------------

def test_csv_with_class_in_last_column(tmp_path):
    path = _write_csv(tmp_path / "toy.csv", ["a", "b", "label"], _toy_rows())
    data = load_dataset(path)
    assert data.name == "toy"
    assert data.citation == ""
    assert data.feature_names == ["a", "b"]
    np.testing.assert_array_equal(data.X, [[1.0, 2.5], [0.5, -1.0], [3.0, 0.0], [2.0, 4.0]])
    assert data.classes.tolist() == ["a", "b"]
    assert data.y.tolist() == [0, 1, 0, 1]


def test_csv_with_target_column_in_the_middle(tmp_path):
    rows = [[1, 10, 7], [2, 20, 8], [3, 10, 9], [4, 20, 10]]
    path = _write_csv(tmp_path / "mid.csv", ["a", "cls", "b"], rows)
    data = load_dataset(str(path), target="cls")
    assert data.feature_names == ["a", "b"]
    np.testing.assert_array_equal(data.X, [[1, 7], [2, 8], [3, 9], [4, 10]])
    assert data.classes.tolist() == [10, 20]
    assert data.classes.dtype == np.int64
    assert data.y.tolist() == [0, 1, 0, 1]


def test_numeric_labels_sort_numerically(tmp_path):
    rows = [[0.1, 2], [0.2, 10], [0.3, 2], [0.4, 10]]
    data = load_dataset(_write_csv(tmp_path / "n.csv", ["a", "class"], rows))
    assert data.classes.tolist() == [2, 10]


def test_gzipped_csv(tmp_path):
    path = _write_csv(tmp_path / "toy.csv.gz", ["a", "b", "class"], _toy_rows())
    data = load_dataset(path)
    assert data.name == "toy"
    assert data.X.shape == (4, 2)
    assert data.classes.tolist() == ["a", "b"]


def test_arff_with_nominal_class(tmp_path):
    path = tmp_path / "weather.arff"
    path.write_text(
        "% a hand-written ARFF file\n"
        "@RELATION weather\n\n"
        "@ATTRIBUTE temperature NUMERIC\n"
        "@ATTRIBUTE humidity REAL\n"
        "@ATTRIBUTE play {yes,no}\n\n"
        "@DATA\n"
        "85,85,no\n80,90,no\n83,86,yes\n70,96,yes\n68,80,yes\n"
    )
    data = load_dataset(path)
    assert data.name == "weather"
    assert data.feature_names == ["temperature", "humidity"]
    assert data.X.shape == (5, 2) and data.X.dtype == np.float64
    assert data.X[0].tolist() == [85.0, 85.0]
    assert data.classes.tolist() == ["no", "yes"]
    assert data.classes[data.y].tolist() == ["no", "no", "yes", "yes", "yes"]


def test_arff_target_attribute_by_name(tmp_path):
    path = tmp_path / "t.arff"
    path.write_text(
        "@RELATION t\n@ATTRIBUTE kind {x,y}\n@ATTRIBUTE v NUMERIC\n@DATA\nx,1\ny,2\nx,3\n"
    )
    data = load_dataset(path, target="kind")
    assert data.feature_names == ["v"]
    assert data.y.tolist() == [0, 1, 0]


@pytest.mark.parametrize("label_key, label_shape", [("Y", (6, 1)), ("Y", (1, 6)), ("y", (6,))])
def test_mat_file(tmp_path, rng, label_key, label_shape):
    X = rng.normal(size=(6, 3))
    labels = np.array([1.0, 2.0, 1.0, 2.0, 2.0, 1.0])
    path = tmp_path / "m.mat"
    savemat(path, {"X": X, label_key: labels.reshape(label_shape)})
    data = load_dataset(path)
    assert data.name == "m"
    np.testing.assert_array_equal(data.X, X)
    assert data.classes.tolist() == [1, 2]
    assert data.y.tolist() == [0, 1, 0, 1, 1, 0]
    assert data.feature_names == ["f0", "f1", "f2"]


# ----------------------------------------------------------------------------------------------
# errors
# ----------------------------------------------------------------------------------------------

def test_missing_path_names_it(tmp_path):
    path = tmp_path / "nope.csv"
    with pytest.raises(ValueError, match=r"file not found: .*nope\.csv"):
        load_dataset(str(path))
    with pytest.raises(ValueError, match=r"file not found: .*nope\.csv"):
        load_dataset(path)


def test_unknown_name_lists_known_names(no_env_dir):
    with pytest.raises(ValueError, match=r"unknown dataset name 'no_such_data'.*known names: "
                                         r"\['musk1', 'sonar'\]"):
        load_dataset("no_such_data")


def test_unknown_name_lists_data_dir_names(tmp_path):
    _write_csv(tmp_path / "toy.csv", ["a", "b", "class"], _toy_rows())
    with pytest.raises(ValueError, match=r"known names: \['musk1', 'sonar', 'toy'\]"):
        load_dataset("no_such_data", data_dir=tmp_path)


def test_data_dir_that_is_not_a_directory(tmp_path):
    with pytest.raises(ValueError, match="data_dir is not a directory"):
        load_dataset("wine", data_dir=tmp_path / "absent")


def test_non_numeric_feature_column_is_named(tmp_path):
    rows = [[1, "x", "a"], [2, "y", "b"], [3, "x", "a"]]
    path = _write_csv(tmp_path / "bad.csv", ["a", "colour", "class"], rows)
    with pytest.raises(ValueError, match=r"feature column 'colour' .* is not numeric"):
        load_dataset(path)


def test_nan_values_counted_and_columns_named(tmp_path):
    rows = [[1, "", 5, "a"], [2, 3, "nan", "b"], [3, "", 4, "a"], [4, 1, 2, "b"]]
    path = _write_csv(tmp_path / "nan.csv", ["a", "b", "c", "class"], rows)
    with pytest.raises(ValueError, match=r"3 NaN \(missing\) value\(s\) in column\(s\) b, c"):
        load_dataset(path)


def test_infinite_values_rejected(tmp_path):
    rows = [[1, "inf", "a"], [2, 3, "b"], [3, "-inf", "a"]]
    path = _write_csv(tmp_path / "inf.csv", ["a", "b", "class"], rows)
    with pytest.raises(ValueError, match=r"2 infinite value\(s\) in column\(s\) b"):
        load_dataset(path)


def test_single_class_rejected(tmp_path):
    rows = [[1, 2, "a"], [2, 3, "a"], [3, 4, "a"]]
    path = _write_csv(tmp_path / "one.csv", ["a", "b", "class"], rows)
    with pytest.raises(ValueError, match="at least 2 classes"):
        load_dataset(path)


def test_missing_class_label_rejected(tmp_path):
    rows = [[1, 2, "a"], [2, 3, ""], [3, 4, "b"]]
    path = _write_csv(tmp_path / "lab.csv", ["a", "b", "class"], rows)
    with pytest.raises(ValueError, match="1 missing class label"):
        load_dataset(path)


def test_unsupported_extension(tmp_path):
    path = tmp_path / "data.xlsx"
    path.write_text("a,b\n1,2\n")
    with pytest.raises(ValueError, match=r"unsupported file extension for 'data\.xlsx'"):
        load_dataset(path)


def test_unknown_target_column(tmp_path):
    path = _write_csv(tmp_path / "toy.csv", ["a", "b", "class"], _toy_rows())
    with pytest.raises(ValueError, match="target column 'label' not found"):
        load_dataset(path, target="label")


def test_ragged_csv_rejected(tmp_path):
    path = tmp_path / "ragged.csv"
    path.write_text("a,b,class\n1,2,a\n3,b\n")
    with pytest.raises(ValueError, match="line 3 .* has 2 fields, header has 3"):
        load_dataset(path)


def test_mat_without_labels(tmp_path):
    path = tmp_path / "nolabels.mat"
    savemat(path, {"X": np.ones((3, 2)), "Z": np.ones(3)})
    with pytest.raises(ValueError, match=r"must hold variables 'X' and 'Y' \(or 'y'\)"):
        load_dataset(path)


def test_mat_label_count_mismatch(tmp_path):
    path = tmp_path / "short.mat"
    savemat(path, {"X": np.ones((3, 2)), "Y": np.array([[1.0, 2.0]])})
    with pytest.raises(ValueError, match="must have 3 labels"):
        load_dataset(path)


# ----------------------------------------------------------------------------------------------
# header-less CSV files and directories (bad-input corpus)
# ----------------------------------------------------------------------------------------------

def _write_rows(path, rows):
    path.write_text("\n".join(",".join(str(v) for v in row) for row in rows) + "\n")
    return path


@pytest.mark.parametrize("labels", [[1, 2, 1, 2], ["R", "M", "M", "R"]])
def test_csv_without_header_reads_first_row_as_data_and_warns(tmp_path, labels):
    values = [[0.5, 1.0, 2.0], [1.5, -1.0, 0.0], [2.5, 3.0, 1.0], [0.0, 0.25, 4.0]]
    path = _write_rows(tmp_path / "nohead.csv", [v + [c] for v, c in zip(values, labels)])
    with pytest.warns(UserWarning, match=r"nohead\.csv has no header row .* named the "
                                         r"features f0\.\.f2 and took the last column"):
        data = load_dataset(path)
    assert data.feature_names == ["f0", "f1", "f2"]
    np.testing.assert_array_equal(data.X, values)
    assert data.n_samples == 4
    assert data.classes[data.y].tolist() == labels


def test_csv_without_header_gzipped_and_by_name(tmp_path):
    rows = [[0.1, 0.2, "a"], [0.3, 0.4, "b"], [0.5, 0.6, "a"], [0.7, 0.8, "b"]]
    with gzip.open(tmp_path / "toy.csv.gz", "wt") as stream:
        stream.write("\n".join(",".join(map(str, r)) for r in rows) + "\n")
    with pytest.warns(UserWarning, match=r"toy\.csv\.gz has no header row"):
        data = load_dataset("toy", data_dir=tmp_path)
    assert data.X.shape == (4, 2) and data.feature_names == ["f0", "f1"]


def test_header_with_numeric_feature_names_and_a_class_name_is_kept(tmp_path):
    # "0,1,class": numeric feature names, but "class" is no label of any row: a header, and
    # a warning says so (the same row could be data with a one-member class)
    path = _write_csv(tmp_path / "named.csv", ["0", "1", "class"], _toy_rows())
    with pytest.warns(UserWarning, match=r"named\.csv: its first row \(0, 1, class\) was read "
                                         r"as the header row"):
        data = load_dataset(path)
    assert data.feature_names == ["0", "1"] and data.n_samples == 4


def test_target_with_headerless_csv_is_an_error(tmp_path):
    path = _write_rows(tmp_path / "nohead.csv", [[1, 2, 0], [3, 4, 1], [5, 6, 0]])
    with pytest.raises(ValueError, match=r"target='class' cannot be used with .*nohead\.csv: "
                                         r"it has no header row"):
        load_dataset(path, target="class")


def test_target_naming_a_numeric_header_cell_keeps_the_header(tmp_path, recwarn):
    rows = [[1, 10, 7], [2, 20, 8], [3, 10, 9], [4, 20, 10]]
    path = _write_csv(tmp_path / "num.csv", ["0", "1", "2"], rows)
    data = load_dataset(path, target="1")
    assert data.feature_names == ["0", "2"] and data.classes.tolist() == [10, 20]
    assert not [w for w in recwarn if issubclass(w.category, UserWarning)]


def test_directory_as_dataset_path_says_directory(tmp_path, no_env_dir):
    folder = tmp_path / "data.csv"
    folder.mkdir()
    for arg in (str(folder), folder, str(tmp_path)):
        with pytest.raises(ValueError, match=r"is a directory, not a file: expected a "
                                             r"\.csv\.gz, \.csv, \.arff, \.mat file"):
            load_dataset(arg)


def test_bare_name_of_a_directory_says_directory(tmp_path, no_env_dir, monkeypatch):
    (tmp_path / "wine").mkdir()
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=r"'.*wine' is a directory.*pass it as data_dir"):
        load_dataset("wine")
