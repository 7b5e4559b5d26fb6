"""Study specifications: algorithms x datasets x runs, a budget and an evaluation protocol.

A study is written as a TOML file (read with the standard library's :mod:`tomllib`) or built in
Python; both give a :class:`StudySpec`. Every check is made when the spec is read, before any
run starts, and a bad spec is refused with the file's line and the key named.

An example (the bundled datasets, the preset S003: the protocol of Nguyen et al. 2016)::

    name = "isrpso-bundled"
    seed = 0
    runs = 5
    datasets = ["sonar", "musk1"]
    protocol = "S003"

    [budget]
    n_gen = 100

    [[algorithms]]
    name = "CMDPSOFS"
    pop_size = 30

    [[algorithms]]
    name = "PAES"
    budget = { n_eval = 3000 }
"""

import math
import numbers
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pymoo_fs._validation import check_seed
from pymoo_fs.algorithms.registry import (BUILTIN, algorithm_info, algorithm_names,
                                          algorithm_reference,
                                          canonical_name, make_algorithm, n_objectives)
from pymoo_fs.problems.objectives import (FitBObjective, FitEObjective, ParetoObjective,
                                          WeightedObjective, make_objective,
                                          objective_names)
from pymoo_fs.evaluation.base import REGRESSION_SCORINGS
from pymoo_fs.studies.protocols import is_regression, load_dataset_cached

__all__ = ["AlgorithmSpec", "Budget", "PRESETS", "Protocol", "StudySpec", "StudySpecError",
           "load_study"]

_TOP_KEYS = ("name", "seed", "runs", "datasets", "data_dir", "protocol", "budget", "algorithms",
             "reference")
_BUDGET_KEYS = ("n_gen", "n_eval", "time")
_DATASET_KEYS = ("name", "path", "target")
_ALGORITHM_RESERVED = ("name", "label", "budget")


def _seconds(value):
    if _is_real(value) and not isinstance(value, bool):
        return float(value) if 0 < value < math.inf else None
    if isinstance(value, str):
        m = re.fullmatch(r"(\d+):([0-5]\d):([0-5]\d)", value)
        if m:
            s = int(m.group(1)) * 3600 + int(m.group(2)) * 60 + int(m.group(3))
            return float(s) if s > 0 else None
    return None


def _is_int(v):
    return isinstance(v, numbers.Integral) and not isinstance(v, bool)


def _is_real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and not math.isnan(v)


def _choice(name, value, choices):
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")


class StudySpecError(ValueError):
    """A study specification that cannot be run; the message names the line and the key."""


