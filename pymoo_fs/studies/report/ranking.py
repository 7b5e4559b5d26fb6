"""Algorithms ranked across a study's datasets: :func:`study_ranking`.

Demsar's procedure for comparing algorithms over several datasets (J. Demsar, "Statistical
comparisons of classifiers over multiple data sets", JMLR 7:1-30, 2006): rank the algorithms
on each dataset by one measure, Friedman's test of equal mean ranks, Nemenyi's post-hoc test
of every pair and its critical difference
(:func:`~pymoo_fs.analysis.statistics.friedman_ranks`; SciPy and scikit-posthocs), beside the
wins, ties and losses of each algorithm against the reference by the per-dataset Wilcoxon
tests.
"""

import math
from dataclasses import dataclass

from pymoo_fs.analysis.statistics import FriedmanResult, friedman_ranks
from pymoo_fs.studies.report.tables import summary_data

__all__ = ["RANK_COLUMNS", "StudyRanking", "study_ranking"]

#: the columns of ``ranks.csv`` (one row per algorithm)
RANK_COLUMNS = ("algorithm", "mean_rank", "wins", "ties", "losses", "datasets")


@dataclass(frozen=True)
class StudyRanking:
    """A study's algorithms ranked across its datasets.

    Attributes
    ----------
    measure : str
        What the ranks order, in words (``"mean test hypervolume"`` or ``"mean test
        accuracy"``, the study's scoring).
    column : str
        The :class:`~pymoo_fs.studies.report.SummaryTable` column ranked.
    friedman : FriedmanResult
        Ranks, mean ranks, Friedman's test, Nemenyi's p-values and critical difference.
    wtl : dict of {str: (int, int, int)}
        Per algorithm other than the reference: datasets where it is significantly better
        than the reference, not significantly different, significantly worse (the reference's
        sign on the ranked measure read from the other side).
    """

    measure: str
    column: str
    friedman: FriedmanResult
    wtl: dict

    def rows(self):
        """list of list: :data:`RANK_COLUMNS` per algorithm (wins/ties/losses blank on the
        reference's row), in the study's order."""
        out = []
        for label in self.friedman.labels:
            w = self.wtl.get(label)
            out.append([label, self.friedman.mean_ranks[label],
                        *(w if w is not None else ("", "", "")),
                        len(self.friedman.blocks)])
        return out


def study_ranking(results, alpha=0.05):
    """Rank a study's algorithms across its datasets (two or more), Friedman and Nemenyi.

    Parameters
    ----------
    results : StudyResults
    alpha : float, default=0.05

    Returns
    -------
    ranking : StudyRanking or None
        None when fewer than 2 datasets hold runs of at least 2 algorithms in common. Runs
        returning fronts are ranked by their mean test hypervolume, runs returning one subset
        by their mean test score (higher is better); only algorithms with runs on every such
        dataset take part.
    """
    data = summary_data(results)
    column = "hv_test_mean" if results.pareto else "test_score_mean"
    sign_column = "hv_test_sign" if results.pareto else "test_score_sign"
    scoring = results.spec["protocol"].get("scoring", "accuracy").replace("_", " ")
    measure = "mean test hypervolume" if results.pareto else f"mean test {scoring}"
    values = {}
    for dataset, table in data.items():
        for row in table.rows:
            r = dict(zip(table.columns, row))
            if r["runs"] and not math.isnan(r[column]):
                values.setdefault(r["algorithm"], {})[dataset] = r[column]
    datasets = [d for d in data if sum(d in v for v in values.values()) >= 2]
    labels = [a for a in results.labels if a in values
              and all(d in values[a] for d in datasets)]
    if len(datasets) < 2 or len(labels) < 2:
        return None
    friedman = friedman_ranks({a: [values[a][d] for d in datasets] for a in labels},
                              better="higher", alpha=alpha, blocks=datasets)
    ref = results.spec["reference"]
    wtl = {}
    for label in labels:
        if label == ref:
            continue
        signs = [dict(zip(data[d].columns, data[d].rows[[r[1] for r in data[d].rows]
                                                      .index(label)]))[sign_column]
                 for d in datasets]
        wtl[label] = (signs.count("-"), signs.count("="), signs.count("+"))
    return StudyRanking(measure, column, friedman, wtl)
