"""Ask-and-tell loops shared by the algorithm tests."""


def ask_and_tell(problem, algorithm, termination, seed, before_tell=None):
    """Run ``algorithm`` to its end through ask/tell; return its result with ``.algorithm``."""
    algorithm.setup(problem, termination=termination, seed=seed)
    while algorithm.has_next():
        pop = algorithm.ask()
        algorithm.evaluator.eval(problem, pop)
        if before_tell is not None:
            before_tell(algorithm)
        algorithm.tell(infills=pop)
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
