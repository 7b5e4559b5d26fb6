"""Cheap parameter checks for algorithm constructors (ValueError naming the parameter)."""

import math
import numbers


def check_positive_int(name, value):
    """Return ``value`` as int if it is an integer >= 1, else raise ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)


def check_coefficient(name, value, positive=False, allow_range=True):
    """Return a float, or a ``(low, high)`` tuple of floats with ``low <= high``.

    Raises ValueError naming ``name`` for anything else (NaN included), for negative values,
    for zero when ``positive``, and for a pair when not ``allow_range``.
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

    Raises ValueError naming ``name`` otherwise (non-numbers and NaN included).
    """
    interval = "(0, 1]" if low_open else "[0, 1]"
    if not _is_real(value) or not 0.0 <= value <= 1.0 or (low_open and value == 0):
        raise ValueError(f"{name} must be in {interval}, got {value!r}")
    return float(value)


def check_choice(name, value, choices):
    """Return ``value`` if it is one of ``choices``, else raise ValueError listing them."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def _is_real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and not math.isnan(v)


def _check_sign(name, v, positive):
    if v < 0 or (positive and v == 0):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"{name} must be {kind}, got {v!r}")
