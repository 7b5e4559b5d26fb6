"""Which Gram matrix is computed fresh and which is updated from a kept one: the planner and
its pool of kept matrices.

:class:`GramPlanner` holds the operands of the Gram products in their precision, the kept
matrices (:class:`KeptMatrices`, one pool for :meth:`~KNNEvaluator.score` and, with float32
products, a float64 one for :meth:`~KNNEvaluator.score_flips`) and decides, for each mask of
a batch, whether its matrix is computed from scratch or updated from the nearest kept one, and
which matrices to keep (:meth:`GramPlanner.plan`). The kernels
(:mod:`pymoo_fs.evaluation.knn.kernels.cv`) carry the plan out.
"""

import functools

import numpy as np

from pymoo_fs.evaluation.knn.kernels.structures import Data, Plan, Pool

#: most Gram matrices kept for incremental updates
MAX_POOL_SLOTS = 64
#: with float32 products, most float64 matrices kept for score_flips (a local search moves
#: from a scored mask to a neighbour and scores its flips: a few bases at a time)
FLIP_POOL_SLOTS = 4
#: an update of |delta| columns costs about 2 |delta| + overhead columns from scratch (GEMM on
#: full rows: twice the flops of SYRK per column; plus moving the kept matrix, which costs
#: little while it fits in cache and about as much as 16 columns from scratch beyond, measured
#: on mfeat-sized matrices)
UPDATE_OVERHEAD = (8, 16)
CACHE_BYTES = 4 * 2**20
#: a chain of updates is recomputed once its error bound exceeds this many fresh bounds
CHAIN_LIMIT = 16.0
_POPCOUNT = np.array([bin(i).count("1") for i in range(256)], dtype=np.int64)


