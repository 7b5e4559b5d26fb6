"""The wrapper evaluator: exact cross-validated KNN scores of feature subsets."""

from pymoo_fs.evaluation.knn import EvaluatorMemoryError, KNNEvaluator

__all__ = ["EvaluatorMemoryError", "KNNEvaluator"]