@dataclass(frozen=True)
class Budget:
    """How long each run may search: exactly one of generations, evaluations or time.

    Parameters
    ----------
    n_gen : int, optional
        pymoo generations (``("n_gen", n_gen)``; generation 1 is the initial population).
    n_eval : int, optional
        Evaluations (``("n_eval", n_eval)``), neighbourhood evaluations included.
    time : str or float, optional
        Wall-clock limit per run, ``"HH:MM:SS"`` or seconds (``("time", time)``). Runs limited
        by time are not reproducible.

    Raises
    ------
    ValueError
        If not exactly one limit is given, or it is not a positive number (a time string must
        read ``HH:MM:SS``).
    """

    n_gen: int | None = None
    n_eval: int | None = None
    time: object = None

    def __post_init__(self):
        given = [k for k in _BUDGET_KEYS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError(f"budget must give exactly one of n_gen, n_eval, time; got "
                             f"{given or 'none'}")
        key = given[0]
        value = getattr(self, key)
        if key == "time":
            seconds = _seconds(value)
            if seconds is None:
                raise ValueError(f"budget time must be 'HH:MM:SS' or a positive number of "
                                 f"seconds, got {value!r}")
        elif not _is_int(value) or value < (2 if key == "n_gen" else 1):
            low = 2 if key == "n_gen" else 1
            raise ValueError(f"budget {key} must be an int >= {low}, got {value!r}")

    @property
    def termination(self) -> tuple[str, int | float]:
        """tuple: the pymoo termination, e.g. ``("n_gen", 100)``."""
        for key in _BUDGET_KEYS:
            value = getattr(self, key)
            if value is not None:
                return (key, _seconds(value) if key == "time" else int(value))
        raise AssertionError("a Budget holds exactly one limit (checked at construction)")

    def as_dict(self) -> dict[str, int | float]:
        """dict: the one limit, e.g. ``{"n_gen": 100}``."""
        key, value = self.termination
        return {key: value}


@dataclass(frozen=True)
class Protocol:
    """How each dataset is split, scaled and scored, and what the search minimises.

    Parameters
    ----------
    name : str
        Preset name (``"S000"`` ... ``"S004"``) or ``"custom"``.
    split : {"holdout", "outer_cv"}
        One stratified hold-out split, or an outer stratified k-fold cross-validation whose
        every fold is a training/test pair (each run is repeated on every fold).
    test_size : float
        Fraction held out (``split="holdout"``).
    outer_folds : int
        Folds of the outer cross-validation (``split="outer_cv"``).
    scaling : {"minmax", "symmetric_whole", "none"}
        Min-max to [0, 1] fitted on the training part; min-max to [-1, 1] of the whole dataset
        before splitting (Li et al.'s (2021) Weka ``Normalize -S 2 -T -1``); or none.
    n_neighbors : int
        k of the KNN wrapper.
    inner_cv : int or "loo"
        Inner cross-validation of the training part.
    scoring : {"accuracy", "balanced_accuracy", "neg_mean_squared_error", \
"neg_mean_absolute_error", "r2"}
        Score of the inner estimate and of the test set (with FIT-B, of the test set only:
        FIT-B's inner estimate is balanced by definition). A regression scoring makes a
        regression protocol: the datasets' targets are real numbers, the outer splits are
        shuffled without stratification (``KFold`` for ``outer_cv``), the wrapper is
        ``KNeighborsRegressor`` and the error is normalised by the constant prediction's
        (the normalised MSE for ``"neg_mean_squared_error"``, clipped to [0, 1]).
    objective : Objective, str or dict
        What the search minimises (:mod:`pymoo_fs.problems.objectives`): an
        :class:`~pymoo_fs.problems.objectives.Objective`, a name (``"pareto"``,
        ``"weighted"``, ``"fitb"``, ``"fite"``; default parameters) or a dict
        ``{"name": ..., **parameters}``. Stored as the object.
    statistic : {"ranksum", "signedrank"}
        Test of the comparison against the reference algorithm: Wilcoxon rank-sum (the
        presets S000-S002) or signed-rank (S004, paired by fold).
    stratification : {"sklearn", "weka"}
        How the outer folds are stratified (``split="outer_cv"``): scikit-learn's
        ``StratifiedKFold`` (default), which refuses more folds than the largest class has
        members, or Weka's round-robin dealing class by class after a shuffle by
        ``java.util.Random`` (:class:`~pymoo_fs.datasets.WekaStratifiedKFold`, what the
        papers' Weka-based code ran), which takes any class size: a class smaller than the
        number of folds misses some test folds.

    Raises
    ------
    ValueError
        For a field outside its domain (named), or an objective that cannot use the
        protocol's classifier or inner CV (FIT-B needs ``n_neighbors=1`` and an int
        ``inner_cv``).

    Notes
    -----
    The presets (:data:`PRESETS`):

    ========  ==========================================  ======================  ============
    preset    split and scaling                           inner estimate          objective
    ========  ==========================================  ======================  ============
    S000      hold-out 70/30, [-1, 1] on the whole data   KNN-5, 5-fold           weighted 0.9
    S001      outer 10-fold CV, [0, 1] fitted per fold    1-NN, 10-fold, FIT-B    fitb mu 0.8
    S002      hold-out 2/3 - 1/3, [0, 1] on training      1-NN, 10-fold           weighted 1.0
    S003      hold-out 70/30, [0, 1] on training          KNN-5, 10-fold          pareto
    S004      outer 10-fold CV, [0, 1] fitted per fold    KNN-5, leave-one-out    fite
    ========  ==========================================  ======================  ============

    The presets are the protocols of the five papers: S000 Li et al. (2021), S001 Tran et al.
    (2019), S002 Butler-Yeoman et al. (2015), S003 Nguyen et al. (2016), S004 Yang et al. (2022).
    S001 is Tran et al.'s protocol: FIT-B on each outer training fold (its folds, scaling and SU
    ranking computed on that fold alone) and the test accuracy of 1-NN on the held-out fold.
    S004 is Yang et al.'s protocol: FIT-E (leave-one-out 5-NN accuracy on each outer training
    fold, equal accuracy won by fewer features) and the test accuracy of 5-NN on the held-out
    fold, compared by the signed-rank test paired by fold. Any field can be overridden in the
    spec (``[protocol] preset = "S001"`` plus keys; the objective's parameters, e.g.
    ``alpha`` or ``mu``, are keys of the same table).

    References
    ----------
    A.-D. Li, B. Xue, M. Zhang, "A forward search inspired particle swarm optimization
    algorithm for feature selection in classification", IEEE CEC 2021, pp. 786-793,
    doi:10.1109/CEC45853.2021.9504949.

    B. Tran, B. Xue, M. Zhang, "Adaptive multi-subswarm optimisation for feature selection on
    high-dimensional classification", GECCO 2019, doi:10.1145/3321707.3321713.

    T. Butler-Yeoman, B. Xue, M. Zhang, "Particle swarm optimisation for feature selection: a
    size-controlled approach", AusDM 2015, Conferences in Research and Practice in
    Information Technology 168.

    H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
    in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
    doi:10.1007/s00500-016-2128-8.

    J.-Q. Yang, C.-H. Chen, J.-Y. Li, D. Liu, T. Li, Z.-H. Zhan, "Compressed-encoding particle
    swarm optimization with fuzzy learning for large-scale feature selection", Symmetry
    14(6):1142, 2022, doi:10.3390/sym14061142.
    """

    name: str = "custom"
    split: str = "holdout"
    test_size: float = 0.3
    outer_folds: int = 10
    scaling: str = "minmax"
    n_neighbors: int = 5
    inner_cv: object = 10
    scoring: str = "accuracy"
    objective: Any = "pareto"
    statistic: str = "ranksum"
    stratification: str = "sklearn"

    def __post_init__(self):
        _choice("split", self.split, ("holdout", "outer_cv"))
        _choice("stratification", self.stratification, ("sklearn", "weka"))
        _choice("scaling", self.scaling, ("minmax", "symmetric_whole", "none"))
        _choice("scoring", self.scoring, ("accuracy", "balanced_accuracy") + REGRESSION_SCORINGS)
        _choice("statistic", self.statistic, ("ranksum", "signedrank"))
        object.__setattr__(self, "objective", make_objective(self.objective))
        if not _is_real(self.test_size) or not 0 < self.test_size < 1:
            raise ValueError(f"test_size must be a float strictly between 0 and 1, got "
                             f"{self.test_size!r}")
        if not _is_int(self.outer_folds) or self.outer_folds < 2:
            raise ValueError(f"outer_folds must be an int >= 2, got {self.outer_folds!r}")
        if not _is_int(self.n_neighbors) or self.n_neighbors < 1:
            raise ValueError(f"n_neighbors must be a positive int, got {self.n_neighbors!r}")
        if not (self.inner_cv == "loo" or (_is_int(self.inner_cv) and self.inner_cv >= 2)):
            raise ValueError(f"inner_cv must be an int >= 2 or 'loo', got {self.inner_cv!r}")
        self.objective.check(self.n_neighbors, self.inner_cv)

    @property
    def n_objectives(self) -> int:
        """int: the objective's number of objectives."""
        return self.objective.n_obj

    @property
    def n_outer(self) -> int:
        """int: training/test pairs per dataset (1 for a hold-out split)."""
        return self.outer_folds if self.split == "outer_cv" else 1

    def as_dict(self) -> dict[str, Any]:
        """dict: every field in plain values, the objective as ``{"name": ..., **params}``."""
        out = {k: getattr(self, k) for k in self.__dataclass_fields__}
        out["objective"] = self.objective.as_dict()
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Protocol":
        """The protocol a study stored (:meth:`as_dict`), or one stored before objectives were
        objects (a name beside flat ``alpha`` and ``inner_repetitions`` keys).

        Parameters
        ----------
        data : dict

        Returns
        -------
        protocol : Protocol

        Raises
        ------
        ValueError
            As the constructor.
        """
        data = dict(data)
        objective = data.get("objective", "pareto")
        legacy: dict[str, Any] = {k: data.pop(k) for k in ("alpha", "inner_repetitions")
                                  if k in data}
        if isinstance(objective, str):  # stored before objectives were objects
            params: dict[str, Any] = {}
            if objective == "weighted":
                params = legacy
            elif objective == "fitb" and "alpha" in legacy:
                params = {"mu": legacy["alpha"]}
            data["objective"] = make_objective(objective, **params)
        return cls(**data)


#: the five papers' protocols; see :class:`Protocol`
PRESETS = {
    "S000": Protocol("S000", scaling="symmetric_whole", inner_cv=5,
                     objective=WeightedObjective(alpha=0.9)),
    "S001": Protocol("S001", split="outer_cv", n_neighbors=1,
                     objective=FitBObjective(mu=0.8)),
    "S002": Protocol("S002", test_size=1 / 3, n_neighbors=1,
                     objective=WeightedObjective(alpha=1.0)),
    "S003": Protocol("S003", objective=ParetoObjective()),
    "S004": Protocol("S004", split="outer_cv", inner_cv="loo", objective=FitEObjective(),
                     statistic="signedrank"),
}


@dataclass(frozen=True)
class AlgorithmSpec:
    """One algorithm of a study.

    Parameters
    ----------
    name : str
        A registry name (:func:`pymoo_fs.algorithms.algorithm_names`, including a user's own
        added by :func:`pymoo_fs.algorithms.register`) or an importable reference
        ``"package.module:Class"``; stored canonical.
    params : dict, optional
        Constructor arguments, e.g. ``{"pop_size": 30}``.
    label : str, optional
        The name in results and tables (default: the canonical name; for a reference, the
        name it is registered under in this process, else its class name); unique within a
        study, so one algorithm can appear twice with different
        parameters.
    budget : Budget, optional
        Overrides the study's budget for this algorithm (e.g. PAES's 3,000 evaluations).

    Attributes
    ----------
    reference : str or None
        For an algorithm that is not one of pymoo-fs's own: the
        :func:`~pymoo_fs.algorithms.algorithm_reference` that worker processes (joblib, Dask),
        where a name registered at run time is unknown, build it from.

    Raises
    ------
    ValueError
        For an unknown algorithm name, or a user's algorithm that another process could not
        import (defined in ``__main__`` or inside a function).
    """

    name: str
    params: dict = field(default_factory=dict)
    label: str | None = None
    budget: Budget | None = None
    reference: str | None = field(default=None, compare=False)

    def __post_init__(self):
        name = canonical_name(self.name) if self.reference is None else self.name
        object.__setattr__(self, "name", name)
        if (self.reference is None and ":" not in name
                and algorithm_info(name).factory not in BUILTIN):
            object.__setattr__(self, "reference", algorithm_reference(name))
        if self.label is None:
            label = name.partition(":")[2].replace("@", "-") if ":" in name else name
            if ":" in name:  # a registered class named by its reference: its registered name
                label = next((n for n in algorithm_names()
                              if algorithm_info(n).reference == name), label)
            object.__setattr__(self, "label", label)
        if not isinstance(self.label, str) or not re.fullmatch(r"[A-Za-z0-9_.()+-]+",
                                                               self.label):
            raise ValueError(f"label must be letters, digits and _.()+- only, got "
                             f"{self.label!r}")
        object.__setattr__(self, "params", dict(self.params))

    def make(self) -> Any:
        """A fresh, configured algorithm (raises as the algorithm's constructor does); in a
        process where a user's name is not registered, built from :attr:`reference`."""
        if self.reference is not None:
            try:
                canonical_name(self.name)
            except ValueError:
                return make_algorithm(self.reference, **self.params)
        return make_algorithm(self.name, **self.params)

    def as_dict(self) -> dict[str, Any]:
        """dict: what ``study.json`` stores of it (``reference`` only for a user's algorithm)."""
        out = {"name": self.name, "label": self.label, "params": self.params,
               "budget": None if self.budget is None else self.budget.as_dict()}
        if self.reference is not None:
            out["reference"] = self.reference
        return out


@dataclass(frozen=True)
class StudySpec:
    """A whole study: what to run, on what, how often, how long and how to score it.

    Parameters
    ----------
    name : str
        The study's name (letters, digits, ``_.-``).
    algorithms : sequence of AlgorithmSpec
        At least one; labels unique.
    datasets : sequence of str
        Dataset names or file paths, as :func:`pymoo_fs.datasets.load_dataset` takes them.
    runs : int
        Independent runs of each algorithm on each dataset (and each outer fold).
    seed : int
        The study seed; every run's seed is derived from it and the run's identity
        (:func:`pymoo_fs.seeds.run_seed`).
    budget : Budget
        The default budget of every run.
    protocol : Protocol or str
        A :class:`Protocol` or a preset name (:data:`PRESETS`).
    data_dir : str, optional
        Directory searched for dataset names (default ``$PYMOO_FS_DATA``).
    reference : str, optional
        Label of the reference algorithm of the statistical comparison (default: the first).
    targets : mapping of str to str, optional
        Class column of a dataset whose class is not its last column: dataset (as in
        ``datasets``) -> column name (``load_dataset``'s ``target``; a spec's dataset table
        ``{path = "...", target = "..."}``). Default: none. Stored in ``study.json`` only when
        given.
    names : mapping of str to str, optional
        The name a dataset has in the study (its runs, tables and figures) when it is not the
        file's stem: dataset (as in ``datasets``) -> name (letters, digits, ``_.()+-``). A
        spec's dataset table ``{name = "sonar-v2", path = "data/sonar.csv"}`` gives one; a
        resume that stores changed data as a new dataset
        (:func:`~pymoo_fs.studies.prepare_study`'s ``data_change="new"``) adds one. Default:
        none. Stored in ``study.json`` only when given.

    Raises
    ------
    ValueError
        For an invalid field, duplicate labels, an algorithm whose number of objectives does not
        suit the protocol, an unknown reference, a ``data_dir`` that is not a str, or a target
        of a dataset the study does not name.
    """

    name: str
    algorithms: tuple
    datasets: tuple
    runs: int = 1
    seed: int = 0
    budget: Budget = field(default_factory=lambda: Budget(n_gen=100))
    protocol: Any = "S003"
    data_dir: str | None = None
    reference: str | None = None
    targets: Mapping[str, str] = field(default_factory=dict)
    names: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self):
        if not isinstance(self.name, str) or not re.fullmatch(r"[A-Za-z0-9_.-]+", self.name):
            raise ValueError(f"name must be letters, digits and _.- only, got {self.name!r}")
        if isinstance(self.protocol, str):
            if self.protocol not in PRESETS:
                raise ValueError(f"protocol must be one of {tuple(PRESETS)} or a table, got "
                                 f"{self.protocol!r}")
            object.__setattr__(self, "protocol", PRESETS[self.protocol])
        if not isinstance(self.protocol, Protocol):
            raise ValueError(f"protocol must be a Protocol or a preset name, got "
                             f"{self.protocol!r}")
        algorithms = tuple(self.algorithms)
        if not algorithms:
            raise ValueError("algorithms must name at least one algorithm")
        labels = [a.label for a in algorithms]
        dup = sorted({x for x in labels if labels.count(x) > 1})
        if dup:
            raise ValueError(f"algorithm label {dup[0]!r} appears twice; give a label= to tell "
                             f"them apart")
        for a in algorithms:
            if n_objectives(a.name) != self.protocol.n_objectives:
                kind = "bi-objective" if self.protocol.n_objectives == 2 else "single-objective"
                raise ValueError(f"algorithm {a.label!r} does not suit the protocol's {kind} "
                                 f"objective ({self.protocol.objective.name!r})")
        object.__setattr__(self, "algorithms", algorithms)
        datasets = tuple(str(d) for d in self.datasets)
        if not datasets:
            raise ValueError("datasets must name at least one dataset")
        if len(set(datasets)) != len(datasets):
            raise ValueError("datasets must not repeat a dataset")
        object.__setattr__(self, "datasets", datasets)
        if self.data_dir is not None and not isinstance(self.data_dir, (str, os.PathLike)):
            raise ValueError(f"data_dir must be a directory path (a str), got "
                             f"{self.data_dir!r}")
        if not isinstance(self.targets, Mapping):
            raise ValueError(f"targets must map datasets to class column names, got "
                             f"{self.targets!r}")
        targets = {str(k): v for k, v in self.targets.items()}
        for d, column in targets.items():
            if d not in datasets:
                raise ValueError(f"targets names dataset {d!r}, which the study does not use")
            if not isinstance(column, str) or not column:
                raise ValueError(f"target of dataset {d!r} must be a column name (a str), got "
                                 f"{column!r}")
        object.__setattr__(self, "targets", targets)
        if not isinstance(self.names, Mapping):
            raise ValueError(f"names must map datasets to names, got {self.names!r}")
        names = {str(k): v for k, v in self.names.items()}
        for d, name in names.items():
            if d not in datasets:
                raise ValueError(f"names names dataset {d!r}, which the study does not use")
            if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_.()+-]+", name):
                raise ValueError(f"name of dataset {d!r} must be letters, digits and _.()+- "
                                 f"only, got {name!r}")
        object.__setattr__(self, "names", names)
        if not _is_int(self.runs) or self.runs < 1:
            raise ValueError(f"runs must be a positive int, got {self.runs!r}")
        check_seed("seed", self.seed)
        if not isinstance(self.budget, Budget):
            raise ValueError(f"budget must be a Budget, got {self.budget!r}")
        if self.reference is not None and self.reference not in labels:
            raise ValueError(f"reference {self.reference!r} is not an algorithm label of the "
                             f"study ({', '.join(labels)})")

    @property
    def reference_label(self) -> str:
        """str: the reference algorithm of the statistical comparison."""
        return self.reference or self.algorithms[0].label

    def budget_of(self, algorithm: "AlgorithmSpec") -> Budget:
        """Budget: ``algorithm``'s own, else the study's."""
        return algorithm.budget or self.budget

    def as_dict(self) -> dict[str, Any]:
        """dict: the spec in plain values (what ``study.json`` holds)."""
        spec = {
            "name": self.name, "seed": self.seed, "runs": self.runs,
            "datasets": list(self.datasets), "data_dir": self.data_dir,
            "reference": self.reference_label, "budget": self.budget.as_dict(),
            "protocol": self.protocol.as_dict(),
            "algorithms": [a.as_dict() for a in self.algorithms],
        }
        if self.targets:  # only when given: older study.json files stay byte-identical
            spec["targets"] = dict(sorted(self.targets.items()))
        if self.names:
            spec["names"] = dict(sorted(self.names.items()))
        return spec

    def dataset_name(self, dataset: str) -> str:
        """str: the name of one of :attr:`datasets` in the study: its :attr:`names` entry, else
        the loaded dataset's name (the file's stem)."""
        return self.names.get(dataset) or self.load_dataset(dataset).name

    def load_dataset(self, dataset: str) -> Any:
        """One of :attr:`datasets`, loaded (once per process) with its data directory and its
        class column (:attr:`targets`).

        Returns
        -------
        dataset : pymoo_fs.datasets.Dataset

        Raises
        ------
        ValueError
            As :func:`pymoo_fs.datasets.load_dataset`.
        """
        return load_dataset_cached(dataset, self.data_dir, self.targets.get(dataset),
                                   regression=is_regression(self.protocol))

    def validate(self) -> None:
        """Check what can only be checked by trying: every algorithm builds, every dataset loads.

        Raises
        ------
        StudySpecError
            Naming the algorithm or dataset, or the ``data_dir`` that is not a directory.
        """
        for a in self.algorithms:
            try:
                a.make()
            except (TypeError, ValueError) as exc:
                raise StudySpecError(f"algorithm {a.label!r}: {exc}") from None
        if self.data_dir is not None and not Path(self.data_dir).expanduser().is_dir():
            raise StudySpecError(f"data_dir {str(self.data_dir)!r} is not a directory")
        for d in self.datasets:
            try:
                self.load_dataset(d)
            except ValueError as exc:
                raise StudySpecError(f"dataset {d!r}: {exc}") from None


