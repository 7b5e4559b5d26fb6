"""Weka's stratified cross-validation folds, step for step.

scikit-learn's :class:`~sklearn.model_selection.StratifiedKFold` refuses ``n_splits`` larger
than every class (``9_tumors``: 60 samples in 9 classes, the largest of 9, cannot make 10
folds), while the papers' authors ran 10 folds on such data with Weka. Weka's
``Evaluation.crossValidateModel`` shuffles the instances with ``java.util.Random(seed)``
(``Instances.randomize``), groups them class by class (``Instances.stratify``), deals them
out round-robin (``stratStep``) and cuts the result into contiguous test blocks
(``Instances.testCV``): every class size works, a class smaller than the number of folds
simply misses some folds. :class:`WekaStratifiedKFold` reproduces that sequence, including
Java's linear congruential generator, so an int seed gives the folds Weka gives.

References
----------
Weka 3.8 sources, ``weka/core/Instances.java`` (``randomize``, ``stratify``, ``stratStep``,
``testCV``, ``trainCV``) and ``weka/classifiers/Evaluation.java`` (``crossValidateModel``);
``java.util.Random`` (``nextInt(int)``), Java SE API documentation.
"""

import numbers

from collections.abc import Iterator, Sized

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["JavaRandom", "WekaStratifiedKFold"]

_MASK48 = (1 << 48) - 1
_MULTIPLIER = 0x5DEECE66D


class JavaRandom:
    """``java.util.Random``: the 48-bit linear congruential generator, as Weka draws from it.

    Parameters
    ----------
    seed : int
        The seed (Java's ``long``; an int of any size, taken modulo 2**48 as Java does).

    Raises
    ------
    ValueError
        If ``seed`` is not an int (a float, a bool or a string).

    Examples
    --------
    >>> from pymoo_fs.datasets.folds import JavaRandom
    >>> r = JavaRandom(42)
    >>> [r.next_int(10) for _ in range(5)]
    [0, 3, 8, 4, 0]
    """

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, numbers.Integral) or isinstance(seed, (bool, np.bool_)):
            raise ValueError(f"seed must be an int (a Java long), got {seed!r}")
        self._seed = (int(seed) ^ _MULTIPLIER) & _MASK48

    def _next(self, bits):
        """``next(bits)`` for ``bits <= 31`` (a non-negative int)."""
        self._seed = (self._seed * _MULTIPLIER + 0xB) & _MASK48
        return self._seed >> (48 - bits)

    def next_int(self, bound: int) -> int:
        """``nextInt(bound)``: uniform in ``[0, bound)``, Java's rejection rule included.

        Raises
        ------
        ValueError
            If ``bound`` is not a positive int.
        """
        if not isinstance(bound, numbers.Integral) or bound <= 0:
            raise ValueError(f"bound must be a positive int, got {bound!r}")
        if bound & -bound == bound:  # a power of two
            return (bound * self._next(31)) >> 31
        while True:
            bits = self._next(31)
            value = bits % bound
            if bits - value + (bound - 1) < 1 << 31:  # Java: no int overflow
                return value


