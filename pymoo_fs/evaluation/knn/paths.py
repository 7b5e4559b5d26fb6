"""Which path scores a mask: the Gram matrix or, for small subsets, the tree (a cost model).

Two exact paths compute a mask's CV predictions:

* the **Gram path** (:mod:`.kernels.cv`, and for one-feature flips :mod:`.kernels.flips`):
  one n x n Gram matrix of the selected columns per mask (from scratch or updated from a kept
  one), every row's k + 1 nearest scanned from it, rounding certified, and the rows the bound
  leaves open replayed (:mod:`.kernels.sklearn_replay`, O(n |S|) each); its cost grows with
  ``n^2 |S|`` and ``n^2``;
* the **tree path** (:mod:`.kernels.tree`), for masks of at most 15 features where every
  fold's training part holds more than ``2 k`` samples (scikit-learn's kd-tree is then what
  ``KNeighborsClassifier`` uses, and its distances are computed bit for bit): the samples
  sorted by the feature (one feature) or a kd-tree over them (2 to 15), searched per row, and
  the rows whose k-th place is a tie of mixed labels replayed on the fold's own tree; its
  cost grows with ``n log n |S|``, the distances each row's search computes and the folds
  with ties.

:class:`PathChooser` takes the cheaper by a cost model: unit costs estimated on the project's
2-core AMD EPYC machine (:data:`GRAM_NS`, :data:`TREE_NS`, :data:`FLIP_NS`; rough values:
they move the break-even point, never a score) times counts of this evaluator's own work.
``benchmarks/large_n.py`` compares the chosen paths with the Gram path forced.
What depends on the data is learned from the masks scored (running means per subset size,
:data:`WEIGHT`), never from timings: the distances a row's tree search computes (clustered
or discrete data need fewer than noise; prior :data:`PRIOR_VISITS`), the fraction of rows
that are ties in the tree path, and the fraction of rows the Gram and flip paths leave to the
exact replay (discrete data: most rows of a small subset). Where at least a tenth of the rows
of a size tie that way (:data:`DIRECT_TIES`), the tree path skips its own search and replays
every row (:meth:`PathChooser.tree_direct`; a batch measures one mask of a size it has not
seen first, :meth:`PathChooser.tree_probes`). Before either path has measured a size, both
estimates assume no ties; where they then send it to the Gram path, a batch scores one mask of
that size by the tree path first, which counts its ties, and gives the rest a path after it
(:meth:`PathChooser.path_probes`). The choice decides only the speed, never a score: both
paths give scikit-learn's predictions exactly.
"""

import math

import numpy as np

#: nanoseconds per unit of work of the Gram path on one thread: a multiply-add of the Gram
#: product (float32, float64), a candidate of a row's scan (mirroring included), and per
#: sample and feature of a row replayed exactly
GRAM_NS = {"flop32": 0.030, "flop64": 0.055, "candidate": 3.0, "exact": 2.0}
#: nanoseconds per unit of work of the tree path on one thread: per sample and log2(n) of the
#: sort or build (times the features), per computed distance and feature, per distance, per
#: row, and per tied row's replayed query
TREE_NS = {"build": 9.0, "sort": 6.0, "distance": 1.2, "visit": 6.0, "row": 800.0,
           "tie": 1500.0}
#: nanoseconds of the flip path on one thread: per candidate of the sorted-prefix tables
#: (per row and sample), per row and flip, per candidate of a full rescan
FLIP_NS = {"table": 3.0, "row": 1000.0, "candidate": 3.0}
#: fraction of a flip's rows rescanned in full, by base size (measured on gas6, mfeat and
#: splice; 0 beyond): removals, whose prefix starts at 64 entries
FLIP_RESCANS = {0: 1.0, 1: 0.4, 2: 0.15, 3: 0.1, 4: 0.05, 5: 0.03}
#: the same for additions, whose prefix starts at 256 entries (gas6, isolet, mfeat, bases 2
#: to 6: 0.0-0.6 %, rounded up; a one-feature base is left at the removals' value: isolet's
#: additions to one feature leave 15 % of their rows open, which this model does not learn
#: before it has scored some)
FLIP_RESCANS_ADD = {0: 1.0, 1: 0.4, 2: 0.01, 3: 0.01, 4: 0.01, 5: 0.01}
#: distances a row's search computes before any is measured, for k = 5 (scaled by
#: (k + 1) / 6), by number of features (2 .. 15)
PRIOR_VISITS = {2: 45, 3: 70, 4: 100, 5: 140, 6: 200, 7: 270, 8: 360, 9: 470, 10: 600,
                11: 750, 12: 900, 13: 1050, 14: 1200, 15: 1350}
