"""Feature-selection algorithms as pymoo ``Algorithm``\\ s.

Layout: the ground every algorithm stands on is :mod:`~pymoo_fs.algorithms.base`
(:class:`FeatureSelectionAlgorithm`, :class:`SwarmAlgorithm`, :class:`ParticleSwarm`), with the
pure update steps in :mod:`~pymoo_fs.algorithms.swarm` and the Pareto-archive rules in
:mod:`~pymoo_fs.algorithms.archive`, and what the variable-length swarms over SU-ranked
features (AMSO, VLPSO) share in :mod:`~pymoo_fs.algorithms.varlen`; each algorithm is one
module in :mod:`~pymoo_fs.algorithms.soo` (single-objective) or
:mod:`~pymoo_fs.algorithms.moo` (multi-objective). Each declares what it is (names, number
of objectives, population, budget unit) as class attributes (:mod:`~pymoo_fs.algorithms.metadata`);
:mod:`~pymoo_fs.algorithms.registry` finds them by name, and :func:`register` adds a user's own.

Each algorithm owns its encoding (continuous positions with a threshold, bits, ...) and decodes
it to boolean masks, never an empty one, before evaluation, so every result is a set of masks.
"""

from pymoo_fs.algorithms.base import FeatureSelectionAlgorithm, ParticleSwarm, SwarmAlgorithm
from pymoo_fs.algorithms.moo import (CMDPSOFS, ISRPSO, MOPSO, PAES, configure_nsga2,
                                     configure_paes, configure_spea2)
from pymoo_fs.algorithms.metadata import AlgorithmInfo, RegistryName, algorithm_factory
from pymoo_fs.algorithms.registry import (algorithm_info, algorithm_names, algorithm_reference,
                                          canonical_name, make_algorithm, n_objectives, register,
                                          unregister)
from pymoo_fs.algorithms.soo import (AMSO, BBPSOACJ, BPSO, BVDPSO, CEPSOFL, CSO, FSIPSO, HFSCP,
                                     PSO, PSO42, SBPSO, SBS, SCTSOFS, SFS, SRTSO, UBPSO, VLPSO,
                                     SequentialSelection)

__all__ = [
    "AMSO",
    "AlgorithmInfo",
    "BBPSOACJ",
    "BPSO",
    "BVDPSO",
    "CEPSOFL",
    "CMDPSOFS",
    "CSO",
    "FSIPSO",
    "FeatureSelectionAlgorithm",
    "HFSCP",
    "ISRPSO",
    "MOPSO",
    "PAES",
    "PSO",
    "PSO42",
    "ParticleSwarm",
    "RegistryName",
    "SBPSO",
    "SBS",
    "SCTSOFS",
    "SFS",
    "SRTSO",
    "SequentialSelection",
    "SwarmAlgorithm",
    "UBPSO",
    "VLPSO",
    "algorithm_factory",
    "algorithm_info",
    "algorithm_names",
    "algorithm_reference",
    "canonical_name",
    "configure_nsga2",
    "configure_paes",
    "configure_spea2",
    "make_algorithm",
    "n_objectives",
    "register",
    "unregister",
]
