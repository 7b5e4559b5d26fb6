"""Algorithms by name, for the command line, studies and the selector; and a user's own.

Every algorithm declares what it is where it is written (:mod:`pymoo_fs.algorithms.metadata`:
``registry_names``, ``n_objectives``, ``has_population``, ``evaluations_per_generation``); the
registry only reads those declarations. The algorithms of pymoo-fs are registered when
:mod:`pymoo_fs.algorithms` is imported (:data:`BUILTIN`, in the order :func:`algorithm_names`
lists them); :func:`register` adds a user's own.

An algorithm may also be named without registration by an importable reference,
``"package.module:ClassName"`` (a pymoo ``Algorithm`` subclass, or a function declared with
:func:`~pymoo_fs.algorithms.metadata.algorithm_factory`). Worker processes (joblib/loky, Dask)
start fresh: a name registered at run time in the parent is unknown there, but its
:func:`algorithm_reference` is not, as long as the class lives in an importable module.

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

Examples
--------
>>> from pymoo_fs.algorithms import algorithm_info, canonical_name, make_algorithm
>>> canonical_name("nsga2"), algorithm_info("CSO(A)").preset["fitness"]
('NSGA-II', 'accuracy')
>>> make_algorithm("pymoo_fs.algorithms.soo.pso:PSO", pop_size=12).pop_size
12
"""

import importlib
import inspect

from pymoo.core.algorithm import Algorithm

from pymoo_fs._validation import check_int, check_positive_int
from pymoo_fs.algorithms.metadata import AlgorithmInfo, RegistryName, check_name
from pymoo_fs.algorithms.moo import (CMDPSOFS, ISRPSO, MOPSO, configure_nsga2, configure_paes,
                                     configure_spea2)
from pymoo_fs.algorithms.soo import (AMSO, BBPSOACJ, BPSO, BVDPSO, CEPSOFL, CSO, FSIPSO, HFSCP,
                                     PSO, PSO42, SBPSO, SBS, SCTSOFS, SFS, SRTSO, UBPSO, VLPSO)

__all__ = ["BUILTIN", "algorithm_info", "algorithm_names", "algorithm_reference",
           "canonical_name", "make_algorithm", "n_objectives", "register", "unregister"]

#: the algorithms of pymoo-fs, in the order :func:`algorithm_names` lists their names
BUILTIN = (
    CMDPSOFS, configure_nsga2, configure_spea2, ISRPSO, MOPSO, configure_paes,  # Nguyen et al.
    PSO,
    FSIPSO, PSO42, CSO, BPSO, UBPSO, SBPSO, SFS, SBS,  # Li et al. (2021): FSIPSO, baselines, Weka
    AMSO, VLPSO,  # Tran et al. (2019)
    SCTSOFS, SRTSO,  # Butler-Yeoman et al. (2015)
    CEPSOFL, BVDPSO, BBPSOACJ, HFSCP,  # Yang et al. (2022) and three baselines
)

_INFO = {}  # canonical name -> AlgorithmInfo, in registration order
_KEYS = {}  # upper-case name or alias -> canonical name


# ---------------------------------------------------------------------------- declarations
def _is_algorithm(obj):
    """A pymoo Algorithm subclass, or a function declared with ``algorithm_factory``."""
    if isinstance(obj, type):
        return issubclass(obj, Algorithm)
    return callable(obj) and isinstance(getattr(obj, "registry_names", None), tuple)


def _declared_names(obj):
    """The object's own ``registry_names`` (never a base class's), as RegistryName entries."""
    own = vars(obj).get("registry_names", ()) if hasattr(obj, "__dict__") else ()
    return tuple(e if isinstance(e, RegistryName) else RegistryName(e) for e in own)


def _takes_pop_size(factory):
    """Whether ``factory`` has a parameter named ``pop_size``."""
    try:
        return "pop_size" in inspect.signature(factory).parameters
    except (TypeError, ValueError):
        return False


def _path(obj):
    """``"module:qualname"`` of an object."""
    return f"{obj.__module__}:{obj.__qualname__}"


