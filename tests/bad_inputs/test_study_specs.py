"""Bad study specifications (TOML files and text): every one refused with its file, line and key."""

import pytest

from pymoo_fs.studies import StudySpecError, load_study

from .corpus import Accepts, Case, Raises, check_case, ids

BASE = """datasets = ["sonar"]
protocol = "S000"
[budget]
n_gen = 2
[[algorithms]]
name = "pso"
"""


def _text(text):
    return lambda: load_study(text)


def _edit(old, new):
    assert old in BASE
    return _text(BASE.replace(old, new))


def _key(key, message):
    """A refusal naming the key (with the line where the key has one)."""
    return Raises(StudySpecError, rf"<study>(, line \d+)?: key '{key}': {message}")


CASES = [
    Case("load_study", "runs as a string", "string for number", _text('runs = "3"\n' + BASE),
         _key("runs", "runs must be an int, got '3'")),
    Case("load_study", "runs true", "bool for int", _text("runs = true\n" + BASE),
         _key("runs", "runs must be an int, got True")),
    Case("load_study", "runs 0", "out of range", _text("runs = 0\n" + BASE),
         _key("runs", "runs must be a positive int, got 0")),
    Case("load_study", "seed 1.5", "wrong type", _text("seed = 1.5\n" + BASE),
         _key("seed", "seed must be an int, got 1.5")),
    Case("load_study", "seed above 2**32", "huge", _text("seed = 99999999999999\n" + BASE),
         _key("seed", r"seed must be an int in \[0, 2\*\*32 - 1\]")),
    Case("load_study", "no datasets", "empty", _edit('["sonar"]', "[]"),
         _key("datasets", "datasets must name at least one dataset")),
    Case("load_study", "datasets as a string", "wrong type", _edit('["sonar"]', '"sonar"'),
         _key("datasets", "datasets must be a list of names or paths, got 'sonar'")),
    Case("load_study", "repeated dataset", "wrong shape", _edit('["sonar"]', '["sonar", "sonar"]'),
         _key("datasets", "datasets must not repeat a dataset")),
    Case("load_study", "unknown dataset", "out of range", _edit('["sonar"]', '["no-such-data"]'),
         Raises(StudySpecError, r"<study>: dataset 'no-such-data': unknown dataset name")),
    Case("load_study", "empty dataset table", "empty", _edit('["sonar"]', "[{}]"),
         _key("datasets", "a dataset table needs a name or path string")),
    Case("load_study", "unknown dataset key", "unknown keyword",
         _edit('["sonar"]', '[{name = "sonar", label = "class"}]'),
         _key("datasets.1.label", r"unknown key 'label' in a dataset")),
    Case("load_study", "int target", "wrong type",
         _edit('["sonar"]', '[{name = "sonar", target = 3}]'),
         _key("datasets.1.target", "target must be the name of the class column, got 3")),
    Case("load_study", "unknown target column", "out of range",
         _edit('["sonar"]', '[{name = "sonar", target = "nope"}]'),
         Raises(StudySpecError, r"dataset 'sonar': target column 'nope' not found")),
    Case("load_study", "n_gen 0", "out of range", _edit("n_gen = 2", "n_gen = 0"),
         _key("budget.n_gen", "budget n_gen must be an int >= 2, got 0")),
    Case("load_study", "n_gen as a string", "string for number", _edit("n_gen = 2", 'n_gen = "2"'),
         _key("budget.n_gen", "budget n_gen must be an int >= 2, got '2'")),
    Case("load_study", "n_gen true", "bool for int", _edit("n_gen = 2", "n_gen = true"),
         _key("budget.n_gen", "budget n_gen must be an int >= 2, got True")),
    Case("load_study", "n_gen inf", "nan/inf", _edit("n_gen = 2", "n_gen = inf"),
         _key("budget.n_gen", "budget n_gen must be an int >= 2, got inf")),
    Case("load_study", "time nan", "nan/inf", _edit("n_gen = 2", "time = nan"),
         _key("budget.time", "budget time must be 'HH:MM:SS' or a positive number")),
    Case("load_study", "empty budget", "empty", _edit("n_gen = 2", ""),
         _key("budget", "budget must give exactly one of n_gen, n_eval, time; got none")),
    Case("load_study", "misspelt budget key", "unknown keyword", _edit("n_gen = 2", "n_gens = 2"),
         _key("budget.n_gens", r"unknown key 'n_gens' in a budget")),
    Case("load_study", "unknown preset", "out of range", _edit('"S000"', '"S999"'),
         _key("protocol", "protocol must be one of S000")),
    Case("load_study", "inner_cv 1", "out of range",
         _edit('protocol = "S000"', 'protocol = {preset = "S000", inner_cv = 1}'),
         _key("protocol.inner_cv", "inner_cv must be an int >= 2 or 'loo', got 1")),
    Case("load_study", "n_neighbors true", "bool for int",
         _edit('protocol = "S000"', 'protocol = {preset = "S000", n_neighbors = true}'),
         _key("protocol.n_neighbors", "n_neighbors must be a positive int, got True")),
    Case("load_study", "test_size 1.5", "out of range",
         _edit('protocol = "S000"', 'protocol = {preset = "S000", test_size = 1.5}'),
         _key("protocol.test_size", "test_size must be a float strictly between 0 and 1")),
    Case("load_study", "unknown protocol key", "unknown keyword",
         _edit('protocol = "S000"', 'protocol = {preset = "S000", folds = 3}'),
         _key("protocol.folds", "unknown key 'folds' in the protocol")),
    Case("load_study", "unknown algorithm", "out of range", _edit('"pso"', '"pso2000"'),
         _key("algorithms.1.name", "unknown algorithm 'pso2000'")),
    Case("load_study", "algorithm name 3", "wrong type", _edit('"pso"', "3"),
         _key("algorithms.1.name", "unknown algorithm 3")),
    Case("load_study", "pop_size 0", "out of range", _text(BASE + "pop_size = 0\n"),
         _key("algorithms.1.pop_size", "pop_size must be a positive int, got 0")),
    Case("load_study", "pop_size as a string", "string for number",
         _text(BASE + 'pop_size = "10"\n'),
         _key("algorithms.1.pop_size", "pop_size must be a positive int, got '10'")),
    Case("load_study", "pop_size true", "bool for int", _text(BASE + "pop_size = true\n"),
         _key("algorithms.1.pop_size", "pop_size must be a positive int, got True")),
    Case("load_study", "misspelt parameter", "unknown keyword", _text(BASE + "popsize = 10\n"),
         _key("algorithms.1.popsize", r"PSO\(\) got an unexpected keyword argument "
              "'popsize'; accepted: .*pop_size")),
    Case("load_study", "w nan", "nan/inf", _text(BASE + "w = nan\n"),
         _key("algorithms.1.w", "w must be a number or a")),
    Case("load_study", "w inf", "nan/inf", _text(BASE + "w = inf\n"),
         _key("algorithms.1.w", "w must be finite, got inf")),
    Case("load_study", "an algorithm twice", "wrong shape",
         _text(BASE + '[[algorithms]]\nname = "pso"\n'),
         Raises(StudySpecError, "algorithm label 'PSO' appears twice; give a label=")),
    Case("load_study", "algorithms as one table", "wrong type",
         _edit('[[algorithms]]\nname = "pso"\n', '[algorithms]\nname = "pso"\n'),
         _key("algorithms", r"algorithms is missing: give one \[\[algorithms\]\] table")),
    Case("load_study", "unknown top-level key", "unknown keyword", _text("foo = 1\n" + BASE),
         _key("foo", "unknown key 'foo' in the study")),
    Case("load_study", "data_dir 3", "wrong type", _text("data_dir = 3\n" + BASE),
         _key("data_dir", r"data_dir must be a directory path \(a str\), got 3")),
    Case("load_study", "missing data_dir", "out of range",
         _text('data_dir = "/no/such/directory"\n' + BASE),
         Raises(StudySpecError, "<study>: data_dir '/no/such/directory' is not a directory")),
    Case("load_study", "reference 3", "wrong type", _text("reference = 3\n" + BASE),
         _key("reference", "reference 3 is not an algorithm label of the study")),
    Case("load_study", "name with a slash", "wrong type", _text('name = "../x"\n' + BASE),
         _key("name", "name must be letters, digits and _.- only, got '../x'")),
    Case("load_study", "TOML syntax error", "corrupt file", _text(BASE + "[[[\n"),
         Raises(StudySpecError, r"<study>: .*\(at line 7, column 3\)")),
    Case("load_study", "a bi-objective algorithm on S000", "out of range",
         _edit('"pso"', '"nsga2"'),
         _key("protocol", "algorithm 'NSGA-II' does not suit the protocol's single-objective")),
    Case("load_study", "an int", "wrong type", lambda: load_study(3),
         Raises(StudySpecError, "a study is a path to a .toml file or TOML text, got int")),
]