class KeptMatrices:
    """Gram matrices of recently scored masks, one slot each, in one precision (the pool).

    Parameters
    ----------
    n, D : int
        Samples and features of the data.
    slots : int
        Number of slots (0: nothing is kept).
    dtype : numpy dtype
        float64 or float32, the precision of the matrices.

    Attributes
    ----------
    mask, union : bool (slots, D)
        Each slot's mask, and every feature its chain of updates ever held.
    packed : uint8 (slots, ceil(D / 8))
        The masks packed (Hamming distances by popcount).
    eps : float64 (slots,)
        Error coefficient of each matrix (see the kernels' ``rows.predict_rows``).
    used : bool (slots,)
    recent : uint8 (at most 64, ceil(D / 8)) or None
        The last call's masks, packed, kept or not.
    time, clock
        Least-recently-written order of the slots.
    """

    def __init__(self, n, D, slots, dtype):
        self.n, self.D, self.slots = n, D, slots
        self.dtype = np.dtype(dtype)
        self.single = self.dtype == np.float32
        self._pool = None
        self.recent = None  # packed masks of the last call (see GramPlanner.plan)

    @property
    def nbytes(self):
        """int: bytes of the slots' matrices and vectors."""
        return self.slots * slot_bytes(self.n, self.dtype.itemsize)

    @property
    def n_used(self):
        """int: slots holding a matrix now."""
        return 0 if self._pool is None else int(self.used.sum())

    def clear(self):
        """Forget every kept matrix."""
        self.recent = None
        if self._pool is not None:
            self.used[:] = False

    def arrays(self):
        """The kernels' :class:`~pymoo_fs.evaluation.knn.kernels.structures.Pool` (allocated
        on first use; one dummy slot when ``slots`` is 0)."""
        if self._pool is None:
            n, D = self.n, self.D
            P = max(self.slots, 1)
            shape = (P, n, n) if self.slots else (1, 1, 1)
            self._pool = Pool(G=np.empty(shape, dtype=self.dtype), sq=np.empty((P, n)),
                              m2=np.empty((P, n)), r2=np.empty((P, n)))
            self.mask = np.zeros((P, D), dtype=bool)
            self.packed = np.zeros((P, (D + 7) // 8), dtype=np.uint8)
            self.union = np.zeros((P, D), dtype=bool)
            self.eps = np.zeros(P)
            self.used = np.zeros(P, dtype=bool)
            self.time = np.zeros(P, dtype=np.int64)
            self.clock = 0
        return self._pool


def make_kept(n, D, single, budget):
    """The kept matrices of ``score`` and of ``score_flips`` within ``budget`` bytes.

    Parameters
    ----------
    n, D : int
        Samples and features of the data.
    single : bool
        Whether the Gram products of ``score`` are float32.
    budget : int
        Bytes for all kept matrices (0: none are kept).

    Returns
    -------
    kept, flip_kept : KeptMatrices
        In float64 one pool serves both (``kept is flip_kept``); with float32 products a
        float64 pool of at most :data:`FLIP_POOL_SLOTS` slots in a quarter of the budget serves
        the flips and a float32 one the rest. A pool with fewer than two slots keeps nothing.
    """
    def slots(nbytes, itemsize, most=MAX_POOL_SLOTS):
        count = min(most, int(nbytes // slot_bytes(n, itemsize)))
        return count if count >= 2 else 0

    if not single:
        kept = KeptMatrices(n, D, slots(budget, 8), np.float64)
        return kept, kept
    flips = KeptMatrices(n, D, slots(budget // 4, 8, FLIP_POOL_SLOTS), np.float64)
    return KeptMatrices(n, D, slots(budget - flips.nbytes, 4), np.float32), flips


def slot_bytes(n, itemsize=8):
    """Bytes of one kept matrix: the n x n Gram matrix and four float64 vectors."""
    return itemsize * n * n + 8 * 4 * n


class GramPlanner:
    """The Gram matrices of an evaluator: operands, precision, kept matrices and plans.

    Parameters
    ----------
    X : ndarray of float64, shape (n_samples, n_features)
        The evaluator's data.
    single : bool
        Gram products of :meth:`plan`'s batches in float32 (else float64).
    kept : (KeptMatrices, KeptMatrices)
        The pools of ``score`` and of ``score_flips`` (:func:`make_kept`).

    Attributes
    ----------
    Xc : ndarray of float64, shape (n_samples, n_features)
        ``X`` centred by its column means.
    Xt, Xct : ndarray of float64, shape (n_features, n_samples)
        ``X`` and ``Xc`` transposed, C-contiguous.
    Xgt : ndarray of float32 or float64, shape (n_features, n_samples)
        ``Xct`` in the precision of the products.
    single : bool
    kept, flip_kept : KeptMatrices
    n_updates, n_scratch : int
        Matrices built by an update and from scratch so far (diagnostics and tests).
    """

    def __init__(self, X, single, kept):
        self.X = X
        self.Xc = X - X.mean(axis=0)
        self.Xt = np.ascontiguousarray(X.T)
        self.Xct = np.ascontiguousarray(self.Xc.T)
        self.single = single
        self.Xgt = self.Xct.astype(np.float32) if single else self.Xct
        self.kept, self.flip_kept = kept
        self.n_updates = 0
        self.n_scratch = 0

    # ------------------------------------------------------------------ pools
    def pools(self):
        """tuple of KeptMatrices: the distinct pools (one in float64, two with float32)."""
        return (self.kept,) if self.flip_kept is self.kept else (self.kept, self.flip_kept)

    def clear(self):
        """Forget every kept matrix."""
        for kept in self.pools():
            kept.clear()

    def use_float64(self, kept):
        """Move the products to float64 for good, with the new pools ``kept``
        (:func:`make_kept` with ``single=False``); the float32 matrices are dropped."""
        self.single = False
        self.Xgt = self.Xct
        self.kept, self.flip_kept = kept

    def data(self, float64=False):
        """The kernels' :class:`~pymoo_fs.evaluation.knn.kernels.structures.Data` (with
        ``float64`` the products' operand in float64 whatever the precision)."""
        return Data(Xgt=self.Xct if float64 else self.Xgt, Xct=self.Xct, Xt=self.Xt, X=self.X,
                    Xc=self.Xc)

    # ------------------------------------------------------------------ plans
    def plan(self, masks, kept, keep_all=False):
        """How to build each mask's Gram matrix: from scratch or from the nearest matrix of
        ``kept``, and which matrices to keep.

        A matrix is kept when it was built by an update, or when its mask is near one of the
        previous call's masks (an update from it would have paid): masks that follow others
        (a swarm's moves, a local search) are likely to be followed in turn, while writing
        the matrices of unrelated masks (random initial populations) into the pool only costs
        memory traffic (about 8 % of a batch of random masks on musk1). ``keep_all`` keeps
        every matrix (``score_flips`` reads its base matrix from the pool).

        Parameters
        ----------
        masks : ndarray of bool, shape (B, n_features)
            Distinct non-empty masks.
        kept : KeptMatrices
            The pool to update from and write to.
        keep_all : bool, default=False

        Returns
        -------
        plan : Plan
            The kernels' :class:`~pymoo_fs.evaluation.knn.kernels.structures.Plan`.
        commit : callable
            Records the kept matrices (and the counters) once the kernel has written them.
        """
        from pymoo_fs.evaluation.knn.kernels.bounds import fresh_eps  # imports numba

        B = masks.shape[0]
        kept.arrays()
        # one pass over the batch (no Python loop per mask unless it has a kept base)
        rows_nz, cols_nz = np.nonzero(masks)
        sizes = np.bincount(rows_nz, minlength=B)
        eps = fresh_eps(sizes.astype(np.float64), kept.single)
        overhead = UPDATE_OVERHEAD[kept.dtype.itemsize * kept.n ** 2 > CACHE_BYTES]
        packed = np.packbits(masks, axis=1) if kept.slots else None
        follows = _follows(kept, packed, sizes, overhead, keep_all)
        upd = _bases(masks, kept, packed, sizes, overhead, eps)
        if kept.slots:
            _assign_slots(kept, upd, follows)
        plan = Plan(cols_flat=cols_nz.astype(np.int64), cols_ptr=_offsets(sizes),
                    base=upd.base, dest=upd.dest,
                    delta_flat=_concat(list(upd.deltas.values())),
                    delta_ptr=_offsets(upd.delta_sizes), n_add=upd.n_add,
                    touch_flat=_concat(list(upd.touches.values())),
                    touch_ptr=_offsets(upd.touch_sizes()), eps=eps)
        return plan, functools.partial(self._commit, masks, kept, upd, eps)

    def _commit(self, masks, kept, upd, eps):
        base, dest = upd.base, upd.dest
        has_base = base >= 0
        self.n_updates += int(has_base.sum())
        self.n_scratch += masks.shape[0] - int(has_base.sum())
        written = dest >= 0
        if not written.any():
            return
        # the slots are distinct, so the clock ticks in batch order
        ticks = kept.clock + np.cumsum(written)
        kept.clock = int(ticks[-1])
        kept.time[dest[written]] = ticks[written]
        changed = written & ~((base == dest) & (upd.delta_sizes == 0))
        if changed.any():
            ch = np.flatnonzero(changed)
            slots = dest[ch]
            kept.mask[slots] = masks[ch]
            kept.packed[slots] = np.packbits(masks[ch], axis=1)
            with_base = base[ch] >= 0
            union = masks[ch].copy()
            union[with_base] |= kept.union[base[ch][with_base]]
            kept.union[slots] = union
            kept.eps[slots] = eps[ch]
            kept.used[slots] = True

    def base_matrix(self, mask, folds, seeds, threads):
        """Gram matrix of one mask for ``score_flips``: ``(G, sq, m2, r2, eps)``.

        The kept one when ``mask`` was scored before; else built (by an update where cheaper)
        and kept. Without kept matrices, or for the empty mask, a temporary one.

        Parameters
        ----------
        mask : ndarray of bool, shape (n_features,)
        folds : Folds
            The kernels' fold layout.
        seeds : RowSeeds
            The rows' seeds (:class:`~pymoo_fs.evaluation.knn.layout.RowSeeds`; the kernel
            gets one thread's, and reads none: nothing is predicted).
        threads : int
            Worker threads.

        Returns
        -------
        G : ndarray of float64, shape (n, n)
        sq, m2, r2 : ndarray of float64, shape (n,)
        eps : float
        """
        from pymoo_fs.evaluation.knn.kernels import blas, cv
        from pymoo_fs.evaluation.knn.parallel import ParallelContext

        n = self.X.shape[0]
        if not mask.any():
            zeros = np.zeros((n, n))
            return zeros, zeros[0], zeros[0], zeros[0], 0.0
        if self.flip_kept.slots:
            pool = self.flip_kept.arrays()
            plan, commit = self.plan(mask[None, :], self.flip_kept, keep_all=True)
        else:
            pool, plan = _scratch_plan(mask, n)
            commit = None
        with ParallelContext(threads):
            cv.cv_predict_batch(self.data(float64=True), folds, pool, plan, 1, False,
                                seeds.get(1), blas.USE_NUMPY_BLAS)
        if commit is not None:
            commit()
        s = int(plan.dest[0])
        return pool.G[s], pool.sq[s], pool.m2[s], pool.r2[s], float(plan.eps[0])


class _Updates:
    """The updates of one batch: each mask's base slot (-1: from scratch), destination slot
    (-1: a thread's scratch matrix), changed columns (the added ones first) and the columns
    its base never held."""

    def __init__(self, B):
        self.base = np.full(B, -1, dtype=np.int64)
        self.dest = np.full(B, -1, dtype=np.int64)
        self.n_add = np.zeros(B, np.int64)
        self.delta_sizes = np.zeros(B, np.int64)
        self.deltas = {}  # filled in increasing mask order, as are the touches
        self.touches = {}

    def touch_sizes(self):
        sizes = np.zeros(self.base.size, np.int64)
        sizes[list(self.touches)] = [t.size for t in self.touches.values()]
        return sizes


def _follows(kept, packed, sizes, overhead, keep_all):
    """Masks near one of the previous call's masks (an update from it would have paid), or
    all with ``keep_all``; records this call's masks as the previous ones."""
    follows = np.full(sizes.size, keep_all)
    if kept.slots and not keep_all and kept.recent is not None:
        near = _POPCOUNT[packed[:, None, :] ^ kept.recent[None, :, :]].sum(axis=2).min(axis=1)
        follows = (2 * near + overhead < sizes) | (near == 0)
    if kept.slots:
        kept.recent = packed[-MAX_POOL_SLOTS:].copy()
    return follows


def _bases(masks, kept, packed, sizes, overhead, eps):
    """Each mask's nearest kept matrix where an update from it pays (it changes fewer columns
    than a fresh product uses) and its chain's error bound stays within :data:`CHAIN_LIMIT`
    fresh bounds; ``eps`` gets the updated masks' coefficients."""
    from pymoo_fs.evaluation.knn.kernels.bounds import fresh_eps, update_eps

    B = masks.shape[0]
    upd = _Updates(B)
    used = np.flatnonzero(kept.used) if kept.slots else np.empty(0, np.int64)
    if not used.size:
        return upd
    ham = _POPCOUNT[packed[:, None, :] ^ kept.packed[used][None, :, :]].sum(axis=2)
    nearest = ham.argmin(axis=1)
    h_near = ham[np.arange(B), nearest]
    for b in np.flatnonzero((2 * h_near + overhead < sizes) | (h_near == 0)).tolist():
        s = used[nearest[b]]
        h = int(h_near[b])
        e = kept.eps[s] + update_eps(h, kept.single)
        if e > CHAIN_LIMIT * fresh_eps(sizes[b], kept.single):
            continue
        added = np.flatnonzero(masks[b] & ~kept.mask[s])
        removed = np.flatnonzero(~masks[b] & kept.mask[s])
        upd.base[b] = s
        eps[b] = e
        upd.deltas[b] = np.concatenate([added, removed])
        upd.n_add[b] = added.size
        upd.delta_sizes[b] = upd.deltas[b].size
        upd.touches[b] = np.flatnonzero(masks[b] & ~kept.union[s])
        if h == 0:
            upd.dest[b] = s
    return upd


def _assign_slots(kept, upd, follows):
    """Destination slots: a base no other mask of the batch uses is updated in place (saves
    moving it); masks with a base or that follow earlier ones get the least recently written
    slots that no mask of the batch reads."""
    base, dest = upd.base, upd.dest
    has_base = base >= 0
    if has_base.any():
        users = np.bincount(base[has_base], minlength=kept.used.size)
        alone = has_base & (users[np.where(has_base, base, 0)] == 1)
        dest[alone] = base[alone]
    busy = np.zeros(kept.used.size, dtype=bool)
    busy[base[has_base]] = True
    order = np.argsort(np.where(kept.used, kept.time, -1), kind="stable")
    free = order[~busy[order]]
    need = np.flatnonzero((dest < 0) & (follows | has_base))[:free.size]
    dest[need] = free[:need.size]


def _scratch_plan(mask, n):
    """A one-slot float64 pool and the plan that builds ``mask``'s matrix into it from
    scratch (``score_flips`` without kept matrices)."""
    from pymoo_fs.evaluation.knn.kernels.bounds import fresh_eps

    pool = Pool(G=np.empty((1, n, n)), sq=np.empty((1, n)), m2=np.empty((1, n)),
                r2=np.empty((1, n)))
    cols = np.flatnonzero(mask)
    none = np.empty(0, np.int64)
    plan = Plan(cols_flat=cols, cols_ptr=np.array([0, cols.size]), base=np.array([-1]),
                dest=np.array([0]), delta_flat=none, delta_ptr=np.zeros(2, np.int64),
                n_add=np.zeros(1, np.int64), touch_flat=none, touch_ptr=np.zeros(2, np.int64),
                eps=np.array([fresh_eps(cols.size)]))
    return pool, plan


def _concat(parts):
    return np.concatenate(parts).astype(np.int64) if parts else np.empty(0, np.int64)


def _offsets(sizes):
    """Start offsets of consecutive parts of the given sizes, and the total: int64 (n + 1,)."""
    out = np.zeros(len(sizes) + 1, dtype=np.int64)
    np.cumsum(sizes, out=out[1:])
    return out
