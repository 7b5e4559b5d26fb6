"""What an algorithm is, declared once, where it is written: names, objectives, population, budget.

An algorithm class declares, as class attributes:

``n_objectives`` : {1, 2}
    The number of objectives it handles (2 means "two or more").
``has_population`` : bool or None
    Whether its ``pop_size`` sizes a population; None: whether its constructor takes a
    ``pop_size`` (SFS, SBS, SRTSO and PAES have no population).
``evaluations_per_generation`` : int or None
    A fixed number of evaluations per generation, independent of ``pop_size`` (PAES: 1);
    None when a generation evaluates a population (or a varying number of solutions).
``registry_names`` : tuple of (str or RegistryName)
    The names it is registered under (read from the class itself, never inherited): the
    paper's name, its aliases, and for a class registered several times the keyword arguments
    that make each variant (``CSO(C)`` and ``CSO(A)`` are CSO with ``fitness="objective"``
    and ``"accuracy"``).

A factory function (pymoo's NSGA-II and SPEA2 configured for feature selection) declares the
same with the :func:`algorithm_factory` decorator. :mod:`pymoo_fs.algorithms.registry` reads
these declarations; :class:`AlgorithmInfo` is what it answers. Nothing here imports an
algorithm, so every algorithm module can import this one.

References
----------
H. B. Nguyen, B. Xue, I. Liu, P. Andreae, M. Zhang, "New mechanism for archive maintenance
in PSO-based multi-objective feature selection", Soft Computing 20:3927-3946, 2016,
doi:10.1007/s00500-016-2128-8.
"""

import re
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Tuple

__all__ = ["AlgorithmInfo", "RegistryName", "algorithm_factory"]

#: what a registry name may contain: it is also a study label, a file name and a CLI item
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.()+-]+")


def check_name(name, what="name"):
    """Return ``name`` if it is a usable registry name, else raise ValueError naming it.

    Parameters
    ----------
    name : object
        The candidate name.
    what : str, default="name"
        What it is, for the message (``"name"`` or ``"alias"``).

    Returns
    -------
    name : str

    Raises
    ------
    ValueError
        If ``name`` is not a non-empty string of letters, digits and ``_.()+-`` (a name with
        ``:`` would read as a ``"module:Class"`` reference, and studies use names as labels).
    """
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"algorithm {what} must be letters, digits and _.()+- only, got "
                         f"{name!r}")
    return name


def _frozen(mapping, owner):
    """A read-only copy of a mapping of keyword arguments (str keys)."""
    mapping = {} if mapping is None else dict(mapping)
    for key in mapping:
        if not isinstance(key, str) or not key.isidentifier():
            raise ValueError(f"{owner}: preset keys must be keyword names, got {key!r}")
    return MappingProxyType(mapping)


@dataclass(frozen=True)
class RegistryName:
    """One name an algorithm is registered under, with its aliases and preset arguments.

    Parameters
    ----------
    name : str
        The registered spelling (letters, digits and ``_.()+-``; looked up case-insensitively).
    aliases : tuple of str, default=()
        Other spellings accepted for it (``"CEPSOFL"`` for ``"CEPSO-FL"``).
    preset : mapping of str to object, optional
        Keyword arguments this name gives the constructor (``{"fitness": "accuracy"}`` for
        CSO(A)); a caller may not give them again.

    Raises
    ------
    ValueError
        For a name or alias with other characters, or a preset key that is not a keyword name.

    Examples
    --------
    >>> from pymoo_fs.algorithms.metadata import RegistryName
    >>> entry = RegistryName("CSO(A)", preset={"fitness": "accuracy"})
    >>> entry.name, dict(entry.preset)
    ('CSO(A)', {'fitness': 'accuracy'})
    """

    name: str
    aliases: Tuple[str, ...] = ()
    preset: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self):
        check_name(self.name)
        aliases = (self.aliases,) if isinstance(self.aliases, str) else tuple(self.aliases)
        for alias in aliases:
            check_name(alias, "alias")
        object.__setattr__(self, "aliases", aliases)
        object.__setattr__(self, "preset", _frozen(self.preset, self.name))

    def __hash__(self):
        return hash((self.name, self.aliases, tuple(sorted(self.preset))))