def load_study(path_or_text: str | os.PathLike[str], name: str | None = None,
               validate: bool = True) -> "StudySpec":
    """Read a study specification from a TOML file (or TOML text).

    Parameters
    ----------
    path_or_text : str or path-like
        A path to a ``.toml`` file, or the TOML text itself (a str holding a newline).
    name : str, optional
        The study's name when the file gives none (default: the file's stem, or "study").
    validate : bool, default=True
        Also build every algorithm and load every dataset (:meth:`StudySpec.validate`).

    Returns
    -------
    spec : StudySpec

    Raises
    ------
    StudySpecError
        For a TOML syntax error (with tomllib's line and column), an unknown key, a value of
        the wrong type, an unknown algorithm, algorithm parameter or dataset: the message
        names the file, the line and the key. Also for a path that is a directory, is missing,
        cannot be read or is not UTF-8 text, and for an argument that is neither a path nor
        text.

    Notes
    -----
    In a spec file, a dataset given as a relative path (``"data/x.csv"``: a folder or a file
    extension in it) and a relative ``data_dir`` are read from the spec file's folder, not
    the working directory, and stored as absolute paths; a bare name (``"sonar"``) is looked
    up as :func:`~pymoo_fs.datasets.load_dataset` does. In TOML text they are relative to the
    working directory. A dataset table with both ``name`` and ``path`` gives the dataset that
    name in the study (:attr:`StudySpec.names`).

    Examples
    --------
    >>> from pymoo_fs.studies import load_study
    >>> spec = load_study('''
    ... seed = 1
    ... runs = 2
    ... datasets = ["sonar"]
    ... protocol = "S003"
    ... [budget]
    ... n_gen = 10
    ... [[algorithms]]
    ... name = "nsga2"
    ... pop_size = 20
    ... ''')
    >>> spec.algorithms[0].label, spec.budget.termination, spec.protocol.inner_cv
    ('NSGA-II', ('n_gen', 10), 10)
    """
    if isinstance(path_or_text, str) and "\n" in path_or_text:
        text, source, stem = path_or_text, "<study>", "study"
    else:
        if not isinstance(path_or_text, (str, os.PathLike)):
            raise StudySpecError(f"a study is a path to a .toml file or TOML text, got "
                                 f"{type(path_or_text).__name__}")
        path = Path(path_or_text)
        if path.is_dir():
            raise StudySpecError(f"study file {path} is a directory: give the path of the "
                                 "study's .toml file")
        if not path.is_file():
            raise StudySpecError(f"study file not found: {path}")
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise StudySpecError(f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason}); "
                                 "save the study file as UTF-8") from None
        except OSError as exc:
            raise StudySpecError(f"cannot read study file {path}: {exc.strerror}") from None
        source, stem = str(path), path.stem
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise StudySpecError(f"{source}: {exc}") from None
    where = _Locator(text, source)
    base = Path(path_or_text).resolve().parent if source != "<study>" else None
    spec = _build(raw, where, name or raw.get("name") or re.sub(r"[^A-Za-z0-9_.-]", "_", stem),
                  base)
    if validate:
        try:
            spec.validate()
        except StudySpecError as exc:
            raise StudySpecError(f"{source}: {exc}") from None
    return spec


