"""Cheap parameter checks for algorithm constructors (ValueError naming the parameter)."""

import numbers


def check_positive_int(name, value):
    """Return ``value`` as int if it is an integer >= 1, else raise ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")
    return int(value)


def check_coefficient(name, value, positive=False):
    """Return a float, or a ``(low, high)`` tuple of floats with ``low <= high``.

    Raises ValueError naming ``name`` for anything else, for negative values, and for zero when
    ``positive``.
    """
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


def check_choice(name, value, choices):
    """Return ``value`` if it is one of ``choices``, else raise ValueError listing them."""
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}, got {value!r}")
    return value


def _is_real(v):
    return isinstance(v, numbers.Real) and not isinstance(v, bool)


def _check_sign(name, v, positive):
    if v < 0 or (positive and v == 0):
        kind = "positive" if positive else "non-negative"
        raise ValueError(f"{name} must be {kind}, got {v!r}")
