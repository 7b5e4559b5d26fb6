"""The compiled (numba) kernels of the KNN evaluator: every line of numba code it runs.

* :mod:`.cv` - certified predictions of every CV row of a batch of masks or of one mask;
* :mod:`.gram` - each mask's Gram matrix, from scratch or updated from a kept one;
* :mod:`.rows` - a row's certified vote from a Gram matrix; :mod:`.certify` - the band test and
  the small routines every path shares;
* :mod:`.flips` - all single-feature flips of one mask from its Gram matrix;
* :mod:`.regress` - certified, ordered neighbour lists of every CV row for KNN regression;
* :mod:`.sklearn_replay` - scikit-learn's brute force and kd-tree replayed for the rows that
  cannot be certified (versioned against scikit-learn);
* :mod:`.blas` - BLAS callable from cached kernels; :mod:`.bounds` - Higham's gamma, the one
  rounding-error bound; :mod:`.structures` - the kernels' arguments;
* :mod:`.jit` - the decorator every kernel is compiled with: numba's disk cache under one stamp
  of all these modules' sources, so that editing any of them recompiles every kernel (numba
  alone would only notice an edit of a kernel's own file).

Importing this package imports none of its modules; importing a module compiles nothing (every
kernel is compiled, or loaded from the disk cache, on its first call).
"""
