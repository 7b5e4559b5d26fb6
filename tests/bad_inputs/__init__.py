"""The bad-input corpus: every public surface tried with wrong, strange and corrupt inputs.

Each module lists the cases of one surface as :class:`~tests.bad_inputs.corpus.Case` objects
(inputs built in the test, each with its category) and runs them through
:func:`~tests.bad_inputs.corpus.check_case`: every case ends in a documented result or in an
error of ours whose message names the input, never in a foreign library's traceback. A new
surface gets a module here, tried with the same categories.
"""