def _info(obj, name, entry, n_objectives=None, has_population=None,
          evaluations_per_generation=None, reference=None):
    """What ``obj`` declares, under ``name``, with the given overrides.

    ``entry`` (a RegistryName or None) gives the aliases and preset; ``reference`` defaults
    to ``obj``'s path, with ``@name`` when the entry has a preset.
    """
    aliases, preset = ((), {}) if entry is None else (entry.aliases, entry.preset)
    n_obj = getattr(obj, "n_objectives", None) if n_objectives is None else n_objectives
    if n_obj is not None and n_obj not in (1, 2):
        raise ValueError(f"{name}: n_objectives must be 1 or 2 (2: two or more), got {n_obj!r}")
    population = getattr(obj, "has_population", None) if has_population is None \
        else has_population
    per_gen = getattr(obj, "evaluations_per_generation", None) \
        if evaluations_per_generation is None else evaluations_per_generation
    if per_gen is not None:
        per_gen = check_int(f"{name}: evaluations_per_generation", per_gen, low=1)
    if reference is None:
        reference = _path(obj) + (f"@{name}" if preset else "")
    return AlgorithmInfo(name=name, factory=obj, n_objectives=n_obj,
                         has_population=_takes_pop_size(obj) if population is None
                         else bool(population),
                         evaluations_per_generation=per_gen, aliases=aliases, preset=preset,
                         reference=reference)


# ---------------------------------------------------------------------------- registration
def register(algorithm=None, name=None, *, aliases=(), n_objectives=None, has_population=None,
             evaluations_per_generation=None):
    """Register an algorithm under a name, so that studies, the CLI and the selector know it.

    Used as a function, ``register(MyAlgorithm)`` or ``register(MyAlgorithm, "MY-NAME")``, or as
    a class decorator, ``@register`` or ``@register("MY-NAME", aliases=("MYNAME",))``.

    Parameters
    ----------
    algorithm : type or callable
        A pymoo ``Algorithm`` subclass, or a function declared with
        :func:`~pymoo_fs.algorithms.metadata.algorithm_factory`. Omitted (or a name given in
        its place), ``register`` returns a decorator.
    name : str, optional
        The name (letters, digits and ``_.()+-``; looked up case-insensitively). Default: the
        object's own ``registry_names`` (every one of them, with their aliases and presets),
        else its ``__name__``.
    aliases : tuple of str, default=()
        Other spellings of ``name`` (only with ``name``).
    n_objectives : {1, 2}, optional
        Objectives it handles (2: two or more). Default: its ``n_objectives`` attribute, which
        every pymoo-fs algorithm has; required when it has none.
    has_population : bool, optional
        Whether ``pop_size`` sizes a population. Default: its ``has_population`` attribute,
        else whether its constructor takes ``pop_size``.
    evaluations_per_generation : int, optional
        Fixed evaluations per generation, independent of ``pop_size`` (PAES: 1); see
        :attr:`~pymoo_fs.algorithms.metadata.AlgorithmInfo.budget_unit`. Default: its
        attribute of that name, else None.

    Returns
    -------
    algorithm or decorator
        ``algorithm`` itself (unchanged), or a decorator that registers its argument and
        returns it.

    Raises
    ------
    TypeError
        If ``algorithm`` is neither a pymoo ``Algorithm`` subclass nor an
        ``algorithm_factory`` function.
    ValueError
        If a name or alias is already registered (naming it; nothing is registered then; see
        :func:`unregister`), is not a usable name, or the number of objectives is unknown or
        not 1 or 2.

    Notes
    -----
    The metadata passed as keywords stays with the registered name. A worker process that
    makes the algorithm from :func:`algorithm_reference` imports the class and builds it with
    the same preset; what it needs to build it (the class, its ``registry_names`` presets) is
    declared on the class, so nothing registered at run time is needed there. Variants of one
    class with preset arguments are declared on the class (``registry_names =
    (RegistryName("X", preset={...}), ...)``), not passed to ``register``.

    Examples
    --------
    >>> from pymoo_fs.algorithms import PSO, make_algorithm, register, unregister
    >>> @register("WIDE-PSO", aliases=("WIDEPSO",))
    ... class WidePSO(PSO):
    ...     '''PSO with a wider velocity limit.'''
    ...     def __init__(self, pop_size=30, vmax=1.0, **kwargs):
    ...         super().__init__(pop_size=pop_size, vmax=vmax, **kwargs)
    >>> make_algorithm("widepso", pop_size=5).vmax
    1.0
    >>> unregister("WIDE-PSO")
    """
    if algorithm is None or isinstance(algorithm, str):
        name = algorithm if name is None else name

        def decorator(obj):
            return register(obj, name, aliases=aliases, n_objectives=n_objectives,
                            has_population=has_population,
                            evaluations_per_generation=evaluations_per_generation)

        return decorator
    if not _is_algorithm(algorithm):
        raise TypeError(f"register() takes a pymoo Algorithm subclass or an "
                        f"@algorithm_factory function, got {algorithm!r}")
    if name is not None:
        entries = (RegistryName(check_name(name), aliases=aliases),)
    else:
        if aliases:
            raise ValueError("register(): aliases need a name; declare them in "
                             "registry_names or pass name=")
        entries = _declared_names(algorithm) or (RegistryName(algorithm.__name__),)
    infos = [_info(algorithm, e.name, e, n_objectives, has_population,
                   evaluations_per_generation) for e in entries]
    for info in infos:
        if info.n_objectives is None:
            raise ValueError(f"register(): {info.name} declares no number of objectives; "
                             f"pass n_objectives=1 or 2")
    taken = {}
    for info in infos:
        for spelling in (info.name, *info.aliases):
            key = spelling.upper()
            owner = _KEYS.get(key) or taken.get(key)
            if owner is not None:
                raise ValueError(f"algorithm name {spelling!r} is already registered (as "
                                 f"{owner!r}); unregister it first")
            taken[key] = info.name
    for info in infos:
        _INFO[info.name] = info
    _KEYS.update(taken)
    return algorithm


