"""The wrapper evaluator: exact cross-validated scores of feature subsets.

:class:`Evaluator` is the contract every evaluator fulfils (``score``, ``score_flips``,
``holdout_score``, the cache and its counters). :class:`KNNEvaluator` is the compiled, exact
fast path for KNN; :class:`EstimatorEvaluator` scores with any scikit-learn classifier;
:func:`make_evaluator` chooses between them.
"""

from pymoo_fs.evaluation.base import Evaluator
from pymoo_fs.evaluation.estimator import EstimatorEvaluator, make_evaluator
from pymoo_fs.evaluation.knn import EvaluatorMemoryError, KNNEvaluator

__all__ = [
    "Evaluator",
    "EstimatorEvaluator",
    "EvaluatorMemoryError",
    "KNNEvaluator",
    "make_evaluator",
]
