"""ISRPSO: MOPSO whose archive is improved by Inserting, Removing and Swapping every 5 moves."""

import time
from dataclasses import dataclass

import numpy as np
from pymoo.core.population import Population

from pymoo_fs._validation import check_positive_int
from pymoo_fs.algorithms.moo.mopso import MOPSO
from pymoo_fs.problems import flip_masks

__all__ = ["ISRPSO", "LocalSearchResult", "ScanMemo", "improve_member", "insert_step",
           "remove_step", "swap_step"]


class ISRPSO(MOPSO):
    """MOPSO with the Inserting -> Removing -> Swapping local search on its archive.

    ISRPSO (Nguyen et al. 2016) is :class:`~pymoo_fs.algorithms.MOPSO` plus, every
    ``ls_every`` moves, a local search on a snapshot of the archive: each member tries to add
    one feature selected by other members (Inserting), then to drop one of its own (Removing),
    then to exchange its features for other members' ones (Swapping), always taking the first
    move that strictly lowers the training error, candidates ordered by single-feature
    accuracy. The improved subset enters the archive if no member dominates it.

    Parameters
    ----------
    pop_size, w, c1, c2, vmax, threshold, pbest_rule, random_coefficients
        As :class:`~pymoo_fs.algorithms.MOPSO` (Nguyen et al. 2016's settings by default).
    ls_every : int, default=5
        Moves between two local searches [Nguyen et al. 2016, "Overall ISRPSO algorithm"].
    ls_batch : int, optional
        How the first-improvement scans are computed; the result is the same either way (see
        Notes). Default: each scan's candidates in one batch (one
        :meth:`~pymoo_fs.algorithms.FeatureSelectionAlgorithm.flip_objectives` call per
        step, and per feature ``u`` in Swapping). An int ``b``: batches of ``b``, ``2b``, ``4b``,
        ... candidates, stopping at the first batch that holds an improvement, which computes
        fewer masks when improvements come early, in more calls.
    **kwargs
        pymoo's ``Algorithm`` keywords; any other keyword raises ``TypeError``.

    Attributes
    ----------
    archive_X_, archive_ and the other attributes of :class:`~pymoo_fs.algorithms.MOPSO`.
    acc1_ : ndarray of float64, shape (D,) or None
        Single-feature accuracy of every feature (1 - error of the one-feature mask), computed
        at the first local search; None before it.
    n_ls_sequential_ : int
        Evaluations the sequential first-improvement definition spends in the local searches
        so far (every candidate up to and including the first improvement of each scan): seed
        003's cost measure.
    n_ls_computed_ : int
        Masks the local searches actually evaluated (counted in ``n_eval``), the acc1 ranking
        excluded.
    ls_log_ : list of dict
        One entry per local search: ``move``, ``archive`` (snapshot size), ``union`` (``|S|``),
        ``improved`` (members whose subset changed), ``reused`` (scans answered from the
        previous local searches, see :class:`ScanMemo`), ``sequential``, ``computed`` and
        ``seconds``.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message); at setup when the problem is
        not multi-objective.

    Notes
    -----
    The local search, on a snapshot of the archive taken when it starts [A] [Nguyen et al. 2016,
    "Local search to improve the archive set"]; ``C`` is training accuracy, "improves" means
    strictly lower training error (first objective), ``S`` the union of the snapshot members'
    features:

    0. ``acc1(f)``, the accuracy of the mask ``{f}`` on the training data (the problem's own
       wrapper: KNN-5, 10-fold inner CV under Nguyen et al.'s (2016) protocol) is computed once,
       at the first local search, through pymoo's evaluator (``D`` evaluations in ``n_eval``) [A:
       Nguyen et al. (2016) name the ranking, not its estimator]. Orders are stable: equal acc1 keep
       the feature order.
    1. **Inserting**: the features of ``S`` outside the member, by acc1 descending; the first
       whose addition improves is added (at most one feature).
    2. **Removing**: the member's features by acc1 ascending; the first whose removal improves
       is removed (at most one). A one-feature subset is left as it is: the last feature is
       never removed (pymoo-fs's no-empty-subset rule [A]).
    3. **Swapping**: for each feature ``u`` of ``S`` outside the subset after Removing, by
       acc1 descending: the subset's current features ``s`` by acc1 ascending; the first
       exchange ``S - {s} + {u}`` that improves on the current subset is made, then the next
       ``u``. A swapped-out feature is not tried again as a ``u`` [A].
    4. The result (its objectives are those computed by the step that produced it; an
       unchanged member is not offered again) enters the archive unless a member dominates
       it; members it dominates leave; the archive is truncated by crowding to ``pop_size``.

    **Batched, exact.** Each scan of steps 1-3 is the sequential rule "test candidates in
    order, stop at the first strict improvement". It is computed by evaluating the scan's
    candidates as one-feature flips of one base mask in a batch (``ls_batch``) and taking the
    first improving candidate in scan order: the outcome is the sequential one, because every
    candidate before it was computed and did not improve. For a Swapping scan the base is
    ``S_re + {u}`` and the flips remove each ``s``. A member whose error is already 0 cannot
    improve, and its scans are not computed. A scan met again (the same subset and candidates
    as in the previous local search: an unchanged member, or a Swapping scan of a subset that
    did not change) has the same outcome, since the scores are deterministic, and is reused
    without computation (:class:`ScanMemo`). ``n_ls_sequential_`` counts what the sequential
    rule would evaluate, ``n_ls_computed_`` what was evaluated; Nguyen et al.'s (2016) worst case is
    ``|A| (N + N^2 / 4)`` per local search.

    **Budget.** The local search spends from an evaluation limit like any other evaluation:
    it is skipped when fewer evaluations are left than acc1 needs, each batch is cut to what
    is left, and when a scan cannot be completed the local search stops (the current member's
    best subset so far is still offered to the archive).

    Departures from the paper: the snapshot, the acc1 estimator, the orders of equal acc1 and
    the last-feature and swapped-out rules are [A]; Nguyen et al.'s (2016) Algorithm 1 is not in the
    paper's text and is reconstructed from its prose [A]. Batching, the error-0 shortcut and the
    memo change what is computed, never the result.

    References
    ----------
    H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
    in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
    doi:10.1007/s00500-016-2128-8.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import ISRPSO
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import BiObjectiveFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = BiObjectiveFeatureSelection.from_data(data.X[:, :30], data.y, cv=5)
    >>> res = minimize(problem, ISRPSO(pop_size=10), ("n_gen", 6), seed=1)
    >>> alg = res.algorithm
    >>> alg.evaluator.n_eval == 60 + 30 + alg.n_ls_computed_
    True
    >>> len(alg.ls_log_), alg.ls_log_[0]["move"]
    (1, 5)
    """

    registry_names = ("ISRPSO",)

    def __init__(self, pop_size=30, w=0.7298, c1=1.49618, c2=1.49618, vmax=6.0, threshold=0.6,
                 pbest_rule="random_if_nd", random_coefficients="dimension", ls_every=5,
                 ls_batch=None, **kwargs):
        super().__init__(pop_size, w, c1, c2, vmax, threshold, pbest_rule, random_coefficients,
                         **kwargs)
        self.ls_every = check_positive_int("ls_every", ls_every)
        self.ls_batch = None if ls_batch is None else check_positive_int("ls_batch", ls_batch)

    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        self.acc1_ = None
        self.n_moves_ = 0
        self.n_ls_sequential_ = 0
        self.n_ls_computed_ = 0
        self.ls_log_ = []
        self._memo = ScanMemo()

    def _tell(self, infills, idx):
        """MOPSO's personal bests and archive; every ``ls_every`` moves, the local search."""
        super()._tell(infills, idx)
        self.n_moves_ += 1
        if self.n_moves_ % self.ls_every == 0:
            self._local_search()

    # ------------------------------------------------------------------ the local search
    def _local_search(self):
        """Steps 0-4 on a snapshot of the archive; stops early when the budget is spent."""
        if self.acc1_ is None:
            if self.evaluations_left() < self.problem.n_var:
                return
            singles = Population.new("X", np.eye(self.problem.n_var, dtype=bool))
            self.evaluator.eval(self.problem, singles)
            self.acc1_ = 1.0 - singles.get("F")[:, 0]
        start = time.perf_counter()
        snapshot = self.archive_.copy()
        union = snapshot.get("X").any(axis=0)
        entry = dict(move=self.n_moves_, archive=len(snapshot), union=int(union.sum()),
                     improved=0, reused=0, sequential=0, computed=0, seconds=0.0)
        self._memo.next_search()
        for member in snapshot:
            if self._constrained() and float(member.CV[0]) > 0:
                continue  # feasibility first: only feasible members are improved
            found = self._improve(member, union)
            entry["sequential"] += found.n_sequential
            entry["computed"] += found.n_computed
            entry["reused"] += found.n_reused
            if found.changed:
                entry["improved"] += 1
                improved = Population.new("X", found.mask[None, :], "F", found.F[None, :])
                if self._constrained():
                    improved.set("G", self.problem.constraint_values(found.mask[None, :]))
                self._offer(found.mask[None, :].astype(float), improved)
            if found.stopped:
                break
        entry["seconds"] = time.perf_counter() - start
        self.n_ls_sequential_ += entry["sequential"]
        self.n_ls_computed_ += entry["computed"]
        self.ls_log_.append(entry)

    def _improve(self, member, union):
        """Steps 1-3 on one member (the result so far when the budget runs out)."""
        try:
            # feasibility-first values are never stored: no memo on a constrained problem
            memo = None if self._constrained() else self._memo
            return improve_member(member.X, member.F, union, self.acc1_,
                                  self._flip_objectives, self.ls_batch, memo)
        except _BudgetSpent as spent:
            return spent.result

    def _flip_objectives(self, mask, features):
        """Objectives (k, n_obj) of one-feature flips of ``mask``, cut to the budget left."""
        left = self.evaluations_left()
        if left < len(features):
            features = features[:int(left)]
        if len(features) == 0 or self.budget_spent():
            # the budget (evaluations, or any other criterion: time) is spent
            return np.zeros((0, self.problem.n_obj))
        F = self.flip_objectives(mask, features)
        if self._constrained():  # an infeasible flip never improves a feasible member
            F = self.constraint_objectives(F, flip_masks(mask, features))
        return F


