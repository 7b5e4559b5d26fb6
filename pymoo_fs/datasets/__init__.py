"""Real classification datasets, stratified hold-out splits and min-max scaling.

Two datasets are bundled (``musk1`` and ``sonar``, UCI, CC BY 4.0); other datasets are found by
name in a data directory (``data_dir=`` or the ``PYMOO_FS_DATA`` environment variable) or read
from a CSV, gzipped CSV, ARFF or MATLAB ``.mat`` file.

Examples
--------
>>> from pymoo_fs.datasets import load_dataset, train_test_split
>>> data = load_dataset("sonar")
>>> split = train_test_split(data, test_size=0.3, random_state=0)
>>> split.X_train.shape
(145, 60)
"""

from .loading import BUNDLED_DATASETS, DATA_ENV_VAR, Dataset, list_datasets, load_dataset
from .splitting import Split, holdout_indices, min_max_scale, train_test_split
from .synthetic import make_heavy_tailed

__all__ = [
    "BUNDLED_DATASETS",
    "DATA_ENV_VAR",
    "Dataset",
    "Split",
    "holdout_indices",
    "list_datasets",
    "load_dataset",
    "make_heavy_tailed",
    "min_max_scale",
    "train_test_split",
]
