"""Sphinx configuration of the pymoo-fs user guide and API reference.

Build (from the repository root, after ``pip install ".[docs]"``)::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The API pages are written here, at configuration time, from the ``__all__`` of every public
subpackage and module of :mod:`pymoo_fs` (``docs/api/pymoo_fs.*.rst``, not committed), so a
name added to an ``__all__`` is documented without editing the docs. The command line's
reference is written from its parser's ``--help`` texts (``docs/guide/cli_help.rst``).
The examples of ``examples/`` are rendered as a gallery by sphinx-gallery; those named
``plot_*.py`` are executed at their small budgets, and the figures they leave in their globals
(pymoo-fs figures are not registered with pyplot) are shown by ``docs/sg_scraper.py``.
"""

import importlib
import os
import pkgutil
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))  # sg_scraper

import pymoo_fs  # noqa: E402

project = "pymoo-fs"
author = "The pymoo-fs developers"
copyright = "2026, The pymoo-fs developers"
release = pymoo_fs.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**/sg_execution_times.rst",
                    "guide/cli_help.rst"]  # included by guide/cli.rst
root_doc = "index"
default_role = "literal"

html_theme = "pydata_sphinx_theme"
html_title = f"pymoo-fs {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path: list = []

autosummary_generate = True
autosummary_imported_members = True
autodoc_typehints = "none"  # the numpydoc docstrings give the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",  # run these (small budgets); render the others only
    # docs/sg_scraper.py: pymoo-fs figures are not pyplot's (a name, so the config pickles)
    "image_scrapers": ("sg_scraper",),
    "plot_gallery": "True",
    "download_all_examples": False,
    "write_computation_times": False,
    "within_subsection_order": "FileNameSortKey",
}

# ----------------------------------------------------------------------------------------------
# API pages from __all__
# ----------------------------------------------------------------------------------------------

PUBLIC_MODULES = sorted(
    info.name for info in pkgutil.iter_modules(pymoo_fs.__path__, "pymoo_fs.")
    if not info.name.rsplit(".", 1)[1].startswith("_") and info.name != "pymoo_fs.cli"
)


def _owner(obj, pages):
    """The page that documents ``obj``: the public module it is defined in, else None."""
    module = getattr(obj, "__module__", None) or ""
    owners = [p for p in pages if module == p or module.startswith(p + ".")]
    return max(owners, key=len) if owners else None


def _page(module_name, pages):
    """The reST of one module's API page: its docstring and a summary of its ``__all__``.

    A name re-exported from another public module (``pymoo_fs.filters.MDLDiscretizer``, from
    :mod:`pymoo_fs.relevance`) is documented there and only linked here, so that each object
    is described once.
    """
    module = importlib.import_module(module_name)
    names = list(getattr(module, "__all__", ()))
    title = f"``{module_name}``"
    lines = [title, "=" * len(title), "", f".. automodule:: {module_name}", "   :no-members:",
             "", f".. currentmodule:: {module_name}", ""]
    groups = {"Classes": [], "Functions": [], "Constants": []}
    elsewhere = []
    for name in names:
        obj = getattr(module, name)
        owner = _owner(obj, pages) if (isinstance(obj, type) or callable(obj)) else None
        if owner is not None and owner != module_name:
            role = "class" if isinstance(obj, type) else "func"
            elsewhere.append(f"- :{role}:`{name} <{owner}.{name}>` "
                             f"(documented in :mod:`{owner}`)")
        elif isinstance(obj, type):
            groups["Classes"].append(name)
        elif callable(obj):
            groups["Functions"].append(name)
        else:
            groups["Constants"].append(name)
    for heading, members in groups.items():
        if not members:
            continue
        template = {"Classes": "class.rst", "Functions": "function.rst",
                    "Constants": "data.rst"}[heading]
        lines += [heading, "-" * len(heading), "", ".. autosummary::", "   :toctree: generated/",
                  f"   :template: autosummary/{template}", "   :nosignatures:", ""]
        lines += [f"   {name}" for name in members] + [""]
    if elsewhere:
        heading = "Also importable from here"
        lines += [heading, "-" * len(heading), ""] + elsewhere + [""]
    return "\n".join(lines)


def _write_if_changed(path, text):
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")


def _write_api_pages():
    api = HERE / "api"
    for module_name in PUBLIC_MODULES:
        _write_if_changed(api / f"{module_name}.rst", _page(module_name, PUBLIC_MODULES))
    toctree = "\n".join(f"   {name}" for name in PUBLIC_MODULES)
    _write_if_changed(api / "modules.rst", f".. toctree::\n   :maxdepth: 1\n\n{toctree}\n")


def _write_cli_help():
    """The ``--help`` text of ``pymoo-fs`` and of each of its commands, as literal blocks."""
    import argparse

    from pymoo_fs.cli import build_parser

    os.environ["COLUMNS"] = "92"
    parser = build_parser()
    blocks = [("pymoo-fs", parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                blocks.append((f"pymoo-fs {name}", sub))
                for sub_action in sub._actions:
                    if isinstance(sub_action, argparse._SubParsersAction):
                        blocks += [(f"pymoo-fs {name} {n}", p)
                                   for n, p in sub_action.choices.items()]
    lines = []
    for title, sub in blocks:
        heading = f"``{title}``"
        text = sub.format_help().rstrip()
        lines += [heading, "^" * len(heading), "", ".. code-block:: text", ""]
        lines += [f"   {line}" if line else "" for line in text.splitlines()] + [""]
    _write_if_changed(HERE / "guide" / "cli_help.rst", "\n".join(lines))


# A trailing underscore makes a word a reST reference (``n_features_in_`` is scikit-learn's
# name of a fitted attribute): escape such words in the type of a numpydoc parameter or
# attribute line ("support_ : ndarray of bool, shape (n_features_in_,)"), which numpydoc
# leaves as plain text.
_SPEC = re.compile(r"^(\s*[\w*, ]+ : )(.*)$")
_TRAILING = re.compile(r"(?<![`\w])([A-Za-z]\w*?_)(?![\w`])")


def _escape_trailing_underscores(app, what, name, obj, options, lines):
    for i, line in enumerate(lines):
        match = _SPEC.match(line)
        if match:
            escaped = _TRAILING.sub(lambda word: word.group(1)[:-1] + "\\_", match.group(2))
            lines[i] = match.group(1) + escaped


def setup(app):
    app.connect("autodoc-process-docstring", _escape_trailing_underscores, priority=100)


_write_api_pages()
_write_cli_help()
