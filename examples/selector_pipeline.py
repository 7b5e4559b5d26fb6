"""
Swarm feature selection inside a scikit-learn Pipeline, tuned by GridSearchCV, on Sonar
=======================================================================================

The selector searches feature subsets of the training folds (KNN-5 error under inner 5-fold
cross-validation against the number of features; by default ISRPSO, Nguyen et al., Soft
Computing 2016, with ``n_gen * pop_size`` evaluations), picks one subset from the Pareto front,
and the pipeline's KNN is trained on it. GridSearchCV chooses the picking rule by the
outer cross-validated accuracy; the selected subset is then scored on a held-out test set.

Run: ``python examples/selector_pipeline.py`` (a few seconds: 10 generations of 16 particles),
``--generations 100 --pop-size 30`` for the selector's defaults, and ``--figure front.png`` to
save the front of the best pipeline's selector as a picture (the README's picture is
``--generations 100 --pop-size 30 --figure docs/selector_front.png``).
"""

import argparse

from sklearn.model_selection import GridSearchCV, train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import MinMaxScaler

from pymoo_fs.analysis import ParetoFrontDisplay
from pymoo_fs.datasets import load_dataset
from pymoo_fs.selector import SwarmFeatureSelector


def main(n_gen=10, pop_size=16, figure=None):
    data = load_dataset("sonar")
    X_train, X_test, y_train, y_test = train_test_split(
        data.X, data.y, test_size=0.3, stratify=data.y, random_state=0)
    pipe = Pipeline([
        ("scale", MinMaxScaler()),
        ("select", SwarmFeatureSelector(n_gen=n_gen, pop_size=pop_size, random_state=0)),
        ("knn", KNeighborsClassifier(n_neighbors=5)),
    ])
    search = GridSearchCV(pipe, {"select__select": ["knee", "min_error", "within_tol"]}, cv=3)
    search.fit(X_train, y_train)

    for params, score in zip(search.cv_results_["params"], search.cv_results_["mean_test_score"]):
        print(f"select={params['select__select']!r:13} outer 3-fold accuracy {score:.3f}")
    selector = search.best_estimator_.named_steps["select"]
    front = selector.pareto_front_
    baseline = Pipeline([("scale", MinMaxScaler()), ("knn", KNeighborsClassifier())])
    print(f"best: select={search.best_params_['select__select']!r}, "
          f"{selector.support_.sum()} of {selector.n_features_in_} features, "
          f"test accuracy {search.score(X_test, y_test):.3f} (all features: "
          f"{baseline.fit(X_train, y_train).score(X_test, y_test):.3f})")
    print(f"front of the refitted selector ({selector.n_evaluations_} evaluations; one row per "
          f"subset, pandas.DataFrame(selector.pareto_front_) is this table):")
    print("n_features  inner-CV error")
    for k, error, chosen in zip(front["n_features"], front["error"], front["chosen"]):
        print(f"{k:10d}  {error:14.4f}{'  <- chosen' if chosen else ''}")
    if figure is not None:
        import matplotlib.pyplot as plt

        ParetoFrontDisplay.from_estimator(selector)  # on a new current pyplot figure
        plt.title("Sonar: SwarmFeatureSelector in a Pipeline")
        plt.savefig(figure, dpi=150)
        plt.close()
        print(f"wrote {figure}")
    return search


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--figure", help="save the best selector's Pareto front (PNG)")
    parser.add_argument("--generations", type=int, default=10)
    parser.add_argument("--pop-size", type=int, default=16)
    args, _ = parser.parse_known_args()  # the tests run this file under pytest's arguments
    main(n_gen=args.generations, pop_size=args.pop_size, figure=args.figure)
