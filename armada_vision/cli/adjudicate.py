"""``armada-vision adjudicate SCENE.json``: answer a scene's shot, move and setup queries.

With a file, prints ``{"results": [...]}`` (interfaces.md), one verdict per query in order.
``--example`` answers the bundled example scene, in readable text unless ``--json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from armada_vision.cli import CliError, read_json


def add_parser(sub: Any) -> None:
    p = sub.add_parser("adjudicate", help="answer the shot/move queries of a scene file",
                       description=__doc__.splitlines()[0].split(": ", 1)[1])
    p.add_argument("scene", nargs="?", help="scene JSON file (interfaces.md); - for stdin")
    p.add_argument("--example", action="store_true",
                   help="use the bundled example scene instead of a file")
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true",
                     help="print JSON (the default for a scene file)")
    fmt.add_argument("--text", action="store_true", help="print readable text")
    p.set_defaults(run=run)


def _read_stdin() -> Any:
    try:
        return json.loads(sys.stdin.read())
    except json.JSONDecodeError as e:
        raise CliError(f"scene on stdin: not valid JSON (line {e.lineno}: {e.msg})") from None


def result_json(query: Any, verdict: Any) -> dict[str, Any]:
    """One result object: the verdict's JSON form, then the query it answers."""
    return {**verdict.to_json(), "query": query.to_dict()}


def text_lines(scene: Any, verdicts: list[Any]) -> list[str]:
    lines = []
    for i, (q, v) in enumerate(zip(scene.queries, verdicts, strict=True), 1):
        doubt = ", IN DOUBT" if v.in_doubt else ""
        margin = ""
        if v.margin_mm is not None:
            margin = f" [margin {v.margin_mm:+.2f} mm"
            margin += f", allowance {v.allowance_mm:.2f} mm]" if v.allowance_mm else "]"
        lines.append(f"{i}. {q}: {v.verdict.upper()}{doubt} ({v.decided_by}) — {v.reason}"
                     f"{margin}")
    return lines


def run(args: argparse.Namespace) -> int:
    from armada_vision.rules.scene import answer_scene, load_example, parse_scene

    if args.example == bool(args.scene):
        raise CliError("give a scene file or --example (not both)")
    if args.example:
        scene = load_example()
        as_json = args.json
    else:
        try:
            scene = parse_scene(_read_stdin() if args.scene == "-" else
                                read_json(args.scene, "scene"))
        except ValueError as e:
            raise CliError(f"scene {args.scene}: {e}") from None
        as_json = not args.text
    verdicts = answer_scene(scene)
    if as_json:
        results = [result_json(q, v) for q, v in zip(scene.queries, verdicts, strict=True)]
        json.dump({"results": results}, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print("\n".join(text_lines(scene, verdicts)))
    return 0