# ---------------------------------------------------------------------------------- parsing
def _is_path(dataset):
    """Whether a dataset string is a file path (a folder in it, ``~``, or a file extension),
    not a name looked up in the data directory."""
    from pymoo_fs.datasets.loading import BUNDLED_DATASETS, _extension

    return dataset not in BUNDLED_DATASETS and (
        Path(dataset).name != dataset or dataset.startswith("~")
        or _extension(dataset) is not None)


def _against(base, value):
    """``value`` (a path) resolved against the spec file's folder when it is relative."""
    if base is None:
        return value
    path = Path(value).expanduser()
    return value if path.is_absolute() else str(base / path)


def _build(raw, where, name, base=None):
    where.keys(raw, (), _TOP_KEYS, "the study")
    for key in ("seed", "runs"):
        if key in raw and not _is_int(raw[key]):
            where.fail((), key, f"{key} must be an int, got {raw[key]!r}")
    datasets = raw.get("datasets")
    if datasets is None:
        where.fail((), "datasets", "datasets is missing (a list of names or paths)")
    if not isinstance(datasets, list) or not all(isinstance(d, (str, dict)) for d in datasets):
        where.fail((), "datasets", f"datasets must be a list of names or paths, got "
                                   f"{datasets!r}")
    names, targets, aliases = [], {}, {}
    for i, d in enumerate(datasets):
        alias = None
        if isinstance(d, dict):
            where.keys(d, ("datasets", i), _DATASET_KEYS, "a dataset")
            target = d.get("target")
            if "path" in d and "name" in d:  # the name is the dataset's name in the study
                alias = d["name"]
                if not isinstance(alias, str) or not re.fullmatch(r"[A-Za-z0-9_.()+-]+", alias):
                    where.fail(("datasets", i), "name", f"name must be letters, digits and "
                                                        f"_.()+- only, got {alias!r}")
            d = d.get("path") or d.get("name")
            if not isinstance(d, str):
                where.fail((), "datasets", "a dataset table needs a name or path string")
            if _is_path(d):
                d = _against(base, d)
            if target is not None:
                if not isinstance(target, str) or not target:
                    where.fail(("datasets", i), "target", f"target must be the name of the "
                                                          f"class column, got {target!r}")
                targets[d] = target
        elif _is_path(d):
            d = _against(base, d)
        if alias is not None:
            aliases[d] = alias
        names.append(d)
    data_dir = raw.get("data_dir")
    if isinstance(data_dir, str):
        data_dir = _against(base, data_dir)
    budget = _budget(raw.get("budget", {"n_gen": 100}), where, ("budget",))
    protocol = _protocol(raw.get("protocol", "S003"), where)
    algorithms = raw.get("algorithms")
    if not isinstance(algorithms, list) or not algorithms:
        where.fail((), "algorithms", "algorithms is missing: give one [[algorithms]] table "
                                     "per algorithm")
    specs = []
    for i, table in enumerate(algorithms):
        if not isinstance(table, dict):
            where.fail((), "algorithms", "algorithms must be [[algorithms]] tables")
        if "name" not in table:
            where.fail(("algorithms", i), None, f"[[algorithms]] #{i + 1} has no name")
        params = {k: v for k, v in table.items() if k not in _ALGORITHM_RESERVED}
        own = table.get("budget")
        own = None if own is None else _budget(own, where, ("algorithms", i, "budget"))
        try:
            spec = AlgorithmSpec(table["name"], params, table.get("label"), own)
            spec.make()
        except TypeError as exc:
            bad = re.search(r"keyword argument '([^']+)'", str(exc))
            where.fail(("algorithms", i), bad.group(1) if bad else "name", str(exc))
        except ValueError as exc:
            bad = re.match(r"(\w+) ", str(exc))
            key = bad.group(1) if bad and bad.group(1) in table else "name"
            where.fail(("algorithms", i), key, str(exc))
        specs.append(spec)
    try:
        return StudySpec(name=name, algorithms=specs, datasets=names,
                         runs=raw.get("runs", 1), seed=raw.get("seed", 0), budget=budget,
                         protocol=protocol, data_dir=data_dir,
                         reference=raw.get("reference"), targets=targets, names=aliases)
    except ValueError as exc:
        key = next((k for k in _TOP_KEYS if str(exc).startswith(k)), None)
        if "does not suit the protocol" in str(exc):
            key = "protocol"
        where.fail((), key, str(exc))


