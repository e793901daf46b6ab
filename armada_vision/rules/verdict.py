"""Verdicts: the answer to a rules question, as a value.

A verdict is ``yes`` only with room to spare: its deciding margin exceeds the doubt allowance.
Otherwise it is ``no``, and ``in_doubt`` says whether the measurement could as well have fallen
the other way. The geometry behind it (ruler placement, line of fire, reconstructed steps, the
blocking object) travels with it so a page or a projector can draw it.

>>> v = Verdict.no("out of range", decided_by="range", margin_mm=0.8, allowance_mm=1.2)
>>> v.verdict, v.in_doubt
('no', True)
>>> Verdict.decide(True, "in range", decided_by="range", margin_mm=0.8, allowance_mm=1.2).verdict
'no'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from armada_vision.geometry.pose import Pose
from armada_vision.rules.doubt import in_doubt as _in_doubt

Points = tuple[tuple[float, float], ...]


@dataclass(frozen=True, slots=True)
class Verdict:
    """Answer to one question (a shot, a step, a move, a setup check).

    - ``yes``: the answer; never True when ``in_doubt``.
    - ``in_doubt``: |margin| ≤ allowance, whichever side of the line it fell on.
    - ``reason``: one sentence a player understands.
    - ``decided_by``: what decided it: e.g. ``range``, ``obstruction``, ``contact``, ``turn``,
      ``distance``, ``play_area``, ``overlap``, ``action``, ``state``.
    - ``margin_mm`` / ``margin_deg``: the deciding margin (positive: on the yes side).
    - ``allowance_mm``: the doubt allowance used.
    - Geometry for drawing, all in table mm: ``ruler`` (triangle), ``line_of_fire`` (polygon),
      ``steps`` (reconstructed poses, after each step), ``blocker`` (id of the object in the
      way), ``failed_step`` (1-based index of the first failing step), ``side`` (broadside).
    """

    yes: bool
    in_doubt: bool
    reason: str
    decided_by: str
    margin_mm: float | None = None
    margin_deg: float | None = None
    allowance_mm: float | None = None
    ruler: Points | None = None
    line_of_fire: Points | None = None
    steps: tuple[Pose, ...] = ()
    blocker: str | None = None
    failed_step: int | None = None
    side: str | None = None
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if self.yes and self.in_doubt:
            raise ValueError("yes: a verdict in doubt is never yes")

    @property
    def verdict(self) -> str:
        return "yes" if self.yes else "no"

    @classmethod
    def no(cls, reason: str, *, decided_by: str, **kw: Any) -> Verdict:
        """A no; in doubt when a margin and an allowance are given and the margin is within it."""
        m, a = kw.get("margin_mm"), kw.get("allowance_mm")
        doubt = m is not None and a is not None and _in_doubt(m, a)
        return cls(False, doubt, reason, decided_by, **kw)

    @classmethod
    def decide(
        cls, geometric_yes: bool, reason: str, *, decided_by: str, margin_mm: float,
        allowance_mm: float, doubt_reason: str | None = None, **kw: Any,
    ) -> Verdict:
        """Turn a geometric answer and its margin into a verdict: a yes within the allowance
        becomes a no in doubt (rules.md §7)."""
        doubt = _in_doubt(margin_mm, allowance_mm)
        if doubt:
            reason = doubt_reason or (
                f"{reason}, but only by {abs(margin_mm):.2f} mm, within the "
                f"{allowance_mm:.2f} mm doubt allowance"
            )
        return cls(geometric_yes and not doubt, doubt, reason, decided_by,
                   margin_mm=margin_mm, allowance_mm=allowance_mm, **kw)

    def to_json(self) -> dict[str, Any]:
        """JSON form of interfaces.md: verdict, in_doubt, reason, margin_mm, plus detail."""
        out: dict[str, Any] = {
            "verdict": self.verdict,
            "in_doubt": self.in_doubt,
            "reason": self.reason,
            "margin_mm": _r(self.margin_mm),
            "decided_by": self.decided_by,
        }
        if self.margin_deg is not None:
            out["margin_deg"] = _r(self.margin_deg)
        if self.allowance_mm is not None:
            out["allowance_mm"] = _r(self.allowance_mm)
        if self.side is not None:
            out["side"] = self.side
        if self.ruler is not None:
            out["ruler"] = [[_r(x), _r(y)] for x, y in self.ruler]
        if self.line_of_fire is not None:
            out["line_of_fire"] = [[_r(x), _r(y)] for x, y in self.line_of_fire]
        if self.steps:
            out["steps"] = [
                {"stern": [_r(p.x_mm), _r(p.y_mm)], "heading": _r(p.heading_deg)}
                for p in self.steps
            ]
        if self.blocker is not None:
            out["blocker"] = self.blocker
        if self.failed_step is not None:
            out["failed_step"] = self.failed_step
        if self.notes:
            out["notes"] = list(self.notes)
        return out


def _r(v: float | None, nd: int = 4) -> float | None:
    if v is None:
        return None
    return round(float(v), nd) if math.isfinite(v) else None