def unregister(name):
    """Remove a registered name and its aliases.

    Parameters
    ----------
    name : str
        A registered name or alias (case-insensitive).

    Raises
    ------
    ValueError
        If the name is unknown.
    """
    canonical = canonical_name(name)
    if ":" in canonical:
        raise ValueError(f"{name!r} is a reference, not a registered name")
    info = _INFO.pop(canonical)
    for spelling in (info.name, *info.aliases):
        _KEYS.pop(spelling.upper(), None)


# ---------------------------------------------------------------------------- references
def _resolve(reference):
    """AlgorithmInfo of ``"module:qualname"`` or ``"module:qualname@NAME"``."""
    path, _, variant = reference.partition("@")
    module_name, _, qualname = path.partition(":")
    if not module_name or not qualname:
        raise ValueError(f"algorithm reference {reference!r} must read 'package.module:Class'")
    try:
        obj = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"algorithm reference {reference!r}: cannot import module "
                         f"{module_name!r} ({exc})") from None
    for part in qualname.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"algorithm reference {reference!r}: module {module_name!r} has "
                             f"no {qualname!r}") from None
    if not _is_algorithm(obj):
        raise ValueError(f"algorithm reference {reference!r}: {qualname} is not a pymoo "
                         f"Algorithm subclass or an @algorithm_factory function")
    entry = None
    if variant:
        for e in _declared_names(obj):
            if variant.upper() in (s.upper() for s in (e.name, *e.aliases)):
                entry = e
                break
        else:
            known = ", ".join(e.name for e in _declared_names(obj)) or "none"
            raise ValueError(f"algorithm reference {reference!r}: {qualname} declares no "
                             f"name {variant!r} in its registry_names (declared: {known})")
        entry = RegistryName(entry.name, preset=entry.preset)  # its aliases are not this name's
    return _info(obj, reference, entry, reference=reference)


def algorithm_reference(name):
    """The string that makes the named algorithm in any process, registered there or not.

    Parameters
    ----------
    name : str
        A registered name or alias, or a reference.

    Returns
    -------
    reference : str
        ``"module:qualname"`` of its class or factory, with ``"@NAME"`` when the name presets
        arguments (``"pymoo_fs.algorithms.soo.cso:CSO@CSO(A)"``). A fresh process (a joblib or
        Dask worker) imports the module and builds the same algorithm with
        ``make_algorithm(reference, pop_size, **params)``.

    Raises
    ------
    ValueError
        If the name is unknown, or the class cannot be imported by another process: defined
        in ``__main__`` (a script or notebook) or inside a function. Move it to a module.

    Examples
    --------
    >>> from pymoo_fs.algorithms import algorithm_reference
    >>> algorithm_reference("NSGA2")
    'pymoo_fs.algorithms.moo.evolutionary:configure_nsga2'
    """
    info = algorithm_info(name)
    module = info.reference.partition(":")[0]
    if module == "__main__" or "<locals>" in info.reference:
        where = "in __main__" if module == "__main__" else "inside a function"
        raise ValueError(f"{info.name} is defined {where} ({info.reference}): a worker process "
                         f"cannot import it; define it in an importable module")
    resolved = _resolve(info.reference)
    if resolved.factory is not info.factory or dict(resolved.preset) != dict(info.preset):
        raise ValueError(f"{info.name}: {info.reference} does not make the same algorithm in "
                         f"another process (its module defines it differently)")
    return info.reference