def _budget(table, where, path):
    if not isinstance(table, dict):
        where.fail(path[:-1], path[-1], f"budget must be a table such as {{ n_gen = 100 }}, "
                                        f"got {table!r}")
    where.keys(table, path, _BUDGET_KEYS, "a budget")
    try:
        return Budget(**table)
    except ValueError as exc:
        where.fail(path, next(iter(table), None), str(exc))


def _protocol(value, where):
    if isinstance(value, str):
        if value not in PRESETS:
            where.fail((), "protocol", f"protocol must be one of {', '.join(PRESETS)} or a "
                                       f"[protocol] table, got {value!r}")
        return PRESETS[value]
    if not isinstance(value, dict):
        where.fail((), "protocol", f"protocol must be a preset name or a table, got {value!r}")
    fields = tuple(Protocol.__dataclass_fields__)
    parameters = tuple(dict.fromkeys(p for name in objective_names()
                                     for p in make_objective(name).parameters()))
    where.keys(value, ("protocol",), ("preset",) + fields[1:] + parameters, "the protocol")
    preset = value.get("preset")
    if preset is not None and preset not in PRESETS:
        where.fail(("protocol",), "preset", f"preset must be one of {', '.join(PRESETS)}, got "
                                            f"{preset!r}")
    base = PRESETS[preset] if preset else Protocol()
    overrides = {k: v for k, v in value.items() if k in fields}
    objective = _objective(value, base.objective, parameters, where)
    if objective is not base.objective:
        overrides["objective"] = objective
    try:
        return replace(base, name=f"{preset}+custom" if preset and len(value) > 1 else
                       (preset or "custom"), **overrides)
    except ValueError as exc:
        where.fail(("protocol",), str(exc).split(" ")[0], str(exc))


