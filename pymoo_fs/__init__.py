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

The papers
----------
pymoo-fs implements the methods and evaluation protocols of five papers (the study presets
``"S000"`` ... ``"S004"`` are their protocols; the documentation's References page,
``docs/references.rst``, lists them in full with every baseline's paper):

- Li, Xue & Zhang (2021), FSIPSO, IEEE CEC 2021 (preset ``S000``);
- Tran, Xue & Zhang (2019), AMSO, GECCO 2019 (preset ``S001``);
- Butler-Yeoman, Xue & Zhang (2015), SRTSO and SCTSOFS, AusDM 2015 (preset ``S002``);
- Nguyen, Xue, Liu, Andreae & Zhang (2016), ISRPSO, Soft Computing 20 (preset ``S003``);
- Yang, Chen, Li, Liu, Li & Zhan (2022), CEPSO-FL, Symmetry 14(6) (preset ``S004``).

Provenance tags
---------------
Docstrings say where every rule and default comes from:

``[Author year, §x]``
    Stated in that paper (section, equation, table or algorithm given), e.g.
    ``[Li et al. 2021, §IV-C]``.
``[P: source]``
    Not in the paper; taken from a public source, e.g. the authors' code (``FSIPSO-code``,
    ``AMSO-code``), jMetal, Weka or pymoo (the public sources are listed with the references).
``[A]``
    Our own assumption where nothing public settles the point. Every ``[A]`` is a switch with
    a documented default.
``[P-code≠paper]``
    The authors' public code differs from their paper; both versions are offered.

References
----------
A.-D. Li, B. Xue, M. Zhang, "A forward search inspired particle swarm optimization algorithm for
feature selection in classification", IEEE CEC 2021, pp. 786-793,
doi:10.1109/CEC45853.2021.9504949.

B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.

T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
size-controlled approach", AusDM 2015, Conferences in Research and Practice in Information
Technology 168.

H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance in
PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
doi:10.1007/s00500-016-2128-8.

J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle swarm
optimization with fuzzy learning for large-scale feature selection", Symmetry 14(6):1142, 2022,
doi:10.3390/sym14061142.
"""

from pymoo_fs import compilation as _compilation

__version__ = "0.1.0"

_compilation.install()  # announce first compilations of the kernels (does not import numba)

__all__ = ["__version__"]
