"""What lies on the table: ships, loose objects and the play area, as frozen values.

All coordinates are table-frame millimetres (+x right, +y away from the viewer).

>>> s = Ship("L1", "A", Size.LARGE, Pose(100.0, 200.0, 90.0))
>>> str(s).split()[:5]
['ship', 'id=L1', 'player=A', 'size=large', 'x_mm=100.0']
>>> Ship.parse(str(s)) == s
True
>>> s.with_damage(1).damage, s.damage
(1, 0)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

import shapely

from armada_vision.geometry.pieces import PieceDims, Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint, silhouette
from armada_vision.geometry.text import format_fields, parse_fields, take_float
from armada_vision.rules.config import RulesConfig
from armada_vision.rules.doubt import piece_sigma_mm

Point = tuple[float, float]


def _check_id(value: object, field: str) -> str:
    if not isinstance(value, str) or not value or any(c.isspace() or c == "=" for c in value):
        raise ValueError(f"{field}: expected a non-empty name without spaces, got {value!r}")
    return value


def _check_sigma(value: object, field: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ValueError(f"{field}: expected a number, got {value!r}")
    if value < 0:
        raise ValueError(f"{field}: must not be negative, got {value!r}")
    return float(value)


@dataclass(frozen=True, slots=True)
class Ship:
    """A lying piece in play: id, owning player, size, pose, damage taken, pose uncertainty.

    ``sigma_mm`` is the stern position's standard deviation (mm), ``sigma_deg`` the heading's.
    """

    id: str
    player: str
    size: Size
    pose: Pose
    damage: int = 0
    sigma_mm: float = 0.0
    sigma_deg: float = 0.0
    color: str = "unknown"

    def __post_init__(self) -> None:
        _check_id(self.id, "id")
        _check_id(self.player, "player")
        object.__setattr__(self, "size", Size.parse(self.size))
        if not isinstance(self.pose, Pose):
            raise ValueError(f"pose: expected a Pose, got {self.pose!r}")
        if isinstance(self.damage, bool) or not isinstance(self.damage, int) or self.damage < 0:
            raise ValueError(f"damage: expected a whole number ≥ 0, got {self.damage!r}")
        object.__setattr__(self, "sigma_mm", _check_sigma(self.sigma_mm, "sigma_mm"))
        object.__setattr__(self, "sigma_deg", _check_sigma(self.sigma_deg, "sigma_deg"))
        _check_id(self.color, "color")

    @property
    def pips(self) -> int:
        return self.size.pips

    @property
    def sunk(self) -> bool:
        return self.damage >= self.size.pips

    def dims(self, config: RulesConfig) -> PieceDims:
        return config.pieces.dims(self.size)

    def footprint(self, config: RulesConfig) -> shapely.Polygon:
        return footprint(self.pose, self.dims(config))

    def silhouette(self, config: RulesConfig) -> shapely.Polygon:
        return silhouette(self.pose, self.dims(config))

    def tip_mm(self, config: RulesConfig) -> Point:
        return self.pose.tip_mm(self.dims(config).footprint_length_mm)

    def sigma_total_mm(self, config: RulesConfig) -> float:
        """Positional σ of §7: sigma_mm + s · sigma_deg (radians)."""
        return piece_sigma_mm(self.sigma_mm, self.sigma_deg, self.dims(config).footprint_length_mm)

    def with_pose(self, pose: Pose) -> Ship:
        return replace(self, pose=pose)

    def with_damage(self, damage: int) -> Ship:
        return replace(self, damage=damage)

    def __str__(self) -> str:
        return format_fields("ship", {
            "id": self.id, "player": self.player, "size": self.size.value,
            "x_mm": self.pose.x_mm, "y_mm": self.pose.y_mm, "heading_deg": self.pose.heading_deg,
            "damage": self.damage, "sigma_mm": self.sigma_mm, "sigma_deg": self.sigma_deg,
            "color": self.color,
        })

    @classmethod
    def parse(cls, text: str) -> Ship:
        f = parse_fields(text, "ship")
        for key in ("id", "player", "size"):
            if key not in f:
                raise ValueError(f"ship: missing field {key!r}")
        try:
            damage = int(f.get("damage", "0"))
        except ValueError:
            bad = f["damage"]
            raise ValueError(f"ship: field 'damage' is not a whole number: {bad!r}") from None
        pose = Pose(*(take_float(f, k, "ship") for k in ("x_mm", "y_mm", "heading_deg")))
        return cls(f["id"], f["player"], Size.parse(f["size"]), pose, damage,
                   take_float(f, "sigma_mm", "ship", 0.0), take_float(f, "sigma_deg", "ship", 0.0),
                   f.get("color", "unknown"))


def _polygon(points: Iterable[Point], field: str) -> tuple[Point, ...]:
    try:
        pts = tuple((float(x), float(y)) for x, y in points)
    except (TypeError, ValueError):
        raise ValueError(f"{field}: expected a list of [x, y] points") from None
    if len(pts) < 3 or not all(math.isfinite(c) for p in pts for c in p):
        raise ValueError(f"{field}: expected at least 3 finite [x, y] points")
    poly = shapely.Polygon(pts)
    if not poly.is_valid or poly.area <= 0:
        raise ValueError(f"{field}: polygon is self-intersecting or has no area")
    return pts


@dataclass(frozen=True, slots=True)
class Obstacle:
    """Anything on the table that is not a ship: a spare, a loose piece, a declared obstacle.
    A fixed obstacle has σ = 0 unless measured."""

    id: str
    polygon_mm: tuple[Point, ...]
    sigma_mm: float = 0.0

    def __post_init__(self) -> None:
        _check_id(self.id, "id")
        object.__setattr__(self, "polygon_mm", _polygon(self.polygon_mm, f"objects.{self.id}"))
        object.__setattr__(self, "sigma_mm", _check_sigma(self.sigma_mm, "sigma_mm"))

    @property
    def shape(self) -> shapely.Polygon:
        return shapely.Polygon(self.polygon_mm)


@dataclass(frozen=True, slots=True)
class PlayArea:
    """The playing surface; its boundary is "the edge of the playing surface"."""

    polygon_mm: tuple[Point, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "polygon_mm", _polygon(self.polygon_mm, "play_area"))

    @property
    def shape(self) -> shapely.Polygon:
        return shapely.Polygon(self.polygon_mm)

    @classmethod
    def rectangle(cls, x0: float, y0: float, x1: float, y1: float) -> PlayArea:
        return cls(((x0, y0), (x1, y0), (x1, y1), (x0, y1)))


@dataclass(frozen=True, slots=True)
class Table:
    """Everything on the table at one moment. Methods return new tables; nothing mutates."""

    play_area: PlayArea
    ships: tuple[Ship, ...] = ()
    obstacles: tuple[Obstacle, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "ships", tuple(self.ships))
        object.__setattr__(self, "obstacles", tuple(self.obstacles))
        ids = [s.id for s in self.ships] + [o.id for o in self.obstacles]
        dup = {i for i in ids if ids.count(i) > 1}
        if dup:
            raise ValueError(f"id: {sorted(dup)[0]!r} is used twice")

    def ship(self, ship_id: str) -> Ship:
        for s in self.ships:
            if s.id == ship_id:
                return s
        raise KeyError(ship_id)

    def has_ship(self, ship_id: str) -> bool:
        return any(s.id == ship_id for s in self.ships)

    def replace_ship(self, ship: Ship) -> Table:
        """A new table with the ship of the same id replaced."""
        self.ship(ship.id)
        return replace(self, ships=tuple(ship if s.id == ship.id else s for s in self.ships))

    def without_ship(self, ship_id: str) -> Table:
        self.ship(ship_id)
        return replace(self, ships=tuple(s for s in self.ships if s.id != ship_id))