def _objective(table, base, parameters, where):
    """The objective of a [protocol] table: its ``objective`` key (a name or an inline table)
    and the objective's parameters given as keys of the table, on top of the preset's."""
    given = table.get("objective")
    flat = {k: v for k, v in table.items() if k in parameters}
    if given is None and not flat:
        return base
    if isinstance(given, dict):
        given = dict(given)
        if not isinstance(given.get("name"), str):
            where.fail(("protocol",), "objective", "an objective table needs a name, e.g. "
                                                   "{ name = \"weighted\", alpha = 0.8 }")
        name = given.pop("name")
        flat = {**given, **flat}
    elif given is None or isinstance(given, str):
        name = base.name if given is None else given
    else:
        where.fail(("protocol",), "objective", f"objective must be a name or a table, got "
                                               f"{given!r}")
    start = base.params() if name == base.name else {}
    try:
        return make_objective(name, **{**start, **flat})
    except ValueError as exc:
        key = str(exc).split(" ")[0]
        where.fail(("protocol",), key if key in table else "objective", str(exc))


class _Locator:
    """Line numbers of the keys of a TOML text, by table path (a light scan after tomllib)."""

    def __init__(self, text, source):
        self.source = source
        self.lines = {}
        counts = {}
        table = ()
        for number, line in enumerate(text.splitlines(), start=1):
            s = _strip_comment(line).strip()
            if not s:
                continue
            header = re.fullmatch(r"\[\[\s*([^\]]+?)\s*\]\]", s)
            if header:
                key = header.group(1)
                counts[key] = counts.get(key, -1) + 1
                table = (key, counts[key])
                self.lines.setdefault(table, number)
                continue
            header = re.fullmatch(r"\[\s*([^\]]+?)\s*\]", s)
            if header:
                table = tuple(header.group(1).split("."))
                if table[0] == "algorithms" and "algorithms" in counts:
                    table = ("algorithms", counts["algorithms"]) + table[1:]
                self.lines.setdefault(table, number)
                continue
            key = re.match(r"""\s*("[^"]+"|'[^']+'|[A-Za-z0-9_-]+)\s*=""", s)
            if key:
                name = key.group(1).strip("\"'")
                self.lines.setdefault(table + (name,), number)
                inline = re.search(r"=\s*\{(.*)\}", s)
                for inner in re.findall(r"([A-Za-z0-9_-]+)\s*=", inline.group(1)) if inline else ():
                    self.lines.setdefault(table + (name, inner), number)

    def line(self, path, key):
        for p in ([*path, key], list(path)) if key else (list(path),):
            found = self.lines.get(tuple(p))
            if found:
                return found
        return None

    def fail(self, path, key, message):
        line = self.line(path, key)
        where = f"{self.source}, line {line}" if line else self.source
        label = ".".join(str(p + 1) if isinstance(p, int) else p for p in path)
        target = f"{label}.{key}" if label and key else (key or label or "spec")
        raise StudySpecError(f"{where}: key {target!r}: {message}")

    def keys(self, table, path, allowed, what):
        for key in table:
            if key not in allowed:
                self.fail(path, key, f"unknown key {key!r} in {what} (known: "
                                     f"{', '.join(allowed)})")


def _strip_comment(line):
    quote = None
    for i, ch in enumerate(line):
        if ch in "\"'" and quote in (None, ch):
            quote = None if quote == ch else ch
        elif ch == "#" and quote is None:
            return line[:i]
    return line
