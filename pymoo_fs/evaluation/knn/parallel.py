"""Threads for one kernel call: numba's count set, BLAS held to one thread."""


class ParallelContext:
    """Set numba's thread count and hold BLAS to one thread for one call.

    All parallelism comes from numba. A multi-threaded BLAS call inside a kernel was measured
    to slow the kernel's parallel loops several-fold: OpenBLAS's workers keep spinning after
    the call and compete with numba's threads. Both settings are restored on exit.

    Parameters
    ----------
    threads : int
        numba threads for the call (at most ``numba.config.NUMBA_NUM_THREADS``).

    Examples
    --------
    >>> from pymoo_fs.evaluation.knn.parallel import ParallelContext
    >>> with ParallelContext(1):
    ...     pass
    """

    _blas = None

    def __init__(self, threads):
        self.threads = threads

    def __enter__(self):
        import numba

        if ParallelContext._blas is None:
            from threadpoolctl import ThreadpoolController

            # the BLAS libraries loaded now (numpy's and scipy's, which the kernels call)
            ParallelContext._blas = ThreadpoolController().select(
                user_api="blas").lib_controllers
        self._numba_before = numba.get_num_threads()
        want = min(self.threads, numba.config.NUMBA_NUM_THREADS)
        if want != self._numba_before:
            numba.set_num_threads(want)
        # threadpoolctl's own limit() costs about 40 us a call; the controllers are cached
        self._blas_before = [lib.get_num_threads() for lib in ParallelContext._blas]
        for lib, before in zip(ParallelContext._blas, self._blas_before):
            if before is not None and before != 1:
                lib.set_num_threads(1)
        return self

    def __exit__(self, *exc):
        import numba

        for lib, before in zip(ParallelContext._blas, self._blas_before):
            if before is not None and before != 1:
                lib.set_num_threads(before)
        if numba.get_num_threads() != self._numba_before:
            numba.set_num_threads(self._numba_before)
        return False
