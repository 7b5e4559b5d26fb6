"""Algorithms a user writes in a module of their own, for the registry's tests.

Not a test module: pytest does not import it while collecting, so nothing here is registered
unless a test (or a worker process) imports it. ``RegisteredOnImport`` registers itself when
its module is imported, as a user's package would; the tests that import this module in the
test process unregister it again.
"""

import numpy as np
from pymoo.core.algorithm import Algorithm

from pymoo_fs.algorithms import PSO, RegistryName, register
from pymoo_fs.algorithms.base import SwarmAlgorithm


class RandomSearch(SwarmAlgorithm):
    """Fresh random masks every generation; the personal bests keep the best seen."""

    n_objectives = 1

    def __init__(self, pop_size=10, density=0.5, **kwargs):
        super().__init__(pop_size, pbest_rule="better", **kwargs)
        self.density = float(density)

    def _initial_swarm(self):
        return self._draw(), None

    def _move(self):
        return self._draw(), None

    def _draw(self):
        X = self.random_state.random((self.pop_size, self.problem.n_var)) < self.density
        X[np.arange(self.pop_size), self.random_state.integers(0, X.shape[1], self.pop_size)] = True
        return X.astype(float)

    def _decode(self, X):
        return X > 0.5


class TwoVariants(RandomSearch):
    """One class, two registered names: sparse and dense random search."""

    registry_names = (RegistryName("SPARSE-RS", aliases=("SPARSERS",), preset={"density": 0.1}),
                      RegistryName("DENSE-RS", preset={"density": 0.9}))


@register("ON-IMPORT", aliases=("ONIMPORT",))
class RegisteredOnImport(PSO):
    """A PSO subclass registered by a decorator when its module is imported."""

    def __init__(self, pop_size=30, vmax=0.3, **kwargs):
        super().__init__(pop_size=pop_size, vmax=vmax, **kwargs)


class NoObjectives(Algorithm):
    """A pymoo Algorithm that does not say how many objectives it handles."""


def not_an_algorithm(pop_size=30):
    """A plain function: not declared with ``algorithm_factory``."""
    return PSO(pop_size=pop_size)
