"""Nguyen et al. (2016)'s qualitative statements checked on a study: held, not held, not run.

Nguyen, Xue, Liu, Andreae & Zhang (Soft Computing, 2016) report ISRPSO against MOPSO, CMDPSOFS,
NSGA-II, SPEA2 and PAES with figures only (Pareto fronts, Figs. 1-6); their section "Results
and discussion" makes a few statements in words about the datasets. :data:`CHECKS` holds those
about the datasets pymoo-fs ships (:data:`CHECK_DATASETS`), one :class:`Check` each with the
rule that decides it on a study's "best" and "average" fronts (the non-dominated union of the
runs' fronts, :func:`~pymoo_fs.analysis.best_front`, and the mean error per subset size over
the runs, :func:`~pymoo_fs.analysis.average_front`). :func:`statement_checks` evaluates every
statement on the datasets of one or more studies; :func:`report_checks` does so for the report
of a study whose protocol is the paper's (``S003``), which :func:`~pymoo_fs.studies.report.
write_report` prints in ``report.md``, ``report.html`` and ``summary.json``.

References
----------
H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance in
PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
doi:10.1007/s00500-016-2128-8, section "Results and discussion".
"""

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from pymoo_fs.analysis import average_front, best_front

__all__ = ["CHECKS", "CHECK_COLUMNS", "CHECK_DATASETS", "CHECK_PROTOCOL", "Check",
           "CheckResult", "check_fronts", "checks_intro", "checks_markdown",
           "report_checks", "statement_checks"]


#: the datasets of Nguyen et al. (2016) that pymoo-fs ships (Movementlibras is ``libras``,
#: Isolet5 is approximated by ``isolet`` = isolet1), in the order of the paper's text
CHECK_DATASETS = ("vehicle", "german", "sonar", "libras", "musk1", "isolet")
#: the protocol (preset name) of the paper; :func:`report_checks` checks studies run under it
CHECK_PROTOCOL = "S003"
#: the columns of a checks table (``summary.json``'s ``"checks"``, the report's table)
CHECK_COLUMNS = ("dataset", "statement", "runs", "held", "measured")

_SOURCE = ('H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive '
           'maintenance in PSO-based multi-objective feature selection", Soft Computing 20, '
           '3927-3946 (2016), doi:10.1007/s00500-016-2128-8, section "Results and discussion"')


@dataclass(frozen=True)
class Check:
    """One statement of Nguyen et al. (2016) and the rule that decides it.

    Attributes
    ----------
    dataset : str
        The dataset it is about, or ``"all"`` (every dataset of :data:`CHECK_DATASETS`).
    statement : str
        The statement as the paper makes it, then in parentheses the rule that decides it.
    algorithms : tuple of str
        The algorithm labels the rule compares (the first is always ``"ISRPSO"``).
    decide : callable
        ``decide(fronts) -> (held, measured)``: ``fronts`` is :func:`check_fronts`'s mapping
        of an algorithm label to its runs' ``(train, test, full_train_error, full_test_error,
        n_features)``; ``held`` is True, False, or None when an algorithm of ``algorithms``
        did not run; ``measured`` (str) says what the rule saw.

    References
    ----------
    H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
    in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
    doi:10.1007/s00500-016-2128-8, section "Results and discussion".
    """

    dataset: str
    statement: str
    algorithms: tuple
    decide: Callable


@dataclass(frozen=True)
class CheckResult:
    """One statement decided on one dataset.

    Attributes
    ----------
    dataset : str
    statement : str
        :attr:`Check.statement`.
    runs : int
        The fewest runs among the algorithms the rule compares (0 when one of them, or the
        dataset, is not in the study): the runs the verdict rests on.
    held : bool or None
        True (held), False (not held), None (not run: a dataset or algorithm missing; or
        undecided: the rule had nothing to compare, :attr:`verdict`).
    measured : str
        What the rule saw (numbers), or what is missing.
    """

    dataset: str
    statement: str
    runs: int
    held: bool | None
    measured: str

    @property
    def verdict(self):
        """str: ``"held"``, ``"not held"``, ``"not run"`` (a dataset or algorithm missing), or
        ``"undecided"`` (everything ran, but the rule found nothing to compare, e.g. no
        subset small enough)."""
        if self.held is None:
            return "not run" if self.runs == 0 else "undecided"
        return {True: "held", False: "not held"}[self.held]

    def as_row(self):
        """list: the values of :data:`CHECK_COLUMNS` (``held`` as True, False or None)."""
        return [self.dataset, self.statement, self.runs, self.held, self.measured]