# ---------------------------------------------------------------------------- look-ups
def algorithm_names(n_obj=None):
    """Names accepted by :func:`make_algorithm`.

    Parameters
    ----------
    n_obj : {1, 2}, optional
        Only the single-objective (1) or multi-objective (2) algorithms.

    Returns
    -------
    names : list of str
        Registered names in registration order (pymoo-fs's own first, :data:`BUILTIN`), no
        aliases.
    """
    return [name for name, info in _INFO.items() if n_obj is None or info.n_objectives == n_obj]


def canonical_name(name):
    """The registered spelling of ``name`` (case-insensitive; ``nsga2`` -> ``NSGA-II``).

    A reference ``"module:Class"`` (or ``"module:Class@NAME"``) is its own canonical name,
    checked: the module imports and holds an algorithm.

    Raises
    ------
    ValueError
        If the name is unknown (the message lists the known names), or a reference does not
        resolve (the message names the string and what is wrong).
    """
    text = str(name).strip()
    if ":" in text:
        _resolve(text)
        return text
    key = text.upper()
    if key not in _KEYS:
        raise ValueError(f"unknown algorithm {name!r}; known: {', '.join(algorithm_names())}")
    return _KEYS[key]


def algorithm_info(name):
    """What the registry knows of an algorithm: its metadata, factory and reference.

    Parameters
    ----------
    name : str
        A registered name or alias (case-insensitive), or a reference ``"module:Class"``.

    Returns
    -------
    info : pymoo_fs.algorithms.metadata.AlgorithmInfo
        Frozen: ``name``, ``factory``, ``n_objectives``, ``has_population``,
        ``evaluations_per_generation`` (with ``budget_unit`` and ``matched_budget``),
        ``aliases``, ``preset``, ``reference``.

    Raises
    ------
    ValueError
        As :func:`canonical_name`.
    """
    canonical = canonical_name(name)
    if ":" in canonical:
        return _resolve(canonical)
    return _INFO[canonical]


def make_algorithm(name, pop_size=30, **kwargs):
    """A fresh, configured algorithm by name.

    Parameters
    ----------
    name : str
        One of :func:`algorithm_names` (case-insensitive; ``NSGA2`` is accepted for NSGA-II,
        ``PSO(C)`` for PSO, ``PSO42`` for PSO(4-2), ``CSO`` for CSO(C)), or a reference
        ``"package.module:Class"`` (see :func:`algorithm_reference`).
    pop_size : int, default=30
        Population or swarm size, passed to factories that take a ``pop_size`` (ignored by
        SFS, SBS and SRTSO, which have none, once checked: a value that is not a positive int
        is refused by every algorithm; PAES's factory checks and ignores it).
    **kwargs
        Further constructor arguments.

    Returns
    -------
    algorithm : pymoo.core.algorithm.Algorithm

    Raises
    ------
    ValueError
        If the name is unknown or a parameter is invalid.
    TypeError
        For a keyword the algorithm does not take, or one its name presets (CSO(A)'s
        ``fitness``).
    """
    info = algorithm_info(name)
    for key, value in info.preset.items():
        if key in kwargs:
            raise TypeError(f"{info.name} got multiple values for keyword argument {key!r} "
                            f"(the name sets {key}={value!r})")
    if _takes_pop_size(info.factory):
        kwargs["pop_size"] = pop_size
    else:  # ignored, but a bad value is still an error (True, "30", 0 mean nothing here)
        check_positive_int("pop_size", pop_size)
    return info.factory(**info.preset, **kwargs)


def n_objectives(name):
    """Number of objectives (1 or 2) the named algorithm handles.

    None for a reference to a class that declares none (it accepts any).
    """
    return algorithm_info(name).n_objectives


for _algorithm in BUILTIN:
    register(_algorithm)
del _algorithm
