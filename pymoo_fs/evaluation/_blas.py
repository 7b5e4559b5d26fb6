"""BLAS ``?syrk`` callable from numba kernels, with the kernels still cacheable on disk.

scipy exports its BLAS as function pointers (``scipy.linalg.cython_blas``). A numba function
holding a ctypes pointer cannot be cached (the address changes between processes), so the
pointers are registered with LLVM under fixed symbol names at import, and the kernels call the
names. Registration is a dictionary entry: importing this module compiles nothing.
"""

import ctypes

import llvmlite.binding as llvm
import llvmlite.ir as ir
import numba as nb
import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic
from scipy.linalg import cython_blas


def _capsule_address(name):
    capsule = cython_blas.__pyx_capi__[name]
    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
    get_pointer.restype = ctypes.c_void_p
    get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
    return get_pointer(capsule, get_name(capsule))


for _name in ("dsyrk", "ssyrk"):
    llvm.add_symbol(f"pymoo_fs_{_name}", _capsule_address(_name))


def _syrk_intrinsic(symbol):
    @intrinsic
    def call(typingctx, uplo, trans, n, k, alpha, a, lda, beta, c, ldc):
        sig = types.void(*([types.voidptr] * 10))

        def codegen(context, builder, signature, args):
            ptr = ir.IntType(8).as_pointer()
            fn = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(ir.VoidType(), [ptr] * 10), symbol)
            builder.call(fn, args)

        return sig, codegen

    return call


_dsyrk = _syrk_intrinsic("pymoo_fs_dsyrk")
_ssyrk = _syrk_intrinsic("pymoo_fs_ssyrk")


@nb.njit(cache=True)
def gram_t(AT, C):
    """``C = AT^T AT`` for a C-contiguous ``AT`` (m, n), float64 or float32, into ``C`` (n, n).

    ``AT`` holds one selected feature per row (a contiguous copy of a column of the data), so
    gathering the columns of a mask is a sequence of contiguous copies. One BLAS ``?syrk``
    call computes the lower triangle (half the work of a GEMM), which is then mirrored tile by
    tile. BLAS threading is whatever the caller set (threadpoolctl).
    """
    m, n = AT.shape
    uplo = np.array([ord("U")], dtype=np.uint8)  # Fortran upper = C-order lower
    trans = np.array([ord("N")], dtype=np.uint8)  # AT is the Fortran (n, m) matrix A
    nn = np.array([n], dtype=np.int32)
    kk = np.array([m], dtype=np.int32)
    lda = np.array([max(n, 1)], dtype=np.int32)
    ldc = np.array([max(n, 1)], dtype=np.int32)
    one = np.ones(1, dtype=AT.dtype)
    zero = np.zeros(1, dtype=AT.dtype)
    if AT.itemsize == 8:
        _dsyrk(uplo.ctypes, trans.ctypes, nn.ctypes, kk.ctypes, one.ctypes, AT.ctypes,
               lda.ctypes, zero.ctypes, C.ctypes, ldc.ctypes)
    else:
        _ssyrk(uplo.ctypes, trans.ctypes, nn.ctypes, kk.ctypes, one.ctypes, AT.ctypes,
               lda.ctypes, zero.ctypes, C.ctypes, ldc.ctypes)
    tile = 32
    for i0 in range(0, n, tile):
        for j0 in range(0, i0 + 1, tile):
            for i in range(i0, min(i0 + tile, n)):
                for j in range(j0, min(j0 + tile, i)):
                    C[j, i] = C[i, j]