# ---------------------------------------------------------------------- the pure steps
@dataclass
class LocalSearchResult:
    """What the local search made of one subset.

    Attributes
    ----------
    mask : ndarray of bool, shape (D,)
        The subset after the step(s).
    F : ndarray of float64, shape (n_obj,)
        Its objectives (training error first).
    n_sequential : int
        Evaluations the sequential first-improvement rule spends.
    n_computed : int
        Masks actually evaluated.
    n_reused : int
        Scans answered from a :class:`ScanMemo`.
    changed : bool
        Whether ``mask`` differs from the subset the search started from.
    stopped : bool
        True when the evaluation budget ran out before the search was complete.
    """

    mask: np.ndarray
    F: np.ndarray
    n_sequential: int = 0
    n_computed: int = 0
    n_reused: int = 0
    changed: bool = False
    stopped: bool = False


class _BudgetSpent(Exception):
    """A scan could not be completed within the evaluation budget; ``result`` so far."""

    def __init__(self, result):
        super().__init__("evaluation budget spent")
        self.result = result


def _first_improvement(base, candidates, error, flips, batch):
    """First candidate (in order) whose flip of ``base`` has error < ``error``.

    Returns
    -------
    position : int
        Index into ``candidates``, or -1 when none improves.
    F : ndarray or None
        The improving flip's objectives.
    n_sequential, n_computed : int
        Candidates the sequential rule tests (through the first improvement, else all), and
        candidates evaluated here.
    complete : bool
        False when ``flips`` returned fewer rows than asked (budget) and none of them improved.
    """
    k = len(candidates)
    if k == 0 or error <= 0.0:  # an error rate cannot go below 0: no strict improvement
        return -1, None, k, 0, True
    start, size, computed = 0, (k if batch is None else batch), 0
    while start < k:
        chunk = candidates[start:start + size]
        F = flips(base, chunk)
        computed += F.shape[0]
        hit = np.flatnonzero(F[:, 0] < error)
        if hit.size:
            pos = start + int(hit[0])
            return pos, F[hit[0]], pos + 1, computed, True
        if F.shape[0] < len(chunk):
            return -1, None, start + F.shape[0], computed, False
        start, size = start + size, size * 2
    return -1, None, k, computed, True


