"""JSON forms of the values an event carries: poses, verdicts, ships, rules configuration.

Floats are written at full precision so ``decode(encode(x)) == x``; coordinates are table-frame
millimetres (+x right, +y away from the viewer), headings degrees counter-clockwise from +x.
Decoders raise ValueError naming the field.

>>> pose_from_json(pose_to_json(Pose(10.5, 20.0, 90.0)), "after")
Pose(x_mm=10.5, y_mm=20.0, heading_deg=90.0)
>>> v = Verdict.no("too far", decided_by="distance", margin_mm=-3.5)
>>> verdict_from_json(verdict_to_json(v), "verdict") == v
True
>>> pose_from_json([1, 2], "before")
Traceback (most recent call last):
ValueError: before: expected [x_mm, y_mm, heading_deg], got [1, 2]
"""

from __future__ import annotations

import math
from typing import Any

from armada_vision.geometry.pieces import PieceSet, Size
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import RulesConfig
from armada_vision.rules.table import Ship
from armada_vision.rules.verdict import Verdict


def _num(v: object, field: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError(f"{field}: expected a number, got {v!r}")
    return float(v)


def _finite(v: object, field: str) -> float:
    x = _num(v, field)
    if not math.isfinite(x):
        raise ValueError(f"{field}: expected a finite number, got {v!r}")
    return x


def _int(v: object, field: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{field}: expected a whole number, got {v!r}")
    return v


def _str(v: object, field: str) -> str:
    if not isinstance(v, str):
        raise ValueError(f"{field}: expected a string, got {v!r}")
    return v


def _obj(v: object, field: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{field}: expected an object, got {v!r}")
    return v


def pose_to_json(p: Pose) -> list[float]:
    """``[x_mm, y_mm, heading_deg]`` (table frame)."""
    return [p.x_mm, p.y_mm, p.heading_deg]


def pose_from_json(v: object, field: str) -> Pose:
    if not isinstance(v, list | tuple) or len(v) != 3:
        raise ValueError(f"{field}: expected [x_mm, y_mm, heading_deg], got {v!r}")
    return Pose(*(_finite(c, f"{field}[{i}]") for i, c in enumerate(v)))


def points_from_json(v: object, field: str) -> tuple[tuple[float, float], ...]:
    if not isinstance(v, list | tuple):
        raise ValueError(f"{field}: expected a list of [x, y] points")
    out = []
    for i, p in enumerate(v):
        if not isinstance(p, list | tuple) or len(p) != 2:
            raise ValueError(f"{field}[{i}]: expected [x, y]")
        out.append((_finite(p[0], f"{field}[{i}][0]"), _finite(p[1], f"{field}[{i}][1]")))
    return tuple(out)


def verdict_to_json(v: Verdict) -> dict[str, Any]:
    """Every field of a verdict at full precision; None and empty fields are left out."""
    out: dict[str, Any] = {"yes": v.yes, "in_doubt": v.in_doubt, "reason": v.reason,
                           "decided_by": v.decided_by}
    for key in ("margin_mm", "margin_deg", "allowance_mm", "blocker", "failed_step", "side"):
        val = getattr(v, key)
        if val is not None:
            out[key] = val
    if v.ruler is not None:
        out["ruler"] = [list(p) for p in v.ruler]
    if v.line_of_fire is not None:
        out["line_of_fire"] = [list(p) for p in v.line_of_fire]
    if v.steps:
        out["steps"] = [pose_to_json(p) for p in v.steps]
    if v.notes:
        out["notes"] = list(v.notes)
    return out


def verdict_from_json(v: object, field: str) -> Verdict:
    d = _obj(v, field)
    for key in ("yes", "in_doubt"):
        if not isinstance(d.get(key), bool):
            raise ValueError(f"{field}.{key}: expected true or false")
    kw: dict[str, Any] = {}
    for key in ("margin_mm", "margin_deg", "allowance_mm"):
        if d.get(key) is not None:
            kw[key] = _num(d[key], f"{field}.{key}")
    for key in ("blocker", "side"):
        if d.get(key) is not None:
            kw[key] = _str(d[key], f"{field}.{key}")
    if d.get("failed_step") is not None:
        kw["failed_step"] = _int(d["failed_step"], f"{field}.failed_step")
    for key in ("ruler", "line_of_fire"):
        if d.get(key) is not None:
            kw[key] = points_from_json(d[key], f"{field}.{key}")
    steps = d.get("steps", [])
    if not isinstance(steps, list):
        raise ValueError(f"{field}.steps: expected a list of poses")
    kw["steps"] = tuple(pose_from_json(s, f"{field}.steps[{i}]") for i, s in enumerate(steps))
    notes = d.get("notes", [])
    if not isinstance(notes, list):
        raise ValueError(f"{field}.notes: expected a list of strings")
    kw["notes"] = tuple(_str(s, f"{field}.notes[{i}]") for i, s in enumerate(notes))
    try:
        return Verdict(d["yes"], d["in_doubt"], _str(d.get("reason"), f"{field}.reason"),
                       _str(d.get("decided_by"), f"{field}.decided_by"), **kw)
    except ValueError as e:
        raise ValueError(f"{field}.{e}") from None


def ship_to_json(s: Ship) -> dict[str, Any]:
    return {"id": s.id, "player": s.player, "size": s.size.value, "pose": pose_to_json(s.pose),
            "damage": s.damage, "sigma_mm": s.sigma_mm, "sigma_deg": s.sigma_deg,
            "color": s.color}


def ship_from_json(v: object, field: str) -> Ship:
    d = _obj(v, field)
    try:
        return Ship(_str(d.get("id"), f"{field}.id"), _str(d.get("player"), f"{field}.player"),
                    Size.parse(d.get("size"), f"{field}.size"),
                    pose_from_json(d.get("pose"), f"{field}.pose"),
                    _int(d.get("damage", 0), f"{field}.damage"),
                    _num(d.get("sigma_mm", 0.0), f"{field}.sigma_mm"),
                    _num(d.get("sigma_deg", 0.0), f"{field}.sigma_deg"),
                    _str(d.get("color", "unknown"), f"{field}.color"))
    except ValueError as e:
        msg = str(e)
        raise ValueError(msg if msg.startswith(field) else f"{field}.{msg}") from None


def config_to_json(c: RulesConfig) -> dict[str, Any]:
    return {"pieces": c.pieces.to_dict(), "doubt_floor_mm": c.doubt_floor_mm,
            "place_tol_mm": c.place_tol_mm, "place_tol_deg": c.place_tol_deg,
            "setup_error_mm": c.setup_error_mm, "setup_warn_mm": c.setup_warn_mm,
            "strict_sweep": c.strict_sweep}


def config_from_json(v: object, field: str) -> RulesConfig:
    d = _obj(v, field)
    kw: dict[str, Any] = {}
    if "pieces" in d:
        kw["pieces"] = PieceSet.from_dict(d["pieces"], f"{field}.pieces")
    for key in ("doubt_floor_mm", "place_tol_mm", "place_tol_deg", "setup_error_mm",
                "setup_warn_mm"):
        if key in d:
            kw[key] = _finite(d[key], f"{field}.{key}")
    if "strict_sweep" in d:
        if not isinstance(d["strict_sweep"], bool):
            raise ValueError(f"{field}.strict_sweep: expected true or false")
        kw["strict_sweep"] = d["strict_sweep"]
    return RulesConfig(**kw)
