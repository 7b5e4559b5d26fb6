"""Real regression datasets: a real-valued target instead of classes.

Two are loadable by name: ``"diabetes"`` (scikit-learn's, which ships with it: Efron et al.
2004, 442 patients x 10 baseline variables, target a measure of disease progression one year
later) and ``"concrete"`` (bundled: UCI's Concrete Compressive Strength, Yeh 1998, 1,030
mixtures x 8 inputs, target the compressive strength in MPa; provenance in the bundled
``MANIFEST.tsv``). Files with a real-valued target are read by
:func:`load_regression_dataset` with the readers of :func:`~pymoo_fs.datasets.load_dataset`.

References
----------
B. Efron, T. Hastie, I. Johnstone, R. Tibshirani, "Least angle regression", Annals of
Statistics 32(2):407-499 (2004), doi:10.1214/009053604000000067.
I.-C. Yeh, "Modeling of strength of high-performance concrete using artificial neural
networks", Cement and Concrete Research 28(12):1797-1808 (1998),
doi:10.1016/S0008-8846(98)00165-3.
"""

import gzip
import os
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from pymoo_fs.datasets import loading

__all__ = ["REGRESSION_DATASETS", "RegressionDataset", "load_regression_dataset"]

#: names :func:`load_regression_dataset` (and :func:`~pymoo_fs.datasets.load_dataset`) know
REGRESSION_DATASETS = ("concrete", "diabetes")

_DIABETES_CITATION = (
    "Efron, B., Hastie, T., Johnstone, I. & Tibshirani, R. (2004). Least angle regression. "
    "Annals of Statistics 32(2):407-499. Distributed with scikit-learn "
    "(sklearn.datasets.load_diabetes, scaled=False; BSD-3-Clause)")


@dataclass(frozen=True, eq=False)
class RegressionDataset:
    """A dataset with a real-valued target.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features), dtype float64
        Feature values, finite.
    y : ndarray of shape (n_samples,), dtype float64
        The target, finite.
    feature_names : list of str, length n_features
    name : str, default=""
    citation : str, default=""
    relevant : ndarray of int64, optional
        For synthetic data: the indices of the features the target depends on.
    source : str, default=""
        Where the data was read from: the resolved file path, ``"bundled NAME.csv.gz"``, or
        ``"scikit-learn diabetes"`` (a study's data fingerprint records it); empty for data
        made in memory.

    Attributes
    ----------
    target_type : str
        ``"regression"`` (``Dataset`` of classes has none; the studies read it).
    classes : None
        No classes.
    n_classes : int
        0.

    Raises
    ------
    ValueError
        If ``X`` is not 2-D numeric and finite, ``y`` not one finite number per row, or
        ``feature_names`` does not name every column.

    Examples
    --------
    >>> from pymoo_fs.datasets import load_dataset
    >>> data = load_dataset("diabetes")
    >>> data.n_samples, data.n_features, data.target_type
    (442, 10, 'regression')
    """

    X: np.ndarray
    y: np.ndarray
    feature_names: list = field(default_factory=list)
    name: str = ""
    citation: str = ""
    relevant: np.ndarray | None = None
    source: str = ""

    target_type = "regression"
    classes = None
    n_classes = 0

    def __post_init__(self):
        try:
            X = np.ascontiguousarray(self.X, dtype=np.float64)
            y = np.asarray(self.y, dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise ValueError(f"X and y must be numeric: {error}") from None
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features), got shape {X.shape}")
        if y.shape != (X.shape[0],):
            raise ValueError(f"y must have shape ({X.shape[0]},) to match X, got {y.shape}")
        if not (np.isfinite(X).all() and np.isfinite(y).all()):
            raise ValueError("X and y must hold finite values (impute or drop missing ones)")
        names = [str(f) for f in self.feature_names] or [f"f{j}" for j in range(X.shape[1])]
        if len(names) != X.shape[1]:
            raise ValueError(f"feature_names has {len(names)} names for {X.shape[1]} columns")
        object.__setattr__(self, "X", X)
        object.__setattr__(self, "y", y)
        object.__setattr__(self, "feature_names", names)
        if self.relevant is not None:
            object.__setattr__(self, "relevant", np.asarray(self.relevant, dtype=np.int64))

    @property
    def n_samples(self) -> int:
        """int: number of samples."""
        return int(self.X.shape[0])

    @property
    def n_features(self) -> int:
        """int: number of features."""
        return int(self.X.shape[1])

    def __repr__(self):
        return (f"RegressionDataset(name={self.name!r}, n_samples={self.n_samples}, "
                f"n_features={self.n_features})")


