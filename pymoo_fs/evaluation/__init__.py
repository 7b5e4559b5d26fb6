"""The wrapper evaluator: exact cross-validated scores of feature subsets.

:class:`Evaluator` is the contract every evaluator fulfils (``score``, ``score_flips``,
``holdout_score``, the cache and its counters). :class:`KNNEvaluator` is the compiled, exact
fast path for KNN; it lives in the package :mod:`pymoo_fs.evaluation.knn` with its rooms (fold
layout, Gram-matrix planner and pool, precision rule, settling of uncertified rows, the
self-check of the replay of scikit-learn, the plain-numpy reference) and its numba kernels
(:mod:`pymoo_fs.evaluation.knn.kernels`). :class:`EstimatorEvaluator` scores with any
scikit-learn classifier or regressor; :func:`make_evaluator` chooses between them. A regression
scoring (``"neg_mean_squared_error"``, ``"neg_mean_absolute_error"``, ``"r2"``) makes
:class:`KNNEvaluator` a KNN regression evaluator (:attr:`Evaluator.target_type`); the problems
read every evaluator's scores on one unit scale (:meth:`Evaluator.unit_scores`: the
normalised error of a regression target). :class:`FitBEvaluator`
scores Tran et al.'s (2019) FIT-B (balanced 1-NN accuracy plus a class-distance term) with exact
incremental distance matrices (kernels in ``_fitb_kernels``). :class:`CrossValidatedEvaluator`
is what the evaluators holding data and folds share; the evaluators over evaluators
(:class:`RepeatedCrossValidation`, Weka's repeated inner CV, and :class:`FrontRecorder`, the
archive of every subset scored) are in :mod:`pymoo_fs.evaluation.wrappers`.

Importing this package imports neither numba (nor any kernel module) nor pymoo nor
scikit-learn's neighbours: each is imported by the first call that needs it (a first score
loads only the kernels of the path it takes), so that a process that never scores, or scores
with another estimator, does not pay for them (``tests/evaluation/test_startup.py``;
``benchmarks/startup.py`` measures a fresh process up to its first score).

References
----------
B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.
"""

from pymoo_fs.evaluation.base import CrossValidatedEvaluator, Evaluator
from pymoo_fs.evaluation.estimator import EstimatorEvaluator, make_evaluator
from pymoo_fs.evaluation.fitb import FitBEvaluator, block_folds
from pymoo_fs.evaluation.knn import EvaluatorMemoryError, KNNEvaluator
from pymoo_fs.evaluation.wrappers import FrontRecorder, RepeatedCrossValidation

__all__ = [
    "CrossValidatedEvaluator",
    "Evaluator",
    "EstimatorEvaluator",
    "EvaluatorMemoryError",
    "FitBEvaluator",
    "FrontRecorder",
    "KNNEvaluator",
    "RepeatedCrossValidation",
    "block_folds",
    "make_evaluator",
]
