"""``armada-vision zones SCENE.json --ship ID --svg OUT.svg``: draw one ship's zones to scale.

The SVG shows the play area, every ship and obstacle, the ship's one-step zone (§4), its full-move
reachable region and both firing zones (§5), with a millimetre scale bar, so a person can check
the geometry by eye. Table frame mm (+y away from the viewer) is drawn with +y up.
"""

from __future__ import annotations

import argparse
import html
import math
from pathlib import Path
from typing import Any

from armada_vision.cli import CliError, read_json

PLAYER_COLOURS = ("#1f5fbf", "#b8860b", "#2e8b57", "#8b3a8b", "#555555", "#c0392b")
STYLE = {
    "reach": ("#9ecae1", 0.45, "full-move reachable region"),
    "step": ("#3182bd", 0.55, "one-step zone"),
    "port": ("#e6550d", 0.35, "firing zone, port"),
    "starboard": ("#d62728", 0.35, "firing zone, starboard"),
}


def add_parser(sub: Any) -> None:
    p = sub.add_parser("zones", help="draw a ship's step, move and firing zones as SVG",
                       description=__doc__.splitlines()[0].split(": ", 1)[1])
    p.add_argument("scene", help="scene JSON file (interfaces.md)")
    p.add_argument("--ship", required=True, help="id of the ship to draw the zones of")
    p.add_argument("--svg", required=True, help="output SVG file")
    p.add_argument("--resolution-deg", type=float, default=1.0,
                   help="angular resolution of the drawn zones (default 1°)")
    p.add_argument("--whole-table", action="store_true",
                   help="draw the whole play area instead of the ship's neighbourhood")
    p.add_argument("--width-px", type=int, default=900, help="drawing width (default 900 px)")
    p.set_defaults(run=run)


class _View:
    """Table mm → SVG px: x right, y flipped so the table's +y points up the page."""

    def __init__(self, bounds: tuple[float, float, float, float], width_px: int, pad_px: int):
        x0, y0, x1, y1 = bounds
        self.x0, self.y1 = x0, y1
        self.k = (width_px - 2 * pad_px) / max(x1 - x0, 1e-6)
        self.pad = pad_px
        self.w = width_px
        self.h = math.ceil((y1 - y0) * self.k) + 2 * pad_px + 40

    def pt(self, x: float, y: float) -> tuple[float, float]:
        return (self.pad + (x - self.x0) * self.k, self.pad + (self.y1 - y) * self.k)

    def path(self, geom: Any) -> str:
        parts = []
        for poly in _polygons(geom):
            for ring in (poly.exterior, *poly.interiors):
                pts = [self.pt(x, y) for x, y in ring.coords]
                parts.append("M" + " L".join(f"{a:.2f},{b:.2f}" for a, b in pts) + " Z")
        return " ".join(parts)


def _polygons(geom: Any) -> list[Any]:
    if geom is None or geom.is_empty:
        return []
    if geom.geom_type == "Polygon":
        return [geom]
    if hasattr(geom, "geoms"):
        return [p for g in geom.geoms for p in _polygons(g)]
    return []


def _reach(table: Any, ship_id: str, config: Any, resolution_deg: float) -> Any | None:
    """The other engineer's full-move region, wherever it lives; None if not built."""
    for mod in ("armada_vision.rules.reach", "armada_vision.rules.move"):
        try:
            m = __import__(mod, fromlist=["reachable_region"])
        except ImportError:
            continue
        fn = getattr(m, "reachable_region", None)
        if fn is not None:
            return fn(table, ship_id, config, resolution_deg=resolution_deg)
    return None


