"""CEPSO-FL: compressed-encoding PSO with fuzzy learning (Yang et al. 2022)."""

import numpy as np

from pymoo_fs._validation import (check_choice, check_int, check_positive_int,
                                  check_unit_interval)
from pymoo_fs.algorithms import swarm
from pymoo_fs.algorithms.base import SwarmAlgorithm
from pymoo_fs.algorithms.coefficients import PSOCoefficients
from pymoo_fs.algorithms.metadata import RegistryName
from pymoo_fs.problems import repair_empty
from pymoo_fs.relevance import RELEVANCE_MEASURES

__all__ = ["CEPSOFL", "archive_insert", "fuzzy_states", "hamming_add", "hamming_table",
           "hamming_velocity", "memberships", "pack_bits", "unpack_digits"]

#: the membership breakpoints of Eq. 10-12: S1 | S1-S2 | S2 | S2-S3 | S3
_BREAKS = (0.80, 0.85, 0.97, 0.98)


class CEPSOFL(PSOCoefficients, SwarmAlgorithm):
    """Compressed-encoding PSO with fuzzy learning for feature selection (CEPSO-FL).

    Yang et al. (2022).

    The features are ranked by symmetric uncertainty with the class and grouped ``b = log2 N``
    at a time; a particle is a vector of ``D' = ceil(D / b)`` base-``N`` digits, each digit the
    selection bits of its group. Velocities count bits: the Hamming distance a digit moves.
    Each particle learns from a source chosen by its fuzzy learning state (own personal best,
    a tournament among the swarm's personal bests, or the archive of eliminated personal
    bests).

    Parameters
    ----------
    pop_size : int, default=20
        Swarm size P [Yang et al. 2022, Tab. 2].
    n_base : int, default=8
        N, a power of two from 2 to 256 (Yang et al. 2022: 8; Tab. 6 also runs 2 and 32).
        ``b = log2 N`` features per digit.
    w : tuple (low, high) or float, default=(0.4, 0.7)
        Inertia weight, drawn ``U[low, high]`` [Yang et al. 2022, §3.3].
    c1, c2 : float, default=1.0
        Acceleration coefficients [Yang et al. 2022, Tab. 2].
    p_move : float, default=0.1
        Probability of Eq. 8's random move ``x + v`` (else the learning source's digit).
    archive_size : int, default=100
        Capacity of the archive of eliminated personal bests [Yang et al. 2022, Tab. 2].
    ranking : {"su", "index"}, default="su"
        Order of the features in the encoding: relevance with the class, descending
        (``problem.symmetric_uncertainty(discretization)``), or the original order.
    discretization : {"mdl", "equal_width", "equal_frequency", "mutual_info"}, default="mdl"
        The relevance measure of the ranking (Yang et al. 2022 name SU and no discretisation [A]):
        SU after Fayyad & Irani's MDL bins (as Weka's ``Discretize``), after 10 equal-width or
        equal-frequency bins, or scikit-learn's mutual information without discretisation
        (:func:`pymoo_fs.relevance.relevance_measure`).
    hysteresis : bool, default=True
        In a transition zone of the memberships, a particle in the lower state stays there
        [A]; False: the larger membership decides.
    tie_state : {"higher", "lower"}, default="higher"
        The state taken on equal memberships in a transition zone [A].
    initial_state : {1, 2, 3}, default=1
        Every particle's learning state before the first move [A].
    empty_archive : {"pbest", "gbest"}, default="pbest"
        Learning source of a particle in S3 while the archive is empty [A].
    inertia_draw : {"particle", "digit"}, default="particle"
        ``w`` drawn per particle per iteration [A], or per digit.
    move_draw : {"digit", "particle"}, default="digit"
        Eq. 8's ``p_move`` draw made per digit [A], or once per particle.
    rounding : {"half_up", "half_even"}, default="half_up"
        Eq. 7's "round" to the nearest integer, halves up [A], or numpy's halves to even.
    archive_content : {"eliminated", "new"}, default="eliminated"
        What a personal-best replacement stores in the archive: the eliminated personal best
        [A] or the new one (the other reading of "the pbest is stored" in Yang et al. 2022,
        §3.4).
    pbest_rule : {"better_or_fewer", "better"}, default="better_or_fewer"
        Personal- and global-best replacement: better fitness, or equal with fewer features
        (Yang et al. 2022's rule, also what a FIT-E problem imposes whatever this says).
    fitness : {"objective", "accuracy"}, default="objective"
        Compare by the problem's objective or by the inner-CV score alone.
    **kwargs
        pymoo's ``Algorithm`` keywords; the default termination is ``("n_eval", 5000)``
        (MAX_FE of Yang et al. 2022), and every pymoo termination works.

    Attributes
    ----------
    X_ : ndarray of int64, shape (pop_size, D')
        Positions: base-N digits; bit ``j`` of digit ``d`` selects ranked feature
        ``b d + j``.
    V_ : ndarray of int64, shape (pop_size, D')
        Velocities in ``{0, ..., b}``.
    order_ : ndarray of int64, shape (D,)
        The ranked features (original indices).
    table_ : ndarray of int64, shape (N, N)
        Hamming table ``H[a, c] = popcount(a xor c)``.
    state_ : ndarray of int64, shape (pop_size,)
        Learning states 1, 2, 3.
    archive_ : ndarray of int64, shape (m, D')
        Archived personal-best positions, ``m <= archive_size``.
    pbest_X_, pbest_pop_, gbest_, pop
        As in :class:`~pymoo_fs.algorithms.SwarmAlgorithm`.

    Raises
    ------
    TypeError
        For an unknown keyword argument.
    ValueError
        On a parameter outside its domain (named in the message); at setup for a problem with
        more than one objective, or ``ranking="su"`` on a problem without
        ``symmetric_uncertainty()``.

    Notes
    -----
    **Encoding** [Yang et al. 2022, §3.1, Alg. 2] (:func:`unpack_digits`, :func:`pack_bits`). The
    ``b`` bits of the last digit beyond ``D`` (padding) are drawn at random and ignored when
    decoding [A]; they take part in Hamming distances like any bit.

    **Initialisation.** ``x_d ~ U{0..N-1}``, ``v_d ~ U{0..b}`` [A], personal bests = the
    positions, states ``initial_state``, empty archive.

    **One iteration** [Yang et al. 2022, Alg. 1]:

    1. fuzzy learning [§3.3, Eq. 9-12]: ``F_i`` = current fitness / personal-best fitness
       (fitness = ``1 - f``, with ``f`` what the algorithm minimises: the accuracy under
       FIT-E; ``F_i = 1`` when the personal-best fitness is 0 [A]) sets the state
       (:func:`fuzzy_states`); the learning source ``cbest_i`` is the own personal best (S1),
       the better personal best of two particles drawn uniformly from the swarm (S2), or a
       uniformly drawn archive member (S3);
    2. velocity [Eq. 7]: ``v_d <- round(w v_d + c1 r1 H[cbest_d, x_d] + c2 r2 H[g_d, x_d])``
       clipped to ``[0, b]``, ``r1, r2 ~ U(0, 1)`` per digit;
    3. position [Eq. 8]: where ``pbest_d != 0``, ``x_d <- x_d + v_d`` (:func:`hamming_add`:
       flip ``v_d`` distinct random bits [A]) with probability ``p_move``, else
       ``x_d <- cbest_d``; where ``pbest_d = 0``, ``x_d <- 0``;
    4. evaluation; a personal best replaced by a better position goes to the archive
       (:func:`archive_insert`: a full archive drops a uniformly drawn member first); the
       global best is the best personal best.

    The random numbers are drawn in that order, all of them every iteration (the S2 pairs and
    the S3 picks for every particle), so the stream does not depend on the states.

    **Departure.** A position whose decoded mask is empty gets one random feature bit set in
    its digits (:func:`~pymoo_fs.problems.repair_empty`, pymoo-fs's empty-subset rule); the
    paper scores the empty subset as it is.

    References
    ----------
    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.
    §3, Alg. 1-2, Eq. 4-12, Tab. 2.

    Examples
    --------
    >>> from pymoo.optimize import minimize
    >>> from pymoo_fs.algorithms import CEPSOFL
    >>> from pymoo_fs.datasets import load_dataset
    >>> from pymoo_fs.problems import FitEFeatureSelection
    >>> data = load_dataset("sonar")
    >>> problem = FitEFeatureSelection.from_data(data.X, data.y)
    >>> res = minimize(problem, CEPSOFL(pop_size=10), ("n_eval", 60), seed=1)
    >>> res.X.dtype, res.algorithm.evaluator.n_eval, res.algorithm.X_.shape
    (dtype('bool'), 60, (10, 20))
    """

    registry_names = (RegistryName("CEPSO-FL", aliases=("CEPSOFL",)),)
    n_objectives = 1
    #: the inertia weight may be a range (drawn per particle or digit); c1, c2 are numbers
    ranged_coefficients = ("w",)

    def __init__(self, pop_size=20, n_base=8, w=(0.4, 0.7), c1=1.0, c2=1.0, p_move=0.1,
                 archive_size=100, ranking="su", discretization="mdl", hysteresis=True,
                 tie_state="higher", initial_state=1, empty_archive="pbest",
                 inertia_draw="particle",
                 move_draw="digit", rounding="half_up", archive_content="eliminated",
                 pbest_rule="better_or_fewer", fitness="objective", **kwargs):
        kwargs.setdefault("termination", ("n_eval", 5000))
        super().__init__(pop_size, pbest_rule, fitness=fitness, **kwargs)
        self.n_base = check_int("n_base", n_base, low=2)
        if self.n_base & (self.n_base - 1) or self.n_base > 256:
            raise ValueError(f"n_base must be a power of two from 2 to 256, got {n_base!r}")
        self.bits = int(self.n_base).bit_length() - 1
        self._set_coefficients(w=w, c1=c1, c2=c2)
        self.p_move = check_unit_interval("p_move", p_move)
        self.archive_size = check_positive_int("archive_size", archive_size)
        self.ranking = check_choice("ranking", ranking, ("su", "index"))
        self.discretization = check_choice("discretization", discretization,
                                           RELEVANCE_MEASURES)
        self.hysteresis = bool(hysteresis)
        self.tie_state = check_choice("tie_state", tie_state, ("higher", "lower"))
        self.initial_state = check_choice("initial_state", initial_state, (1, 2, 3))
        self.empty_archive = check_choice("empty_archive", empty_archive, ("pbest", "gbest"))
        self.inertia_draw = check_choice("inertia_draw", inertia_draw, ("particle", "digit"))
        self.move_draw = check_choice("move_draw", move_draw, ("digit", "particle"))
        self.rounding = check_choice("rounding", rounding, ("half_up", "half_even"))
        self.archive_content = check_choice("archive_content", archive_content,
                                            ("eliminated", "new"))

    # ------------------------------------------------------------------ setup and encoding
    def _setup(self, problem, **kwargs):
        super()._setup(problem, **kwargs)
        _, self.order_ = self._feature_ranking(self.ranking, self.discretization)
        self.n_digits_ = -(-problem.n_var // self.bits)
        self.table_ = hamming_table(self.n_base)
        self.state_ = None
        self.archive_ = np.zeros((0, self.n_digits_), dtype=np.int64)
        self._pending_state = None

    def _initial_swarm(self):
        n, rs = self.pop_size, self.random_state
        X = rs.integers(0, self.n_base, size=(n, self.n_digits_))
        V = rs.integers(0, self.bits + 1, size=(n, self.n_digits_))
        return self._repair(X), V

    def _decode(self, X):
        ranked = unpack_digits(X, self.bits)[:, :self.problem.n_var]
        masks = np.zeros_like(ranked)
        masks[:, self.order_] = ranked
        return masks

    def _repair(self, X):
        """Positions whose decoded mask is empty get one random (non-padding) bit set."""
        D = self.problem.n_var
        bits = unpack_digits(X, self.bits)
        if bits[:, :D].any(axis=1).all():
            return X
        bits[:, :D] = repair_empty(bits[:, :D], self.random_state)
        return pack_bits(bits, self.bits)

    # ------------------------------------------------------------------ the paper's steps
    def _initialize_tell(self, infills):
        super()._initialize_tell(infills)
        self.state_ = np.full(self.pop_size, self.initial_state, dtype=np.int64)

    def _move(self):
        """Steps 1-3: learning states and sources, Eq. 7's velocity, Eq. 8's position."""
        n, rs, X, P = self.pop_size, self.random_state, self.X_, self.pbest_X_
        state = fuzzy_states(self._fitness_ratio(), self.state_, self.hysteresis,
                             self.tie_state)
        cbest = self._learning_sources(state)
        g = P[self.gbest_]
        w = rs.uniform(*self._w_range(), size=(n, 1) if self.inertia_draw == "particle"
                       else X.shape)
        r1, r2 = rs.random(X.shape), rs.random(X.shape)
        V = hamming_velocity(self.V_, X, cbest, g, w, self.c1, self.c2, r1, r2, self.table_,
                             self.bits, self.rounding)
        moved = hamming_add(X, V, self.bits, rs)
        coin = rs.random((n, 1) if self.move_draw == "particle" else X.shape) < self.p_move
        X_new = np.where(P != 0, np.where(coin, moved, cbest), 0)
        self._pending_state = state
        return self._repair(X_new), V

    def _tell(self, infills, idx):
        """Step 4: personal bests (the replaced ones archived), then the global best."""
        self.state_ = self._pending_state
        old = self.pbest_X_
        replaced = self._update_personal_bests(infills, idx)
        stored = old if self.archive_content == "eliminated" else self.pbest_X_
        self.archive_ = archive_insert(self.archive_, stored[replaced], self.archive_size,
                                       self.random_state)
        self._update_gbest()

    # ------------------------------------------------------------------ helpers
    def _fitness_ratio(self):
        """Eq. 9: current fitness over personal-best fitness, per particle, in [0, 1]."""
        cur = 1.0 - self._fitness(self.pop)[:, 0]
        best = 1.0 - self._fitness(self.pbest_pop_)[:, 0]
        ratio = np.divide(cur, best, out=np.ones_like(cur), where=best > 0)
        return np.clip(ratio, 0.0, 1.0)

    def _learning_sources(self, state):
        """cbest of every particle: own pbest (S1), pbest tournament (S2), archive (S3)."""
        n, rs, P = self.pop_size, self.random_state, self.pbest_X_
        key = swarm.order_key(self._fitness(self.pbest_pop_)[:, 0],
                              self.pbest_pop_.get("X").sum(axis=1),
                              self.single_rule() == "better_or_fewer")
        pairs = rs.integers(0, n, size=(n, 2))
        winner = np.where(key[pairs[:, 1]] < key[pairs[:, 0]], pairs[:, 1], pairs[:, 0])
        cbest = np.where((state == 2)[:, None], P[winner], P)
        in_s3 = state == 3
        if self.archive_.shape[0]:
            pick = rs.integers(0, self.archive_.shape[0], size=n)
            cbest[in_s3] = self.archive_[pick[in_s3]]
        elif self.empty_archive == "gbest":
            cbest[in_s3] = P[self.gbest_]
        return cbest

    def _w_range(self):
        return self.w if isinstance(self.w, tuple) else (self.w, self.w)


# ---------------------------------------------------------------------- pure steps
def unpack_digits(digits, bits):
    """The bits of base-``2**bits`` digits: bit ``j`` of digit ``d`` is column ``bits d + j``.

    Parameters
    ----------
    digits : ndarray of int, shape (n, D')
        Digits in ``[0, 2**bits)``.
    bits : int
        ``b = log2 N``.

    Returns
    -------
    bits : ndarray of bool, shape (n, D' * b)

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.cepsofl import unpack_digits
    >>> unpack_digits(np.array([[6, 1]]), 3).astype(int).tolist()
    [[0, 1, 1, 1, 0, 0]]
    """
    digits = np.asarray(digits, dtype=np.int64)
    out = (digits[..., None] >> np.arange(bits)) & 1
    return out.astype(bool).reshape(digits.shape[0], -1)


def pack_bits(bits, b):
    """The inverse of :func:`unpack_digits`: groups of ``b`` bits to base-``2**b`` digits.

    Parameters
    ----------
    bits : ndarray of bool, shape (n, D' * b)
    b : int

    Returns
    -------
    digits : ndarray of int64, shape (n, D')
    """
    bits = np.asarray(bits)
    grouped = bits.reshape(bits.shape[0], -1, b).astype(np.int64)
    return (grouped << np.arange(b)).sum(axis=2)


def hamming_table(n_base):
    """Hamming table ``H[a, c] = popcount(a xor c)``, shape (N, N), int64 (Yang 2022, Alg. 2)."""
    a = np.arange(n_base, dtype=np.int64)
    x = a[:, None] ^ a[None, :]
    return sum((x >> j) & 1 for j in range(max(int(n_base - 1).bit_length(), 1)))


def hamming_velocity(V, X, C, G, w, c1, c2, r1, r2, table, bits, rounding="half_up"):
    """Eq. 7: the velocity of each digit, a number of bits in ``[0, bits]``.

    ``v <- round(w v + c1 r1 H[c, x] + c2 r2 H[g, x])`` clipped to ``[0, bits]``.

    Parameters
    ----------
    V, X, C : ndarray of int, shape (n, D')
        Velocities, positions and learning sources (cbest).
    G : ndarray of int, shape (D',) or (n, D')
        The global best.
    w : float or ndarray, shape (n, 1) or (n, D')
    c1, c2 : float
    r1, r2 : ndarray of float64, shape (n, D')
        ``U(0, 1)`` draws.
    table : ndarray of int, shape (N, N)
        :func:`hamming_table`.
    bits : int
    rounding : {"half_up", "half_even"}, default="half_up"
        Nearest integer, halves up [A], or numpy's ``rint`` (halves to even).

    Returns
    -------
    V : ndarray of int64, shape (n, D')

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.cepsofl import hamming_table, hamming_velocity
    >>> H, one = hamming_table(8), np.ones((1, 2))
    >>> hamming_velocity(np.array([[2, 0]]), np.array([[0, 7]]), np.array([[1, 7]]),
    ...                  np.array([7, 0]), 0.5, 1.0, 1.0, 0.5 * one, 0.5 * one, H, 3).tolist()
    [[3, 2]]
    """
    raw = w * V + c1 * r1 * table[C, X] + c2 * r2 * table[np.broadcast_to(G, X.shape), X]
    rounded = np.floor(raw + 0.5) if rounding == "half_up" else np.rint(raw)
    return np.clip(rounded, 0, bits).astype(np.int64)


def hamming_add(digits, velocity, bits, random_state):
    """Eq. 6's "addition": each digit moves to a digit at Hamming distance exactly ``v``.

    Parameters
    ----------
    digits : ndarray of int, shape (n, D')
    velocity : ndarray of int, shape (n, D')
        Distances in ``[0, bits]``.
    bits : int
    random_state : numpy.random.Generator
        Draws ``U(0, 1)`` keys of shape ``(n, D', bits)``: the ``v`` bits with the smallest
        keys flip (``v`` distinct bits, uniformly chosen [A]).

    Returns
    -------
    digits : ndarray of int64, shape (n, D')

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.cepsofl import hamming_add, hamming_table
    >>> x = hamming_add(np.array([[5, 0]]), np.array([[2, 0]]), 3, np.random.default_rng(0))
    >>> hamming_table(8)[x[0], [5, 0]].tolist()
    [2, 0]
    """
    digits = np.asarray(digits, dtype=np.int64)
    keys = random_state.random(digits.shape + (bits,))
    rank = keys.argsort(axis=2).argsort(axis=2)
    flips = (rank < np.asarray(velocity)[..., None]).astype(np.int64)
    return digits ^ (flips << np.arange(bits)).sum(axis=2)


def memberships(ratio):
    """Eq. 10-12: memberships of the learning states S1, S2, S3 at fitness ratios ``F``.

    Parameters
    ----------
    ratio : ndarray of float64, shape (n,)
        ``F`` in [0, 1].

    Returns
    -------
    mu : ndarray of float64, shape (n, 3)
        ``mu_S1`` = 1 below 0.80, ``17 - 20 F`` on [0.80, 0.85), 0 above; ``mu_S2`` = ``20 F -
        16`` on [0.80, 0.85), 1 on [0.85, 0.97), ``98 - 100 F`` on [0.97, 0.98), 0 elsewhere;
        ``mu_S3`` = ``100 F - 97`` on [0.97, 0.98), 1 from 0.98. Clipped to [0, 1].

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.cepsofl import memberships
    >>> memberships(np.array([0.5, 0.825, 0.9, 0.99])).round(3).tolist()
    [[1.0, 0.0, 0.0], [0.5, 0.5, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    """
    F = np.asarray(ratio, dtype=float)
    a, b, c, d = _BREAKS
    mu1 = np.where(F < a, 1.0, np.where(F < b, 17.0 - 20.0 * F, 0.0))
    mu2 = np.select([F < a, F < b, F < c, F < d], [0.0, 20.0 * F - 16.0, 1.0, 98.0 - 100.0 * F],
                    0.0)
    mu3 = np.where(F < c, 0.0, np.where(F < d, 100.0 * F - 97.0, 1.0))
    return np.clip(np.column_stack([mu1, mu2, mu3]), 0.0, 1.0)


def fuzzy_states(ratio, previous, hysteresis=True, tie_state="higher"):
    """The learning state of each particle from its fitness ratio [Yang et al. 2022, §3.3].

    Parameters
    ----------
    ratio : ndarray of float64, shape (n,)
        Eq. 9's ``F``.
    previous : ndarray of int, shape (n,)
        The states of the last iteration (1, 2 or 3).
    hysteresis : bool, default=True
        In the transition zone between Sa and Sb (a < b), a particle that was in Sa stays [A].
    tie_state : {"higher", "lower"}, default="higher"
        The state taken on equal memberships in a transition zone (Sb or Sa) [A].

    Returns
    -------
    state : ndarray of int64, shape (n,)
        The state whose membership is the only non-zero one; in a transition zone Sa (by
        hysteresis) or the state of larger membership.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.cepsofl import fuzzy_states
    >>> fuzzy_states(np.array([0.83, 0.83, 0.975]), np.array([1, 3, 3])).tolist()
    [1, 2, 3]
    """
    mu = memberships(ratio)
    previous = np.asarray(previous)
    state = np.argmax(mu, axis=1).astype(np.int64) + 1
    for a in (1, 2):  # the zones S1-S2 and S2-S3
        ma, mb = mu[:, a - 1], mu[:, a]
        zone = (ma > 0) & (mb > 0)
        tie = a + 1 if tie_state == "higher" else a
        larger = np.where(ma > mb, a, np.where(mb > ma, a + 1, tie))
        if hysteresis:
            larger = np.where(previous == a, a, larger)
        state = np.where(zone, larger, state)
    return state


def archive_insert(archive, items, capacity, random_state):
    """Insert positions into a bounded archive, evicting uniformly drawn members when full.

    Parameters
    ----------
    archive : ndarray, shape (m, D')
        The archive, ``m <= capacity``.
    items : ndarray, shape (k, D')
        Positions to insert, in order.
    capacity : int
    random_state : numpy.random.Generator
        One ``integers(0, capacity)`` draw per insertion into a full archive (the member
        deleted before the insertion [Yang et al. 2022, §3.4]).

    Returns
    -------
    archive : ndarray, shape (min(m + k, capacity), D')
        A new array; new members are appended at the end.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.soo.cepsofl import archive_insert
    >>> archive_insert(np.array([[1], [2]]), np.array([[3]]), 3, None).ravel().tolist()
    [1, 2, 3]
    """
    rows = list(np.asarray(archive))
    for item in np.asarray(items):
        if len(rows) >= capacity:
            del rows[int(random_state.integers(0, len(rows)))]
        rows.append(item)
    return np.array(rows, dtype=np.asarray(archive).dtype).reshape(-1, np.shape(archive)[1])
