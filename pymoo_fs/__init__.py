"""pymoo-fs: wrapper feature selection with particle swarms, as pymoo problems and algorithms.

Subpackages
-----------
datasets
    Real datasets (bundled ``musk1`` and ``sonar``, CSV/ARFF/MAT files), stratified splitting and
    min-max scaling fitted on training data.
evaluation
    The evaluator contract (:class:`~pymoo_fs.evaluation.Evaluator`), the exact and fast KNN
    evaluator, and an evaluator for any scikit-learn classifier.
problems
    Feature selection as pymoo ``Problem``\\ s on boolean masks (never an empty one).
algorithms
    The swarm core and the algorithms on it (PSO, CMDPSOFS), and pymoo's NSGA-II/SPEA2
    configured for feature selection.
analysis
    Hypervolume, IGD, hold-out re-scoring of fronts, choosing one subset from a front, and
    Pareto-front figures.
selector
    :class:`~pymoo_fs.selector.SwarmFeatureSelector`, a scikit-learn feature selector
    (``Pipeline``, ``GridSearchCV``, ``clone``) with the Pareto front it found.

Imports flow one way: datasets -> evaluation -> problems -> algorithms -> analysis ->
comparison and command line; the argument checks (``pymoo_fs._validation``) and run seeds
(:mod:`pymoo_fs.seeds`) sit below them all.

Importing the package compiles nothing; compiled kernels are built (or loaded from the on-disk
cache) on first use, and a first build is announced (:mod:`pymoo_fs.compilation`: a
``KernelCompilationWarning`` and ``logging`` records, once per family of kernels).

Provenance tags
---------------
Docstrings say where every rule and default comes from, with the tags of the implementation
spec:

``[S000 §x]`` ... ``[S004 §x]``
    Stated in one of the five seed papers (section, table or equation given): S000 FSIPSO (Li,
    Xue & Zhang, CEC 2021), S001 AMSO (Tran, Xue & Zhang, GECCO 2019), S002 SRTSO/SCTSOFS
    (Butler-Yeoman, Xue & Zhang, AusDM 2015), S003 ISRPSO (Nguyen et al., Soft Computing 2016),
    S004 CEPSO-FL (Symmetry 2022).
``[P: source]``
    Not in the seed; taken from a public source, e.g. the authors' code (``FSIPSO-code``,
    ``AMSO-code``), jMetal, Weka or pymoo.
``[A]``
    Our own assumption where nothing public settles the point. Every ``[A]`` is a switch with
    a documented default.
``[P-code≠paper]``
    The authors' public code differs from their paper; both versions are offered.
"""

from pymoo_fs import compilation as _compilation

__version__ = "0.1.0"

_compilation.install()  # announce first compilations of the kernels (does not import numba)

__all__ = ["__version__"]
