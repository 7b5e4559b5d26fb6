"""Algorithms by name, for the command line and studies."""

from pymoo_fs.algorithms.moo import CMDPSOFS, configure_nsga2, configure_spea2
from pymoo_fs.algorithms.soo import AMSO, PSO, VLPSO

#: name -> (factory taking pop_size and keyword arguments, number of objectives it handles)
_REGISTRY = {
    "CMDPSOFS": (CMDPSOFS, 2),
    "NSGA-II": (configure_nsga2, 2),
    "SPEA2": (configure_spea2, 2),
    "PSO": (PSO, 1),
    "AMSO": (AMSO, 1),
    "VLPSO": (VLPSO, 1),
}
_ALIASES = {"NSGA2": "NSGA-II", "NSGAII": "NSGA-II", "PSO(C)": "PSO"}


def algorithm_names(n_obj=None):
    """Names accepted by :func:`make_algorithm`.

    Parameters
    ----------
    n_obj : {1, 2}, optional
        Only the single-objective (1) or multi-objective (2) algorithms.

    Returns
    -------
    names : list of str
    """
    return [name for name, (_, k) in _REGISTRY.items() if n_obj is None or k == n_obj]


def canonical_name(name):
    """The registered spelling of ``name`` (case-insensitive; ``nsga2`` -> ``NSGA-II``).

    Raises
    ------
    ValueError
        If the name is unknown; the message lists the known names.
    """
    key = str(name).strip().upper()
    key = _ALIASES.get(key, key)
    if key not in _REGISTRY:
        raise ValueError(f"unknown algorithm {name!r}; known: {', '.join(algorithm_names())}")
    return key


def make_algorithm(name, pop_size=30, **kwargs):
    """A fresh, configured algorithm by name.

    Parameters
    ----------
    name : str
        One of :func:`algorithm_names` (case-insensitive; ``NSGA2`` is accepted for NSGA-II).
    pop_size : int, default=30
        Population or swarm size.
    **kwargs
        Further constructor arguments.

    Returns
    -------
    algorithm : pymoo.core.algorithm.Algorithm

    Raises
    ------
    ValueError
        If the name is unknown or a parameter is invalid.
    """
    factory, _ = _REGISTRY[canonical_name(name)]
    return factory(pop_size=pop_size, **kwargs)


def n_objectives(name):
    """Number of objectives (1 or 2) the named algorithm handles."""
    return _REGISTRY[canonical_name(name)][1]