def _scan(result, base, candidates, flips, batch, apply, memo=None, key=None):
    """Run one scan on ``result``; commit ``apply(base, feature)`` on improvement.

    With a ``memo``, a scan already made (same ``key``: same subset, same candidates) is
    answered from it; a complete scan is stored in it.
    """
    known = None if memo is None else memo.get(key)
    if known is not None:
        (pos, F, seq), comp, complete = known, 0, True
        result.n_reused += 1
    else:
        pos, F, seq, comp, complete = _first_improvement(base, candidates, result.F[0],
                                                         flips, batch)
        if memo is not None and complete:
            memo.put(key, (pos, F, seq))
    result.n_sequential += seq
    result.n_computed += comp
    if pos >= 0:
        result.mask = apply(base, candidates[pos])
        result.F = np.asarray(F, dtype=float)
        result.changed = True
    if not complete:
        result.stopped = True
        raise _BudgetSpent(result)
    return pos >= 0


def _descending(features, acc1):
    return features[np.argsort(-acc1[features], kind="stable")]


def _ascending(features, acc1):
    return features[np.argsort(acc1[features], kind="stable")]


def _packed(mask):
    return np.packbits(mask).tobytes()


def _with(mask, feature, value):
    out = mask.copy()
    out[feature] = value
    return out


