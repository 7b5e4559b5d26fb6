"""Pure particle-swarm steps shared by the swarm algorithms.

Every function takes its random generator explicitly and returns new arrays; the algorithms keep
the state. Shapes: ``X`` positions (n, D), ``V`` velocities (n, D), ``P`` personal bests (n, D),
``G`` leaders (n, D) or (D,).

References
----------
A.-D. Li, B. Xue, M. Zhang, "A forward search inspired particle swarm optimization
algorithm for feature selection in classification", IEEE CEC 2021, pp. 786-793,
doi:10.1109/CEC45853.2021.9504949.

T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
size-controlled approach", AusDM 2015, Conferences in Research and Practice in
Information Technology 168.

H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
doi:10.1007/s00500-016-2128-8.

J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
14(6):1142, 2022, doi:10.3390/sym14061142.
"""

import numpy as np
from scipy.special import expit

from pymoo_fs.pareto import dominates


def draw_coefficient(value, n, random_state):
    """A PSO coefficient for each of ``n`` particles.

    Parameters
    ----------
    value : float or tuple (low, high)
        A constant, or the bounds of a uniform draw made anew for every particle at every call
        (CMDPSOFS's original ``w ~ U[0.1, 0.5]``, ``c ~ U[1.5, 2.0]``).
    n : int
        Number of particles.
    random_state : numpy.random.Generator
        Used only when ``value`` is a range.

    Returns
    -------
    c : ndarray of float64, shape (n, 1)
    """
    if isinstance(value, tuple):
        return random_state.uniform(value[0], value[1], size=(n, 1))
    return np.full((n, 1), float(value))


def velocity_update(V, X, P, G, w, c1, c2, random_state, per_dimension=True):
    """Canonical PSO velocity update with inertia weight.

    ``v <- w v + c1 r1 (p - x) + c2 r2 (g - x)`` (Shi & Eberhart 1998; Li et al. 2021, Eq. 1, Nguyen
    et al. 2016, Eq. 1).

    Parameters
    ----------
    V, X, P : ndarray of float64, shape (n, D)
        Velocities, positions and personal bests.
    G : ndarray of float64, shape (n, D) or (D,)
        Each particle's leader (gbest).
    w, c1, c2 : float or ndarray of shape (n, 1)
        Inertia weight and acceleration coefficients.
    random_state : numpy.random.Generator
        Source of ``r1`` and ``r2``; ``r1`` is drawn (all particles) before ``r2``.
    per_dimension : bool, default=True
        Draw ``r1, r2 ~ U(0, 1)`` per dimension (the papers' authors' code) or once per particle
        (jMetal's OMOPSO).

    Returns
    -------
    V_new : ndarray of float64, shape (n, D)
    """
    shape = X.shape if per_dimension else (X.shape[0], 1)
    r1 = random_state.random(shape)
    r2 = random_state.random(shape)
    return w * V + c1 * r1 * (P - X) + c2 * r2 * (G - X)


def size_term(sizes, target, c3, random_state, form="literal", shape=None):
    """Butler-Yeoman et al.'s (2015) size term of the velocity update, ``c3 r3 s(T - |x|)``.

    Parameters
    ----------
    sizes : ndarray of int, shape (n,)
        Number of features each particle selects now (``|p|`` of Butler-Yeoman et al. 2015, Eq. 4).
    target : int
        The target size ``T``.
    c3 : float
        The third acceleration coefficient.
    random_state : numpy.random.Generator
        Draws ``r3 ~ U(0, 1)`` of shape ``shape``.
    form : {"literal", "centred"}, default="literal"
        ``"literal"``: ``c3 r3 s(T - |x|)`` (Butler-Yeoman et al. 2015, Eq. 4 as printed), in
        ``[0, c3)``. ``"centred"``: ``c3 r3 (2 s(T - |x|) - 1)``, in ``(-c3, c3)`` (pymoo-fs's
        assumption [A]).
    shape : tuple of int, optional
        Shape of ``r3``: ``(n, D)`` draws per dimension (the default of Butler-Yeoman et al. 2015's
        swarm [A]); ``(n, 1)`` once per particle. Default ``(n, 1)``.

    Returns
    -------
    term : ndarray of float64, shape ``shape``
        Added to each particle's velocity before clamping.

    Notes
    -----
    ``s`` is the logistic sigmoid (``scipy.special.expit``, no overflow for large gaps). The
    literal term is never negative: it pushes every coordinate up (more features) by up to
    ``c3`` while ``|x| < T`` and fades to 0 when ``|x| > T``, so it cannot shrink a subset
    larger than the target; the centred form pushes down by up to ``c3`` when ``|x| > T``.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.swarm import size_term
    >>> rs = np.random.default_rng(0)
    >>> lit = size_term(np.array([2, 50]), 10, 1.0, rs, "literal", (2, 1))
    >>> cen = size_term(np.array([2, 50]), 10, 1.0, rs, "centred", (2, 1))
    >>> bool(lit[0, 0] > 0), bool(abs(lit[1, 0]) < 1e-12), bool(cen[1, 0] < 0)
    (True, True, True)
    """
    sizes = np.asarray(sizes, dtype=float)
    r3 = random_state.random((sizes.shape[0], 1) if shape is None else shape)
    s = expit(float(target) - sizes)[:, None]
    if form == "centred":
        s = 2.0 * s - 1.0
    elif form != "literal":
        raise ValueError(f"form must be 'literal' or 'centred', got {form!r}")
    return c3 * r3 * s