# ---------------------------------------------------------------------------------- the rules
def _need(fronts, *labels):
    missing = [label for label in labels if label not in fronts]
    return ", ".join(missing) + " not run" if missing else None


def _all_small_and_better(fronts):
    """ISRPSO's best test front holds a subset with < 10 % of the features and a lower error
    than all features (the smallest-error such subset is reported, training and test)."""
    if (missing := _need(fronts, "ISRPSO")) is not None:
        return None, missing
    train, test, full_train, full_test, n = fronts["ISRPSO"]
    found = []
    for front, full in ((best_front(train), full_train), (best_front(test), full_test)):
        hits = front[(front[:, 1] < 0.1) & (front[:, 0] < full)]
        found.append(None if hits.size == 0 else hits[np.argmin(hits[:, 0])])
    text = " / ".join("none" if h is None else f"{round(h[1] * n)} features, error {h[0]:.4f}"
                      for h in found)
    return found[1] is not None, f"train / test: {text}"


def _all_three_sizes(fronts):
    """ISRPSO's average test front has >= 3 sizes below all features with a lower error."""
    if (missing := _need(fronts, "ISRPSO")) is not None:
        return None, missing
    train, test, full_train, full_test, _ = fronts["ISRPSO"]
    counts = [int(np.sum((A[:, 1] < 1.0) & (A[:, 0] < full)))
              for A, full in ((average_front(train), full_train),
                              (average_front(test), full_test))]
    return counts[1] >= 3, f"sizes better than all features, train / test: {counts[0]} / " \
                           f"{counts[1]}"


def _lowest_error_up_to(front, n_features, size):
    """Lowest error of a front among subsets of at most ``size`` features (inf if none)."""
    sizes = np.rint(front[:, 1] * n_features)
    errors = front[sizes <= size, 0]
    return float(errors.min()) if errors.size else float("inf")


def _musk1(fronts):
    """ISRPSO's best training front with <= 7 features is no worse than MOPSO's with <= 20."""
    if (missing := _need(fronts, "ISRPSO", "MOPSO")) is not None:
        return None, missing
    n = fronts["ISRPSO"][4]
    isr = _lowest_error_up_to(best_front(fronts["ISRPSO"][0]), n, 7)
    mopso = _lowest_error_up_to(best_front(fronts["MOPSO"][0]), n, 20)
    text = f"training error: ISRPSO <= 7 features {isr:.4f}, MOPSO <= 20 features {mopso:.4f}"
    if math.isinf(mopso):  # nothing to match: no vacuous "held" (inf <= inf)
        return None, f"{text}: undecided, MOPSO found no subset of <= 20 features"
    return isr <= mopso, text


def _vehicle(fronts):
    """ISRPSO's average training front is below each of NSGA-II's, SPEA2's and PAES's, on
    average over the subset sizes both fronts hold."""
    others = ("NSGA-II", "SPEA2", "PAES")
    if (missing := _need(fronts, "ISRPSO", *others)) is not None:
        return None, missing
    isr = average_front(fronts["ISRPSO"][0])
    gaps = []
    for label in others:
        A = average_front(fronts[label][0])
        common = np.intersect1d(np.round(isr[:, 1], 9), np.round(A[:, 1], 9))
        gap = np.mean([A[np.isclose(A[:, 1], r), 0][0] - isr[np.isclose(isr[:, 1], r), 0][0]
                       for r in common]) if common.size else float("nan")
        gaps.append(gap)
    text = ", ".join(f"{label} {100 * g:+.1f} points ({label} minus ISRPSO)"
                     for label, g in zip(others, gaps))
    return bool(all(g > 0 for g in gaps)), f"mean training-error gap at the common sizes of " \
                                           f"the average fronts: {text}; paper: about 9"


def _libras(fronts):
    """For each member of ISRPSO's best training front, CMDPSOFS's smallest subset at least
    as accurate, as a multiple of its size: the median multiple is >= 2."""
    if (missing := _need(fronts, "ISRPSO", "CMDPSOFS")) is not None:
        return None, missing
    n = fronts["ISRPSO"][4]
    isr, cmd = best_front(fronts["ISRPSO"][0]), best_front(fronts["CMDPSOFS"][0])
    ratios = []
    for error, rate in isr:
        reach = cmd[cmd[:, 0] <= error, 1]
        ratios.append(reach.min() / rate if reach.size else float("inf"))
    ratios = np.asarray(ratios)
    median = float(np.median(ratios))
    return median >= 2.0, (f"CMDPSOFS's smallest subset as accurate as each of ISRPSO's "
                           f"{len(isr)} best-front subsets (training), in multiples of its size: "
                           f"min {ratios.min():.1f}, median {median:.1f}, max "
                           f"{ratios.max():.1f} ('inf': never as accurate); n = {n}")


