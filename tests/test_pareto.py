"""The ground floor's Pareto utilities: what the archives, the indicators and the selector share."""

import ast
from pathlib import Path

import numpy as np
import pytest
from pymoo.operators.survival.rank_and_crowding.metrics import calc_crowding_distance
from pymoo.util.nds.non_dominated_sorting import NonDominatedSorting

from pymoo_fs import pareto
from pymoo_fs.algorithms import archive

PACKAGE = Path(__file__).resolve().parents[1] / "pymoo_fs"


@pytest.mark.parametrize("name", ["dominates", "nondominated_union", "truncate_by_crowding"])
def test_archive_reexports_the_ground_floor_functions(name):
    # selector.py and older code import these from the archive module
    assert getattr(archive, name) is getattr(pareto, name)


def test_dominance_by_hand():
    A = np.array([[0.1, 0.2], [0.1, 0.2], [0.3, 0.1], [0.2, 0.2]])
    B = np.array([[0.1, 0.3], [0.1, 0.2], [0.2, 0.2], [0.3, 0.3]])
    np.testing.assert_array_equal(pareto.dominates(A, B), [True, False, False, True])
    np.testing.assert_array_equal(pareto.dominates(B, A), [False, False, False, False])


@pytest.mark.parametrize("seed", [0, 1])
def test_crowding_distance_is_pymoos(seed):
    F = np.random.default_rng(seed).random((9, 2))
    F = F[NonDominatedSorting().do(F, only_non_dominated_front=True)]
    np.testing.assert_array_equal(pareto.crowding_distance(F), calc_crowding_distance(F))


def test_union_keeps_the_first_of_equal_vectors_and_caps_by_crowding():
    F = np.array([[0.0, 1.0], [0.5, 0.5], [0.0, 1.0], [0.6, 0.6], [0.45, 0.55], [1.0, 0.0]])
    np.testing.assert_array_equal(pareto.nondominated_union(F), [0, 1, 4, 5])
    # capacity 3: 4 sits between 0 and 1 (crowding 0.5, against 1's 0.55) and goes
    np.testing.assert_array_equal(pareto.nondominated_union(F, capacity=3), [0, 1, 5])
    # equal crowding (0.6 each): the first of the two goes
    G = np.array([[0.0, 1.0], [0.4, 0.6], [0.6, 0.4], [1.0, 0.0]])
    np.testing.assert_array_equal(pareto.truncate_by_crowding(G, 3), [0, 2, 3])
    assert pareto.nondominated_union(np.zeros((0, 2))).dtype == np.int64


def test_analysis_does_not_import_the_algorithms():
    for path in sorted((PACKAGE / "analysis").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                assert not node.module.startswith("pymoo_fs.algorithms"), path.name
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("pymoo_fs.algorithms") for a in node.names)