#: weight of a new measurement in the running means
WEIGHT = 0.25
#: learned fraction of tied rows (mixed labels at the k-th place) from which a mask of 2 to 15
#: features skips the tree path's own search and replays every row on its folds' trees: the
#: search then costs more than it saves. Measured per mask, tree path against direct replay,
#: one thread, since the replayed builds lost their branches (13da913): german, 4 features,
#: 13 % tied: 1.68 -> 1.44 ms, 45-95 %: 0.63-0.68x; splice, 6 features, 51-69 %: 0.64-0.68x;
#: coil20, 4 features, 7 %: 2.14 -> 2.13 ms, 0-1 %: 0.96-1.14x; vehicle, 4 features, 0-3 %:
#: 1.01-1.25x; isolet, mfeat, gas6 (SFS steps 2, 3; 0-3 %): 1.07-1.45x. It was 0.5 before
#: that change (splice, 6 features, 53 %: 13.4 -> 8.9 ms; mfeat, 2 features, 40 %: 1.9 ->
#: 2.1 ms)
DIRECT_TIES = 0.1
#: learned tie fraction of a smaller subset size from which it stands for a larger size not
#: measured yet (:meth:`PathChooser._open`)
CARRY_TIES = 0.5
#: one mask in this many of a size replayed directly goes by the search instead, so that its
#: tie fraction stays measured (a direct replay does not tell ties from other rows)
DIRECT_PROBE = 8
#: scikit-learn's KNeighborsClassifier takes a kd-tree for at most this many features
MAX_FEATURES = 15


class _Means:
    """Running means of a per-row quantity by subset size (None before any measurement)."""

    def __init__(self):
        self.values = {}

    def get(self, m, default):
        return self.values.get(m, default)

    def add(self, m, value):
        old = self.values.get(m)
        self.values[m] = value if old is None else (1 - WEIGHT) * old + WEIGHT * value


