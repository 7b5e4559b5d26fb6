"""The registry: names declared on the classes, register(), references, worker processes."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from pymoo.optimize import minimize

from pymoo_fs.algorithms import (CSO, PAES, PSO, SFS, SRTSO, AlgorithmInfo, RegistryName,
                                 algorithm_factory, algorithm_info, algorithm_names,
                                 algorithm_reference, canonical_name, make_algorithm,
                                 n_objectives, register, unregister)
from pymoo_fs.algorithms.moo import configure_paes
from pymoo_fs.datasets import load_dataset
from pymoo_fs.problems import WeightedFeatureSelection

ROOT = Path(__file__).resolve().parents[2]
USER = "tests.algorithms.user_algorithms"


@pytest.fixture
def clean_registry():
    """Names a test registers are gone afterwards, so later tests see the built-in registry."""
    before = list(algorithm_names())
    yield
    for name in algorithm_names():
        if name not in before:
            unregister(name)
    assert algorithm_names() == before


@pytest.fixture(scope="module")
def problem():
    data = load_dataset("sonar")
    return WeightedFeatureSelection.from_data(data.X[:, :20], data.y, cv=3)


@pytest.fixture(scope="module")
def user():
    """The user's module, imported here; its import-time registration is undone."""
    import tests.algorithms.user_algorithms as module

    # its decorator registered RegisteredOnImport when the module was imported
    assert algorithm_info("onimport").factory is module.RegisteredOnImport
    unregister("ON-IMPORT")
    return module


def _fresh_python(code):
    """Run ``code`` in a new interpreter (as a joblib/loky or Dask worker starts) at the root."""
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


# ------------------------------------------------------------------ metadata of the built-ins
def test_the_built_in_names_in_order():
    assert algorithm_names(2) == ["CMDPSOFS", "NSGA-II", "SPEA2", "ISRPSO", "MOPSO", "PAES"]
    assert algorithm_names(1)[:9] == ["PSO", "FSIPSO", "PSO(4-2)", "CSO(C)", "CSO(A)", "BPSO",
                                      "UBPSO", "SBPSO", "SFS"]


@pytest.mark.parametrize("alias, name", [("nsga2", "NSGA-II"), ("NSGAII", "NSGA-II"),
                                         ("pso(c)", "PSO"), ("PSO42", "PSO(4-2)"),
                                         ("pso4-2", "PSO(4-2)"), ("cso", "CSO(C)"),
                                         ("cepsofl", "CEPSO-FL"), (" spea2 ", "SPEA2")])
def test_aliases_and_case(alias, name):
    assert canonical_name(alias) == name
    assert algorithm_info(alias) is algorithm_info(name)


def test_the_unknown_name_message_lists_the_known_ones():
    with pytest.raises(ValueError, match=r"^unknown algorithm 'CMDPSO'; known: CMDPSOFS, "
                                         r"NSGA-II, SPEA2"):
        canonical_name("CMDPSO")


def test_metadata_of_paes_sfs_and_a_swarm():
    paes = algorithm_info("PAES")
    assert isinstance(paes, AlgorithmInfo)
    assert paes.factory is configure_paes and paes.n_objectives == 2
    assert not paes.has_population and paes.evaluations_per_generation == 1
    assert paes.budget_unit == "n_eval" and paes.matched_budget(30, 100) == ("n_eval", 3000)
    sfs = algorithm_info("SFS")
    assert sfs.factory is SFS and not sfs.has_population and sfs.budget_unit == "n_gen"
    pso = algorithm_info("PSO")
    assert pso.has_population and pso.evaluations_per_generation is None
    assert pso.matched_budget(30, 100) == ("n_gen", 100) and pso.aliases == ("PSO(C)",)
    with pytest.raises(AttributeError):
        pso.n_objectives = 2  # frozen


def test_metadata_is_declared_on_the_classes():
    assert PAES.has_population is False and PAES.evaluations_per_generation == 1
    assert configure_paes.builds is PAES and configure_paes.evaluations_per_generation == 1
    assert [e.name for e in CSO.registry_names] == ["CSO(C)", "CSO(A)"]
    assert "registry_names" not in vars(SFS.__mro__[1])  # SequentialSelection has no name


def test_variants_of_one_class_differ_by_their_preset():
    c, a = make_algorithm("CSO(C)", pop_size=6), make_algorithm("CSO(A)", pop_size=6)
    assert type(c) is type(a) is CSO
    assert (c.fitness, a.fitness, c.pop_size) == ("objective", "accuracy", 6)
    assert dict(algorithm_info("CSO(A)").preset) == {"fitness": "accuracy"}
    with pytest.raises(TypeError, match=r"CSO\(A\) got multiple values for keyword argument "
                                        r"'fitness'"):
        make_algorithm("CSO(A)", fitness="objective")


