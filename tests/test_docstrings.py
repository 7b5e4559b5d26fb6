"""Every public name is documented, and every Examples block in the package runs as written."""

import doctest
import importlib
import pkgutil

import pytest

import pymoo_fs

MODULES = sorted(m.name for m in pkgutil.walk_packages(pymoo_fs.__path__, "pymoo_fs.")
                 if not m.name.endswith("__main__"))


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name):
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for test in finder.find(module, name, globs={}):
        if test.examples and test.name.split(".")[-1].startswith("_"):
            continue
        runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) failed in {name}"


@pytest.mark.parametrize("name", MODULES)
def test_public_names_have_docstrings(name):
    module = importlib.import_module(name)
    assert module.__doc__, f"{name} has no module docstring"
    for attr in getattr(module, "__all__", ()):
        obj = getattr(module, attr)
        if callable(obj) or isinstance(obj, type):
            assert obj.__doc__ and len(obj.__doc__.strip()) > 20, f"{name}.{attr} undocumented"