def algorithm_factory(*names, builds=None, n_objectives=None, has_population=None,
                      evaluations_per_generation=None):
    """Declare a function that builds a configured algorithm, as a class declares itself.

    Parameters
    ----------
    *names : str or RegistryName
        The names it is registered under (see :class:`RegistryName`).
    builds : type, optional
        The algorithm class it returns; ``n_objectives``, ``has_population`` and
        ``evaluations_per_generation`` default to that class's declarations.
    n_objectives : {1, 2}, optional
    has_population : bool, optional
    evaluations_per_generation : int, optional
        As the class attributes of the same name (see the module's docstring).

    Returns
    -------
    decorator : callable
        Sets ``registry_names``, ``n_objectives``, ``has_population``,
        ``evaluations_per_generation`` and ``builds`` on the function and returns it
        unchanged; the function may then be registered and named as ``"module:function"``.

    Raises
    ------
    ValueError
        For an unusable name (see :class:`RegistryName`).

    Examples
    --------
    >>> from pymoo_fs.algorithms.metadata import algorithm_factory
    >>> from pymoo_fs.algorithms import PSO
    >>> @algorithm_factory("SMALL-PSO", builds=PSO)
    ... def small_pso(pop_size=10, **kwargs):
    ...     return PSO(pop_size=pop_size, **kwargs)
    >>> small_pso.n_objectives, small_pso.registry_names[0].name
    (1, 'SMALL-PSO')
    """
    entries = tuple(n if isinstance(n, RegistryName) else RegistryName(n) for n in names)

    def declared(what, given):
        return getattr(builds, what, None) if given is None else given

    def decorate(function):
        function.registry_names = entries
        function.builds = builds
        function.n_objectives = declared("n_objectives", n_objectives)
        function.has_population = declared("has_population", has_population)
        function.evaluations_per_generation = declared("evaluations_per_generation",
                                                       evaluations_per_generation)
        return function

    return decorate


@dataclass(frozen=True)
class AlgorithmInfo:
    """What the registry knows of one algorithm (:func:`pymoo_fs.algorithms.algorithm_info`).

    Attributes
    ----------
    name : str
        The canonical name: the registered spelling, or for an algorithm given as
        ``"module:Class"`` that reference itself.
    factory : callable
        The class (or :func:`algorithm_factory` function) that builds it.
    n_objectives : {1, 2} or None
        Objectives it handles (2: two or more); None when an unregistered class declares none.
    has_population : bool
        Whether ``pop_size`` sizes a population (False for SFS, SBS, SRTSO, PAES).
    evaluations_per_generation : int or None
        Evaluations per generation when fixed and independent of ``pop_size`` (PAES: 1); None
        for population algorithms and those whose generations vary.
    aliases : tuple of str
        Other accepted spellings.
    preset : mapping of str to object
        Keyword arguments the name fixes (read-only; empty for most).
    reference : str
        ``"module:qualname"``, or ``"module:qualname@NAME"`` for a name with a preset: the
        string :func:`~pymoo_fs.algorithms.make_algorithm` accepts in any process, where the
        name may not be registered (see :func:`~pymoo_fs.algorithms.algorithm_reference`).

    Examples
    --------
    >>> from pymoo_fs.algorithms import algorithm_info
    >>> info = algorithm_info("paes")
    >>> info.name, info.has_population, info.budget_unit, info.matched_budget(30, 100)
    ('PAES', False, 'n_eval', ('n_eval', 3000))
    >>> algorithm_info("CSO(A)").reference
    'pymoo_fs.algorithms.soo.cso:CSO@CSO(A)'
    """

    name: str
    factory: Callable
    n_objectives: Optional[int]
    has_population: bool
    evaluations_per_generation: Optional[int] = None
    aliases: Tuple[str, ...] = ()
    preset: Mapping[str, Any] = field(default_factory=dict)
    reference: Optional[str] = None

    def __post_init__(self):
        object.__setattr__(self, "aliases", tuple(self.aliases))
        object.__setattr__(self, "preset", _frozen(self.preset, self.name))

    def __hash__(self):
        return hash((self.name, self.reference))

    @property
    def budget_unit(self):
        """str: ``"n_eval"`` when a generation is a fixed number of evaluations that does not
        grow with ``pop_size`` (PAES), so equal effort is given in evaluations; else
        ``"n_gen"``."""
        return "n_gen" if self.evaluations_per_generation is None else "n_eval"

    def matched_budget(self, pop_size, n_gen):
        """The termination that gives this algorithm the effort of ``n_gen`` generations of
        ``pop_size`` individuals.

        Parameters
        ----------
        pop_size : int
            Population size of the comparison.
        n_gen : int
            Its number of generations.

        Returns
        -------
        termination : tuple
            ``("n_gen", n_gen)`` for population algorithms; ``("n_eval", pop_size * n_gen)``
            when :attr:`budget_unit` is ``"n_eval"`` (PAES: one evaluation per generation, so
            a comparison at 30 x 100 gives it 3,000 evaluations, Nguyen et al.'s (2016) budget).
        """
        if self.budget_unit == "n_eval":
            return ("n_eval", int(pop_size) * int(n_gen))
        return ("n_gen", int(n_gen))
