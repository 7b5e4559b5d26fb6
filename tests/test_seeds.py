"""Run seeds: independent per (seed, run), stable, validated."""

import numpy as np
import pytest

from pymoo_fs.seeds import run_seed


def test_run_r_of_seed_s_differs_from_run_r_minus_1_of_seed_s_plus_1():
    for s in range(5):
        for r in range(1, 6):
            assert run_seed(s, r) != run_seed(s + 1, r - 1)


def test_seeds_are_stable_and_distinct():
    seeds = [run_seed(0, r) for r in range(200)]
    assert len(set(seeds)) == 200
    assert seeds == [run_seed(0, r) for r in range(200)]
    assert all(0 <= s < 2**32 for s in seeds)
    # the value is SeedSequence's, so it is the same in every process and numpy version
    assert run_seed(0, 1) == int(np.random.SeedSequence(0, spawn_key=(1,)).generate_state(1)[0])


def test_string_keys_name_runs():
    a = run_seed(3, "musk1", "ISRPSO", 0)
    assert a == run_seed(3, "musk1", "ISRPSO", 0)
    assert a != run_seed(3, "musk1", "MOPSO", 0) != run_seed(3, "sonar", "ISRPSO", 0)


@pytest.mark.parametrize("seed, key, match", [
    (-1, (0,), "seed must be an int in"),
    (2**32, (0,), "seed must be an int in"),
    (1.5, (0,), "seed must be an int in"),
    (0, (-2,), "run key parts"),
    (0, (1.0,), "run key parts"),
])
def test_bad_seeds_are_refused(seed, key, match):
    with pytest.raises(ValueError, match=match):
        run_seed(seed, *key)