def test_srtso_can_be_named_and_runs_standalone(problem):
    # the library's own names (a test module may have registered a user's algorithm on import)
    own = [n for n in algorithm_names(1) if algorithm_info(n).reference.startswith("pymoo_fs.")]
    assert own[-6:] == ["SCTSOFS", "SRTSO", "CEPSO-FL", "BVDPSO", "BBPSO-ACJ", "HFS-C-P"]
    info = algorithm_info("srtso")
    assert info.factory is SRTSO and not info.has_population and info.n_objectives == 1
    res = minimize(problem, make_algorithm("SRTSO", pop_size=99, n_sizes=4, n_subsets=2),
                   seed=0)
    assert res.algorithm.exhausted_ and int(res.X.sum()) == res.algorithm.target_size_


def test_pop_size_reaches_only_factories_that_take_it():
    assert isinstance(make_algorithm("SFS", pop_size=7), SFS)  # no population: not passed
    with pytest.raises(ValueError, match="pop_size must be a positive int, got -5"):
        make_algorithm("SFS", pop_size=-5)  # ignored, but never a nonsense value (issue 26)
    with pytest.raises(ValueError, match="pop_size must be a positive int"):
        make_algorithm("PAES", pop_size=0)  # PAES's factory checks it, then ignores it


# ------------------------------------------------------------------ register()
def test_register_as_a_function_and_run_by_name(clean_registry, problem, user):
    assert register(user.RandomSearch, "RANDOM-SEARCH", aliases=("RS",)) is user.RandomSearch
    assert "RANDOM-SEARCH" in algorithm_names(1) and "RANDOM-SEARCH" not in algorithm_names(2)
    assert canonical_name("rs") == "RANDOM-SEARCH" and n_objectives("rs") == 1
    algorithm = make_algorithm("random-search", pop_size=5, density=0.3)
    res = minimize(problem, algorithm, ("n_gen", 4), seed=1)
    assert res.algorithm.evaluator.n_eval == 20 and res.X.dtype == bool and res.X.any()
    np.testing.assert_allclose(problem.evaluate(res.X[None, :])[0], res.F)
    info = algorithm_info("RS")
    assert info.has_population and info.reference == f"{USER}:RandomSearch"


def test_register_as_a_decorator(clean_registry, problem):
    @register("DECORATED-PSO", aliases=("DPSO",))
    class DecoratedPSO(PSO):
        """PSO with a narrow velocity limit."""

        def __init__(self, pop_size=30, **kwargs):
            super().__init__(pop_size=pop_size, vmax=0.2, **kwargs)

    @register
    class BarePSO(PSO):
        """Registered under its class name."""

    assert isinstance(make_algorithm("dpso", pop_size=4), DecoratedPSO)
    assert make_algorithm("dpso", pop_size=4).vmax == 0.2
    assert canonical_name("barepso") == "BarePSO"
    res = minimize(problem, make_algorithm("DECORATED-PSO", pop_size=4), ("n_gen", 3), seed=0)
    assert res.algorithm.evaluator.n_eval == 12


def test_declared_variants_register_together(clean_registry, user):
    register(user.TwoVariants)
    assert make_algorithm("sparsers", pop_size=3).density == 0.1
    assert make_algorithm("DENSE-RS", pop_size=3).density == 0.9
    assert algorithm_info("DENSE-RS").reference == f"{USER}:TwoVariants@DENSE-RS"


def test_a_duplicate_name_is_refused_by_name(clean_registry, user):
    with pytest.raises(ValueError, match=r"algorithm name 'PSO' is already registered"):
        register(user.RandomSearch, "PSO")
    with pytest.raises(ValueError, match=r"algorithm name 'cso' is already registered \(as "
                                         r"'CSO\(C\)'\)"):
        register(user.RandomSearch, "MINE", aliases=("cso",))
    assert "MINE" not in algorithm_names()  # nothing of a refused call is registered
    register(user.RandomSearch, "MINE")
    with pytest.raises(ValueError, match=r"algorithm name 'mine' is already registered"):
        register(PSO, "mine")


def test_register_refuses_what_is_not_an_algorithm(clean_registry, user):
    with pytest.raises(TypeError, match="pymoo Algorithm subclass or an @algorithm_factory"):
        register(user.not_an_algorithm, "PLAIN")
    with pytest.raises(ValueError, match="NoObjectives declares no number of objectives; pass "
                                         "n_objectives=1 or 2"):
        register(user.NoObjectives)
    register(user.NoObjectives, n_objectives=2)
    assert algorithm_info("NoObjectives").n_objectives == 2
    with pytest.raises(ValueError, match=r"algorithm name must be letters, digits and _\.\(\)\+- "
                                         r"only, got 'my algo'"):
        register(user.RandomSearch, "my algo")
    with pytest.raises(ValueError, match="n_objectives must be 1 or 2"):
        register(user.RandomSearch, "THREE", n_objectives=3)


def test_a_factory_function_registers_with_its_declarations(clean_registry):
    @algorithm_factory(RegistryName("TINY-PAES", preset={"archive_size": 5}), builds=PAES)
    def tiny_paes(**kwargs):
        """PAES with a small archive."""
        return PAES(**kwargs)

    register(tiny_paes)
    info = algorithm_info("tiny-paes")
    assert info.evaluations_per_generation == 1 and not info.has_population
    assert make_algorithm("TINY-PAES", pop_size=30).archive_size == 5


