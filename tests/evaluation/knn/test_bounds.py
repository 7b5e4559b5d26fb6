"""Higham's gamma, written once: the kernels, the planner and the numpy statement share it."""

import re

import numpy as np
from sklearn.metrics.pairwise import euclidean_distances

from pymoo_fs.evaluation.knn import reference
from pymoo_fs.evaluation.knn.kernels import bounds, jit


def test_the_compiled_gamma_gives_the_same_bits_as_the_python_one():
    for u in (bounds.U64, bounds.U32):
        for m in (1.0, 2.0, 7.0, 62.0, 1e3 + 2.0, 1e6 + 3.0):
            assert bounds.gamma_jit(m, u) == bounds.gamma(m, u)
    m = np.arange(1.0, 500.0)
    np.testing.assert_array_equal(bounds.fresh_eps(m), bounds.gamma(m + 2.0, bounds.U64))
    np.testing.assert_array_equal(bounds.fresh_eps(m, True), bounds.gamma(m + 3.0, bounds.U32))
    assert bounds.update_eps(0) == 0.0
    assert bounds.update_eps(3, True) == bounds.gamma(7.0, bounds.U32)
    assert bounds.gamma(10, bounds.U64) == 4.0 * 10 * bounds.U64 / (1.0 - 10 * bounds.U64)


def test_gamma_is_written_in_one_module_only():
    # the expression m u / (1 - m u) appears in kernels/bounds.py and nowhere else
    root = jit.KERNEL_DIR.parent
    pattern = re.compile(r"/\s*\(1(\.0)?\s*-\s*\w+\s*\*\s*\w+\)")
    found = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.py")
                   if pattern.search(p.read_text()))
    assert found == ["kernels/bounds.py"]


def test_the_rounding_bound_covers_scikit_learns_distances(rng):
    # heavy-tailed rows: our centred Gram distances and scikit-learn's uncentred ones differ,
    # but never by more than the per-pair bound
    X = rng.standard_normal((120, 30)) * np.exp(3 * rng.standard_normal((120, 1)))
    D, E = reference.squared_distances(X)
    sk = euclidean_distances(X, squared=True)
    assert (np.abs(D - sk) <= E).all()
    assert (E > 0).all()
