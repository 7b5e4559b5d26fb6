"""Ctrl-C, handled in one place: recorded, raised at safe points, held back while files move.

:class:`InterruptGuard` is what the command line installs for the whole of a command; the
library calls its :meth:`~InterruptGuard.check` at safe points (before each run, after each
generation, between output files) through the ``check`` arguments of
:func:`pymoo_fs.studies.run_study` and :func:`pymoo_fs.studies.report.write_report`.
:func:`sigint_deferred` holds SIGINT back while a set of finished files is moved into place
(:func:`pymoo_fs._files.commit_files`), so a directory holds the old set or the new one.
Nothing here imports from the rest of :mod:`pymoo_fs`.
"""

import contextlib
import os
import signal

__all__ = ["InterruptGuard", "sigint_deferred"]


class InterruptGuard:
    """Record SIGINT instead of raising it anywhere; raise it at safe points (:meth:`check`).

    A ``KeyboardInterrupt`` raised by Python's own handler can land inside a compiled kernel's
    return (numba then fails with ``SystemError``), inside numba's compiler (which lost it) or
    between two output files. Here the first Ctrl-C only sets a flag and says that the command
    is stopping; a second one, while :attr:`stop_at_once` holds, runs :attr:`cleanups` and
    exits with status 130 at once (an impatient user during a long compilation). Outside the
    main thread nothing is installed and Ctrl-C keeps Python's behaviour.

    Parameters
    ----------
    command : str
        The command's name, used in the messages (``"pymoo-fs COMMAND: ..."``).
    message : str, optional
        What the command says when it stops; may hold ``{done}``, filled by :attr:`done`.

    Attributes
    ----------
    stop_at_once : bool
        Whether a second Ctrl-C exits at once (True while nothing is being written).
    cleanups : list of callable
        Called before such an exit.
    done : callable or None
        Returns what fills ``{done}`` in the message (e.g. the number of stored runs).
    """

    def __init__(self, command, message=None):
        self.command = command
        self.count = 0
        self.stop_at_once = True
        self.cleanups = []
        self.done = None
        self._message = message or f"pymoo-fs {command}: interrupted"
        self._installed = False
        self._previous = None

    @property
    def message(self):
        """str: what the command says when it stops on Ctrl-C."""
        if self.done is not None and "{done}" in self._message:
            return self._message.format(done=self.done())
        return self._message

    @message.setter
    def message(self, text):
        self._message = text

    @property
    def interrupted(self):
        """bool: whether Ctrl-C was pressed since the guard was installed."""
        return self.count > 0

    def __enter__(self):
        try:
            self._previous = signal.signal(signal.SIGINT, self._handle)
            self._installed = True
        except ValueError:  # not the main thread of the main interpreter
            pass
        return self

    def __exit__(self, *exc):
        if self._installed:
            previous = self._previous if self._previous is not None else signal.SIG_DFL
            signal.signal(signal.SIGINT, previous)
        return False

    def _handle(self, signum, frame):
        self.count += 1
        if self.count == 1:
            say(f"\npymoo-fs {self.command}: stopping at the next safe point "
                "(press Ctrl-C again to stop at once) ...")
        elif self.stop_at_once:
            for cleanup in self.cleanups:
                try:
                    cleanup()
                except Exception:  # noqa: BLE001 - exiting anyway
                    pass
            try:
                message = self.message
            except Exception:  # noqa: BLE001 - exiting anyway
                message = f"pymoo-fs {self.command}: interrupted"
            say(message)
            os._exit(130)

    def check(self):
        """Raise ``KeyboardInterrupt`` if Ctrl-C was pressed."""
        if self.count:
            raise KeyboardInterrupt


@contextlib.contextmanager
def sigint_deferred():
    """Hold SIGINT back while the block runs, then deliver it to the previous handler.

    Outside the main thread (where signals cannot be handled) the block simply runs.
    """
    received = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: received.append(frame))
    except ValueError:  # not the main thread: signals cannot be handled here anyway
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous if previous is not None else signal.SIG_DFL)
        if received:
            if callable(previous):
                previous(signal.SIGINT, received[-1])
            elif previous != signal.SIG_IGN:
                signal.raise_signal(signal.SIGINT)


def say(line):
    """Write a line to stderr from a signal handler (no buffered stream, so no reentrancy)."""
    try:
        os.write(2, (line + "\n").encode())
    except OSError:
        pass
