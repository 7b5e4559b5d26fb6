"""Real classification datasets, stratified hold-out splits and min-max scaling; real
regression datasets (``"diabetes"``, ``"concrete"``: :mod:`.regression`).

Two datasets are bundled (``musk1`` and ``sonar``, UCI, CC BY 4.0); other datasets are found by
name in a data directory (``data_dir=`` or the ``PYMOO_FS_DATA`` environment variable) or read
from a CSV, gzipped CSV, ARFF or MATLAB ``.mat`` file. The 34 benchmark datasets of the
project's studies are downloaded from their public sources, with checksums, by
:func:`fetch_datasets` (``pymoo-fs datasets fetch`` on the command line).

Examples
--------
>>> from pymoo_fs.datasets import holdout_split, load_dataset
>>> data = load_dataset("sonar")
>>> split = holdout_split(data, test_size=0.3, random_state=0)
>>> split.X_train.shape
(145, 60)
"""

import warnings

from .fetch import (
    BENCHMARK_SOURCES,
    ChecksumError,
    DatasetSource,
    FetchResult,
    SourceFile,
    default_data_dir,
    fetch_datasets,
)
from .folds import WekaStratifiedKFold
from .loading import BUNDLED_DATASETS, DATA_ENV_VAR, Dataset, list_datasets, load_dataset
from .splitting import Split, holdout_indices, holdout_split, min_max_scale
from .regression import REGRESSION_DATASETS, RegressionDataset, load_regression_dataset
from .synthetic import make_heavy_tailed, make_relevant_regression

__all__ = [
    "BENCHMARK_SOURCES",
    "BUNDLED_DATASETS",
    "ChecksumError",
    "DATA_ENV_VAR",
    "Dataset",
    "DatasetSource",
    "FetchResult",
    "SourceFile",
    "REGRESSION_DATASETS",
    "RegressionDataset",
    "Split",
    "WekaStratifiedKFold",
    "default_data_dir",
    "fetch_datasets",
    "holdout_indices",
    "holdout_split",
    "list_datasets",
    "load_dataset",
    "load_regression_dataset",
    "make_heavy_tailed",
    "make_relevant_regression",
    "min_max_scale",
]


def __getattr__(name):
    """The old name ``train_test_split`` of :func:`holdout_split`, with a DeprecationWarning."""
    if name == "train_test_split":
        warnings.warn("pymoo_fs.datasets.train_test_split is renamed holdout_split (it does not "
                      "shadow sklearn.model_selection.train_test_split); the old name will go",
                      DeprecationWarning, stacklevel=2)
        return holdout_split
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
