"""Independent seeds for repeated runs, derived with :class:`numpy.random.SeedSequence`.

``seed + run`` makes run ``r`` of seed ``s`` identical to run ``r - 1`` of seed ``s + 1``; a
seed derived from ``SeedSequence(s, spawn_key=(r,))`` shares no stream with any other
(seed, run) pair, and depends only on the pair, never on the order in which runs are made.
"""

import zlib

import numpy as np

from pymoo_fs._validation import check_seed

__all__ = ["run_seed"]


def run_seed(seed: int, *key: object) -> int:
    """The seed of one run, derived from a base seed and the run's identity.

    Parameters
    ----------
    seed : int
        Base seed (of a comparison or a study), in ``[0, 2**32 - 1]``.
    *key : int or str
        The run's identity, e.g. its index, or (dataset, algorithm, index). Strings are mapped
        to integers by CRC-32 of their UTF-8 bytes, so the derivation is stable across Python
        processes (unlike ``hash``).

    Returns
    -------
    seed : int
        A seed in ``[0, 2**32 - 1]`` for ``pymoo.optimize.minimize(..., seed=...)``: the first
        32-bit word of ``SeedSequence(seed, spawn_key=key).generate_state(1)``.

    Raises
    ------
    ValueError
        If ``seed`` is not an int in range, or a key part is a negative int or neither int
        nor str.

    Examples
    --------
    >>> from pymoo_fs.seeds import run_seed
    >>> run_seed(0, 1) == run_seed(0, 1)
    True
    >>> run_seed(0, 1) != run_seed(1, 0)
    True
    """
    seed = check_seed("seed", seed)
    parts = []
    for part in key:
        if isinstance(part, str):
            parts.append(zlib.crc32(part.encode("utf-8")))
        else:
            try:
                parts.append(check_seed("run key", part))
            except ValueError:
                raise ValueError(
                    f"run key parts must be non-negative ints or str, got {part!r}"
                ) from None
    state = np.random.SeedSequence(seed, spawn_key=tuple(parts)).generate_state(1)
    return int(state[0])
