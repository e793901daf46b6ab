"""The rules questions the page asks, as JSON: a thin front over ``armada_vision.rules``.

Every geometry is in the table frame (mm, +y away from the viewer); the page maps it to the
image with the calibration's homography. Shapely geometries travel as a list of polygons, each
a list of rings (exterior first, then holes), each ring a list of [x, y].
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from typing import Any

import shapely

from armada_vision.geometry.layout import TableLayout
from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import SIDES, firing_zone
from armada_vision.rules.config import RulesConfig
from armada_vision.rules.table import Obstacle, PlayArea, Ship, Table
from armada_vision.rules.verdict import Verdict
from armada_vision.vision.types import DetectedPiece, UprightPiece


class Unavailable(Exception):
    """A rules module this question needs is not installed (yet)."""


def _rules(module: str) -> Any:
    try:
        return importlib.import_module(f"armada_vision.rules.{module}")
    except ImportError as e:
        raise Unavailable(f"rules.{module} is not available: {e}") from None


def players_for(pieces: Iterable[DetectedPiece],
                color_players: Mapping[str, str] | None = None) -> dict[str, str]:
    """Owner of every tracked piece. ``color_players`` (colour → player) names the owners of a
    multi-stash game; otherwise with two or more known colours the colour is the player
    (rules.md §2), and with one stash size tells the fleets apart: the Larges are player A,
    the Mediums and Smalls player B.

    >>> from armada_vision.geometry.pose import Pose
    >>> L = DetectedPiece(Size.LARGE, "red", Pose(0, 0, 0), (46, 0), 0, 0, True, track_id="L1")
    >>> S = DetectedPiece(Size.SMALL, "red", Pose(0, 0, 0), (26, 0), 0, 0, True, track_id="S1")
    >>> players_for([L, S])
    {'L1': 'A', 'S1': 'B'}
    """
    pieces = [p for p in pieces if p.track_id is not None]
    colours = {p.color for p in pieces if p.color != "unknown"}
    if color_players and colours & set(color_players):
        return {p.track_id: color_players.get(p.color, p.color) for p in pieces}  # type: ignore[misc]
    if len(colours) >= 2:
        return {p.track_id: p.color for p in pieces}  # type: ignore[misc]
    return {p.track_id: ("A" if p.size == Size.LARGE else "B") for p in pieces}  # type: ignore[misc]


def build_table(pieces: Iterable[DetectedPiece], upright: Iterable[UprightPiece],
                layout: TableLayout, damage: Mapping[str, int], include_sunk: bool = False,
                color_players: Mapping[str, str] | None = None) -> Table:
    """The table the rules see: tracked lying pieces in the play area are ships (sunk ones left
    out, they leave the table), upright pieces in the play area are obstacles; pieces outside
    the play area (the spares, the ruler) are not on the table. ``include_sunk``: keep the
    sunk ships too (to draw them, never to judge with)."""
    pieces = [p for p in pieces if p.track_id is not None]
    owner = players_for(pieces, color_players)
    area = PlayArea(layout.play_area_mm)
    ships = []
    for p in pieces:
        if not p.in_play_area:
            continue
        ship = Ship(p.track_id, owner[p.track_id], p.size, p.pose,  # type: ignore[arg-type]
                    min(damage.get(p.track_id, 0), p.size.pips),  # type: ignore[arg-type]
                    p.sigma_mm, p.sigma_deg, p.color if p.color else "unknown")
        if include_sunk or not ship.sunk:
            ships.append(ship)
    obstacles = []
    shape = area.shape
    for i, u in enumerate(upright):
        if not shape.contains(shapely.Point(u.center_mm)):
            continue
        half = 0.5 * _upright_width(u.size)
        x, y = u.center_mm
        obstacles.append(Obstacle(f"upright{i + 1}", ((x - half, y - half), (x + half, y - half),
                                                     (x + half, y + half), (x - half, y + half))))
    return Table(area, tuple(ships), tuple(obstacles))


def _upright_width(size: Size) -> float:
    return {Size.SMALL: 14.2875, Size.MEDIUM: 19.84375, Size.LARGE: 25.4}[size]


def geometry_json(geom: Any, nd: int = 2) -> list[list[list[list[float]]]]:
    """Polygons of a shapely geometry (empty, polygon or collection) as nested lists.

    >>> geometry_json(shapely.box(0, 0, 1, 2))[0][0][:2]
    [[1.0, 0.0], [1.0, 2.0]]
    """
    if geom is None or geom.is_empty:
        return []
    if isinstance(geom, shapely.Polygon):
        rings = [geom.exterior, *geom.interiors]
        return [[[[round(x, nd), round(y, nd)] for x, y in r.coords] for r in rings]]
    out: list[list[list[list[float]]]] = []
    for g in getattr(geom, "geoms", ()):
        out.extend(geometry_json(g, nd))
    return out


def ship_json(ship: Ship, config: RulesConfig) -> dict[str, Any]:
    """A ship for the page: pose, tip, silhouette outline (mm), damage and owner."""
    tip = ship.tip_mm(config)
    return {
        "id": ship.id, "player": ship.player, "size": ship.size.value, "color": ship.color,
        "stern": [round(ship.pose.x_mm, 2), round(ship.pose.y_mm, 2)],
        "tip": [round(tip[0], 2), round(tip[1], 2)],
        "heading": round(ship.pose.heading_deg, 2),
        "damage": ship.damage, "pips": ship.pips,
        "sigma_mm": round(ship.sigma_mm, 3), "sigma_deg": round(ship.sigma_deg, 3),
        "outline": [[round(x, 2), round(y, 2)]
                    for x, y in list(ship.silhouette(config).exterior.coords)[:-1]],
    }


def zones(table: Table, ship_id: str, config: RulesConfig,
          resolution_deg: float = 2.0) -> dict[str, Any]:
    """One-step zone, full-move reachable region and both firing zones of a ship (mm).

    A rules module that is missing leaves its zone out with a note instead of failing."""
    ship = table.ship(ship_id)
    out: dict[str, Any] = {"ship": ship_id, "notes": []}
    try:
        fz = _rules("fire").firing_zones(table, ship_id, config)
        out["firing"] = {side: geometry_json(fz[side]) for side in SIDES if side in fz}
    except Unavailable:
        out["firing"] = {side: geometry_json(firing_zone(ship.pose, ship.dims(config),
                                                         config.ruler, side)) for side in SIDES}
    for key, modules, fn in (("step", ("step",), "step_zone"),
                             ("reach", ("reach", "move"), "reachable_region")):
        f = _first(modules, fn)
        if f is None:
            out[key] = []
            out["notes"].append(f"{key} zone not available yet")
            continue
        out[key] = geometry_json(f(table, ship_id, config, resolution_deg=resolution_deg))
    return out


def _first(modules: tuple[str, ...], name: str) -> Any:
    """The function ``name`` from the first of ``rules.<module>`` that has it, or None."""
    for module in modules:
        try:
            f = getattr(_rules(module), name, None)
        except Unavailable:
            continue
        if f is not None:
            return f
    return None


def shot(table: Table, shooter_id: str, target_id: str, config: RulesConfig) -> Verdict:
    """rules.md §5: can ``shooter_id`` hit ``target_id``?"""
    return _rules("fire").adjudicate_shot(table, shooter_id, target_id, config)


def move(table: Table, ship_id: str, after: Pose, config: RulesConfig) -> Verdict:
    """rules.md §4: was moving ``ship_id`` from its pose on ``table`` to ``after`` legal?"""
    return _rules("move").adjudicate_move(table, ship_id, after, config)
