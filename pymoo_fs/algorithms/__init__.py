"""Feature-selection algorithms as pymoo ``Algorithm``\\ s.

Each algorithm owns its encoding (continuous positions with a threshold, bits, ...) and decodes
it to boolean masks before evaluation, so every result is a set of masks.
"""

from pymoo_fs.algorithms.cmdpsofs import CMDPSOFS
from pymoo_fs.algorithms.evolutionary import configure_nsga2, configure_spea2
from pymoo_fs.algorithms.pso import PSO
from pymoo_fs.algorithms.registry import algorithm_names, make_algorithm

__all__ = [
    "CMDPSOFS",
    "PSO",
    "algorithm_names",
    "configure_nsga2",
    "configure_spea2",
    "make_algorithm",
]
