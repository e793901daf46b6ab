"""The ``adjudicate`` scene file (interfaces.md) ↔ a :class:`Table`, queries and a config.

All coordinates are table-frame millimetres (+x right, +y away from the viewer); headings are
degrees counter-clockwise from +x. Malformed input raises ValueError naming the field, e.g.
``ships[2].heading: expected a number``. An impossible table (two pieces lying in the same place)
is not malformed: every query then gets a ``no`` verdict that says so (decided_by ``state``).

Beyond interfaces.md a scene may carry ``pieces`` (caliper dimensions, as
``PieceSet.from_dict``), ``config`` (overrides of :class:`RulesConfig` fields), a ship ``tip``
(or a move's ``to.tip``) instead of a ``heading``, a ship ``color``, an object ``sigma_mm``,
and a ``{"setup": {}}`` query (the §2 setup check of the whole table).

>>> scene = parse_scene({"play_area": [[0, 0], [600, 0], [600, 600], [0, 600]],
...     "ships": [{"id": "L1", "player": "A", "size": "large", "stern": [300, 300],
...                "heading": 0},
...               {"id": "S1", "player": "B", "size": "small", "stern": [310, 340],
...                "heading": 0}],
...     "queries": [{"shot": {"from": "L1", "target": "S1"}}]})
>>> scene.queries
(ShotQuery(shooter='L1', target='S1'),)
>>> [v.verdict for v in answer_scene(scene)]
['yes']
>>> parse_scene({"play_area": [[0, 0], [1, 0], [1, 1]], "ships": [{"id": "x"}]})
Traceback (most recent call last):
...
ValueError: ships[0].player: expected a non-empty name without spaces, got None
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, fields, replace
from importlib import resources
from typing import Any

from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceSet, Size
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.doubt import allowance_mm
from armada_vision.rules.table import Obstacle, PlayArea, Ship, Table
from armada_vision.rules.verdict import Verdict

EXAMPLE = "example_scene.json"


@dataclass(frozen=True, slots=True)
class ShotQuery:
    """May ``shooter`` fire at ``target``? (§5)"""

    shooter: str
    target: str

    def to_dict(self) -> dict[str, Any]:
        return {"shot": {"from": self.shooter, "target": self.target}}

    def __str__(self) -> str:
        return f"shot {self.shooter} → {self.target}"


@dataclass(frozen=True, slots=True)
class MoveQuery:
    """Was moving ``ship`` to ``to`` (table mm, degrees) a legal move? (§4)"""

    ship: str
    to: Pose

    def to_dict(self) -> dict[str, Any]:
        return {"move": {"ship": self.ship, "to": {"stern": [self.to.x_mm, self.to.y_mm],
                                                  "heading": self.to.heading_deg}}}

    def __str__(self) -> str:
        return (f"move {self.ship} → ({self.to.x_mm:.1f}, {self.to.y_mm:.1f}) "
                f"{self.to.heading_deg:.1f}°")


@dataclass(frozen=True, slots=True)
class SetupQuery:
    """Is the table a legal starting position? (§2)"""

    def to_dict(self) -> dict[str, Any]:
        return {"setup": {}}

    def __str__(self) -> str:
        return "setup check"


Query = ShotQuery | MoveQuery | SetupQuery


@dataclass(frozen=True, slots=True)
class Scene:
    """A table, the questions asked about it, and the rules configuration to answer them."""

    table: Table
    queries: tuple[Query, ...] = ()
    config: RulesConfig = DEFAULT_CONFIG


# --- field readers: each names the field it rejects --------------------------------------------

def _num(v: object, field: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
        raise ValueError(f"{field}: expected a number, got {v!r}")
    return float(v)


def _point(v: object, field: str) -> tuple[float, float]:
    if not isinstance(v, list | tuple) or len(v) != 2:
        raise ValueError(f"{field}: expected [x, y], got {v!r}")
    return (_num(v[0], f"{field}[0]"), _num(v[1], f"{field}[1]"))


def _obj(v: object, field: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{field}: expected an object, got {type(v).__name__}")
    return v


def _list(v: object, field: str) -> list[Any]:
    if not isinstance(v, list):
        raise ValueError(f"{field}: expected a list, got {type(v).__name__}")
    return v


def _name(v: object, field: str) -> str:
    if not isinstance(v, str) or not v or any(c.isspace() or c == "=" for c in v):
        raise ValueError(f"{field}: expected a non-empty name without spaces, got {v!r}")
    return v


def _polygon(v: object, field: str) -> tuple[tuple[float, float], ...]:
    pts = _list(v, field)
    if len(pts) < 3:
        raise ValueError(f"{field}: expected a polygon of at least 3 [x, y] points")
    return tuple(_point(p, f"{field}[{i}]") for i, p in enumerate(pts))


def _ship(v: object, field: str, pieces: PieceSet) -> Ship:
    d = _obj(v, field)
    sid = _name(d.get("id"), f"{field}.id")
    player = _name(d.get("player"), f"{field}.player")
    size = Size.parse(d.get("size"), f"{field}.size")
    x, y = _point(d.get("stern"), f"{field}.stern")
    if "heading" in d or "tip" not in d:
        heading = _num(d.get("heading"), f"{field}.heading")
    else:
        tx, ty = _point(d["tip"], f"{field}.tip")
        if math.hypot(tx - x, ty - y) < 1e-9:
            raise ValueError(f"{field}.tip: the tip is on the stern")
        heading = math.degrees(math.atan2(ty - y, tx - x))
    damage = d.get("damage", 0)
    if isinstance(damage, bool) or not isinstance(damage, int) or damage < 0:
        raise ValueError(f"{field}.damage: expected a whole number ≥ 0, got {damage!r}")
    if damage >= size.pips:
        raise ValueError(f"{field}.damage: {damage} damage sinks a {size.value} "
                         f"({size.pips} pips); a sunk ship is no longer on the table")
    sig = {}
    for key in ("sigma_mm", "sigma_deg"):
        sig[key] = _num(d.get(key, 0.0), f"{field}.{key}")
        if sig[key] < 0:
            raise ValueError(f"{field}.{key}: must not be negative")
    color = d.get("color", "unknown")
    _name(color, f"{field}.color")
    return Ship(sid, player, size, Pose(x, y, heading), damage, sig["sigma_mm"],
                sig["sigma_deg"], color.lower())


def _obstacle(v: object, field: str) -> Obstacle:
    d = _obj(v, field)
    oid = _name(d.get("id"), f"{field}.id")
    poly = _polygon(d.get("polygon"), f"{field}.polygon")
    sigma = _num(d.get("sigma_mm", 0.0), f"{field}.sigma_mm")
    if sigma < 0:
        raise ValueError(f"{field}.sigma_mm: must not be negative")
    try:
        return Obstacle(oid, poly, sigma)
    except ValueError:
        raise ValueError(f"{field}.polygon: self-intersecting or without area") from None


def _config(v: object, pieces: PieceSet) -> RulesConfig:
    d = _obj(v, "config")
    known = {f.name for f in fields(RulesConfig)} - {"pieces"}
    kw: dict[str, Any] = {}
    for key, val in d.items():
        if key not in known:
            raise ValueError(f"config.{key}: unknown setting (known: {', '.join(sorted(known))})")
        if key == "strict_sweep":
            if not isinstance(val, bool):
                raise ValueError(f"config.{key}: expected true or false")
            kw[key] = val
        else:
            kw[key] = _num(val, f"config.{key}")
            if kw[key] < 0:
                raise ValueError(f"config.{key}: must not be negative")
    return RulesConfig(pieces=pieces, **kw)


def _query(v: object, field: str, table: Table) -> Query:
    d = _obj(v, field)
    if len(d) != 1:
        raise ValueError(f"{field}: expected exactly one of shot, move, setup")
    (kind, body), = d.items()

    def ship_ref(val: object, f: str) -> str:
        sid = _name(val, f)
        if not table.has_ship(sid):
            raise ValueError(f"{f}: no ship {sid!r} on the table")
        return sid

    if kind == "shot":
        b = _obj(body, f"{field}.shot")
        shooter = ship_ref(b.get("from"), f"{field}.shot.from")
        target = ship_ref(b.get("target"), f"{field}.shot.target")
        if shooter == target:
            raise ValueError(f"{field}.shot.target: a ship cannot fire at itself")
        return ShotQuery(shooter, target)
    if kind == "move":
        b = _obj(body, f"{field}.move")
        sid = ship_ref(b.get("ship"), f"{field}.move.ship")
        to = _obj(b.get("to"), f"{field}.move.to")
        f = f"{field}.move.to"
        x, y = _point(to.get("stern"), f"{f}.stern")
        if "heading" in to or "tip" not in to:
            return MoveQuery(sid, Pose(x, y, _num(to.get("heading"), f"{f}.heading")))
        tx, ty = _point(to["tip"], f"{f}.tip")
        if math.hypot(tx - x, ty - y) < 1e-9:
            raise ValueError(f"{f}.tip: the tip is on the stern")
        return MoveQuery(sid, Pose.from_stern_tip((x, y), (tx, ty)))
    if kind == "setup":
        _obj(body, f"{field}.setup")
        return SetupQuery()
    raise ValueError(f"{field}: unknown query {kind!r} (expected shot, move or setup)")


def parse_scene(data: Any) -> Scene:
    """Parse a scene dict (interfaces.md) into a :class:`Scene`; ValueError names the field."""
    d = _obj(data, "scene")
    unknown = set(d) - {"play_area", "ships", "objects", "queries", "pieces", "config", "name"}
    if unknown:
        raise ValueError(f"{sorted(unknown)[0]}: unknown scene field")
    pieces = PieceSet.from_dict(d["pieces"]) if "pieces" in d else NOMINAL_PIECES
    config = _config(d.get("config", {}), pieces)
    area = PlayArea(_polygon(d.get("play_area"), "play_area"))
    ships = tuple(_ship(s, f"ships[{i}]", pieces)
                  for i, s in enumerate(_list(d.get("ships", []), "ships")))
    objects = tuple(_obstacle(o, f"objects[{i}]")
                    for i, o in enumerate(_list(d.get("objects", []), "objects")))
    ids = [s.id for s in ships] + [o.id for o in objects]
    for i, sid in enumerate(ids):
        if sid in ids[:i]:
            where = f"ships[{i}]" if i < len(ships) else f"objects[{i - len(ships)}]"
            raise ValueError(f"{where}.id: {sid!r} is used twice")
    table = Table(area, ships, objects)
    queries = tuple(_query(q, f"queries[{i}]", table)
                    for i, q in enumerate(_list(d.get("queries", []), "queries")))
    return Scene(table, queries, config)


def scene_to_dict(scene: Scene) -> dict[str, Any]:
    """The scene as interfaces.md JSON (parses back to an equal scene)."""
    t, c = scene.table, scene.config
    out: dict[str, Any] = {
        "play_area": [list(p) for p in t.play_area.polygon_mm],
        "ships": [{"id": s.id, "player": s.player, "size": s.size.value,
                   "stern": [s.pose.x_mm, s.pose.y_mm], "heading": s.pose.heading_deg,
                   "damage": s.damage, "sigma_mm": s.sigma_mm, "sigma_deg": s.sigma_deg,
                   "color": s.color} for s in t.ships],
        "objects": [{"id": o.id, "polygon": [list(p) for p in o.polygon_mm],
                     "sigma_mm": o.sigma_mm} for o in t.obstacles],
        "queries": [q.to_dict() for q in scene.queries],
    }
    if c.pieces != NOMINAL_PIECES:
        out["pieces"] = c.pieces.to_dict()
    overrides = {f.name: getattr(c, f.name) for f in fields(RulesConfig)
                 if f.name != "pieces" and getattr(c, f.name) != getattr(DEFAULT_CONFIG, f.name)}
    if overrides:
        out["config"] = overrides
    return out


# --- answering ---------------------------------------------------------------------------------

def impossible_state(table: Table, config: RulesConfig = DEFAULT_CONFIG) -> Verdict | None:
    """A ``no`` verdict (decided_by ``state``) when two pieces on the table lie in the same
    place by more than the doubt allowance (silhouettes, table mm); None when the table is
    physically possible. Overlaps within the allowance are taken as touching."""
    from armada_vision.rules.fire import depth_in_mm

    sil = [(s.id, s.silhouette(config), s.sigma_total_mm(config)) for s in table.ships]
    others = [(o.id, o.shape, o.sigma_mm) for o in table.obstacles]
    pieces = sil + others
    for i, (aid, a, sa) in enumerate(sil):
        for bid, b, sb in pieces[i + 1:]:
            if not a.intersects(b):
                continue
            overlap = a.intersection(b)
            if overlap.area <= 0:
                continue
            depth = depth_in_mm(overlap, a)
            allow = allowance_mm([sa, sb], config.doubt_floor_mm)
            if depth > allow:
                return Verdict.no(
                    f"impossible table: {aid} and {bid} overlap by {depth:.2f} mm; two pieces "
                    "cannot lie in the same place (check the poses)",
                    decided_by="state", margin_mm=-depth, allowance_mm=allow, blocker=bid)
    return None


def answer_query(table: Table, query: Query, config: RulesConfig = DEFAULT_CONFIG) -> Verdict:
    """Answer one query about ``table`` (no impossible-state check: see :func:`answer_scene`)."""
    if isinstance(query, ShotQuery):
        from armada_vision.rules.fire import adjudicate_shot

        return adjudicate_shot(table, query.shooter, query.target, config)
    if isinstance(query, MoveQuery):
        try:
            from armada_vision.rules.move import adjudicate_move
        except ImportError:
            return Verdict.no("move adjudication is not available in this build",
                              decided_by="state")
        return adjudicate_move(table, query.ship, query.to, config)
    if isinstance(query, SetupQuery):
        from armada_vision.rules.setup import check_setup

        return check_setup(table, config).verdict()
    raise ValueError(f"query: unknown kind {type(query).__name__}")


def answer_scene(scene: Scene) -> list[Verdict]:
    """One verdict per query, in order. On an impossible table every shot or move answer says
    so (the setup check reports the overlap itself)."""
    bad = impossible_state(scene.table, scene.config)
    return [bad if bad is not None and not isinstance(q, SetupQuery)
            else answer_query(scene.table, q, scene.config) for q in scene.queries]


def load_example() -> Scene:
    """The bundled example scene (``armada_vision/data/example_scene.json``)."""
    text = resources.files("armada_vision").joinpath("data", EXAMPLE).read_text("utf-8")
    return parse_scene(json.loads(text))


def with_queries(scene: Scene, *queries: Query) -> Scene:
    """The same table and config with other queries."""
    return replace(scene, queries=tuple(queries))
