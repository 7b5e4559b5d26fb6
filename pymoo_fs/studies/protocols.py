"""The evaluation protocol of a study: outer splits, scaling, and the problem of each split.

References
----------
A.-D. Li, B. Xue, M. Zhang, "A forward search inspired particle swarm optimization
algorithm for feature selection in classification", IEEE CEC 2021, pp. 786-793,
doi:10.1109/CEC45853.2021.9504949.
"""

import weakref

import numpy as np
from sklearn.model_selection import KFold, StratifiedKFold, train_test_split

from pymoo_fs.datasets import WekaStratifiedKFold, holdout_indices, load_dataset
from pymoo_fs.evaluation.base import REGRESSION_SCORINGS
from pymoo_fs.datasets.splitting import _fit_scaler
from pymoo_fs.seeds import run_seed

__all__ = ["data_fingerprint", "is_regression", "load_dataset_cached", "outer_splits",
           "prepare_split", "make_problem"]


def is_regression(protocol):
    """Whether a protocol scores a real-valued target (its ``scoring`` is a regression
    scoring: ``"neg_mean_squared_error"``, ``"neg_mean_absolute_error"`` or ``"r2"``).

    Parameters
    ----------
    protocol : Protocol

    Returns
    -------
    bool
    """
    return getattr(protocol, "scoring", None) in REGRESSION_SCORINGS


def outer_splits(y, protocol, seed, dataset):
    """The training/test index pairs of one dataset under a protocol.

    Parameters
    ----------
    y : ndarray of int, shape (n,)
        Encoded labels.
    protocol : Protocol
    seed : int
        The study seed.
    dataset : str
        The dataset's name: the splits depend on (seed, dataset) only, so every algorithm and
        every run sees the same splits (paired comparisons).

    Returns
    -------
    splits : list of (ndarray, ndarray)
        One pair for a hold-out split (stratified, ``protocol.test_size``; for a regression
        protocol, :func:`is_regression`, shuffled without stratification, and the outer
        folds are ``KFold(outer_folds, shuffle=True)``), ``outer_folds``
        pairs for an outer stratified k-fold cross-validation (scikit-learn's
        ``StratifiedKFold``, or Weka's folds with ``protocol.stratification="weka"``). Indices
        sorted.

    Raises
    ------
    ValueError
        When a class is too small for the stratified split (scikit-learn's message, prefixed
        with the dataset's name).
    """
    rs = run_seed(seed, "outer split", dataset)
    index = np.arange(y.shape[0])
    if is_regression(protocol):
        # a real-valued target: shuffled, not stratified (no classes)
        if protocol.split == "holdout":
            train, test = train_test_split(index, test_size=protocol.test_size,
                                           random_state=rs)
            return [(np.sort(train), np.sort(test))]
        folds = KFold(protocol.outer_folds, shuffle=True, random_state=rs)
        return [(np.sort(a), np.sort(b)) for a, b in folds.split(index)]
    try:
        if protocol.split == "holdout":
            return [holdout_indices(y, protocol.test_size, rs)]
        if protocol.stratification == "weka":
            folds = WekaStratifiedKFold(protocol.outer_folds, random_state=rs)
        else:
            folds = StratifiedKFold(protocol.outer_folds, shuffle=True, random_state=rs)
        return [(np.sort(a), np.sort(b)) for a, b in folds.split(index, y)]
    except ValueError as exc:
        hint = ("; stratification = 'weka' deals Weka's folds, which take any class size"
                if protocol.split == "outer_cv" and protocol.stratification == "sklearn" else "")
        raise ValueError(f"dataset {dataset!r} cannot be split by the protocol: {exc}"
                         f"{hint}") from None


def prepare_split(X, y, train, test, protocol):
    """Scaled training and test parts of one split.

    Parameters
    ----------
    X : ndarray of float64, shape (n, D)
    y : ndarray, shape (n,)
    train, test : ndarray of int
        Indices from :func:`outer_splits`.
    protocol : Protocol
        ``scaling="minmax"`` fits a [0, 1] min-max scaler on the training part;
        ``"symmetric_whole"`` scales the whole dataset to [-1, 1] before splitting (Li et al. 2021);
        ``"none"`` leaves the values as they are.

    Returns
    -------
    X_train, y_train, X_test, y_test : ndarray
        Features float64, C-contiguous.

    Raises
    ------
    ValueError
        If a column's range ``max - min`` overflows float64 (min-max scaling would map it
        to a constant); the message names the columns.
    """
    if protocol.scaling == "symmetric_whole":
        X = _fit_scaler(X, "the dataset", feature_range=(-1, 1)).transform(X)
    X_train, X_test = X[train], X[test]
    if protocol.scaling == "minmax":
        scaler = _fit_scaler(X_train, "the training part")
        X_train, X_test = scaler.transform(X_train), scaler.transform(X_test)
    return (np.ascontiguousarray(X_train, dtype=np.float64), y[train],
            np.ascontiguousarray(X_test, dtype=np.float64), y[test])


