"""pymoo-fs: wrapper feature selection with particle swarms, as pymoo problems and algorithms.

Subpackages
-----------
datasets
    Real datasets (bundled ``musk1`` and ``sonar``, CSV/ARFF/MAT files), stratified splitting and
    min-max scaling fitted on training data.
evaluation
    :class:`~pymoo_fs.evaluation.KNNEvaluator`, the exact and fast wrapper evaluator.
problems
    Feature selection as pymoo ``Problem``\\ s on boolean masks.
algorithms
    Particle swarm optimisers (PSO, CMDPSOFS) and pymoo's NSGA-II/SPEA2 configured for feature
    selection.
analysis
    Hypervolume, IGD, hold-out re-scoring of fronts and Pareto-front figures.

Importing the package compiles nothing; compiled kernels are built (or loaded from the on-disk
cache) on first use.
"""

__version__ = "0.1.0"

__all__ = ["__version__"]