def test_unregister(clean_registry, user):
    register(user.RandomSearch, "GONE", aliases=("GONE2",))
    unregister("gone2")
    for spelling in ("GONE", "GONE2"):
        with pytest.raises(ValueError, match="unknown algorithm"):
            canonical_name(spelling)
    with pytest.raises(ValueError, match="unknown algorithm 'GONE'"):
        unregister("GONE")


# ------------------------------------------------------------------ "module:Class" references
def test_a_class_by_reference_without_registration(problem):
    reference = f"{USER}:RandomSearch"
    assert canonical_name(f"  {reference} ") == reference
    assert n_objectives(reference) == 1
    info = algorithm_info(reference)
    assert info.name == info.reference == reference and info.has_population
    assert reference not in algorithm_names()
    res = minimize(problem, make_algorithm(reference, pop_size=3), ("n_gen", 2), seed=0)
    assert res.algorithm.evaluator.n_eval == 6


def test_built_in_references_make_the_same_algorithms():
    for name in algorithm_names():
        reference = algorithm_reference(name)
        a, b = make_algorithm(name, pop_size=7), make_algorithm(reference, pop_size=7)
        assert type(a) is type(b), name
        assert getattr(a, "fitness", None) == getattr(b, "fitness", None), name
        assert algorithm_info(reference).n_objectives == n_objectives(name)
    assert algorithm_reference("CSO(A)") == "pymoo_fs.algorithms.soo.cso:CSO@CSO(A)"
    assert make_algorithm("pymoo_fs.algorithms.soo.cso:CSO@cso", pop_size=4).fitness == \
        "objective"
    assert n_objectives("pymoo.algorithms.moo.nsga2:NSGA2") is None  # declares nothing


@pytest.mark.parametrize("reference, message", [
    ("no_such_package.algos:Mine", r"cannot import module 'no_such_package\.algos'"),
    (f"{USER}:Missing", r"module 'tests\.algorithms\.user_algorithms' has no 'Missing'"),
    (f"{USER}:not_an_algorithm", r"not_an_algorithm is not a pymoo Algorithm subclass"),
    ("numpy:ndarray", r"ndarray is not a pymoo Algorithm subclass"),
    (":PSO", r"must read 'package\.module:Class'"),
    (f"{USER}:TwoVariants@NOPE", r"TwoVariants declares no name 'NOPE' in its registry_names "
                                 r"\(declared: SPARSE-RS, DENSE-RS\)"),
])
def test_a_bad_reference_is_a_value_error_naming_the_string(reference, message):
    for function in (canonical_name, make_algorithm, n_objectives, algorithm_info):
        with pytest.raises(ValueError, match=rf"algorithm reference '{reference}'.*{message}"):
            function(reference)


def test_no_reference_for_a_class_a_worker_cannot_import(clean_registry):
    class Local(PSO):
        """Defined inside a function."""

    register(Local, "LOCAL-PSO")
    assert isinstance(make_algorithm("LOCAL-PSO", pop_size=3), Local)  # fine in-process
    with pytest.raises(ValueError, match=r"LOCAL-PSO is defined inside a function .* a worker "
                                         r"process cannot import it"):
        algorithm_reference("LOCAL-PSO")


# ------------------------------------------------------------------ worker processes
def test_a_name_registered_at_run_time_is_made_in_a_fresh_process(clean_registry, user):
    register(user.RandomSearch, "PARENT-ONLY")
    reference = algorithm_reference("PARENT-ONLY")
    got = _fresh_python(
        "import json\n"
        "from pymoo_fs.algorithms import algorithm_names, make_algorithm\n"
        f"a = make_algorithm({reference!r}, pop_size=4, density=0.25)\n"
        "print(json.dumps([type(a).__module__, type(a).__name__, a.pop_size, a.density,\n"
        "                  'PARENT-ONLY' in algorithm_names()]))\n")
    assert got == [USER, "RandomSearch", 4, 0.25, False]


def test_a_variant_and_an_import_time_registration_in_a_fresh_process(clean_registry, user):
    register(user.TwoVariants)
    got = _fresh_python(
        "import json\n"
        "from pymoo_fs.algorithms import algorithm_names, make_algorithm\n"
        f"sparse = make_algorithm({algorithm_reference('SPARSE-RS')!r}, pop_size=2)\n"
        f"cso = make_algorithm({algorithm_reference('CSO(A)')!r}, pop_size=2)\n"
        f"on_import = make_algorithm('{USER}:RegisteredOnImport', pop_size=2)\n"
        "print(json.dumps([sparse.density, cso.fitness, on_import.vmax,\n"
        "                  'ON-IMPORT' in algorithm_names()]))\n")
    assert got == [0.1, "accuracy", 0.3, True]  # importing the module ran its decorator
