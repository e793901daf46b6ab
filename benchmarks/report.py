"""Write one section of docs/benchmarks.md, keeping the other sections as they are.

Each benchmark script owns a section named after it and replaces only that section, so the
scripts can run in any order. Every section says what was measured, on which data and machine.
"""

from __future__ import annotations

import datetime as _dt
import os
import platform
import re
from pathlib import Path

import cv2

DOC = Path(__file__).resolve().parent.parent / "docs" / "benchmarks.md"
HEADER = (
    "# Benchmarks\n\n"
    "Written by the scripts in `benchmarks/` (run `python benchmarks/NAME.py`); each section is\n"
    "replaced by its own script. Targets come from the issues; a figure that misses its target\n"
    "says so.\n"
)


def machine() -> str:
    """One line naming the machine the figures came from."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    # The OpenCV release too: it renders the synthetic scenes (5.1 a grey level apart from 5.0
    # in a few pixels), so a figure names the one it came from.
    return (f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"OpenCV {cv2.__version__}, {platform.system()} {platform.release()}")


def write_section(name: str, body_md: str) -> Path:
    """Replace (or append) section ``name`` of docs/benchmarks.md with ``body_md``."""
    start, end = f"<!-- {name}:start -->", f"<!-- {name}:end -->"
    stamp = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    block = f"{start}\n{body_md.rstrip()}\n\n_Machine: {machine()}; run {stamp}._\n{end}"
    text = DOC.read_text(encoding="utf-8") if DOC.exists() else HEADER
    pattern = re.compile(re.escape(start) + r".*?" + re.escape(end), re.S)
    text = pattern.sub(lambda _m: block, text) if pattern.search(text) else (
        text.rstrip() + "\n\n" + block + "\n")
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text(text, encoding="utf-8")
    return DOC


def publish(name: str, body_md: str, write: bool = True) -> None:
    """Print a script's section and, when ``write``, put it in docs/benchmarks.md."""
    print(body_md)
    if write:
        print(f"wrote section {name} of {write_section(name, body_md)}")


def fmt_ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


def verdict_line(measured: float, target: float, unit: str, lower_is_better: bool = True) -> str:
    """'12.3 ms (target ≤ 20 ms: met)' style text."""
    ok = measured <= target if lower_is_better else measured >= target
    cmp = "≤" if lower_is_better else "≥"
    return f"{measured:.3g} {unit} (target {cmp} {target:g} {unit}: {'met' if ok else 'NOT met'})"