def load_regression_dataset(name_or_path, data_dir=None, *, target=None):
    """Load a regression dataset by name (``"diabetes"``, ``"concrete"``) or from a file.

    Parameters
    ----------
    name_or_path : str or path-like
        A name of :data:`REGRESSION_DATASETS`, or a name or path that
        :func:`~pymoo_fs.datasets.load_dataset` resolves (CSV, gzipped CSV, ARFF, ``.mat``),
        whose target column holds real numbers.
    data_dir : str or path-like, optional
        As :func:`~pymoo_fs.datasets.load_dataset`.
    target : str, optional, keyword-only
        The target column (default the last one).

    Returns
    -------
    dataset : RegressionDataset

    Raises
    ------
    ValueError
        As :func:`~pymoo_fs.datasets.load_dataset` for an unknown name or unreadable file,
        and if the target column holds a value that is not a finite number (naming it).

    Examples
    --------
    >>> from pymoo_fs.datasets import load_regression_dataset
    >>> data = load_regression_dataset("concrete")
    >>> data.X.shape, data.feature_names[0]
    ((1030, 8), 'cement')
    """
    if name_or_path == "diabetes":
        from sklearn.datasets import load_diabetes

        raw = load_diabetes(scaled=False)
        return RegressionDataset(X=raw.data, y=raw.target, source="scikit-learn diabetes",
                                 feature_names=list(raw.feature_names),
                                 name="diabetes", citation=_DIABETES_CITATION)
    if name_or_path == "concrete":
        data = resources.files("pymoo_fs.datasets") / "data"
        filename = "concrete.csv.gz"
        citation = loading._manifest_citation(
            (data / loading._MANIFEST).read_text(encoding="utf-8"), filename)
        with (data / filename).open("rb") as stream:
            text = gzip.decompress(stream.read()).decode("utf-8")
        X, labels, names = loading._parse_csv(text, target, source=f"bundled {filename}")
        return _make(X, labels, names, "concrete", citation, f"bundled {filename}")
    path = _resolve(name_or_path, data_dir)
    kind = loading._extension(path.name)
    if kind is None:
        raise ValueError(f"unsupported file extension for {path.name!r}")
    if kind.lower() in (".csv", ".csv.gz"):
        text = loading._read_text(path, gzipped=kind.lower() == ".csv.gz")
        X, labels, names = loading._parse_csv(text, target, source=str(path))
    elif kind.lower() == ".arff":
        X, labels, names = loading._read_arff(path, target)
    else:
        X, labels, names = loading._read_mat(path)
    citation = ""
    manifest = path.parent / loading._MANIFEST
    if manifest.is_file():
        citation = loading._manifest_citation(manifest.read_text(encoding="utf-8"), path.name)
    return _make(X, labels, names, path.name[: -len(kind)], citation, str(path))


def _resolve(name_or_path, data_dir):
    """The file a name or path stands for, found as :func:`load_dataset` finds it."""
    if isinstance(name_or_path, os.PathLike):
        return Path(name_or_path)
    directory = loading._search_dir(data_dir)
    if directory is not None and Path(name_or_path).name == name_or_path:
        for ext in loading._EXTENSIONS:
            candidate = directory / (name_or_path + ext)
            if candidate.is_file():
                return candidate
    path = Path(name_or_path).expanduser()
    if not path.is_file():
        raise ValueError(f"unknown regression dataset {name_or_path!r}: not one of "
                         f"{REGRESSION_DATASETS} and not a file")
    return path


def _make(X, labels, names, name, citation, source):
    loading_names = list(names)
    try:
        y = np.asarray(labels, dtype=np.float64)
    except (TypeError, ValueError):
        bad = next(v for v in np.asarray(labels).tolist() if not _is_number(v))
        raise ValueError(f"the target of {source} must hold numbers for regression, got "
                         f"{bad!r}") from None
    if not np.isfinite(y).all():
        raise ValueError(f"the target of {source} holds {int((~np.isfinite(y)).sum())} "
                         f"missing or infinite values")
    return RegressionDataset(X=X, y=y, feature_names=loading_names, name=name,
                             citation=citation, source=str(source))


def _is_number(value):
    try:
        float(value)
    except (TypeError, ValueError):
        return False
    return True


loading.NAMED_LOADERS.update(dict.fromkeys(REGRESSION_DATASETS, load_regression_dataset))
