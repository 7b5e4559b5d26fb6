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
import shutil
import signal
import time

__all__ = ["InterruptGuard", "TEMPORARIES", "remove_temporaries", "sigint_deferred",
           "stop_descendants", "workers_stopped_on_term"]

#: the signals that end a command at once (the worker processes and temporary files with it)
TERMINATING = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                    if hasattr(signal, name))
#: temporary files and directories being written now (:mod:`pymoo_fs._files` registers them),
#: removed by :func:`remove_temporaries` when a signal ends the process
TEMPORARIES: set = set()


def remove_temporaries():
    """Remove every registered temporary file and directory (best effort, no error)."""
    for path in list(TEMPORARIES):
        try:
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            elif os.path.lexists(path):
                os.unlink(path)
        except OSError:
            pass
        TEMPORARIES.discard(path)


def _descendants(pid):
    """The process ids below ``pid`` (children, their children, ...), deepest last."""
    try:
        import psutil

        return [p.pid for p in psutil.Process(pid).children(recursive=True)]
    except Exception:  # noqa: BLE001 - no psutil, or the process is gone: read /proc
        pass
    parents = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2:].split()
        if len(fields) > 1:
            parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def stop_descendants(grace=2.0):
    """Stop every process this one started (loky's and Dask's workers, their children).

    Each gets SIGTERM; those still alive after ``grace`` seconds get SIGKILL.

    Returns
    -------
    n : int
        How many processes were signalled.
    """
    pids = _descendants(os.getpid())
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    alive = list(pids)
    while alive and time.monotonic() < deadline:
        time.sleep(0.05)
        alive = [pid for pid in alive if _alive(pid)]
    for pid in alive:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)


def _alive(pid):
    """Whether ``pid`` runs (a child that exited is reaped here, so it does not linger)."""
    with contextlib.suppress(ChildProcessError, OSError):
        done, _ = os.waitpid(pid, os.WNOHANG)
        if done == pid:
            return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            stat = fh.read()
        return stat[stat.rfind(b")") + 2:stat.rfind(b")") + 3] != b"Z"
    except OSError:
        return True


@contextlib.contextmanager
def workers_stopped_on_term():
    """While the block runs worker processes: SIGTERM and SIGHUP, where nothing else handles
    them (Python's default: end the process), first stop those workers and remove the
    temporary files, then end the process as the signal would.

    Outside the main thread, or where a handler is installed (the command line's
    :class:`InterruptGuard`), the block simply runs.
    """
    installed = {}

    def handle(signum, frame):
        stop_descendants()
        remove_temporaries()
        signal.signal(signum, signal.SIG_DFL)
        signal.raise_signal(signum)

    try:
        for signum in TERMINATING:
            if signal.getsignal(signum) is signal.SIG_DFL:
                installed[signum] = signal.signal(signum, handle)
    except ValueError:  # not the main thread
        pass
    try:
        yield
    finally:
        for signum, previous in installed.items():
            signal.signal(signum, previous)


class InterruptGuard:
    """Record SIGINT instead of raising it anywhere; raise it at safe points (:meth:`check`).

    A ``KeyboardInterrupt`` raised by Python's own handler can land inside a compiled kernel's
    return (numba then fails with ``SystemError``), inside numba's compiler (which lost it) or
    between two output files. Here the first Ctrl-C only sets a flag and says that the command
    is stopping; a second one, while :attr:`stop_at_once` holds, runs :attr:`cleanups` and
    exits with status 130 at once (an impatient user during a long compilation). SIGTERM and
    SIGHUP stop at once: the worker processes (loky's, Dask's) are stopped, temporary files
    removed, :attr:`cleanups` run and the message said, and the process exits with status
    128 + the signal's number. Outside the main thread nothing is installed and the signals
    keep Python's behaviour.

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
            self._terminating = {signum: signal.signal(signum, self._terminate)
                                 for signum in TERMINATING}
        except ValueError:  # not the main thread of the main interpreter
            pass
        return self

    def __exit__(self, *exc):
        if self._installed:
            previous = self._previous if self._previous is not None else signal.SIG_DFL
            signal.signal(signal.SIGINT, previous)
            for signum, handler in getattr(self, "_terminating", {}).items():
                signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        return False

    def _terminate(self, signum, frame):
        """SIGTERM or SIGHUP: stop at once. The worker processes are stopped (SIGTERM, then
        SIGKILL after 2 s), temporary files removed, :attr:`cleanups` run, and the command
        says what it keeps before it exits with status 128 + the signal's number."""
        name = signal.Signals(signum).name
        say(f"\npymoo-fs {self.command}: {name} received: stopping ...")
        n = stop_descendants()
        remove_temporaries()
        for cleanup in self.cleanups:
            try:
                cleanup()
            except Exception:  # noqa: BLE001 - exiting anyway
                pass
        try:
            message = self.message
        except Exception:  # noqa: BLE001 - exiting anyway
            message = f"pymoo-fs {self.command}: interrupted"
        if n:
            message += f" ({n} worker process{'' if n == 1 else 'es'} stopped)"
        say(message.replace("interrupted", f"stopped by {name}", 1))
        os._exit(128 + signum)

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
    """Hold SIGINT (and SIGTERM, SIGHUP) back while the block runs, then deliver each to its
    previous handler.

    Outside the main thread (where signals cannot be handled) the block simply runs.
    """
    received = {}
    previous = {}
    try:
        for signum in (signal.SIGINT, *TERMINATING):
            previous[signum] = signal.signal(
                signum, lambda number, frame: received.setdefault(number, frame))
    except ValueError:  # not the main thread: signals cannot be handled here anyway
        yield
        return
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler if handler is not None else signal.SIG_DFL)
        for signum, frame in received.items():
            handler = previous[signum]
            if callable(handler):
                handler(signum, frame)
            elif handler != signal.SIG_IGN:
                signal.raise_signal(signum)


def say(line):
    """Write a line to stderr from a signal handler (no buffered stream, so no reentrancy)."""
    try:
        os.write(2, (line + "\n").encode())
    except OSError:
        pass
