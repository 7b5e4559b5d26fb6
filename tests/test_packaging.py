"""The installed distribution's metadata, as ``pip install .`` writes it from pyproject.toml.

These read :mod:`importlib.metadata`, so they check the installed package: reinstall
(``pip install -e .``) after editing ``pyproject.toml``.
"""

import re
from importlib import metadata, resources
from pathlib import Path

import pymoo_fs

ROOT = Path(__file__).resolve().parents[1]


def test_metadata_names_the_license_as_an_spdx_expression_with_its_file():
    meta = metadata.metadata("pymoo-fs")
    assert meta["Version"] == pymoo_fs.__version__
    assert meta["License-Expression"] == "BSD-3-Clause"
    assert meta.get_all("License-File") == ["LICENSE"]
    # the deprecated forms are gone: no License field, no license classifier
    assert "License" not in meta
    assert not [c for c in meta.get_all("Classifier") if c.startswith("License ::")]
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("BSD 3-Clause License")
    assert "Copyright (c) 2026, The pymoo-fs developers" in text


def test_metadata_gives_authors_keywords_classifiers_and_extras():
    meta = metadata.metadata("pymoo-fs")
    assert meta["Author"] == "The pymoo-fs developers"
    assert "particle swarm optimization" in meta["Keywords"].split(",")
    classifiers = meta.get_all("Classifier")
    assert "Typing :: Typed" in classifiers
    assert "Programming Language :: Python :: 3 :: Only" in classifiers
    assert meta["Requires-Python"] == ">=3.11"
    assert {"test", "docs", "lint", "dev", "dask"} <= set(meta.get_all("Provides-Extra"))
    requirements = meta.get_all("Requires-Dist")
    assert any(re.match(r"sphinx>=.*extra == \"docs\"", r) for r in requirements)
    assert any(re.match(r"mypy>=.*extra == \"lint\"", r) for r in requirements)
    [script] = [e for e in metadata.entry_points(group="console_scripts")
                if e.name == "pymoo-fs"]
    assert script.value == "pymoo_fs.cli:main"


def test_the_package_is_marked_typed_and_ships_its_data():
    package = resources.files("pymoo_fs")
    assert (package / "py.typed").is_file()
    data = resources.files("pymoo_fs.datasets") / "data"
    for name in ("musk1.csv.gz", "sonar.csv.gz", "MANIFEST.tsv", "BENCHMARKS.tsv"):
        assert (data / name).is_file(), name


def test_citation_and_changelog_name_the_current_version():
    citation = (ROOT / "CITATION.cff").read_text()
    assert re.search(rf"^version: {re.escape(pymoo_fs.__version__)}$", citation, re.M)
    assert re.search(r"^license: BSD-3-Clause$", citation, re.M)
    changelog = (ROOT / "CHANGELOG.md").read_text()
    assert "## Unreleased" in changelog
    assert re.search(rf"^## {re.escape(pymoo_fs.__version__)} - \d{{4}}-\d\d-\d\d$", changelog,
                     re.M)