def make_problem(protocol, X_train, y_train, X_test, y_test, seed, dataset, fold,
                 n_threads=None):
    """The feature-selection problem of one split: the protocol's objective, built on it.

    Parameters
    ----------
    protocol : Protocol
    X_train, y_train, X_test, y_test : ndarray
        From :func:`prepare_split`.
    seed : int
        The study seed; the inner folds are shuffled with
        ``run_seed(seed, "inner folds", dataset, fold)``.
    dataset : str
    fold : int
        Index of the outer split.
    n_threads : int, optional
        Threads of the evaluator (default: all).

    Returns
    -------
    problem : FeatureSelectionProblem
        ``protocol.objective.build(...)``
        (:meth:`~pymoo_fs.problems.objectives.Objective.build`) with the protocol's k, inner
        CV and scoring, the test part attached; what the objective's algorithms read (e.g. the
        SU ranking of FIT-B and FIT-E) is computed here, on this training part alone, before
        the timed search, as the seeds do.
    """
    return protocol.objective.build(
        X_train, y_train, X_test, y_test, n_neighbors=protocol.n_neighbors,
        inner_cv=protocol.inner_cv, scoring=protocol.scoring,
        random_state=run_seed(seed, "inner folds", dataset, fold), n_threads=n_threads)


_datasets = {}


def load_dataset_cached(dataset, data_dir=None, target=None, regression=False):
    """:func:`pymoo_fs.datasets.load_dataset`, read once per process (warnings shown once).

    Parameters
    ----------
    dataset : str
        A name or path.
    data_dir : str, optional
    target : str, optional
        The class column (``load_dataset``'s ``target``); default the last one.
    regression : bool, default=False
        Read the target as real numbers (:func:`pymoo_fs.datasets.load_regression_dataset`;
        the regression names ``"diabetes"`` and ``"concrete"`` are read so either way).

    Returns
    -------
    dataset : Dataset or RegressionDataset
        Read again when the file changed (its size, modification time or inode), or when
        ``PYMOO_FS_DATA`` or the working directory did.
    """
    import os

    from pymoo_fs.datasets.loading import DATA_ENV_VAR

    try:
        cwd = os.getcwd()
    except OSError:  # the working directory was removed
        cwd = None
    key = (dataset, data_dir, target, bool(regression), os.environ.get(DATA_ENV_VAR), cwd)
    cached = _datasets.get(key)
    if cached is None or _file_state(cached[0].source) != cached[1]:  # edited: read again
        if regression:
            from pymoo_fs.datasets import load_regression_dataset

            data = load_regression_dataset(dataset, data_dir=data_dir, target=target)
        else:
            data = load_dataset(dataset, data_dir=data_dir, target=target)
        cached = _datasets[key] = (data, _file_state(data.source))
    return cached[0]


def _file_state(source):
    """What tells a file's versions apart without reading it: size, mtime and inode."""
    import os

    if not source or source.startswith("bundled "):
        return None
    try:
        st = os.stat(source)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


_fingerprints = weakref.WeakKeyDictionary()


def dataset_fingerprint(dataset):
    """:func:`data_fingerprint` of a loaded dataset, computed once per object."""
    found = _fingerprints.get(dataset)
    if found is None:
        found = _fingerprints[dataset] = data_fingerprint(dataset)
    return dict(found)


def data_fingerprint(dataset):
    """The identity of a dataset's content as loaded, what a study stores to tell data apart.

    Parameters
    ----------
    dataset : pymoo_fs.datasets.Dataset

    Returns
    -------
    fingerprint : dict
        ``"sha256"``: the SHA-256 of the feature matrix (its shape and float64 values, C
        order), the integer codes ``y`` (int64) and the class labels (as text), or for a
        regression target its values (float64); ``"source"``:
        where it was read from (:attr:`~pymoo_fs.datasets.Dataset.source`, an absolute path or
        ``"bundled NAME.csv.gz"``); ``"n_samples"``, ``"n_features"``, ``"n_classes"``. Equal
        data give equal hashes whatever the file's format or folder; one changed value, row,
        column or label gives another.

    Examples
    --------
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.studies.protocols import data_fingerprint
    >>> fp = data_fingerprint(load_dataset("sonar"))
    >>> fp["source"], fp["n_samples"], len(fp["sha256"])
    ('bundled sonar.csv.gz', 208, 64)
    """
    import hashlib

    digest = hashlib.sha256()
    X = np.ascontiguousarray(dataset.X, dtype=np.float64)
    digest.update(repr(X.shape).encode())
    digest.update(X.tobytes())
    if getattr(dataset, "target_type", "classification") == "regression":
        digest.update(b"regression\x00")
        digest.update(np.ascontiguousarray(dataset.y, dtype=np.float64).tobytes())
    else:
        digest.update(np.ascontiguousarray(dataset.y, dtype=np.int64).tobytes())
        digest.update("\x00".join(str(c) for c in dataset.classes.tolist()).encode())
    return {"sha256": digest.hexdigest(), "source": dataset.source,
            "n_samples": int(X.shape[0]), "n_features": int(X.shape[1]),
            "n_classes": int(dataset.n_classes)}