def _file(name, content):
    def call(tmp_path):
        path = tmp_path / name
        path.write_bytes(content)
        return load_study(path)
    return call


def _directory(tmp_path):
    return load_study(tmp_path)


def _target_table(tmp_path):
    path = tmp_path / "label-first.csv"
    path.write_text("label,a,b\n" + "".join(f"{'xy'[i % 2]},{i},{i * i % 7}\n"
                                             for i in range(12)))
    text = BASE.replace('["sonar"]', f'[{{path = "{path}", target = "label"}}]')
    return load_study(text)


def _check_target(spec):
    (dataset,) = spec.datasets
    assert spec.targets == {dataset: "label"}
    assert spec.as_dict()["targets"] == {dataset: "label"}
    data = spec.load_dataset(dataset)
    assert data.feature_names == ["a", "b"] and data.classes.tolist() == ["x", "y"]


CASES += [
    Case("load_study", "a directory", "wrong type", _directory,
         Raises(StudySpecError, r"study file .* is a directory: give the path of the study's "
                                r"\.toml file"), needs=("tmp_path",)),
    Case("load_study", "latin-1 file", "corrupt file",
         _file("s.toml", ('name = "caf\xe9"\n' + BASE).encode("latin-1")),
         Raises(StudySpecError, r"s\.toml: not UTF-8 text \(byte 11"), needs=("tmp_path",)),
    Case("load_study", "empty file", "empty", _file("e.toml", b""),
         Raises(StudySpecError, r"e\.toml: key 'datasets': datasets is missing"),
         needs=("tmp_path",)),
    Case("load_study", "missing file", "out of range",
         lambda tmp_path: load_study(tmp_path / "missing.toml"),
         Raises(StudySpecError, r"study file not found: .*missing\.toml"), needs=("tmp_path",)),
    Case("load_study", "a class column that is not last", "odd but valid", _target_table,
         Accepts(_check_target), needs=("tmp_path",)),
]


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_study_spec_input(case, request):
    check_case(case, *[request.getfixturevalue(name) for name in case.needs])


def test_a_spec_without_targets_stores_no_targets_key():
    # study.json of every study made before targets existed stays byte-identical
    assert "targets" not in load_study(BASE).as_dict()
