"""Every script in examples/ runs."""

import runpy
from pathlib import Path

import pytest

EXAMPLES = sorted((Path(__file__).resolve().parents[1] / "examples").glob("*.py"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_example_runs(path, capsys):
    runpy.run_path(str(path), run_name="__main__")
    assert capsys.readouterr().out.strip()


def test_forward_selection_example_improves_accuracy():
    module = runpy.run_path(str(EXAMPLES[0].parent / "evaluator_flips.py"))
    mask, best = module["main"](steps=3)
    assert 1 <= mask.sum() <= 3 and best > 0.7