def insert_step(result, union, acc1, flips, batch=None, memo=None):
    """Inserting: add the first feature of ``union`` (acc1 descending) that improves.

    Parameters
    ----------
    result : LocalSearchResult
        The current subset and its objectives; updated in place.
    union : ndarray of bool, shape (D,)
        ``S``, the features selected by the archive snapshot.
    acc1 : ndarray of float64, shape (D,)
        Single-feature accuracies.
    flips : callable
        ``flips(base_mask, features) -> F (k, n_obj)``: objectives of one-feature flips of a
        mask (possibly fewer rows when the budget runs out).
    batch : int, optional
        See ``ls_batch`` of :class:`ISRPSO`.
    memo : ScanMemo, optional
        Scans made before, reused when met again.

    Returns
    -------
    improved : bool

    Raises
    ------
    _BudgetSpent
        (private) when ``flips`` could not evaluate the whole scan.
    """
    candidates = _descending(np.flatnonzero(union & ~result.mask), acc1)
    return _scan(result, result.mask, candidates, flips, batch,
                 lambda base, f: _with(base, f, True), memo,
                 ("insert", _packed(result.mask), _packed(union)))


def remove_step(result, acc1, flips, batch=None, memo=None):
    """Removing: drop the first own feature (acc1 ascending) whose removal improves.

    A one-feature subset is left unchanged (and costs nothing). Parameters and return as
    :func:`insert_step`.
    """
    own = np.flatnonzero(result.mask)
    candidates = _ascending(own, acc1) if own.size > 1 else own[:0]
    return _scan(result, result.mask, candidates, flips, batch,
                 lambda base, f: _with(base, f, False), memo, ("remove", _packed(result.mask)))


