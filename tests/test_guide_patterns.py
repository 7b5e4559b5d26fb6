"""The code of docs/guide/pymoo_patterns.rst runs, block after block, as the page shows it."""

import re
from pathlib import Path

PAGE = Path(__file__).resolve().parents[1] / "docs" / "guide" / "pymoo_patterns.rst"


def _blocks(text):
    """The ``.. code-block:: python`` blocks of a reST page, dedented, in order."""
    blocks = []
    for match in re.finditer(r"^\.\. code-block:: python\n\n((?:(?: {4}.*)?\n)+)", text,
                             re.MULTILINE):
        lines = match.group(1).splitlines()
        blocks.append("\n".join(line[4:] for line in lines) + "\n")
    return blocks


def test_the_page_has_its_examples():
    assert len(_blocks(PAGE.read_text())) >= 8


def test_every_block_of_the_page_runs():
    namespace = {}
    for i, block in enumerate(_blocks(PAGE.read_text())):
        exec(compile(block, f"{PAGE.name}[block {i}]", "exec"), namespace)  # noqa: S102
