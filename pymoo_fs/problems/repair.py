"""The repair that keeps bit-string algorithms off the empty feature subset."""

import numpy as np
from pymoo.core.repair import Repair

__all__ = ["NonEmptyRepair", "repair_empty"]


def repair_empty(masks: np.ndarray, random_state: np.random.Generator) -> np.ndarray:
    """Give every mask that selects no feature one feature, chosen uniformly at random.

    Parameters
    ----------
    masks : ndarray of bool, shape (n, D)
        Feature masks (bit strings).
    random_state : numpy.random.Generator
        Draws one feature index per empty mask, in row order; nothing is drawn when no mask is
        empty, so runs without an empty mask consume no random numbers.

    Returns
    -------
    masks : ndarray of bool, shape (n, D)
        A copy in which each formerly empty row has exactly one True.

    Notes
    -----
    This is the rule of :class:`~pymoo_fs.problems.FeatureSelectionProblem` for bit strings: an
    empty mask is not a feature subset. Thresholded continuous positions are repaired by their
    largest coordinate instead (:func:`pymoo_fs.algorithms.swarm.decode`).
    """
    masks = np.array(masks, dtype=bool)
    empty = np.flatnonzero(~masks.any(axis=1))
    if empty.size:
        masks[empty, random_state.integers(0, masks.shape[1], size=empty.size)] = True
    return masks


class NonEmptyRepair(Repair):
    """pymoo repair: an empty bit string gets one random feature (see :func:`repair_empty`).

    Used by :func:`~pymoo_fs.algorithms.configure_nsga2` and
    :func:`~pymoo_fs.algorithms.configure_spea2` after sampling and after every mating, with the
    algorithm's own generator, so runs stay reproducible.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.problems import NonEmptyRepair
    >>> X = np.array([[False, False, False], [True, False, True]])
    >>> NonEmptyRepair()._do(None, X, random_state=np.random.default_rng(0)).sum(axis=1)
    array([1, 2])
    """

    def _do(self, problem, X, random_state=None, **kwargs):
        if random_state is None:
            raise ValueError("NonEmptyRepair needs the algorithm's random_state")
        return repair_empty(X, random_state)
