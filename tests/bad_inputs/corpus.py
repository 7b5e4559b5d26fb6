"""The machinery of the bad-input corpus: cases, categories and the one check they all pass.

A :class:`Case` is a call with a category and an expected outcome: :class:`Raises` (an error
type and a ``re.search`` pattern that must name the input) or :class:`Accepts` (a documented
result, checked by a function that asserts it). :func:`check_case` runs it and, for errors,
also asserts that the error was raised by pymoo-fs itself (the innermost frame of its
traceback lies in the ``pymoo_fs`` package), so that a foreign library's exception escaping
with its own message counts as a failure of the corpus, even when its type matches.
"""

import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

import pymoo_fs

PACKAGE = Path(pymoo_fs.__file__).resolve().parent

#: the categories of bad input every surface is tried with
CATEGORIES = {
    "wrong type": "an object of a type the parameter does not take (list for str, str for "
                  "array, a class for an instance)",
    "wrong shape": "arrays of the wrong number of dimensions or of mismatched lengths",
    "empty": "zero rows, zero columns, empty strings, empty files, empty lists",
    "nan/inf": "NaN or infinite numbers where finite ones are needed",
    "huge": "finite values too large to compute with (overflowing squares or ranges)",
    "bool for int": "True/False where an int is expected (Python counts them as 0/1)",
    "unknown keyword": "a keyword argument the callee does not take",
    "string for number": "'3' where 3 is expected",
    "out of range": "a number of the right type outside its domain",
    "corrupt file": "truncated, non-UTF-8, wrong-format or malformed files",
    "odd but valid": "strange inputs that have a documented meaning and must work",
}


@dataclass(frozen=True)
class Raises:
    """Expected outcome: ``error`` raised, with a message matching ``match``.

    ``delegated`` names the check of another library that pymoo-fs hands the input to by
    contract (scikit-learn's ``validate_data`` in a scikit-learn estimator, whose messages
    scikit-learn's own estimator checks expect); only then may the error be raised outside
    pymoo_fs.
    """

    error: type
    match: str
    delegated: str | None = None


@dataclass(frozen=True)
class Accepts:
    """Expected outcome: the call returns; ``check(result)`` asserts the documented result.

    ``warns`` is a pattern the message of a warning raised during the call must match, or
    None when the call may warn or not.
    """

    check: Callable[[Any], Any] = lambda result: None
    warns: str | None = None


@dataclass(frozen=True)
class Case:
    """One input tried on one surface."""

    surface: str
    name: str
    category: str
    call: Callable[..., Any]
    expect: Raises | Accepts
    needs: tuple = field(default=())  # fixture names the call takes, in order

    def __post_init__(self):
        assert self.category in CATEGORIES, f"unknown category {self.category!r}"

    @property
    def id(self):
        """str: ``surface/category/name``, the pytest id."""
        return f"{self.surface}/{self.category}/{self.name}"


def ids(cases):
    """Pytest ids of ``cases``."""
    return [c.id for c in cases]


def raised_by_us(excinfo):
    """Whether the innermost frame of a caught exception lies in the pymoo_fs package, or the
    exception is Python's own refusal of a keyword or an argument count (raised at the call)."""
    frames = excinfo.traceback
    innermost = Path(str(frames[-1].path)).resolve()
    if PACKAGE in innermost.parents:
        return True
    message = str(excinfo.value)
    return isinstance(excinfo.value, TypeError) and (
        "unexpected keyword argument" in message or "positional argument" in message)


def check_case(case, *args):
    """Run ``case`` (with fixture values ``args``) and assert its expected outcome."""
    if isinstance(case.expect, Raises):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(case.expect.error, match=case.expect.match) as info:
                case.call(*args)
        assert case.expect.delegated or raised_by_us(info), (
            f"{case.id}: the error comes from outside pymoo_fs "
            f"({info.traceback[-1].path}:{info.traceback[-1].lineno}): {info.value!r}")
        return info.value
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = case.call(*args)
    if case.expect.warns is not None:
        messages = [str(w.message) for w in caught]
        assert any(re.search(case.expect.warns, m) for m in messages), (
            f"{case.id}: no warning matching {case.expect.warns!r} in {messages}")
    case.expect.check(result)
    return result
