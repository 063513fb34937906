"""The whole check of the project, stage by stage: ``make test`` (and ``make test-long``).

Every stage runs, whatever another stage did: the test suite runs even when ``ruff`` finds
something, and the static checks run beside the tests (one at a time, on the CPU the tests leave),
each one's output kept and printed when it ends. At the end a summary says which stages passed,
which failed and which did not run (a tool that is missing), with their times and what each
counted; the exit status is 1 if any stage failed or did not run.

pytest runs on several worker processes (``pytest-xdist``) in a random order (``pytest-randomly``):
the seed is printed, and ``make test SEED=N`` replays an order. ``--long`` runs the long checks
instead of the quick ones: the tests marked ``long`` (the full-size crash test, schemathesis at
full size) that ``make test`` leaves out.

No stage has a timeout: a hang is a failure to find, not to hide behind a number that a busy
machine would reach first.

>>> counted("ruff", "All checks passed!\\n")
''
>>> counted("pytest", "... 1554 passed, 2 skipped, 1 warning in 68.86s (0:01:08)")
'1554 passed, 2 skipped'
>>> counted("node", "# tests 120\\n# pass 120\\n# fail 0")
'120 tests'
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
LOGS = ROOT / "test-artifacts" / "stages"

#: xdist workers: more than the cores, because the server and browser tests mostly wait (on a
#: socket, a browser, a subprocess) and a waiting worker leaves its core to another.
WORKERS = max(4, 2 * (os.cpu_count() or 1))


@dataclass
class Stage:
    """One command of the check, with the tool it needs."""

    name: str
    argv: list[str]
    live: bool = False  # its output is shown as it comes (the tests), else when it ends
    status: str = "not run"
    seconds: float = 0.0
    note: str = ""
    output: list[str] = field(default_factory=list)

    def missing(self) -> str | None:
        """Why the stage cannot start (its program is not installed), or ``None``."""
        program = self.argv[0]
        if os.sep in program:
            return None if Path(program).exists() else f"{program} is missing"
        return None if shutil.which(program) else f"{program} is not installed"


def counted(name: str, text: str) -> str:
    """What a stage's output says it checked (tests, files, contracts), in a few words."""
    patterns = {
        "pytest": r"((?:\d+ (?:passed|failed|skipped|errors?|xfailed|xpassed|deselected)(?:, )?)+)",
        "mypy": r"in (\d+ source files?)",
        "format": r"((?:\d+ files? would be reformatted, )?\d+ files? (?:already formatted|would be reformatted))",
        "node": r"# tests (\d+)",
    }
    pattern = patterns.get(name)
    if pattern is None:
        return ""
    found = re.findall(pattern, text)
    if not found:
        return ""
    last = found[-1].rstrip(", ")
    return f"{last} tests" if name == "node" else last


def stages(*, long: bool, seed: int, workers: int) -> list[Stage]:
    """The stages of ``make test`` (or of ``make test-long``), the tests first."""
    marker = "long" if long else "not long"
    pytest = [
        str(BIN / "pytest"),
        "-q",
        f"-n{workers}",
        "--dist=loadfile",
        "-p",
        "randomly",
        f"--randomly-seed={seed}",
        "-m",
        marker,
        "--durations=10",
    ]
    if long:
        return [Stage("pytest-long", pytest, live=True)]
    return [
        Stage("pytest", pytest, live=True),
        Stage("ruff", [str(BIN / "ruff"), "check", "src", "tests", "benchmarks"]),
        Stage("format", [str(BIN / "ruff"), "format", "--check", "src", "tests", "benchmarks"]),
        Stage("mypy", [str(BIN / "mypy")]),
        Stage("tsc", ["npx", "--no-install", "tsc", "--noEmit"]),
        Stage("node", ["node", "--test", "tests/web_js/"]),
    ]


def run(stage: Stage, lock: threading.Lock) -> None:
    """Run one stage to its end, keeping (and, for a live stage, showing) its output."""
    why = stage.missing()
    if why is not None:
        stage.note = why
        return
    started = time.monotonic()
    process = subprocess.Popen(
        stage.argv, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    )
    assert process.stdout is not None
    for line in process.stdout:
        stage.output.append(line)
        if stage.live:
            sys.stdout.write(line)
            sys.stdout.flush()
    code = process.wait()
    stage.seconds = time.monotonic() - started
    stage.status = "passed" if code == 0 else "failed"
    text = "".join(stage.output)
    stage.note = counted(stage.name.removesuffix("-long"), text)
    LOGS.mkdir(parents=True, exist_ok=True)
    (LOGS / f"{stage.name}.log").write_text(text, encoding="utf-8")
    if not stage.live:
        with lock:
            if stage.status == "failed":
                sys.stdout.write(f"\n---- {stage.name} failed: {' '.join(stage.argv)}\n{text}----\n")
            else:
                sys.stdout.write(f"\n[{stage.name} passed in {stage.seconds:.1f} s]\n")
            sys.stdout.flush()


def run_all(all_stages: Sequence[Stage]) -> None:
    """The live stage (the tests) beside the others, which run one after another."""
    lock = threading.Lock()
    live = [s for s in all_stages if s.live]
    quiet = [s for s in all_stages if not s.live]
    threads = [threading.Thread(target=run, args=(s, lock), name=s.name) for s in live]
    threads.append(threading.Thread(target=lambda: [run(s, lock) for s in quiet], name="static"))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def summary(all_stages: Sequence[Stage], wall: float) -> str:
    """The table printed at the end: each stage, its result, its time and what it counted."""
    width = max(len(s.name) for s in all_stages)
    lines = ["", "stage".ljust(width) + "  result    seconds  checked"]
    for s in all_stages:
        seconds = f"{s.seconds:7.1f}" if s.status != "not run" else "      –"
        lines.append(f"{s.name.ljust(width)}  {s.status.ljust(8)}  {seconds}  {s.note}")
    failed = [s.name for s in all_stages if s.status == "failed"]
    not_run = [s.name for s in all_stages if s.status == "not run"]
    verdict = "all stages passed" if not failed and not not_run else ""
    if failed:
        verdict += f"failed: {', '.join(failed)}"
    if not_run:
        verdict += ("; " if failed else "") + f"did not run: {', '.join(not_run)}"
    lines.append(f"{verdict} ({wall:.0f} s; logs in {LOGS.relative_to(ROOT)}/)")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the stages; 0 when every one ran and passed."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], prog="python -m tests.stages")
    parser.add_argument("--long", action="store_true", help="the long checks (make test-long) instead")
    parser.add_argument("--seed", type=int, help="the test order's seed (default: a new one)")
    parser.add_argument("--workers", type=int, default=WORKERS, help=f"pytest worker processes (default {WORKERS})")
    args = parser.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1, 2**31)
    all_stages = stages(long=args.long, seed=seed, workers=args.workers)
    print(f"test order seed {seed} (make test SEED={seed} replays it); {args.workers} pytest workers", flush=True)
    started = time.monotonic()
    run_all(all_stages)
    print(summary(all_stages, time.monotonic() - started), flush=True)
    return 0 if all(s.status == "passed" for s in all_stages) else 1


if __name__ == "__main__":
    sys.exit(main())
