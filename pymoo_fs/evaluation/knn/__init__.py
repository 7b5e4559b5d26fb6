"""The exact KNN wrapper evaluator (:class:`KNNEvaluator`) and its rooms.

* :mod:`.evaluator` - :class:`KNNEvaluator` (options, data, cache, one call's run) and
  :class:`EvaluatorMemoryError`;
* :mod:`.layout` - the folds laid out for the kernels, the CV scores of their predictions and
  each CV row's seeds;
* :mod:`.planner` - which Gram matrix is computed fresh and which is updated from a kept one,
  and the pool of kept matrices;
* :mod:`.precision` - ``precision="auto"``'s move from float32 to float64 products;
* :mod:`.settle` - the rows the rounding bound cannot certify, settled by scikit-learn's
  arithmetic (replayed, or scikit-learn itself);
* :mod:`.selfcheck` - the check that switches the replay of scikit-learn on in a process;
* :mod:`.parallel` - numba's threads and BLAS's for one kernel call;
* :mod:`.reference` - the plain-numpy statement of what the kernels compute (and the
  ``backend="numpy"`` path);
* :mod:`.regression` - the regression scorings' path: KNN means of neighbours certified in
  order, on the numpy statement's distances, ties settled by scikit-learn per fold;
* :mod:`.kernels` - every line of numba code: the certified kernels, the replay of
  scikit-learn's brute force and kd-tree (:mod:`.kernels.sklearn_replay`, versioned against
  scikit-learn), BLAS, and the one rounding-error bound (:mod:`.kernels.bounds`).

**The kernels span several files, and their disk cache stays sound.** numba invalidates a
cached (``cache=True``) function when its own source file changes, not when a function it
calls from another file does, so kernels split over several files could run stale machine
code. Every kernel is therefore compiled through :func:`.kernels.jit.kernel`, whose cache
index is stamped with a hash of the sources of all kernel modules: editing any of them makes
numba recompile every kernel. ``tests/evaluation/knn/test_kernel_cache.py`` checks that no
numba code lives outside :mod:`.kernels` and that every kernel uses that cache, and shows in
subprocesses with a temporary ``NUMBA_CACHE_DIR`` that an edit of one kernel module reaches a
cached kernel of another (where numba's own stamp runs the stale code).
"""

from pymoo_fs.evaluation.knn.evaluator import EvaluatorMemoryError, KNNEvaluator

__all__ = ["EvaluatorMemoryError", "KNNEvaluator"]
