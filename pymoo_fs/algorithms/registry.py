"""Algorithms by name, for the command line and studies."""

from functools import partial

from pymoo_fs.algorithms.moo import (CMDPSOFS, ISRPSO, MOPSO, configure_nsga2, configure_paes,
                                     configure_spea2)
from pymoo_fs.algorithms.soo import (AMSO, BPSO, CEPSOFL, CSO, FSIPSO, PSO, PSO42, SBPSO, SBS,
                                     SCTSOFS, SFS, UBPSO, VLPSO)


def _without_population(cls, pop_size=None, **kwargs):
    """A sequential search has no population: the registry's ``pop_size`` is ignored."""
    return cls(**kwargs)


def _cso(fitness, **kwargs):
    """CSO(C) (the problem's objective) or CSO(A) (accuracy alone), seed 000 §IV-B."""
    return CSO(fitness=fitness, **kwargs)


#: name -> (factory taking pop_size and keyword arguments, number of objectives it handles)
_REGISTRY = {
    "CMDPSOFS": (CMDPSOFS, 2),
    "NSGA-II": (configure_nsga2, 2),
    "SPEA2": (configure_spea2, 2),
    "ISRPSO": (ISRPSO, 2),
    "MOPSO": (MOPSO, 2),
    "PAES": (configure_paes, 2),
    "PSO": (PSO, 1),
    # seed 000: FSIPSO, its swarm baselines, and Weka's greedy searches
    "FSIPSO": (FSIPSO, 1),
    "PSO(4-2)": (PSO42, 1),
    "CSO(C)": (partial(_cso, "objective"), 1),
    "CSO(A)": (partial(_cso, "accuracy"), 1),
    "BPSO": (BPSO, 1),
    "UBPSO": (UBPSO, 1),
    "SBPSO": (SBPSO, 1),
    "SFS": (partial(_without_population, SFS), 1),
    "SBS": (partial(_without_population, SBS), 1),
    # seed 001
    "AMSO": (AMSO, 1),
    "VLPSO": (VLPSO, 1),
    # seed 002
    "SCTSOFS": (SCTSOFS, 1),
    # seed 004
    "CEPSO-FL": (CEPSOFL, 1),
}
_ALIASES = {"NSGA2": "NSGA-II", "NSGAII": "NSGA-II", "PSO(C)": "PSO", "PSO42": "PSO(4-2)",
            "PSO4-2": "PSO(4-2)", "CSO": "CSO(C)",
            "CEPSOFL": "CEPSO-FL"}


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
        One of :func:`algorithm_names` (case-insensitive; ``NSGA2`` is accepted for NSGA-II,
        ``PSO(C)`` for PSO, ``PSO42`` for PSO(4-2), ``CSO`` for CSO(C)).
    pop_size : int, default=30
        Population or swarm size (ignored by SFS and SBS, which have none).
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