class PathChooser:
    """The path of each mask of one evaluator: the Gram matrix or the tree.

    Parameters
    ----------
    n : int
        Training samples.
    n_rows : int
        CV rows (R).
    k : int
        ``n_neighbors``.
    smallest_train : int
        Smallest training part of a fold (scikit-learn takes brute force where
        ``k >= n_train // 2``).
    n_folds : int
        Folds (each with ties costs a replayed tree build).

    Attributes
    ----------
    visits : dict
        Learned mean, by subset size, of the distances a row's tree search computed (the
        running means of tied rows of the tree path and of rows the Gram and flip paths left
        to the exact replay are kept alike, internally).
    eligible_k : bool
        Whether ``k < smallest_train // 2`` (else scikit-learn takes brute force in some fold
        and the tree path is never taken).
    n_tree : int
        Masks scored by the tree path so far (diagnostics and tests).
    n_direct : int
        Of those, masks replayed row by row without the search (:meth:`tree_direct`).
    force : {None, "gram", "tree", "direct"}
        Benchmarks and tests only: every eligible mask to one path (``"tree"``: the tree
        path with its search; ``"direct"``: the tree path, every mask of 2 or more features
        replayed row by row).
    """

    def __init__(self, n, n_rows, k, smallest_train, n_folds):
        self.n, self.n_rows, self.k, self.n_folds = n, n_rows, k, n_folds
        self.eligible_k = k < smallest_train // 2
        self._visits, self._ties = _Means(), _Means()
        self._gram_open, self._flip_open = _Means(), _Means()
        self._direct_count = {}
        self.n_tree = 0
        self.n_direct = 0
        self.force = None

    @property
    def visits(self):
        """dict: mean distances computed per row by the tree search, by subset size."""
        return self._visits.values

    # ------------------------------------------------------------------ costs (seconds)
    def _replay_seconds(self, m, fraction):
        """Rows replayed exactly by the Gram or flip path: O(n m) each, the trees of the
        folds with ties."""
        if fraction <= 0:
            return 0.0
        rows = fraction * self.n_rows
        folds = min(self.n_folds, rows)
        ns = (GRAM_NS["exact"] * rows * self.n * m
              + folds * TREE_NS["build"] * self.n * math.log2(max(self.n, 2)) * m)
        return ns * 1e-9

    def tree_seconds(self, m):
        """Estimated seconds of one mask of ``m`` features by the tree path (one thread)."""
        n, R = self.n, self.n_rows
        log_n = math.log2(max(n, 2))
        if m == 1:
            ns = TREE_NS["sort"] * n * log_n + TREE_NS["row"] * R
        else:
            visits = min(self._visits.get(m, PRIOR_VISITS.get(m, n) * (self.k + 1) / 6.0), n)
            ns = (TREE_NS["build"] * n * log_n * m + TREE_NS["row"] * R
                  + R * visits * (TREE_NS["distance"] * m + TREE_NS["visit"]))
        ties = self._ties.get(m, 0.0) * R
        if ties:
            ns += (min(self.n_folds, ties) * TREE_NS["build"] * n * log_n * m
                   + ties * TREE_NS["tie"])
        return ns * 1e-9

    def gram_seconds(self, m, single):
        """Estimated seconds of one fresh mask of ``m`` features by the Gram path."""
        n = self.n
        flop = GRAM_NS["flop32" if single else "flop64"]
        return ((flop * n * n * m / 2 + GRAM_NS["candidate"] * self.n_rows * n) * 1e-9
                + self._replay_seconds(m, self._open(self._gram_open, m, m)))

    def _open(self, means, key, m):
        """Learned fraction of rows a Gram or flip path leaves open (``means[key]``), at least
        the fraction of rows the tree path found tied at the k-th place with mixed labels for
        ``m`` features: such a row is open on every path but the replay (the tree's order
        decides it), so the tree's ties bound the other paths' open rows before they have
        been measured (discrete data: nearly every row of a small subset). Where ``m`` has
        no measured ties but the largest smaller size measured has most of its rows tied
        (at least :data:`CARRY_TIES`), its fraction stands for them: on binary or coded
        data ties persist as features are added (semeion: 100 % at 1 to 4 features, 94 % at
        8), and ignoring them sent semeion's third forward step to the flip path (3.6 s
        against 0.22 s by the tree). Smaller fractions are not carried over: on continuous
        data they thin out too fast to predict (isolet: 19 %, 2.7 %, 0.4 % at 1, 2, 3
        features)."""
        tie = self._tie_fraction(m)
        return max(means.get(key, 0.0), 0.0 if tie is None else tie)

    def _tie_fraction(self, m):
        """The tie fraction measured for ``m`` features, else that of the largest smaller
        size measured where it is at least :data:`CARRY_TIES` (see :meth:`_open`), else
        None."""
        tie = self._ties.get(m, None)
        if tie is None:
            below = [size for size in self._ties.values if size < m]
            if below and self._ties.values[max(below)] >= CARRY_TIES:
                tie = self._ties.values[max(below)]
        return tie

    def flip_seconds(self, base_size, n_add, n_remove=0):
        """Estimated seconds of ``n_add`` additions and ``n_remove`` removals (one-feature
        flips) of a base of ``base_size`` features by the flip path, its base matrix and
        sorted prefixes included. On small bases most rows are rescanned in full: their
        k + 1 nearest tie or move far under one more or one fewer feature."""
        n, R = self.n, self.n_rows
        rescans = (n_add * FLIP_RESCANS_ADD.get(base_size, 0.0)
                   + n_remove * FLIP_RESCANS.get(base_size, 0.0))
        replay = (n_add * self._replay_seconds(
                      base_size + 1, self._open(self._flip_open, base_size, base_size + 1))
                  + n_remove * self._replay_seconds(
                      max(base_size - 1, 1),
                      self._open(self._flip_open, base_size, max(base_size - 1, 1))))
        return (self.gram_seconds(max(base_size, 1), False)
                + (FLIP_NS["table"] * R * n + (n_add + n_remove) * R * FLIP_NS["row"]
                   + rescans * R * n * FLIP_NS["candidate"]) * 1e-9 + replay)

    # ------------------------------------------------------------------ choices
    def tree_sizes(self, sizes, single, exact):
        """Which masks of the given sizes the tree path takes.

        Parameters
        ----------
        sizes : ndarray of int64, shape (B,)
            Selected features of each mask (all at least 1).
        single : bool
            Whether the Gram products are float32.
        exact : bool
            Whether the replay of scikit-learn's kd-tree is verified in this process (the
            tree path settles ties by it).

        Returns
        -------
        ndarray of bool, shape (B,)
        """
        ok = (sizes <= MAX_FEATURES) & (sizes >= 1)
        if not (exact and self.eligible_k) or self.force == "gram":
            return np.zeros(sizes.size, dtype=bool)
        if self.force in ("tree", "direct"):
            return ok
        cheaper = {m: self.tree_seconds(m) < self.gram_seconds(m, single)
                   for m in np.unique(sizes[ok]).tolist()}
        return np.array([bool(o and cheaper[m]) for o, m in zip(ok, sizes.tolist())],
                        dtype=bool)

    def flips_to_tree(self, base_size, n_add, n_remove, exact):
        """Whether the flips of a base of ``base_size`` features go to the tree path.

        Parameters
        ----------
        base_size : int
        n_add, n_remove : int
            Flips that add a feature (masks of ``base_size + 1``) and that remove one (masks
            of ``base_size - 1``).
        exact : bool
            As in :meth:`tree_sizes`.

        Returns
        -------
        bool
        """
        top = base_size + 1 if n_add else base_size - 1
        if not (exact and self.eligible_k) or top > MAX_FEATURES or self.force == "gram":
            return False
        if self.force in ("tree", "direct"):
            return True
        tree = (n_add * self.tree_seconds(base_size + 1)
                + n_remove * self.tree_seconds(max(1, base_size - 1)))
        return tree < self.flip_seconds(base_size, n_add, n_remove)

    def tree_direct(self, sizes):
        """Which masks of the tree path replay every row on their folds' trees, without the
        search: those of 2 to 15 features whose size has shown at least :data:`DIRECT_TIES`
        of its rows tied at the k-th place with mixed labels (such a row is replayed
        anyway, and with the replayed builds this cheap the search then costs more than it
        saves), except one in
        :data:`DIRECT_PROBE` of them, which keeps the tie fraction measured. One feature
        keeps its sorted order (cheaper than a replay even where every row ties).

        Parameters
        ----------
        sizes : ndarray of int64, shape (B,)
            Selected features of each mask the tree path takes.

        Returns
        -------
        ndarray of bool, shape (B,)
        """
        direct = np.zeros(sizes.size, dtype=bool)
        if self.force == "direct":
            direct[sizes >= 2] = True
        if self.force is not None:
            return direct
        for b, m in enumerate(sizes.tolist()):
            if m >= 2 and self._ties.get(m, 0.0) >= DIRECT_TIES:
                count = self._direct_count.get(m, 0) + 1
                self._direct_count[m] = count
                direct[b] = count % DIRECT_PROBE != 0
        return direct

    def path_probes(self, sizes, single, exact):
        """Masks to score by the tree path before the others of their batch are given a
        path: the first mask of each size of 1 to :data:`MAX_FEATURES` features that the batch
        holds more than once, where nothing is measured for that size yet (no ties by the
        tree path, no open rows by the Gram path, none carried over from a smaller size) and
        the estimates, which then assume no ties, send it to the Gram path. On coded or
        binary data most rows of a small subset tie, which makes the Gram path's exact replay
        dear (semeion, 6 to 11 features: 11-14 ms per mask against 1.3-4.2 by the tree path);
        the probe counts the ties (:meth:`record_tree`), and the rest of the batch goes by
        the path the measurement favours. On continuous data it costs one mask by the dearer
        path, once per size (isolet, 11 features: 6.5 ms against 1.0). A size the estimates
        already send to the tree path is not probed: its first mask measures the ties there
        (:meth:`tree_probes`) after the batch has its path; measured first, they sent
        musk1's second forward step to the Gram path (0.113 -> 0.197 s for three steps).
        The evaluator probes only once the tree path is checked in its process
        (:func:`~pymoo_fs.evaluation.knn.selfcheck.kd_tree_verified`): the check costs about
        0.45 s on first use, more than a probe saves in a short run on small data. Without
        the probe a size's first Gram batch measures its open rows, and the next goes by the
        tree path where they make the Gram path dear.

        Parameters
        ----------
        sizes : ndarray of int64, shape (B,)
        single, exact : bool
            As in :meth:`tree_sizes`.

        Returns
        -------
        ndarray of bool, shape (B,)
        """
        probe = np.zeros(sizes.size, dtype=bool)
        if self.force is not None or not (exact and self.eligible_k):
            return probe
        values, first, counts = np.unique(sizes, return_index=True, return_counts=True)
        for m, b, c in zip(values.tolist(), first.tolist(), counts.tolist()):
            probe[b] = (1 <= m <= MAX_FEATURES and c > 1 and not self._measured(m)
                        and self.tree_seconds(m) >= self.gram_seconds(m, single))
        return probe

    def _measured(self, m):
        """Whether ties or open rows of ``m`` features are measured (or carried over)."""
        return self._tie_fraction(m) is not None or m in self._gram_open.values

    def tree_probes(self, sizes):
        """Masks of the tree path to score before the others of their batch: the first mask
        of each size of 2 to 15 features whose ties are not measured yet, where the batch
        holds more masks of that size (they can then be replayed directly,
        :meth:`tree_direct`, from the probe's measurement: a forward selection step or a
        batch of random masks meets each size first in one batch).

        Parameters
        ----------
        sizes : ndarray of int64, shape (B,)

        Returns
        -------
        ndarray of bool, shape (B,)
        """
        probe = np.zeros(sizes.size, dtype=bool)
        if self.force is not None:
            return probe
        values, first, counts = np.unique(sizes, return_index=True, return_counts=True)
        for m, b, c in zip(values.tolist(), first.tolist(), counts.tolist()):
            probe[b] = m >= 2 and c > 1 and self._ties.get(m, None) is None
        return probe

    # ------------------------------------------------------------------ learning
    def record_tree(self, sizes, visits, ties, direct=None, *, learn_visits=True):
        """Fold what the tree path measured into the running means.

        Parameters
        ----------
        sizes : ndarray of int64, shape (B,)
        visits : ndarray of int64, shape (B,)
            Distances computed per mask (all rows).
        ties : ndarray of int64, shape (B,)
            Rows replayed on the fold's tree, per mask.
        direct : ndarray of bool, shape (B,), optional
            Masks replayed row by row (:meth:`tree_direct`): counted, but they measure
            neither visits nor ties.
        learn_visits : bool, default True
            False for the probes of :meth:`path_probes`, which count ties only. The tree's
            unit costs were set against :data:`PRIOR_VISITS`; with a probe's visits learned,
            gas6's random masks of 8 and 11 features went to the tree path at 3.3-3.7 ms
            against the Gram path's 2.0-2.2 (the probes' own purpose is the ties).
        """
        self.n_tree += sizes.size
        if direct is None:
            direct = np.zeros(sizes.size, dtype=bool)
        self.n_direct += int(np.count_nonzero(direct))
        for m, v, t, d in zip(sizes.tolist(), visits.tolist(), ties.tolist(), direct.tolist()):
            if d:
                continue
            if m >= 2 and learn_visits:
                self._visits.add(m, v / self.n_rows)
            self._ties.add(m, t / self.n_rows)

    def record_gram(self, sizes, n_open):
        """Fold the rows the Gram path left open (per mask) into the running means."""
        for m, u in zip(sizes.tolist(), n_open.tolist()):
            if m <= MAX_FEATURES:
                self._gram_open.add(m, u / self.n_rows)

    def record_flips(self, base_size, n_open):
        """Fold the rows the flip path left open (per flip) into the running means."""
        if base_size < MAX_FEATURES and n_open.size:
            self._flip_open.add(base_size, float(n_open.mean()) / self.n_rows)