def render_svg(table: Any, ship_id: str, config: Any, *, resolution_deg: float = 1.0,
               whole_table: bool = False, width_px: int = 900) -> str:
    """The SVG text of ``ship_id``'s zones on ``table`` (table mm, drawn to scale)."""
    import shapely

    from armada_vision.rules.fire import firing_zones
    from armada_vision.rules.step import step_zone

    ship = table.ship(ship_id)
    layers: dict[str, Any] = {}
    reach = _reach(table, ship_id, config, resolution_deg)
    if reach is not None:
        layers["reach"] = reach
    layers["step"] = step_zone(table, ship_id, config, resolution_deg=resolution_deg)
    layers.update(firing_zones(table, ship_id, config))

    area = table.play_area.shape
    if whole_table:
        bounds = area.bounds
    else:
        focus = shapely.union_all([ship.silhouette(config), *[g for g in layers.values()
                                                              if not g.is_empty]])
        bounds = focus.buffer(40.0).bounds
    v = _View(bounds, width_px, 20)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{v.w}" height="{v.h}" '
           f'viewBox="0 0 {v.w} {v.h}" font-family="sans-serif" font-size="12">',
           f'<rect width="{v.w}" height="{v.h}" fill="white"/>',
           f'<clipPath id="view"><rect x="0" y="0" width="{v.w}" height="{v.h - 40}"/>'
           '</clipPath><g clip-path="url(#view)">',
           f'<path d="{v.path(area)}" fill="#f7f4ea" stroke="#888" stroke-dasharray="6 4"/>']
    for key in ("reach", "step", "port", "starboard"):
        if key in layers:
            colour, alpha, _ = STYLE[key]
            out.append(f'<path d="{v.path(layers[key])}" fill="{colour}" fill-opacity="{alpha}" '
                       f'stroke="{colour}" stroke-width="1" fill-rule="evenodd"/>')
    for o in table.obstacles:
        out.append(f'<path d="{v.path(o.shape)}" fill="#999" stroke="#444"/>')
        cx, cy = v.pt(*o.shape.centroid.coords[0])
        out.append(f'<text x="{cx:.1f}" y="{cy:.1f}" text-anchor="middle">'
                   f'{html.escape(o.id)}</text>')
    players = sorted({s.player for s in table.ships})
    for s in table.ships:
        colour = PLAYER_COLOURS[players.index(s.player) % len(PLAYER_COLOURS)]
        width = 2.5 if s.id == ship_id else 1.0
        out.append(f'<path d="{v.path(s.silhouette(config))}" fill="{colour}" '
                   f'fill-opacity="0.25" stroke="{colour}" stroke-width="{width}"/>')
        out.append(f'<path d="{v.path(s.footprint(config))}" fill="{colour}" '
                   f'fill-opacity="0.6" stroke="none"/>')
        cx, cy = v.pt(*s.footprint(config).centroid.coords[0])
        out.append(f'<text x="{cx:.1f}" y="{cy - 8:.1f}" text-anchor="middle" '
                   f'font-weight="bold">{html.escape(s.id)}</text>')
    out.append("</g>")

    # Scale bar: a round length near a fifth of the drawing, ticked every tenth.
    span_mm = (v.w - 2 * v.pad) / v.k
    bar = max(b for b in (10, 20, 50, 100, 200, 500, 1000) if b <= max(span_mm / 5, 10))
    x0, y0 = v.pad, v.h - 22
    out.append(f'<rect x="{x0}" y="{y0}" width="{bar * v.k:.2f}" height="6" fill="black"/>')
    for i in range(11):
        xt = x0 + i * bar * v.k / 10
        out.append(f'<line x1="{xt:.2f}" y1="{y0 - 3}" x2="{xt:.2f}" y2="{y0 + 6}" '
                   'stroke="black"/>')
    out.append(f'<text x="{x0 + bar * v.k + 6:.1f}" y="{y0 + 7}">{bar} mm</text>')
    # Legend and title.
    lx = x0 + bar * v.k + 70
    for key, (colour, alpha, label) in STYLE.items():
        text = label if key in layers else f"{label}: not available"
        out.append(f'<rect x="{lx:.1f}" y="{y0 - 4}" width="12" height="12" fill="{colour}" '
                   f'fill-opacity="{alpha}"/><text x="{lx + 16:.1f}" y="{y0 + 7}">'
                   f'{html.escape(text)}</text>')
        lx += 16 + 7 * len(text)
    p = ship.pose
    title = (f"{ship.id} ({ship.size.value}, player {ship.player}) at ({p.x_mm:.1f}, "
             f"{p.y_mm:.1f}) mm heading {p.heading_deg:.1f}°")
    out.append(f'<text x="{v.pad}" y="14" font-weight="bold">{html.escape(title)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    from armada_vision.rules.scene import parse_scene

    try:
        scene = parse_scene(read_json(args.scene, "scene"))
    except ValueError as e:
        raise CliError(f"scene {args.scene}: {e}") from None
    if not scene.table.has_ship(args.ship):
        raise CliError(f"--ship: no ship {args.ship!r} in {args.scene}")
    if not (0.05 <= args.resolution_deg <= 10):
        raise CliError("--resolution-deg: expected a number between 0.05 and 10")
    if not (200 <= args.width_px <= 10000):
        raise CliError("--width-px: expected 200 to 10000")
    svg = render_svg(scene.table, args.ship, scene.config, resolution_deg=args.resolution_deg,
                     whole_table=args.whole_table, width_px=args.width_px)
    out = Path(args.svg)
    try:
        out.write_text(svg, encoding="utf-8")
    except OSError as e:
        raise CliError(f"--svg {out}: cannot write ({e.strerror})") from None
    print(f"wrote {out}")
    return 0
