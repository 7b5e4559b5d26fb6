"""The wrapper evaluator: exact cross-validated KNN scores of feature subsets."""

from pymoo_fs.evaluation.knn import KNNEvaluator

__all__ = ["KNNEvaluator"]
