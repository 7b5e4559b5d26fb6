"""Writing one section of benchmarks/RESULTS.md, keeping every other section."""

import importlib.util
import platform
import subprocess
import sys
import tempfile
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "RESULTS.md"


def write_section(marker, text, path=RESULTS):
    """Replace the section that starts with ``marker`` (up to the next "## ") by ``text``, or
    append ``text`` when there is none."""
    body = path.read_text() if path.exists() else ""
    rest = ""
    if marker in body:
        start = body.index(marker)
        after = body.find("\n## ", start + len(marker))
        rest = body[after:] if after != -1 else ""
        body = body[:start].rstrip("\n") + "\n"
    path.write_text(body + text + rest)
    print(f"wrote {path}")


def markdown_table(header, rows):
    """A Markdown table: the ``header`` cells, a rule, then one line per row of cells (str)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows])


def cpu_name():
    """The CPU's model name from /proc/cpuinfo, else what :mod:`platform` knows."""
    try:
        with open("/proc/cpuinfo") as fh:
            return next(line.split(":", 1)[1].strip() for line in fh if "model name" in line)
    except (OSError, StopIteration):
        return platform.processor() or platform.machine()


def module_at(rev, path, name):
    """The module ``path`` (relative to the repository) of git revision ``rev``, imported as
    ``name`` beside the current one.

    The source is written to a fixed folder under the temporary directory (per revision), so
    numba's disk cache of its kernels applies from the second use on.
    """
    root = RESULTS.parent.parent
    source = subprocess.run(["git", "-C", str(root), "show", f"{rev}:{path}"],
                            check=True, capture_output=True, text=True).stdout
    folder = Path(tempfile.gettempdir()) / "pymoo_fs_before" / rev
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / Path(path).name
    if not file.exists() or file.read_text() != source:
        file.write_text(source)
    spec = importlib.util.spec_from_file_location(name, file)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
