"""Weka's best-first forward search over feature subsets (``BestFirst``, ``LFSMethods``).

One routine serves CFS (all features, in index order) and LFS (the top-ranked features, in
rank order): :func:`best_first_forward`.
"""

import numpy as np

from pymoo_fs._validation import check_positive_int

__all__ = ["best_first_forward"]


def best_first_forward(merit_of_children, n_features, candidates=None, max_stale=5,
                       start_merit=0.0, min_improvement=1e-5):
    """Best-first forward selection with Weka's open list and stopping rule.

    Starting from the empty subset, the best subset of a bounded open list is expanded by
    adding each candidate feature it lacks; every child enters the open list, and a child
    becomes the best subset when its merit exceeds the best merit by more than
    ``min_improvement``. The search stops after ``max_stale`` consecutive expansions that
    improved nothing, or when the open list is empty.

    Parameters
    ----------
    merit_of_children : callable
        ``merit_of_children(group, added) -> merits``: ``group`` a boolean mask (n_features,),
        ``added`` the int64 array of candidate features absent from it (in candidate order);
        returns the merit of ``group`` plus each of them, shape (len(added),). A merit must
        depend on the subset only, not on the path that reached it.
    n_features : int
    candidates : array-like of int, optional
        Features that may be added, in the order children are generated (default all, in
        index order: Weka's ``BestFirst``; LFS passes its top-ranked features in rank order).
    max_stale : int, default=5
        Consecutive non-improving expansions before stopping, and the open list's capacity
        (Weka's ``searchTermination``).
    start_merit : float, default=0.0
        Merit of the empty subset.
    min_improvement : float, default=1e-5
        A child replaces the best subset when ``merit - best > min_improvement`` (Weka's
        forward-search test).

    Returns
    -------
    best : ndarray of bool, shape (n_features,)
        The best subset found.
    best_merit : float
    n_children : int
        Children evaluated (a measure of work).

    Raises
    ------
    ValueError
        If ``max_stale`` or ``n_features`` is not a positive int.

    Notes
    -----
    The open list holds at most ``max_stale`` subsets sorted by decreasing merit; a new subset
    goes after those of equal merit, and when the list is full the last one is dropped, or the
    new one is not inserted if it is no better than the last (Weka ``LinkedList2``). Weka's
    cache of evaluated subsets only saves evaluations; every child enters the list either way,
    as here.

    References
    ----------
    Weka ``weka.attributeSelection.BestFirst`` (direction forward, ``searchTermination`` 5)
    and ``LFSMethods.forwardSearch`` (M. Gütlein, E. Frank, M. Hall, A. Karwath, "Large-scale
    attribute selection using wrappers", IEEE CIDM 2009).

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.filters.search import best_first_forward
    >>> weights = np.array([0.5, 0.2, -0.3])
    >>> def merits(group, added):
    ...     return np.array([weights[group].sum() + weights[a] for a in added])
    >>> best, merit, _ = best_first_forward(merits, 3)
    >>> best.tolist(), round(merit, 2)
    ([True, True, False], 0.7)
    """
    n_features = check_positive_int("n_features", n_features)
    max_stale = check_positive_int("max_stale", max_stale)
    candidates = (np.arange(n_features, dtype=np.int64) if candidates is None
                  else np.asarray(candidates, dtype=np.int64))
    best = np.zeros(n_features, dtype=bool)
    best_merit = float(start_merit)
    open_list = [(best_merit, best.copy())]
    stale, n_children = 0, 0
    while stale < max_stale and open_list:
        _, group = open_list.pop(0)
        added = candidates[~group[candidates]]
        merits = np.asarray(merit_of_children(group, added), dtype=np.float64)
        n_children += added.size
        improved = False
        for feature, merit in zip(added, merits):
            child = group.copy()
            child[feature] = True
            _insert(open_list, float(merit), child, max_stale)
            if merit - best_merit > min_improvement:
                improved = True
                best, best_merit = child, float(merit)
        stale = 0 if improved else stale + 1
    return best, best_merit, n_children


def _insert(open_list, merit, group, capacity):
    """Weka ``LinkedList2.addToList``: sorted by decreasing merit, after equal merits."""
    if len(open_list) == capacity and merit <= open_list[-1][0]:
        return
    where = next((i for i, (m, _) in enumerate(open_list) if merit > m), len(open_list))
    if len(open_list) == capacity:
        open_list.pop()
    open_list.insert(where, (merit, group))
