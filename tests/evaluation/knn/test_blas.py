"""The Gram kernels' BLAS glue: the mirrored triangle and the full Gram matrix."""

import numpy as np
import pytest

from pymoo_fs.evaluation.knn.kernels import blas


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_mirror_lower_copies_the_lower_triangle_onto_the_upper(dtype):
    rng = np.random.default_rng(0)
    B = blas.MIRROR_BLOCK
    for n in (1, 2, B - 1, B, B + 1, 2 * B, 3 * B + 5, 100):
        A = rng.random((n, n)).astype(dtype)
        C = A.copy()
        blas.mirror_lower(C)
        low = np.tril(A)
        np.testing.assert_array_equal(C, low + np.tril(A, -1).T)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gram_t_is_the_symmetric_gram_matrix(dtype):
    rng = np.random.default_rng(1)
    for m, n in ((1, 1), (3, 17), (13, 70)):
        AT = rng.random((m, n)).astype(dtype)
        C = np.full((n, n), np.nan, dtype=dtype)
        blas.gram_t(AT, C, blas.USE_NUMPY_BLAS)
        np.testing.assert_array_equal(C, C.T)
        np.testing.assert_allclose(C, AT.T.astype(np.float64) @ AT.astype(np.float64),
                                   rtol=1e-5 if dtype == np.float32 else 1e-12)
