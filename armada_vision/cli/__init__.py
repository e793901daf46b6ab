"""The ``armada-vision`` command line: a thin front over the layers below.

Each subcommand lives in its own module of this package with ``add_parser(subparsers)`` and
``run(args) -> int``; heavy imports stay inside ``run`` so ``--help`` is quick. Malformed input
gives one line on stderr naming what is wrong and a non-zero exit, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Subcommand modules, in the order ``--help`` lists them.
COMMANDS = (
    "serve",
    "detect",
    "adjudicate",
    "zones",
    "synth",
    "make_mat",
    "calibrate_camera",
    "projector",
    "replay",
    "log",
)


class CliError(Exception):
    """Bad input or a failed job: printed as one line, exit status ``code``."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def read_json(path: str | Path, what: str) -> Any:
    """Load a JSON file, turning every failure into a one-line CliError naming the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CliError(f"{what} {p}: no such file") from None
    except OSError as e:
        raise CliError(f"{what} {p}: cannot read ({e.strerror})") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise CliError(f"{what} {p}: not valid JSON (line {e.lineno}: {e.msg})") from None


def parse_size(text: str, field: str = "--size") -> tuple[int, int]:
    """'1280x800' → (1280, 800); a CliError naming ``field`` otherwise.

    >>> parse_size("1280x720")
    (1280, 720)
    """
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise CliError(f"{field}: expected WIDTHxHEIGHT such as 1280x800, got {text!r}") from None
    if w < 64 or h < 64:
        raise CliError(f"{field}: expected at least 64x64, got {text!r}")
    return (w, h)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="armada-vision",
        description="Computer-vision referee for Armada. Without a command: serve the demo.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        if importlib.util.find_spec(f"armada_vision.cli.{name}") is None:
            continue  # not built yet
        importlib.import_module(f"armada_vision.cli.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        # The main job on a built-in default: the demo server, or the bundled example scene.
        has_serve = importlib.util.find_spec("armada_vision.cli.serve") is not None
        args = parser.parse_args(["serve"] if has_serve else ["adjudicate", "--example"])
    try:
        return int(args.run(args) or 0)
    except CliError as e:
        print(f"armada-vision {args.command}: {e}", file=sys.stderr)
        return e.code
    except (ValueError, KeyError) as e:
        msg = e.args[0] if e.args else type(e).__name__
        print(f"armada-vision {args.command}: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