class WekaStratifiedKFold:
    """Stratified k-fold cross-validation as Weka makes it (a scikit-learn splitter).

    Parameters
    ----------
    n_splits : int, default=10
        Number of folds, at least 2 and at most the number of samples.
    random_state : int, default=1
        Seed of ``java.util.Random`` for the shuffle (Weka's ``-s``, default 1). None skips
        the shuffle (the samples keep their order before stratification).

    Raises
    ------
    ValueError
        If ``n_splits`` is not an int >= 2 or ``random_state`` not an int or None; from
        :meth:`split`, if there are fewer samples than folds.

    Notes
    -----
    For ``y`` of ``n`` samples: (1) Weka's ``randomize``: for ``j = n - 1`` down to 1, swap
    ``j`` with ``nextInt(j + 1)``; (2) ``stratify``: starting at the second instance, every
    later instance of the same class as the one before the current position is swapped into
    that position, so the classes form contiguous groups in order of appearance; (3)
    ``stratStep``: instances ``0, k, 2k, ...``, then ``1, k + 1, ...``, ...; (4) fold ``f``
    tests the contiguous block ``testCV(k, f)``: ``n // k`` instances, one more for the first
    ``n % k`` folds, and trains on the rest. Every class size is accepted.

    Examples
    --------
    >>> import numpy as np
    >>> from pymoo_fs.datasets import WekaStratifiedKFold
    >>> y = np.repeat([0, 1, 2], [9, 5, 2])     # every class smaller than 10 folds
    >>> folds = list(WekaStratifiedKFold(10, random_state=1).split(np.zeros((16, 1)), y))
    >>> [len(test) for _, test in folds]
    [2, 2, 2, 2, 2, 2, 1, 1, 1, 1]
    >>> sorted(np.concatenate([test for _, test in folds]).tolist()) == list(range(16))
    True
    """

    def __init__(self, n_splits: int = 10, random_state: int | None = 1) -> None:
        if (not isinstance(n_splits, numbers.Integral) or isinstance(n_splits, bool)
                or n_splits < 2):
            raise ValueError(f"n_splits must be an int >= 2, got {n_splits!r}")
        if random_state is not None and (not isinstance(random_state, numbers.Integral)
                                         or isinstance(random_state, bool)):
            raise ValueError(f"random_state must be an int or None, got {random_state!r}")
        self.n_splits: int = int(n_splits)
        self.random_state: int | None = random_state

    def get_n_splits(self, X: object = None, y: object = None, groups: object = None) -> int:
        """int: the number of folds."""
        return self.n_splits

    def order(self, y: ArrayLike) -> np.ndarray:
        """The instance order after Weka's randomize, stratify and stratStep.

        Parameters
        ----------
        y : array-like, shape (n,)
            Class labels.

        Returns
        -------
        order : ndarray of int64, shape (n,)
            Original indices in Weka's order; fold ``f`` tests a contiguous block of it.
        """
        y = np.asarray(y).reshape(-1)
        order = list(range(y.size))
        if self.random_state is not None:
            rand = JavaRandom(self.random_state)
            for j in range(y.size - 1, 0, -1):
                i = rand.next_int(j + 1)
                order[j], order[i] = order[i], order[j]
        index = 1
        while index < len(order):
            first = y[order[index - 1]]
            for j in range(index, len(order)):
                if y[order[j]] == first:
                    order[index], order[j] = order[j], order[index]
                    index += 1
            index += 1
        k = self.n_splits
        dealt = [order[j] for start in range(k) for j in range(start, len(order), k)]
        return np.asarray(dealt, dtype=np.int64)

    def split(self, X: Sized, y: ArrayLike,
              groups: object = None) -> Iterator[tuple[np.ndarray, np.ndarray]]:
        """Yield ``(train, test)`` index arrays, sorted, one pair per fold.

        Parameters
        ----------
        X : array-like, shape (n, ...)
            Only its length is used.
        y : array-like, shape (n,)
            Class labels.
        groups : ignored

        Raises
        ------
        ValueError
            If ``y`` does not have one label per sample, or there are fewer samples than
            folds.
        """
        n = len(X)
        y = np.asarray(y).reshape(-1)
        if y.size != n:
            raise ValueError(f"y must hold one label per sample ({n}), got {y.size}")
        if n < self.n_splits:
            raise ValueError(f"n_splits={self.n_splits} folds need at least {self.n_splits} "
                             f"samples, got {n}")
        order = self.order(y)
        size, extra = divmod(n, self.n_splits)
        for f in range(self.n_splits):
            count = size + (f < extra)
            offset = f * count if f < extra else f * count + extra
            test = np.sort(order[offset:offset + count])
            train = np.sort(np.concatenate([order[:offset], order[offset + count:]]))
            yield train, test

    def __repr__(self):
        return f"WekaStratifiedKFold(n_splits={self.n_splits}, random_state={self.random_state})"
