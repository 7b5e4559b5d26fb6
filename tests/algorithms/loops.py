"""Ask-and-tell loops and a stand-in random generator shared by the algorithm tests."""

import numpy as np

from pymoo_fs.evaluation import Evaluator


class FixedDraws:
    """A stand-in generator: ``random`` returns given arrays in turn (checking the shape),
    ``permutation`` the given orders in turn."""

    def __init__(self, *arrays, permutations=()):
        self.arrays = [np.asarray(a, dtype=float) for a in arrays]
        self.permutations = [np.asarray(p, dtype=np.int64) for p in permutations]

    def random(self, shape):
        out = self.arrays.pop(0)
        assert out.shape == tuple(np.atleast_1d(shape))
        return out

    def permutation(self, n):
        out = self.permutations.pop(0)
        assert sorted(out.tolist()) == list(range(n))
        return out


def ask_and_tell(problem, algorithm, termination, seed, before_tell=None, after_tell=None):
    """Run ``algorithm`` to its end through ask/tell; return its result with ``.algorithm``.

    ``before_tell(algorithm)`` and ``after_tell(algorithm, pop)`` are called around each tell.
    """
    algorithm.setup(problem, termination=termination, seed=seed)
    while algorithm.has_next():
        pop = algorithm.ask()
        algorithm.evaluator.eval(problem, pop)
        if before_tell is not None:
            before_tell(algorithm)
        algorithm.tell(infills=pop)
        if after_tell is not None:
            after_tell(algorithm, pop)
    res = algorithm.result()
    res.algorithm = algorithm
    return res


def interleave(problem, algorithms, seeds, n_gen):
    """Run several algorithms generation by generation, alternating between them."""
    for alg, seed in zip(algorithms, seeds):
        alg.setup(problem, termination=("n_gen", n_gen), seed=seed)
    while algorithms[0].has_next():
        for alg in algorithms:
            pop = alg.ask()
            alg.evaluator.eval(problem, pop)
            alg.tell(infills=pop)



class TargetEvaluator(Evaluator):
    """A stand-in evaluator: a mask's score is the fraction of its bits that match ``target``.

    It has what a :class:`~pymoo_fs.problems.FeatureSelectionProblem` asks of an evaluator, and
    counts the masks it scores, so fitness and counting can be checked by hand.
    """

    def __init__(self, target):
        self.target = np.asarray(target, dtype=bool)
        self.n_features = self.target.size
        self.n_evaluations = 0

    def score(self, masks):
        masks = np.atleast_2d(masks)
        self.n_evaluations += masks.shape[0]
        return np.mean(masks == self.target, axis=1)

    def score_flips(self, mask, features):
        flipped = np.repeat(np.asarray(mask, dtype=bool)[None, :], len(features), axis=0)
        flipped[np.arange(len(features)), features] ^= True
        return self.score(flipped)


def advance(problem, algorithm, generations, seed, n_gen=100):
    """Set ``algorithm`` up and run ``generations`` ask/evaluate/tell cycles; return it."""
    algorithm.setup(problem, termination=("n_gen", n_gen), seed=seed)
    for _ in range(generations):
        pop = algorithm.ask()
        algorithm.evaluator.eval(problem, pop)
        algorithm.tell(infills=pop)
    return algorithm


def replay(algorithm):
    """A generator in the state of ``algorithm.random_state`` now: it replays the next draws."""
    rs = np.random.default_rng()
    rs.bit_generator.state = algorithm.random_state.bit_generator.state
    return rs


def assert_reproducible(problem, make, termination, seeds=(1, 2)):
    """Two runs with ``seeds[0]`` end in the same swarm, one with ``seeds[1]`` does not."""
    from pymoo.optimize import minimize

    a, b, c = (minimize(problem, make(), termination, seed=s) for s in seeds[:1] + seeds)
    np.testing.assert_array_equal(a.algorithm.X_, b.algorithm.X_)
    np.testing.assert_array_equal(a.X, b.X)
    assert not np.array_equal(a.algorithm.X_, c.algorithm.X_)
    return a
