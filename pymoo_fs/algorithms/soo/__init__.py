"""Single-objective feature-selection algorithms (one module each)."""

from pymoo_fs.algorithms.soo.pso import PSO

__all__ = ["PSO"]
