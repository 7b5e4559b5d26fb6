"""Cheap argument checks shared by the whole package.

Every check returns the value in its canonical type, or raises ``ValueError`` (``TypeError``
for keyword arguments that do not exist) whose message names the parameter and shows the value.
Nothing here imports from the rest of :mod:`pymoo_fs`, so every layer may use it.
"""

import math
import numbers

import numpy as np

__all__ = [
    "check_choice",
    "check_coefficient",
    "check_int",
    "check_keywords",
    "check_positive_int",
    "check_real",
    "check_seed",
    "check_unit_interval",
]


def check_int(name, value, low=None, high=None):
    """Return ``value`` as int if it is an integer (not a bool) in ``[low, high]``.

    Parameters
    ----------
    name : str
        Parameter name, used in the message.
    value : object
        The value to check; numpy integers are accepted.
    low, high : int, optional
        Inclusive bounds; None leaves that side open.

    Returns
    -------
    value : int

    Raises
    ------
    ValueError
        If ``value`` is not an integer or lies outside the bounds.
    """
    ok = isinstance(value, numbers.Integral) and not isinstance(value, (bool, np.bool_))
    if ok and (low is None or value >= low) and (high is None or value <= high):
        return int(value)
    if low is not None and high is not None:
        what = f"an int in [{low}, {high}]"
    elif low is not None:
        what = "a positive int" if low == 1 else f"an int >= {low}"
    elif high is not None:
        what = f"an int <= {high}"
    else:
        what = "an int"
    raise ValueError(f"{name} must be {what}, got {value!r}")


def check_positive_int(name, value):
    """Return ``value`` as int if it is an integer >= 1, else raise ValueError naming ``name``."""
    return check_int(name, value, low=1)


def check_seed(name, value):
    """Return a seed as int: an integer in ``[0, 2**32 - 1]`` (numpy's seed range).

    Raises
    ------
    ValueError
        Naming ``name``, for anything else (negative, too large, float, bool, str).
    """
    try:
        return check_int(name, value, low=0, high=2**32 - 1)
    except ValueError:
        raise ValueError(f"{name} must be an int in [0, 2**32 - 1], got {value!r}") from None


def check_real(name, value, low=-math.inf, high=math.inf, low_open=False, high_open=False):
    """Return ``value`` as float if it is a finite-or-bounded real number in the interval.

    Parameters
    ----------
    name : str
        Parameter name, used in the message.
    value : object
        A real number (int, float, numpy scalar); bools, strings and NaN are refused.
    low, high : float, default=(-inf, inf)
        Bounds of the interval.
    low_open, high_open : bool, default=False
        Whether the bound itself is excluded.

    Returns
    -------
    value : float

    Raises
    ------
    ValueError
        If ``value`` is not a real number or lies outside the interval.
    """
    if _is_real(value):
        v = float(value)
        above = v > low if low_open else v >= low
        below = v < high if high_open else v <= high
        if above and below:
            return v
    left = "(" if low_open else "["
    right = ")" if high_open else "]"
    raise ValueError(f"{name} must be a number in {left}{low}, {high}{right}, got {value!r}")


def check_coefficient(name, value, positive=False, allow_range=True):
    """Return a float, or a ``(low, high)`` tuple of floats with ``low <= high``.

    Raises ValueError naming ``name`` for anything else (NaN and infinity included), for negative
    values, for zero when ``positive``, and for a pair when not ``allow_range``.
    """
    if not allow_range and not _is_real(value):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if isinstance(value, (tuple, list)):
        if len(value) != 2 or not all(_is_real(v) for v in value) or value[0] > value[1]:
            raise ValueError(f"{name} must be a number or a (low, high) pair, got {value!r}")
        low, high = float(value[0]), float(value[1])
        _check_sign(name, low, positive)
        return (low, high)
    if not _is_real(value):
        raise ValueError(f"{name} must be a number or a (low, high) pair, got {value!r}")
    _check_sign(name, float(value), positive)
    return float(value)


def check_unit_interval(name, value, low_open=False):
    """Return ``value`` as float if it is a number in [0, 1] (``(0, 1]`` when ``low_open``).

    Raises ValueError naming ``name`` otherwise (non-numbers, strings and NaN included).
    """
    interval = "(0, 1]" if low_open else "[0, 1]"
    if not _is_real(value) or not 0.0 <= value <= 1.0 or (low_open and value == 0):
        raise ValueError(f"{name} must be a number in {interval}, got {value!r}")
    return float(value)


def check_choice(name, value, choices):
    """Return ``value`` if it is one of ``choices``, else raise ValueError listing them.

    A bool is refused unless a bool is among the choices (``True in (1, 2, 3)`` holds in
    Python, as ``True == 1``).
    """
    try:
        ok = value in choices
    except TypeError:  # unhashable values in a set/dict of choices
        ok = False
    if ok and isinstance(value, (bool, np.bool_)) and not any(
            isinstance(c, (bool, np.bool_)) for c in choices):
        ok = False  # True == 1: a bool is no choice among numbers
    if not ok:
        raise ValueError(f"{name} must be one of {tuple(choices)}, got {value!r}")
    return value


def check_keywords(owner, kwargs, allowed):
    """Raise ``TypeError`` for a keyword argument that ``owner`` does not know.

    Parameters
    ----------
    owner : str
        What receives the keywords (a class or function name), for the message.
    kwargs : dict
        The keyword arguments received.
    allowed : iterable of str
        The accepted names.

    Raises
    ------
    TypeError
        Naming the first unknown keyword and listing the accepted ones.
    """
    allowed = sorted(set(allowed))
    unknown = [k for k in kwargs if k not in allowed]
    if unknown:
        raise TypeError(
            f"{owner} got an unexpected keyword argument {unknown[0]!r}; "
            f"accepted: {', '.join(allowed)}"
        )


def _is_real(v):
    return (isinstance(v, numbers.Real) and not isinstance(v, (bool, np.bool_))
            and not math.isnan(v))


def _check_sign(name, v, positive):
    if not math.isfinite(v):
        raise ValueError(f"{name} must be finite, got {v!r}")
    if v < 0 or (positive and v == 0):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"{name} must be {kind}, got {v!r}")
