"""Multi-objective feature-selection algorithms (one module each)."""

from pymoo_fs.algorithms.moo.cmdpsofs import CMDPSOFS
from pymoo_fs.algorithms.moo.evolutionary import configure_nsga2, configure_spea2

__all__ = ["CMDPSOFS", "configure_nsga2", "configure_spea2"]
