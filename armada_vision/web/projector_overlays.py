"""What the projector draws, built from what the referee knows: zones, a shot verdict, the last
move, all as :class:`~armada_vision.vision.projector.Overlay` in table mm (+x right, +y away
from the viewer), and the clearance that keeps light off the pieces.

>>> sq = [[[0, 0], [10, 0], [10, 10], [0, 10]]]
>>> [o.layer for o in overlays_from_zones({"step": [sq], "firing": {"port": [sq]}})]
['step', 'firing']
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from typing import Any

import shapely

from armada_vision.geometry.pieces import PieceDims
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.projector import Overlay

Rings = Sequence[Sequence[Sequence[float]]]


def _rings(poly: Rings) -> tuple[tuple[tuple[float, float], ...], ...]:
    return tuple(tuple((float(p[0]), float(p[1])) for p in ring) for ring in poly if len(ring))


def overlays_from_zones(zones: Mapping[str, Any]) -> list[Overlay]:
    """Overlays from the zones JSON of ``web.referee.zones`` (table mm): ``reach`` and ``step``
    as lists of polygons, ``firing`` as ``{side: [polygon, ...]}``; a polygon is a list of
    rings, exterior first.

    >>> sq = [[[0, 0], [10, 0], [10, 10], [0, 10]]]
    >>> [o.layer for o in overlays_from_zones({"step": [sq], "firing": {"port": [sq]}})]
    ['step', 'firing']
    """
    out: list[Overlay] = []
    for key in ("reach", "step"):
        out.extend(Overlay(key, _rings(poly)) for poly in zones.get(key) or ())
    firing = zones.get("firing") or {}
    for side in sorted(firing):
        out.extend(Overlay("firing", _rings(poly)) for poly in firing[side] or ())
    return [o for o in out if o.rings_mm]


def overlays_from_verdict(verdict: Mapping[str, Any]) -> list[Overlay]:
    """The ruler (triangle) and line of fire (polygon) of a shot verdict's JSON (table mm)."""
    out = []
    for key in ("ruler", "line_of_fire"):
        pts = verdict.get(key)
        if pts and len(pts) >= 3:
            out.append(Overlay(key, (tuple((float(x), float(y)) for x, y in pts),)))
    return out


def overlays_from_move(before: Pose, steps: Iterable[Pose], dims: PieceDims) -> list[Overlay]:
    """The last move: the footprint outline at the start and after every step, and the path of
    sterns (each step's stern is the previous tip) as an open line; table mm."""
    poses = [before, *steps]
    if len(poses) < 2:
        return []
    outlines = tuple(tuple(footprint(p, dims).exterior.coords)[:-1] for p in poses)
    path = (*tuple(p.stern_mm for p in poses), poses[-1].tip_mm(dims.footprint_length_mm))
    return [Overlay("last_move", (ring,)) for ring in outlines] + [
        Overlay("last_move", (path,), closed=False)]


def cut_out(overlays: Iterable[Overlay], keep_out: shapely.Geometry) -> list[Overlay]:
    """The overlays with ``keep_out`` (table mm) removed: polygons lose the area, lines the
    stretches inside it. Used to keep projected light off the pieces on the table.

    >>> sq = Overlay("reach", (((0, 0), (10, 0), (10, 10), (0, 10)),))
    >>> left = cut_out([sq], shapely.box(5, 0, 20, 20))
    >>> [round(shapely.Polygon(o.rings_mm[0]).area) for o in left]
    [50]
    """
    if keep_out is None or keep_out.is_empty:
        return list(overlays)
    out: list[Overlay] = []
    for ov in overlays:
        if ov.closed:
            geom = shapely.Polygon(ov.rings_mm[0], ov.rings_mm[1:]).buffer(0)
        else:
            geom = shapely.MultiLineString([r for r in ov.rings_mm if len(r) >= 2])
        rest = geom.difference(keep_out)
        for part in getattr(rest, "geoms", [rest]):
            if part.is_empty:
                continue
            if isinstance(part, shapely.Polygon):
                rings = (tuple(part.exterior.coords),
                         *(tuple(r.coords) for r in part.interiors))
                out.append(Overlay(ov.layer, rings, True))
            elif isinstance(part, shapely.LineString):
                out.append(Overlay(ov.layer, (tuple(part.coords),), False))
    return out


def _pose_json(d: Mapping[str, Any]) -> Pose:
    return Pose(float(d["stern"][0]), float(d["stern"][1]), float(d["heading"]))


def overlays_from_last_move(move: Mapping[str, Any], dims: PieceDims) -> list[Overlay]:
    """Overlays for the session's ``last_move`` entry (``before``, ``after`` and the verdict's
    ``steps`` when it has them, else the straight before → after)."""
    before = _pose_json(move["before"])
    steps = [_pose_json(s) for s in move.get("steps") or ()] or [_pose_json(move["after"])]
    return overlays_from_move(before, steps, dims)


def overlays_from_session(session: Any, ship_id: str | None,
                          verdict: Mapping[str, Any] | None = None) -> list[Overlay]:
    """Overlays for the web server's ``Session``: the selected ship's zones
    (``session.zones``), the last shot's ruler and line of fire, and ``session.last_move``.
    A ship that is not (or no longer) on the table just leaves its zones out."""
    out: list[Overlay] = []
    if ship_id:
        with suppress(LookupError, ValueError):
            out.extend(overlays_from_zones(session.zones(ship_id)))
    if verdict:
        out.extend(overlays_from_verdict(verdict))
    move = getattr(session, "last_move", None)
    if move:
        try:
            table = session.table()
            dims = session.config.pieces.dims(table.ship(move["ship"]).size)
        except (LookupError, KeyError, ValueError, AttributeError):
            dims = None
        if dims is not None:
            out.extend(overlays_from_last_move(move, dims))
    return out


def overlays_from_json(body: Mapping[str, Any], dims: PieceDims | None = None) -> list[Overlay]:
    """Overlays from a POST body (see :func:`post_overlays`); table mm."""
    out: list[Overlay] = []
    for i, o in enumerate(body.get("overlays") or ()):
        if not isinstance(o, dict):
            raise ValueError(f"overlays[{i}]: expected an object")
        out.append(Overlay(str(o.get("layer")), _rings(o.get("rings") or ()),
                           bool(o.get("closed", True))))
    if body.get("zones"):
        out.extend(overlays_from_zones(body["zones"]))
    if body.get("verdict"):
        out.extend(overlays_from_verdict(body["verdict"]))
    if body.get("last_move"):
        from armada_vision.geometry.pieces import NOMINAL_PIECES, Size

        size = body["last_move"].get("size", "large")
        out.extend(overlays_from_last_move(body["last_move"],
                                           dims or NOMINAL_PIECES.dims(Size.parse(size))))
    return out