def _isolet(fronts):
    """ISRPSO's lowest test error (best test front) is below CMDPSOFS's and NSGA-II's."""
    if (missing := _need(fronts, "ISRPSO", "CMDPSOFS", "NSGA-II")) is not None:
        return None, missing
    n = fronts["ISRPSO"][4]
    lowest = {}
    for label in ("ISRPSO", "CMDPSOFS", "NSGA-II"):
        B = best_front(fronts[label][1])
        i = int(np.argmin(B[:, 0]))
        lowest[label] = (B[i, 0], round(B[i, 1] * n))
    held = bool(lowest["ISRPSO"][0] < min(lowest["CMDPSOFS"][0], lowest["NSGA-II"][0]))
    text = ", ".join(f"{k} {100 * e:.2f} % with {s} features" for k, (e, s) in lowest.items())
    return held, f"lowest test error: {text}; paper: 0.88 % (74 features), 1.3 %, 1.2 % (> 220)"


#: Nguyen et al. (2016)'s statements about the datasets pymoo-fs ships, in the paper's order
#: (ISRPSO-Best / ISRPSO-Ave: the best and the average front of its runs)
CHECKS = (
    Check("all", "ISRPSO-Best holds a subset with < 10 % of the features and a lower error "
                 "than all features (held: on the test front)", ("ISRPSO",),
          _all_small_and_better),
    Check("all", "ISRPSO-Ave holds >= 3 subset sizes with fewer features and lower error than "
                 "all features (held: on the test front)", ("ISRPSO",), _all_three_sizes),
    Check("musk1", "train: ISRPSO with about 7 features matches MOPSO with 20 (held: the "
                   "best front's lowest error with <= 7 features is no higher than MOPSO's "
                   "with <= 20)", ("ISRPSO", "MOPSO"), _musk1),
    Check("vehicle", "train: ISRPSO about 9 % better than NSGA-II, SPEA2 and PAES at the same "
                     "number of features (held: lower average-front error, averaged over the "
                     "common sizes, against each of the three)",
          ("ISRPSO", "NSGA-II", "SPEA2", "PAES"), _vehicle),
    Check("libras", "train: CMDPSOFS needs 2-8 times more features for the same accuracy "
                    "(held: median multiple >= 2 over ISRPSO's best front)",
          ("ISRPSO", "CMDPSOFS"), _libras),
    Check("isolet", "test: ISRPSO's lowest error (0.88 %) is below CMDPSOFS's (1.3 %) and "
                    "NSGA-II's (1.2 %, > 220 features) (held: lower than both)",
          ("ISRPSO", "CMDPSOFS", "NSGA-II"), _isolet),
)


# ---------------------------------------------------------------------------------- applied
def check_fronts(results, dataset):
    """Every algorithm's runs on one dataset, as the rules of :data:`CHECKS` take them.

    Parameters
    ----------
    results : StudyResults
        A study whose runs return Pareto fronts (columns: error, selection ratio).
    dataset : str
        One of ``results.datasets``.

    Returns
    -------
    fronts : dict of {str: tuple}
        Algorithm label -> ``(train, test, full_train_error, full_test_error, n_features)``:
        ``train`` and ``test`` lists (one per run, every fold pooled) of float arrays of shape
        (n_i, 2), the runs' training and test fronts; the all-features errors (1 - score, mean
        over the splits) as floats; the dataset's number of features as int. Only algorithms
        with at least one run; an algorithm is also found under its registry name when no
        label of the study is that name (e.g. a study that labels ISRPSO ``"ISRPSO-30"``).

    Raises
    ------
    ValueError
        If the study holds no reference (all-features scores) for ``dataset``.
    """
    refs = [v for (d, _), v in results.references.items() if d == dataset]
    if not refs:
        raise ValueError(f"the study holds no reference scores for dataset {dataset!r}")
    full_train = 1 - np.mean([r["score_train"] for r in refs])
    full_test = 1 - np.mean([r["score_test"] for r in refs])
    fronts, names = {}, {}
    for algorithm in results.spec["algorithms"]:
        label = algorithm["label"]
        runs = results.runs_of(dataset, label)
        if runs:
            fronts[label] = ([np.asarray(r["F_train"]) for r in runs],
                             [np.asarray(r["F_test"]) for r in runs], full_train, full_test,
                             runs[0]["n_features"])
            names.setdefault(algorithm.get("name", label), label)
    for name, label in names.items():
        fronts.setdefault(name, fronts[label])
    return fronts


