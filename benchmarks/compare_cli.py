"""Wall-clock time of ``pymoo-fs compare`` with its defaults, now and at an earlier revision.

Usage::

    python benchmarks/compare_cli.py                      # time the working tree
    python benchmarks/compare_cli.py --before REV         # also time revision REV
    python benchmarks/compare_cli.py --before REV --write # append to benchmarks/RESULTS.md

Each command runs once untimed (so compiled kernels are cached, as for any user after the
first run) and then ``--repeats`` times timed; the median is reported. An earlier revision is
checked out into a temporary git worktree and run from there (``python -m pymoo_fs`` imports
the package from the current directory). Both runs' ``fronts.csv`` are compared: with exact
evaluators they must be identical.
"""

import argparse
import datetime
import filecmp
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _results import write_section

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pymoo_fs.comparison import DEFAULT_ALGORITHMS  # noqa: E402

MARKER = "## `pymoo-fs compare`"


def time_compare(cwd, out, repeats):
    """Median seconds of the command; each repetition writes into a fresh directory (a
    comparison resumes from the runs its directory holds), the last one into ``out``."""
    def cmd(directory):
        return [sys.executable, "-m", "pymoo_fs", "compare", "--out", str(directory)]

    subprocess.run(cmd(out.with_name(out.name + "-warm")), cwd=cwd, check=True,
                   capture_output=True)
    times = []
    for i in range(repeats):
        directory = out if i == repeats - 1 else out.with_name(f"{out.name}-{i}")
        start = time.perf_counter()
        subprocess.run(cmd(directory), cwd=cwd, check=True, capture_output=True)
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2]


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", help="git revision to compare with")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        now = time_compare(ROOT, tmp / "now", args.repeats)
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT,
                              capture_output=True, text=True).stdout.strip()
        lines = [f"- working tree (HEAD {head}): {now:.1f} s"]
        if args.before:
            tree = tmp / "before-tree"
            subprocess.run(["git", "worktree", "add", "--detach", str(tree), args.before],
                           cwd=ROOT, check=True, capture_output=True)
            try:
                before = time_compare(tree, tmp / "before", args.repeats)
            finally:
                subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT,
                               capture_output=True)
            same = filecmp.cmp(tmp / "now" / "fronts.csv", tmp / "before" / "fronts.csv",
                               shallow=False)
            lines.insert(0, f"- revision {args.before}: {before:.1f} s")
            lines.append(f"- speed-up: {before / now:.1f}x; fronts.csv identical: "
                         f"{'yes' if same else 'NO'}")
    text = "\n".join([
        "", MARKER, "",
        f"`python benchmarks/compare_cli.py --before {args.before}` on "
        f"{datetime.date.today().isoformat()}: wall-clock seconds of `pymoo-fs compare` with "
        f"its defaults (musk1, {' + '.join(DEFAULT_ALGORITHMS)}, 3 runs x 100 generations x 30, "
        f"10-fold KNN-5), median of {args.repeats} after one untimed run.",
        "", *lines, ""])
    print(text)
    if args.write:
        write_section(MARKER, text)


if __name__ == "__main__":
    main()
