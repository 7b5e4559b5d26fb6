"""Shared fixtures.

Tests that need the 34 benchmark datasets of ``../shared/datasets`` (or the directory named by
``PYMOO_FS_DATA``) use the ``shared_data_dir`` fixture, which skips with a stated reason where the
directory is absent (a user's machine). Tests on the bundled datasets always run.
"""

import os
from pathlib import Path

import numpy as np
import pytest

_DEFAULT_SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "datasets"


def _shared_dir():
    env = os.environ.get("PYMOO_FS_DATA")
    path = Path(env) if env else _DEFAULT_SHARED
    return path if path.is_dir() else None


@pytest.fixture(scope="session")
def shared_data_dir():
    """Directory holding the project's benchmark datasets, or skip the test."""
    path = _shared_dir()
    if path is None:
        pytest.skip(
            "benchmark datasets not found: set PYMOO_FS_DATA to a copy of ../shared/datasets "
            "to run this test"
        )
    return path


@pytest.fixture
def rng():
    """A fresh, explicitly seeded generator for one test."""
    return np.random.default_rng(12345)
