"""Single-objective feature-selection algorithms (one module each)."""

from pymoo_fs.algorithms.soo.amso import AMSO
from pymoo_fs.algorithms.soo.pso import PSO
from pymoo_fs.algorithms.soo.vlpso import VLPSO

__all__ = ["AMSO", "PSO", "VLPSO"]
