"""What a study, a comparison or the selector minimises: objectives as objects.

An :class:`Objective` knows its name, its number of objectives, its typed parameters and their
checks, whether its result is a Pareto front or one subset, and how to build its problem on a
training split. Everything above the problems (study specs, protocols, reports, the selector,
the command line) asks the object instead of matching a string, so a new paper's fitness is one
class here plus :func:`register_objective`.

=============  ==========  =======  =====================================================
name           class       n_obj    minimises
=============  ==========  =======  =====================================================
``pareto``     ParetoObj.  2        (inner-CV error, selection ratio)
                                    [Nguyen et al. 2016, Eq. 5-6]
``weighted``   Weighted..  1        ``alpha (1 - acc) + (1 - alpha) |S| / D``
                                    [Li et al. 2021, Eq. 3]
``fitb``       FitBObj..   1        ``1 - FIT-B``, FIT-B = ``mu BalAcc + (1 - mu) Distance``
                                    [Tran et al. 2019, Eq. 6-11]
``fite``       FitEObj..   1        ``1 - acc``, equal accuracy won by fewer features
                                    [Yang et al. 2022, §4.2]
=============  ==========  =======  =====================================================

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

import math
import numbers
from abc import ABC, abstractmethod
from dataclasses import dataclass, fields
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike

from pymoo_fs._validation import check_int, check_unit_interval

if TYPE_CHECKING:
    from pymoo_fs.evaluation import Evaluator
    from pymoo_fs.problems.feature_selection import FeatureSelectionProblem

__all__ = ["FitBObjective", "FitEObjective", "Objective", "ParetoObjective",
           "WeightedObjective", "make_objective", "objective_names", "register_objective"]

_OBJECTIVES = {}


def register_objective(cls: type["Objective"]) -> type["Objective"]:
    """Make an :class:`Objective` subclass known by its ``name`` (usable as a class decorator).

    Parameters
    ----------
    cls : type
        A subclass of :class:`Objective` with a unique ``name``.

    Returns
    -------
    cls : type
        Unchanged.

    Raises
    ------
    TypeError
        If ``cls`` is not an :class:`Objective` subclass.
    ValueError
        If another class is registered under the same name.
    """
    if not (isinstance(cls, type) and issubclass(cls, Objective)):
        raise TypeError(f"register_objective takes an Objective subclass, got {cls!r}")
    known = _OBJECTIVES.get(cls.name)
    if known is not None and known is not cls:
        raise ValueError(f"objective name {cls.name!r} is taken by {known.__name__}")
    _OBJECTIVES[cls.name] = cls
    return cls


def objective_names(n_obj: int | None = None, generic: bool | None = None) -> list[str]:
    """Names :func:`make_objective` accepts.

    Parameters
    ----------
    n_obj : {1, 2}, optional
        Only single-objective (1) or bi-objective (2) ones.
    generic : bool, optional
        Only those whose problem wraps any evaluator (True; ``fitb`` needs its own).

    Returns
    -------
    names : list of str
    """
    return [name for name, cls in _OBJECTIVES.items()
            if (n_obj is None or cls.n_obj == n_obj)
            and (generic is None or cls.generic == generic)]


def make_objective(objective: "Objective | str | Mapping[str, Any] | None",
                   **params: Any) -> "Objective":
    """An :class:`Objective` from an instance, a name or a ``{"name": ..., **params}`` dict.

    Parameters
    ----------
    objective : Objective, str or dict
        An instance (returned as is, or with ``params`` replaced), a registered name
        (:func:`objective_names`), or a dict with ``"name"`` and parameters.
    **params
        Parameters of the objective (e.g. ``alpha`` of ``"weighted"``).

    Returns
    -------
    objective : Objective

    Raises
    ------
    ValueError
        For an unknown name, a parameter the objective does not take (the message lists the
        ones it takes), or an invalid value (named).
    """
    if isinstance(objective, Objective):
        return objective.replace(**params) if params else objective
    if isinstance(objective, dict):
        objective = dict(objective)
        name = objective.pop("name", None)
        params = {**objective, **params}
    else:
        name = objective
    cls = _OBJECTIVES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise ValueError(f"objective must be one of {tuple(_OBJECTIVES)}, got {name!r}")
    unknown = [k for k in params if k not in cls.parameters()]
    if unknown:
        takes = ", ".join(cls.parameters()) or "no parameter"
        raise ValueError(f"{unknown[0]} is not a parameter of objective {name!r} (it takes "
                         f"{takes})")
    return cls(**params)


@dataclass(frozen=True)
class Objective(ABC):
    """What feature selection minimises, and how its problem is built.

    A subclass is a frozen dataclass whose fields are the objective's parameters, checked in
    ``__post_init__`` (a ``ValueError`` naming the parameter), with the class attributes below.

    Attributes
    ----------
    name : str
        Class attribute: the registered name (spec files, the command line, stored studies).
    n_obj : int
        Class attribute: number of objectives of the problem.
    result : {"front", "subset"}
        Class attribute: a run returns a Pareto front, or one subset.
    generic : bool
        Class attribute: whether :meth:`problem` wraps any
        :class:`~pymoo_fs.evaluation.Evaluator` (False: the objective needs its own, built by
        :meth:`build`).
    """

    name: ClassVar[str | None] = None
    n_obj: ClassVar[int | None] = None
    result: ClassVar[str | None] = None
    generic = True

    @classmethod
    def parameters(cls) -> tuple[str, ...]:
        """tuple of str: the objective's parameter names."""
        return tuple(f.name for f in fields(cls))

    def params(self) -> dict[str, Any]:
        """dict: the parameters and their values."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def replace(self, **params: Any) -> "Objective":
        """A copy with some parameters replaced (checked as at construction)."""
        return make_objective(self.name, **{**self.params(), **params})

    def as_dict(self) -> dict[str, Any]:
        """dict: ``{"name": ..., **params}``, what a study stores."""
        return {"name": self.name, **self.params()}

    def describe(self) -> str:
        """str: the objective in words, with its parameters (for reports)."""
        params = ", ".join(f"{k} {v}" for k, v in self.params().items())
        return f"{self.name}" + (f" ({params})" if params else "")

    def check(self, n_neighbors: int, inner_cv: int | str) -> None:
        """Refuse a classifier or inner cross-validation the objective cannot use.

        Parameters
        ----------
        n_neighbors : int
            k of the KNN wrapper.
        inner_cv : int or "loo"

        Raises
        ------
        ValueError
            Naming what does not fit (no objective here refuses anything by default).
        """

    @abstractmethod
    def problem(self, evaluator: "Evaluator", X_test: ArrayLike | None = None,
                y_test: ArrayLike | None = None) -> "FeatureSelectionProblem":
        """The objective's problem on a given evaluator.

        Parameters
        ----------
        evaluator : pymoo_fs.evaluation.Evaluator
        X_test, y_test : array-like, optional
            Hold-out test set.

        Returns
        -------
        problem : FeatureSelectionProblem
        """

    def build(self, X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray,
              y_test: np.ndarray, *, n_neighbors: int, inner_cv: int | str, scoring: str,
              random_state: int | None, n_threads: int | None = None
              ) -> "FeatureSelectionProblem":
        """The objective's problem on one training/test split, with a KNN wrapper.

        Parameters
        ----------
        X_train, y_train, X_test, y_test : ndarray
            The split (scaled).
        n_neighbors : int
            k of the KNN wrapper.
        inner_cv : int or "loo"
            Inner cross-validation.
        scoring : {"accuracy", "balanced_accuracy"}
            Inner and hold-out score.
        random_state : int
            Seed of the inner folds.
        n_threads : int, optional
            Threads of the evaluator.

        Returns
        -------
        problem : FeatureSelectionProblem
            With the test part attached and the objective's precomputations done
            (:meth:`prepare`).
        """
        from pymoo_fs.evaluation import KNNEvaluator

        evaluator = KNNEvaluator(X_train, y_train, n_neighbors=n_neighbors, cv=inner_cv,
                                 scoring=scoring, random_state=random_state,
                                 n_threads=n_threads)
        return self.prepare(self.problem(evaluator, X_test=X_test, y_test=y_test))

    def prepare(self, problem: "FeatureSelectionProblem") -> "FeatureSelectionProblem":
        """Precompute what the algorithms of this objective read (none by default).

        Returns
        -------
        problem : FeatureSelectionProblem
            The same problem.
        """
        return problem


@register_objective
@dataclass(frozen=True)
class ParetoObjective(Objective):
    """Bi-objective: minimise (inner-CV error, fraction of features selected) together.

    The problem is :class:`~pymoo_fs.problems.BiObjectiveFeatureSelection`; a run returns a
    Pareto front [Nguyen et al. 2016, Eq. 5-6].
    """

    name = "pareto"
    n_obj = 2
    result = "front"

    def problem(self, evaluator: "Evaluator", X_test: ArrayLike | None = None,
                y_test: ArrayLike | None = None) -> "FeatureSelectionProblem":
        """:class:`~pymoo_fs.problems.BiObjectiveFeatureSelection` on ``evaluator``."""
        from pymoo_fs.problems.feature_selection import BiObjectiveFeatureSelection

        return BiObjectiveFeatureSelection(evaluator, X_test=X_test, y_test=y_test)

    def describe(self) -> str:
        """str: ``"pareto (error, selection ratio)"``."""
        return "pareto (error, selection ratio)"


@register_objective
@dataclass(frozen=True)
class WeightedObjective(Objective):
    """Single objective ``alpha (1 - acc) + (1 - alpha) |S| / D`` (Li et al. 2021's FIT-A).

    Parameters
    ----------
    alpha : float, default=0.9
        Weight of the error, in [0, 1]; 1 is accuracy alone (Li et al. 2021's FIT-A', Butler-Yeoman
        et al. 2015's FIT-C) [Li et al. 2021, Eq. 3].
    inner_repetitions : int, default=1
        1: one fixed set of inner folds
        (:class:`~pymoo_fs.problems.WeightedFeatureSelection`). 2 to 5: Weka's wrapper rule of
        Li et al.'s (2021) code, up to that many repetitions on new folds while the spread of the
        repetitions' errors exceeds 1 %
        (:class:`~pymoo_fs.problems.RepeatedCVFeatureSelection`, the first repetition with the
        same folds).

    Raises
    ------
    ValueError
        If ``alpha`` is not a number in [0, 1] or ``inner_repetitions`` not an int in [1, 5].
    """

    alpha: float = 0.9
    inner_repetitions: int = 1

    name = "weighted"
    n_obj = 1
    result = "subset"

    def __post_init__(self):
        _check_weight("alpha", self.alpha)
        object.__setattr__(self, "inner_repetitions",
                           check_int("inner_repetitions", self.inner_repetitions, 1, 5))

    def problem(self, evaluator: "Evaluator", X_test: ArrayLike | None = None,
                y_test: ArrayLike | None = None) -> "FeatureSelectionProblem":
        """:class:`~pymoo_fs.problems.WeightedFeatureSelection` on ``evaluator``.

        Raises
        ------
        ValueError
            With ``inner_repetitions > 1``, which needs one evaluator per repetition
            (:meth:`build`).
        """
        from pymoo_fs.problems.feature_selection import WeightedFeatureSelection

        if self.inner_repetitions > 1:
            raise ValueError("inner_repetitions > 1 needs one evaluator per repetition: build "
                             "the problem with build() or RepeatedCVFeatureSelection")
        return WeightedFeatureSelection(evaluator, alpha=self.alpha, X_test=X_test,
                                        y_test=y_test)

    def build(self, X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray,
              y_test: np.ndarray, *, n_neighbors: int, inner_cv: int | str, scoring: str,
              random_state: int | None, n_threads: int | None = None
              ) -> "FeatureSelectionProblem":
        """As :meth:`Objective.build`; with ``inner_repetitions > 1``, a
        :class:`~pymoo_fs.problems.RepeatedCVFeatureSelection` on that many KNN evaluators
        whose fold seeds are :func:`~pymoo_fs.problems.repeated_cv.repetition_seeds`
        ``(random_state, inner_repetitions)``."""
        if self.inner_repetitions == 1:
            return super().build(X_train, y_train, X_test, y_test, n_neighbors=n_neighbors,
                                 inner_cv=inner_cv, scoring=scoring, random_state=random_state,
                                 n_threads=n_threads)
        from pymoo_fs.evaluation import KNNEvaluator
        from pymoo_fs.problems.repeated_cv import RepeatedCVFeatureSelection, repetition_seeds

        evaluators = [KNNEvaluator(X_train, y_train, n_neighbors=n_neighbors, cv=inner_cv,
                                   scoring=scoring, random_state=s, n_threads=n_threads)
                      for s in repetition_seeds(random_state, self.inner_repetitions)]
        return RepeatedCVFeatureSelection(evaluators, alpha=self.alpha, X_test=X_test,
                                          y_test=y_test)

    def describe(self) -> str:
        """str: e.g. ``"weighted (alpha 0.9)"``, with the repetitions when more than one."""
        reps = (f", inner CV repeated up to {self.inner_repetitions} times (Weka's rule)"
                if self.inner_repetitions > 1 else "")
        return f"weighted (alpha {self.alpha}){reps}"


@register_objective
@dataclass(frozen=True)
class FitBObjective(Objective):
    """FIT-B (Tran et al. 2019): ``mu BalAcc + (1 - mu) Distance``, 1-NN on contiguous folds.

    Parameters
    ----------
    mu : float, default=0.8
        Weight of the balanced accuracy, in [0, 1] [Tran et al. 2019, Eq. 6, Table 2].

    Raises
    ------
    ValueError
        If ``mu`` is not a number in [0, 1]; :meth:`check` refuses ``n_neighbors != 1`` and a
        ``"loo"`` inner CV (FIT-B is 1-NN over ``inner_cv`` blocks).

    Notes
    -----
    The problem is :class:`~pymoo_fs.problems.FitBFeatureSelection` on its own
    :class:`~pymoo_fs.evaluation.FitBEvaluator` (``generic = False``): the hold-out score is
    the protocol's ``scoring`` of 1-NN. :meth:`prepare` computes the SU ranking and the SU
    between relevant features on the training part alone, before any search, as Tran et al. (2019)
    does.
    """

    mu: float = 0.8

    name = "fitb"
    n_obj = 1
    result = "subset"
    generic = False

    def __post_init__(self):
        _check_weight("mu", self.mu)

    def check(self, n_neighbors: int, inner_cv: int | str) -> None:
        """Refuse anything but 1-NN over an int number of blocks (see the class)."""
        if n_neighbors != 1 or not isinstance(inner_cv, numbers.Integral) or isinstance(
                inner_cv, bool):
            raise ValueError(f"objective 'fitb' is 1-NN over int inner_cv blocks: needs "
                             f"n_neighbors=1 and an int inner_cv, got {n_neighbors!r} and "
                             f"{inner_cv!r}")

    def problem(self, evaluator: "Evaluator", X_test: ArrayLike | None = None,
                y_test: ArrayLike | None = None) -> "FeatureSelectionProblem":
        """:class:`~pymoo_fs.problems.FitBFeatureSelection` on a
        :class:`~pymoo_fs.evaluation.FitBEvaluator`.

        Raises
        ------
        TypeError
            If ``evaluator`` is not a ``FitBEvaluator``.
        """
        from pymoo_fs.evaluation import FitBEvaluator
        from pymoo_fs.problems.fitb import FitBFeatureSelection

        if not isinstance(evaluator, FitBEvaluator):
            raise TypeError(f"objective 'fitb' scores with a FitBEvaluator, got "
                            f"{type(evaluator).__name__}")
        return FitBFeatureSelection(evaluator, X_test=X_test, y_test=y_test)

    def build(self, X_train: np.ndarray, y_train: np.ndarray, X_test: np.ndarray,
              y_test: np.ndarray, *, n_neighbors: int, inner_cv: int | str, scoring: str,
              random_state: int | None, n_threads: int | None = None
              ) -> "FeatureSelectionProblem":
        """The FIT-B problem: a :class:`~pymoo_fs.evaluation.FitBEvaluator` (``mu``,
        ``inner_cv`` blocks, ``scoring`` for the test part), then :meth:`prepare`."""
        from pymoo_fs.evaluation import FitBEvaluator

        self.check(n_neighbors, inner_cv)
        evaluator = FitBEvaluator(X_train, y_train, mu=self.mu,
                                  n_folds=inner_cv,  # type: ignore[arg-type] # check(): an int
                                  random_state=random_state, test_scoring=scoring)
        return self.prepare(self.problem(evaluator, X_test=X_test, y_test=y_test))

    def prepare(self, problem: "FeatureSelectionProblem") -> "FeatureSelectionProblem":
        """Compute the SU ranking and the SU between relevant features now."""
        problem.symmetric_uncertainty().redundant([])
        return problem

    def describe(self) -> str:
        """str: e.g. ``"fitb (mu 0.8)"``."""
        return f"fitb (mu {self.mu})"


@register_objective
@dataclass(frozen=True)
class FitEObjective(Objective):
    """FIT-E (Yang et al. 2022): the inner-CV score, equal scores won by the smaller subset.

    The problem is :class:`~pymoo_fs.problems.FitEFeatureSelection`, a lexicographic order
    every single-objective swarm follows [Yang et al. 2022, §4.2]. :meth:`prepare` computes the SU
    ranking (CEPSO-FL's and VLPSO's) on the training part alone.
    """

    name = "fite"
    n_obj = 1
    result = "subset"

    def problem(self, evaluator: "Evaluator", X_test: ArrayLike | None = None,
                y_test: ArrayLike | None = None) -> "FeatureSelectionProblem":
        """:class:`~pymoo_fs.problems.FitEFeatureSelection` on ``evaluator``."""
        from pymoo_fs.problems.fite import FitEFeatureSelection

        return FitEFeatureSelection(evaluator, X_test=X_test, y_test=y_test)

    def prepare(self, problem: "FeatureSelectionProblem") -> "FeatureSelectionProblem":
        """Compute the SU ranking now."""
        problem.symmetric_uncertainty().ranking()
        return problem

    def describe(self) -> str:
        """str: ``"fite (accuracy, then fewer features)"``."""
        return "fite (accuracy, then fewer features)"


def _check_weight(name, value):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or math.isnan(value):
        raise ValueError(f"{name} must be a number in [0, 1], got {value!r}")
    check_unit_interval(name, value)