def move(X, V, vmax, reverse_velocity=False):
    """Clamp velocities to ``[-vmax, vmax]``, move, and clamp positions to ``[0, 1]``.

    Parameters
    ----------
    X, V : ndarray of float64, shape (n, D)
        Positions and (updated, unclamped) velocities.
    vmax : float
        Velocity limit.
    reverse_velocity : bool, default=False
        Also negate the velocity of coordinates that hit a bound (jMetal's OMOPSO).

    Returns
    -------
    X_new, V_new : ndarray of float64, shape (n, D)
    """
    V = np.clip(V, -vmax, vmax)
    X = X + V
    if reverse_velocity:
        out = (X < 0.0) | (X > 1.0)
        V = np.where(out, -V, V)
    return np.clip(X, 0.0, 1.0), V


def decode(X, threshold, inclusive=False):
    """Masks of continuous positions: feature ``d`` is selected iff ``x_d > threshold``.

    Parameters
    ----------
    X : ndarray of float64, shape (n, D) or (D,)
        Positions in [0, 1].
    threshold : float
        The selection threshold theta (0.6 in the papers of Li et al. 2021, Tran et al. 2019,
        Butler-Yeoman et al. 2015 and Nguyen et al. 2016).
    inclusive : bool, default=False
        Select iff ``x_d >= threshold`` (the AMSO authors' code) instead.

    Returns
    -------
    masks : ndarray of bool, shape of ``X``
        Never an empty row: a particle with no coordinate above the threshold selects its
        largest coordinate (the lowest index among equal ones). This is pymoo-fs's empty-subset
        rule for thresholded positions (see
        :class:`~pymoo_fs.problems.FeatureSelectionProblem`); the papers leave the case open.
    """
    X2 = np.atleast_2d(X)
    masks = X2 >= threshold if inclusive else X2 > threshold
    empty = np.flatnonzero(~masks.any(axis=1))
    if empty.size:
        masks[empty, np.argmax(X2[empty], axis=1)] = True
    return masks.reshape(np.shape(X))


def replace_personal_bests(F_new, F_old, n_new, n_old, rule, random_state):
    """Which personal bests the new positions replace.

    Parameters
    ----------
    F_new, F_old : ndarray of float64, shape (n, n_obj)
        Objectives of the new positions and of the personal bests.
    n_new, n_old : ndarray of int, shape (n,)
        Their numbers of selected features.
    rule : str
        One objective: ``"better"`` (``F_new < F_old``, Li et al. 2021's code) or
        ``"better_or_fewer"`` (also equal with fewer features: PSO(4-2), the AMSO code).
        Two or more: ``"not_dominated"`` (unless the personal best dominates the new position:
        jMetal), ``"dominates"`` (only when the new position dominates it) or
        ``"random_if_nd"`` (when it dominates, and with probability 1/2 when neither dominates
        the other: the OMOPSO paper; Nguyen et al. (2016) [A]).
    random_state : numpy.random.Generator
        Used by ``"random_if_nd"`` only: one draw per particle (all ``n``, in order).

    Returns
    -------
    replace : ndarray of bool, shape (n,)
    """
    if rule == "better":
        return F_new[:, 0] < F_old[:, 0]
    if rule == "better_or_fewer":
        return (F_new[:, 0] < F_old[:, 0]) | ((F_new[:, 0] == F_old[:, 0]) & (n_new < n_old))
    new_dominates = dominates(F_new, F_old)
    old_dominates = dominates(F_old, F_new)
    if rule == "not_dominated":
        return ~old_dominates
    if rule == "dominates":
        return new_dominates
    if rule == "random_if_nd":
        coin = random_state.random(F_new.shape[0]) < 0.5
        return new_dominates | (~old_dominates & coin)
    raise ValueError(f"unknown pbest rule {rule!r}")