def statement_checks(studies, datasets=CHECK_DATASETS):
    """Decide every statement of :data:`CHECKS` on the datasets the studies hold.

    Parameters
    ----------
    studies : StudyResults or sequence of StudyResults
        Studies whose runs return Pareto fronts; each dataset is read from the first study
        that holds it.
    datasets : sequence of str, default=CHECK_DATASETS
        The datasets the statements about ``"all"`` are checked on.

    Returns
    -------
    checks : list of CheckResult
        One per (statement, dataset), statements in :data:`CHECKS`'s order, datasets in
        ``datasets``'s: held, not held, or not run (``held`` None) when the dataset or an
        algorithm the rule compares is not in the studies.

    Raises
    ------
    ValueError
        If a study's runs return one subset each (no fronts to check).

    References
    ----------
    H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
    in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
    doi:10.1007/s00500-016-2128-8, section "Results and discussion".
    """
    studies = [studies] if hasattr(studies, "records") else list(studies)
    where = {}
    for results in studies:
        if not results.pareto:
            raise ValueError(f"study {results.spec.get('name', '?')!r} returns one subset per "
                             f"run: the statements are about Pareto fronts")
        for dataset in results.datasets:
            where.setdefault(dataset, results)
    cache, out = {}, []
    for check in CHECKS:
        for dataset in (datasets if check.dataset == "all" else (check.dataset,)):
            if dataset not in where:
                out.append(CheckResult(dataset, check.statement, 0, None,
                                       "dataset not in the study"))
                continue
            if dataset not in cache:
                cache[dataset] = check_fronts(where[dataset], dataset)
            fronts = cache[dataset]
            held, measured = check.decide(fronts)
            runs = min(len(fronts[a][0]) if a in fronts else 0 for a in check.algorithms)
            out.append(CheckResult(dataset, check.statement, runs,
                                   None if held is None else bool(held), measured))
    return out


def report_checks(results):
    """The checks a study's report prints: :func:`statement_checks` on a study run under
    Nguyen et al. (2016)'s protocol, else None.

    Parameters
    ----------
    results : StudyResults

    Returns
    -------
    checks : list of CheckResult or None
        None unless the study's protocol is the preset :data:`CHECK_PROTOCOL` unchanged (a
        protocol with keys changed, ``"S003+custom"``, is not the paper's) and its runs
        return Pareto fronts. Only the statements about datasets the study holds (an empty
        list when it holds none of :data:`CHECK_DATASETS`): a report does not list what it
        could not run.
    """
    if results.spec["protocol"].get("name") != CHECK_PROTOCOL or not results.pareto:
        return None
    held = set(results.datasets)
    return [c for c in statement_checks(results) if c.dataset in held]


def checks_markdown(checks):
    """A Markdown table of checks, with a sentence naming the paper and the rules' fronts.

    Parameters
    ----------
    checks : sequence of CheckResult

    Returns
    -------
    lines : list of str
        A paragraph, a blank line, then the table (columns :data:`CHECK_COLUMNS`; "not held"
        in bold).
    """
    lines = [checks_intro(), "",
             "| dataset | statement | runs | held | measured |", "|---|---|---:|---|---|"]
    for c in checks:
        verdict = "**not held**" if c.held is False else c.verdict
        lines.append(f"| {c.dataset} | {_cell(c.statement)} | {c.runs} | {verdict} | "
                     f"{_cell(c.measured)} |")
    return lines


def checks_intro():
    """str: what the checks table is (the paper, the fronts, the columns), one paragraph."""
    return (f"Statements in words of {_SOURCE}, each decided by the rule in its parentheses "
            f"on this study's fronts: ISRPSO-Best is the non-dominated union of ISRPSO's runs' "
            f"fronts, ISRPSO-Ave the mean error per subset size over them; \"train\" means the "
            f"inner cross-validation error, \"test\" the hold-out error. runs: the fewest runs "
            f"of the algorithms a rule compares; only the statements about the study's datasets "
            f"are listed; not run: an algorithm a rule compares is not in the study; "
            f"undecided: the rule found nothing to compare (no subset small enough).")


def _cell(text):
    return str(text).replace("|", "\\|")
