"""The rounding-error bound of the evaluator, in one place: Higham's gamma.

A dot product of length ``m`` computed in floating point with unit roundoff ``u`` errs by at
most ``gamma_m |a| |b|``, ``gamma_m = m u / (1 - m u)`` (Higham, *Accuracy and Stability of
Numerical Algorithms*, 2nd ed., 2002, Eq. 3.5). Every bound of the evaluator is :func:`gamma`
of some length: the compiled kernels call :data:`gamma_jit` (the same function compiled and
inlined), the planner's error coefficients of the Gram matrices (:func:`fresh_eps`,
:func:`update_eps`) and the plain-numpy statement
(:func:`pymoo_fs.evaluation.knn.reference.rounding_bound`) call :func:`gamma`.
"""

import numpy as np

from .jit import kernel

#: unit roundoff of float64
U64 = np.finfo(np.float64).eps / 2
#: unit roundoff of float32
U32 = float(np.finfo(np.float32).eps) / 2
#: safety factor on every bound; the bounds stay tiny next to real distance gaps
SAFETY = 4.0


def gamma(m, u):
    """Safety factor times Higham's ``gamma_m = m u / (1 - m u)``.

    Parameters
    ----------
    m : float, int or ndarray of float64
        Length of the dot products (elementwise for an array).
    u : float
        Unit roundoff (:data:`U64` or :data:`U32`).

    Returns
    -------
    float or ndarray of float64
        ``SAFETY * m * u / (1 - m * u)``, in that operation order (the kernels' compiled copy,
        :data:`gamma_jit`, gives the same bits).

    Notes
    -----
    Source: Higham, *Accuracy and Stability of Numerical Algorithms*, 2nd ed., Eq. 3.5.
    """
    return SAFETY * m * u / (1.0 - m * u)


#: :func:`gamma` compiled for the kernels (inlined where they call it)
gamma_jit = kernel(inline="always")(gamma)


def fresh_eps(m, float32=False):
    """Error coefficient of a Gram matrix computed from scratch over ``m`` columns.

    Parameters
    ----------
    m : int, float or ndarray of float64
        Selected columns (elementwise for an array).
    float32 : bool, default=False
        Products in float32 (their operands rounded to float32 first: one more rounding).

    Returns
    -------
    float or ndarray of float64
        ``gamma(m + 3, U32)`` in float32, else ``gamma(m + 2, U64)``: the bound of the matrix
        and its diagonal relative to the products of the row norms (see the kernels'
        ``rows.predict_rows``).
    """
    if float32:
        return gamma(m + 3.0, U32)
    return gamma(m + 2.0, U64)


def update_eps(h, float32=False):
    """Error an update of ``h`` columns adds to a kept matrix's coefficient.

    Parameters
    ----------
    h : int
        Changed columns (a GEMM of ``h`` terms added to the kept entry).
    float32 : bool, default=False
        Operands rounded to float32 first.

    Returns
    -------
    float
        ``gamma(h + 4, u)``, or 0.0 for ``h == 0`` (nothing changes).
    """
    return gamma(h + 4.0, U32 if float32 else U64) if h else 0.0
