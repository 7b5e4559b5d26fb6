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


@pytest.mark.parametrize("use_numpy_blas", sorted({False, blas.USE_NUMPY_BLAS}))
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gram_t_is_the_gram_matrix(dtype, use_numpy_blas):
    # up to GEMM_MAX_COLS columns one GEMM writes both triangles (each entry its own dot
    # product); beyond, SYRK's lower triangle is mirrored, so the matrix is exactly symmetric
    rng = np.random.default_rng(1)
    most = blas.GEMM_MAX_COLS[0 if dtype == np.float32 else 1]
    for m, n in ((1, 1), (3, 17), (13, 70), (most, 300), (most + 1, 300), (40, 70)):
        AT = rng.random((m, n)).astype(dtype)
        C = np.full((n, n), np.nan, dtype=dtype)
        blas.gram_t(AT, C, use_numpy_blas)
        if m > most:
            np.testing.assert_array_equal(C, C.T)
        np.testing.assert_allclose(C, AT.T.astype(np.float64) @ AT.astype(np.float64),
                                   rtol=1e-5 if dtype == np.float32 else 1e-12)
        # every entry is a dot product of m terms in the matrix's precision: within
        # Higham's bound gamma_m |a_i| |a_j| of the exact value (the bound the kernels use)
        # (the reference in extended precision where the platform has it)
        Ax = AT.astype(np.longdouble)
        exact = Ax.T @ Ax
        u = np.finfo(dtype).eps / 2
        slack = 2 * m * np.finfo(np.longdouble).eps * exact
        assert np.all(np.abs(C - exact) <= m * u / (1 - m * u) * exact + slack)
