"""The kernels' arguments: small named tuples of arrays, which numba passes as structures.

The evaluator builds them (:class:`~pymoo_fs.evaluation.knn.layout.FoldLayout` the
:class:`Folds`, :class:`~pymoo_fs.evaluation.knn.planner.GramPlanner` the :class:`Data`,
:class:`Pool` and :class:`Plan`); the kernels only read them (and write the pool's slots).
"""

from collections import namedtuple

#: the data, in the layouts the kernels read
Data = namedtuple("Data", [
    "Xgt",  # (D, n) centred, transposed, in the precision of the Gram products
    "Xct",  # (D, n) float64 centred, transposed
    "Xt",   # (D, n) float64 raw, transposed
    "X",    # (n, D) float64 raw (the exact path gathers scikit-learn's operands from it)
    "Xc",   # (n, D) float64 centred (exact distances of float32 band members)
])
#: the fold layout: test rows of every fold concatenated, each fold's training part
Folds = namedtuple("Folds", [
    "cand",       # bool (n_folds, n): training part of each fold
    "row_q",      # int64 (R,): query sample of each row (the folds' test parts, in order)
    "row_f",      # int64 (R,): fold of each row
    "bounds",     # int64 (n_folds + 1,): rows of fold f are bounds[f]:bounds[f + 1]
    "train",      # int64: the folds' training indices in scikit-learn's order, concatenated
    "train_ptr",  # int64 (n_folds + 1,)
    "y",          # int64 (n,): encoded labels
    "k",          # int: n_neighbors
    "n_classes",  # int
    "exact",      # int: 1 = settle uncertified rows by scikit-learn's arithmetic, 0 = leave them
    "sk_chunk",   # int: scikit-learn's pairwise_dist_chunk_size
    "sk_threads",  # int: scikit-learn's OpenMP thread count (its chunk-to-thread assignment)
    "srow",       # int64 (R,): rows sorted by query sample ...
    "srow_ptr",   # int64 (n + 1,): ... the rows of sample q are srow[srow_ptr[q]:srow_ptr[q+1]]
    "all_rows",   # int64 (R,): 0 .. R - 1
])
#: kept Gram matrices, one slot per kept mask
Pool = namedtuple("Pool", [
    "G",    # (P, n, n) Gram matrices of the centred data, both triangles, dtype of Data.Xgt
    "sq",   # (P, n) their diagonals
    "m2",   # (P, n) squared centred row norms over every feature the matrix ever held
    "r2",   # (P, n) the same for the raw rows
])
#: what to do for each mask of a batch
Plan = namedtuple("Plan", [
    "cols_flat", "cols_ptr",    # selected columns of mask b: cols_flat[cols_ptr[b]:cols_ptr[b+1]]
    "base",                     # int64 (B,): pool slot to update from, -1 = from scratch
    "dest",                     # int64 (B,): pool slot to write, -1 = a thread's scratch matrix
    "delta_flat", "delta_ptr",  # changed columns: the added ones first, then the removed ones
    "n_add",                    # int64 (B,)
    "touch_flat", "touch_ptr",  # columns the base matrix never held (they extend m2, r2)
    "eps",                      # float64 (B,): error coefficient of the resulting matrix
])
#: a kd-tree replayed from scikit-learn's, its nodes split when first needed
#: (:func:`~pymoo_fs.evaluation.knn.kernels.sklearn_replay.kd_lazy`)
KDNodes = namedtuple("KDNodes", [
    "P",      # float64 (n, m): the points
    "keys",   # int32 (m, n): each column's order, by value, ties by index
    "idx",    # int64 (n,): the point order (nodes are ranges of it)
    "start",  # int64 (n_nodes,): node ranges idx[start:end], set once the parent is split
    "end",    # int64 (n_nodes,)
    "split",  # bool (n_nodes,): the node was split (its children's ranges and bounds are set)
    "lo",     # float64 (n_nodes, m): node bounds
    "hi",     # float64 (n_nodes, m)
    "above",  # int32 (n,): scratch of the splits' partitions
    "below",  # int32 (n,)
])