def order_key(F, sizes, fewer_breaks_ties):
    """Values whose order is the problem's order of single-objective solutions (lower is better).

    Parameters
    ----------
    F : ndarray of float64, shape (n,)
        Objectives (or fitness values) to minimise.
    sizes : ndarray of int, shape (n,)
        Numbers of selected features.
    fewer_breaks_ties : bool
        The problem's ordering: equal ``F`` goes to the smaller subset (Yang et al. 2022's FIT-E).

    Returns
    -------
    key : ndarray of float64, shape (n,)
        ``F`` itself when ``fewer_breaks_ties`` is False; otherwise the dense rank of
        ``(F, size)`` in lexicographic order, so that ``key[a] < key[b]`` iff ``a`` is better
        than ``b`` and equal pairs share a key. Comparisons written with ``F`` (tournaments,
        argmin) take the problem's order by using the key in its place.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.algorithms.swarm import order_key
    >>> order_key(np.array([0.2, 0.1, 0.2]), np.array([3, 9, 2]), True).tolist()
    [2.0, 0.0, 1.0]
    """
    F = np.asarray(F, dtype=float)
    if not fewer_breaks_ties:
        return F
    sizes = np.asarray(sizes)
    order = np.lexsort((sizes, F))
    Fs, ss = F[order], sizes[order]
    new = np.r_[True, (Fs[1:] != Fs[:-1]) | (ss[1:] != ss[:-1])]
    key = np.empty(F.shape[0])
    key[order] = np.cumsum(new) - 1.0
    return key


def sigmoid_bits(V, random_state, p_min=0.0, p_max=1.0):
    """Binary PSO's position rule: each bit is 1 with probability ``sigmoid(v)``.

    ``x_d = 1 if r_d < 1 / (1 + exp(-v_d)) else 0`` with ``r_d ~ U(0, 1)`` drawn per bit
    (Kennedy & Eberhart 1997; Butler-Yeoman et al. 2015, Eq. 3, Yang et al. 2022, Eq. 2). Used by
    BPSO and UBPSO.

    Parameters
    ----------
    V : ndarray of float64, shape (n, D)
        Velocities (already clamped to the velocity limit).
    random_state : numpy.random.Generator
        Draws ``r`` of shape ``V.shape``.
    p_min, p_max : float, default=(0.0, 1.0)
        Bounds the selection probability is clipped to (UBPSO's ``rho_mode="clip"``).

    Returns
    -------
    X : ndarray of float64, shape (n, D)
        Bits as 0.0 / 1.0.
    """
    p = np.clip(1.0 / (1.0 + np.exp(-V)), p_min, p_max)
    return (random_state.random(V.shape) < p).astype(float)


def pair_competitions(fitness, sizes, random_state, prefer_fewer=True):
    """CSO's pairwise competitions: random pairs, each with a winner and a loser.

    The swarm is shuffled and split into ``n // 2`` consecutive pairs (an odd particle out
    takes no part). In each pair the lower fitness wins; on equal fitness the smaller subset
    wins (``prefer_fewer``), and then a fair coin decides (Cheng & Jin 2015; the tie rules are
    pymoo-fs's assumption [A]).

    Parameters
    ----------
    fitness : ndarray of float64, shape (n,)
        Values to minimise.
    sizes : ndarray of int, shape (n,)
        Numbers of selected features.
    random_state : numpy.random.Generator
        Draws the permutation (``permutation(n)``), then one coin per pair, always, so the
        stream does not depend on how many ties there are.
    prefer_fewer : bool, default=True
        Break fitness ties by subset size before the coin.

    Returns
    -------
    winners, losers : ndarray of int64, shape (n // 2,)
        Particle indices; ``winners[k]`` beat ``losers[k]``.
    """
    n = fitness.shape[0]
    order = random_state.permutation(n)
    a, b = order[0:2 * (n // 2):2], order[1:2 * (n // 2):2]
    coin = random_state.random(n // 2) < 0.5
    fa, fb = fitness[a], fitness[b]
    tie = fa == fb
    if prefer_fewer:
        sa, sb = sizes[a], sizes[b]
        a_wins = (fa < fb) | (tie & (sa < sb)) | (tie & (sa == sb) & coin)
    else:
        a_wins = (fa < fb) | (tie & coin)
    return np.where(a_wins, a, b), np.where(a_wins, b, a)