def swap_step(result, union, acc1, flips, batch=None, memo=None):
    """Swapping: for each ``u`` of ``union`` outside the subset (acc1 descending), make the
    first improving exchange with a current feature ``s`` (acc1 ascending).

    Each ``u`` is tried once, against the subset as it is then; a swapped-out ``s`` is not
    tried again. Parameters as :func:`insert_step`.

    Returns
    -------
    n_swaps : int
    """
    swaps = 0
    for u in _descending(np.flatnonzero(union & ~result.mask), acc1):
        base = _with(result.mask, u, True)
        candidates = _ascending(np.flatnonzero(result.mask), acc1)
        swaps += _scan(result, base, candidates, flips, batch,
                       lambda b, s: _with(b, s, False), memo,
                       ("swap", _packed(result.mask), int(u)))
    return swaps


def improve_member(mask, F, union, acc1, flips, batch=None, memo=None):
    """Inserting, Removing, then Swapping on one archive member.

    Parameters
    ----------
    mask : ndarray of bool, shape (D,)
        The member's subset.
    F : ndarray of float64, shape (n_obj,)
        Its objectives (training error first).
    union, acc1, flips, batch, memo
        As :func:`insert_step`.

    Returns
    -------
    result : LocalSearchResult

    Raises
    ------
    _BudgetSpent
        (private) carrying the result so far, when the budget runs out.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.moo.isrpso import improve_member
    >>> gain = np.array([0.5, 0.3, 0.1, 0.05])     # a toy error: 1 - sum of the gains
    >>> def flips(mask, features):
    ...     masks = np.repeat(mask[None, :], len(features), axis=0)
    ...     masks[np.arange(len(features)), features] ^= True
    ...     return np.column_stack([1 - masks @ gain, masks.mean(axis=1)])
    >>> start = np.array([False, True, False, False])
    >>> r = improve_member(start, np.array([0.7, 0.25]), np.ones(4, bool), gain, flips)
    >>> r.mask, r.n_sequential
    (array([ True,  True, False, False]), 7)
    """
    result = LocalSearchResult(np.asarray(mask, dtype=bool).copy(),
                               np.asarray(F, dtype=float).copy())
    insert_step(result, union, acc1, flips, batch, memo)
    remove_step(result, acc1, flips, batch, memo)
    swap_step(result, union, acc1, flips, batch, memo)
    return result


class ScanMemo:
    """Outcomes of the scans of the last two local searches, by what they scanned.

    A scan's outcome (the position of its first improvement, that candidate's objectives, the
    sequential count) depends only on the subset, the candidates and the fixed acc1 order,
    because the evaluator's scores are deterministic: an Inserting scan on (subset, union), a
    Removing scan on the subset, a Swapping scan on (subset, ``u``). Entries made or used in a
    local search are kept for the next one; the others are dropped, which bounds the memory.

    Examples
    --------
    >>> from pymoo_fs.algorithms.moo.isrpso import ScanMemo
    >>> memo = ScanMemo()
    >>> memo.put("a", 1)
    >>> memo.next_search(); memo.get("a"), memo.get("b")
    (1, None)
    >>> memo.next_search(); memo.next_search(); memo.get("a")
    """

    def __init__(self):
        self._previous, self._current = {}, {}

    def get(self, key):
        """The stored outcome of ``key``, or None."""
        if key in self._current:
            return self._current[key]
        if key in self._previous:
            self._current[key] = self._previous.pop(key)
            return self._current[key]
        return None

    def put(self, key, value):
        """Store an outcome."""
        self._current[key] = value

    def next_search(self):
        """Start a new local search: forget what the one before the last did not use."""
        self._previous, self._current = self._current, {}
