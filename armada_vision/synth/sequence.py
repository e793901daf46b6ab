"""A short game of Armada rendered as frames, with the true event list (events.json).

Two players (A: red, near side; B: blue, far side) play turns of up to three actions. A step
puts the spare on the old tip and lifts the old piece (rules.md §4): every step here is legal
with room to spare (turn at most the §4.2 limit − 3°, silhouettes 3 mm clear of everything else
and of the play-area edge), unless an event says ``"legal": false`` (a deliberate foul for the
game log to flag). Shots are staged only when the ruler covers the target at least 3 mm deep with
a line of fire 4 mm clear (§5), so every hit is a clear yes. Between actions the table settles
(no hand); during them a hand comes in from the player's side. Frames: table mm truth per frame.

>>> seq = build_sequence(1, max_frames=40)
>>> len(seq.frames) <= 40, seq.frames[0].settled, seq.frames[-1].settled
(True, True, True)
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import shapely
from shapely.ops import polylabel

from armada_vision.geometry.layout import TableLayout, standard_layout
from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceSet, Size
from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.geometry.shapes import SIDES, footprint, ruler_local, ruler_slide_mm, silhouette
from armada_vision.synth.random_scene import fit_camera
from armada_vision.synth.scene import CameraSpec, Chit, Hand, PieceSpec, SceneSpec

TURN_MARGIN_DEG = 3.0
CLEAR_MM = 3.0
DEPTH_MM = 3.0
LINE_CLEAR_MM = 4.0
FPS = 2.0
PLAYERS = {"A": {"color": "red", "side_y": -260.0}, "B": {"color": "blue", "side_y": 860.0}}


@dataclass(slots=True)
class Piece:
    """A piece on the table during the game (mutable while scripting)."""

    id: str
    player: str
    size: Size
    pose: Pose
    role: str = "ship"           # ship | spare
    damage: int = 0


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame: what is on the table (pieces, chits), the hand if any, and whether the table
    is settled (nothing moving)."""

    pieces: tuple[tuple[str, str, str, str, Pose, str], ...]   # id, player, size, color, pose, role
    chits: tuple[Chit, ...]
    hand: Hand | None
    settled: bool
    action: int | None           # index of the event being performed, if any


@dataclass(slots=True)
class Sequence:
    """The scripted game: layout, camera, frames and true events (table mm)."""

    name: str
    seed: int
    layout: TableLayout
    camera: CameraSpec
    surface: str
    frames: list[Frame] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    ships0: list[dict[str, Any]] = field(default_factory=list)
    piece_set: PieceSet = NOMINAL_PIECES


class _Game:
    def __init__(self, seq: Sequence, rng: np.random.Generator, max_frames: int | None) -> None:
        self.seq, self.rng, self.max_frames = seq, rng, max_frames
        self.area = shapely.Polygon(seq.layout.play_area_mm)
        self.pieces: dict[str, Piece] = {}
        self.chits: list[tuple[str, Chit]] = []   # (ship id, chit)

    # --- bookkeeping -------------------------------------------------------------------------
    def full(self) -> bool:
        return self.max_frames is not None and len(self.seq.frames) >= self.max_frames

    def snap(self, hand: Hand | None = None, settled: bool = False) -> None:
        if self.full():
            return
        pieces = tuple((p.id, p.player, p.size.value, PLAYERS[p.player]["color"], p.pose, p.role)
                       for p in self.pieces.values())
        action = len(self.seq.events) - 1 if not settled and self.seq.events else None
        self.seq.frames.append(Frame(pieces, tuple(c for _, c in self.chits), hand,
                                     settled, action))

    def settle(self, n: int = 2) -> None:
        for _ in range(n):
            self.snap(settled=True)

    def hand_at(self, player: str, xy: tuple[float, float], height: float) -> Hand:
        y = PLAYERS[player]["side_y"]
        return Hand((xy[0] + 40.0, y), xy, height)

    def dims(self, p: Piece):
        return self.seq.piece_set.dims(p.size)

    def sil(self, p: Piece, pose: Pose | None = None) -> shapely.Polygon:
        return silhouette(pose or p.pose, self.dims(p))

    def spare_of(self, player: str, size: Size) -> Piece:
        return self.pieces[f"{player}-spare-{size.value}"]

    # --- legality (conservative, table mm) ---------------------------------------------------
    def step_ok(self, ship: Piece, new: Pose, exempt: set[str]) -> bool:
        d = self.dims(ship)
        if abs(angle_diff_deg(new.heading_deg, ship.pose.heading_deg)) > (
                d.max_turn_deg - TURN_MARGIN_DEG):
            return False
        sil = self.sil(ship, new)
        if not self.area.buffer(-CLEAR_MM).contains(sil):
            return False
        for q in self.pieces.values():
            if q.id in exempt or q.id == ship.id:
                continue
            if sil.distance(self.sil(q)) < CLEAR_MM:
                return False
        return all(sil.distance(shapely.Point(c.center_mm).buffer(c.radius_mm)) >= CLEAR_MM
                   for _, c in self.chits)

    def shot(self, shooter: Piece, target: Piece) -> dict[str, Any] | None:
        """A clear in-range, unobstructed ruler placement (§5), or None."""
        d, ruler = self.dims(shooter), self.seq.piece_set.large
        tgt = footprint(target.pose, self.dims(target))
        if tgt.distance(footprint(shooter.pose, d)) > ruler.footprint_length_mm + 1:
            return None
        best = None
        for side in SIDES:
            for t in np.linspace(0, max(ruler_slide_mm(d, ruler), 0.0), 25):
                tri = shooter.pose.to_table(ruler_local(d, ruler, side, float(t)))
                inter = shapely.Polygon(tri).intersection(tgt)
                if inter.is_empty or inter.area <= 0 or inter.geom_type != "Polygon":
                    continue
                depth = float(polylabel(inter, 0.05).distance(inter.exterior))
                if depth < DEPTH_MM or (best and depth <= best["depth_mm"]):
                    continue
                lof = shapely.MultiPoint([tuple(tri[0]), tuple(tri[2]),
                                          *inter.exterior.coords]).convex_hull
                blocked = any(lof.distance(self.sil(q)) < LINE_CLEAR_MM
                              for q in self.pieces.values()
                              if q.id not in (shooter.id, target.id))
                if not blocked:
                    best = {"side": side, "offset_mm": float(t), "depth_mm": depth,
                            "ruler": [[float(x), float(y)] for x, y in tri]}
        return best

    # --- actions -----------------------------------------------------------------------------
    def move(self, ship: Piece, goal: Any, n_steps: int, force_turn: float | None = None) -> bool:
        """Move ``ship`` up to ``n_steps`` steps; each step picks the legal turn whose outcome
        scores best under ``goal(pose) -> float`` (lower is better). Returns False if stuck."""
        d = self.dims(ship)
        lim = d.max_turn_deg - TURN_MARGIN_DEG
        spare = self.spare_of(ship.player, ship.size)
        start = ship.pose
        steps: list[dict[str, Any]] = []
        legal, reason = True, None
        plan: list[Pose] = []
        cur = Piece(ship.id, ship.player, ship.size, ship.pose)
        for k in range(n_steps):
            tip = cur.pose.tip_mm(d.footprint_length_mm)
            if force_turn is not None and k == 0:
                new = Pose(tip[0], tip[1], cur.pose.heading_deg + force_turn)
                legal = abs(force_turn) < d.max_turn_deg
                reason = None if legal else (
                    f"§4.2 step 1 turns {abs(force_turn):.1f}° (limit {d.max_turn_deg:.2f}°)")
            else:
                cands = [Pose(tip[0], tip[1], cur.pose.heading_deg + a)
                         for a in np.linspace(-lim, lim, 41)]
                cands = [c for c in cands if self.step_ok(cur, c, {spare.id})]
                if not cands:
                    break
                new = min(cands, key=goal)
            plan.append(new)
            steps.append({"stern": [new.x_mm, new.y_mm], "heading": new.heading_deg,
                          "turn": angle_diff_deg(new.heading_deg, cur.pose.heading_deg)})
            cur = Piece(ship.id, ship.player, ship.size, new)
            if goal(new) < 1.0:
                break
        if not plan:
            return False
        ev = {"type": "move", "player": ship.player, "ship": ship.id, "size": ship.size.value,
              "from": {"stern": [start.x_mm, start.y_mm], "heading": start.heading_deg},
              "to": {"stern": [plan[-1].x_mm, plan[-1].y_mm], "heading": plan[-1].heading_deg},
              "steps": steps, "legal": legal}
        if reason:
            ev["reason"] = reason
        self.begin(ev)
        # Pick up the spare.
        sp = spare.pose
        self.snap(self.hand_at(ship.player, sp.stern_mm, 90.0))
        del self.pieces[spare.id]
        self.snap(self.hand_at(ship.player, sp.stern_mm, 60.0))
        for new in plan:
            # Place the piece in hand at the tip (both now on the table), then lift the old one.
            self.pieces["_placed"] = Piece(f"{ship.id}'", ship.player, ship.size, new,
                                           role="placing")
            self.snap(self.hand_at(ship.player, new.tip_mm(d.footprint_length_mm), 45.0))
            old = ship.pose
            ship.pose = new
            del self.pieces["_placed"]
            self.snap(self.hand_at(ship.player, old.stern_mm, 50.0))
        # Put the spare back and withdraw.
        self.pieces[spare.id] = spare
        self.snap(self.hand_at(ship.player, sp.stern_mm, 60.0))
        self.snap(self.hand_at(ship.player, (sp.x_mm, sp.y_mm + (
            -60 if ship.player == "A" else 60)), 120.0))
        self.settle()
        return True

    def begin(self, ev: dict[str, Any]) -> None:
        ev["frame"] = len(self.seq.frames)
        ev["t_s"] = ev["frame"] / FPS
        self.seq.events.append(ev)

    def fire(self, shooter: Piece, target: Piece, placement: dict[str, Any] | None,
             declared_only: bool = False) -> None:
        hit = placement is not None
        ev = {"type": "shot", "player": shooter.player, "shooter": shooter.id,
              "target": target.id, "hit": hit, "legal": hit}
        if placement:
            ev.update({"side": placement["side"], "ruler": placement["ruler"],
                       "depth_mm": round(placement["depth_mm"], 3)})
        else:
            ev["reason"] = "§5 target not in range or line of fire blocked"
        self.begin(ev)
        mid = np.mean(placement["ruler"], axis=0) if placement else np.mean(
            [shooter.pose.stern_mm, target.pose.stern_mm], axis=0)
        self.snap(self.hand_at(shooter.player, (float(mid[0]), float(mid[1])), 70.0))
        self.snap(self.hand_at(shooter.player, (float(mid[0]), float(mid[1])), 40.0))
        if hit:
            target.damage += 1
            self.add_chit(target)
            self.snap(self.hand_at(shooter.player, self.chits[-1][1].center_mm, 45.0))
            self.seq.events.append({"type": "damage", "ship": target.id,
                                    "damage": target.damage, "frame": len(self.seq.frames),
                                    "t_s": len(self.seq.frames) / FPS})
            if target.damage >= target.size.pips:
                self.seq.events.append({"type": "sunk", "ship": target.id,
                                        "frame": len(self.seq.frames),
                                        "t_s": len(self.seq.frames) / FPS})
                self.snap(self.hand_at(shooter.player, target.pose.stern_mm, 40.0))
                del self.pieces[target.id]
                self.chits = [(s, c) for s, c in self.chits if s != target.id]
                self.snap(self.hand_at(shooter.player, target.pose.stern_mm, 90.0))
        self.settle()

    def add_chit(self, target: Piece) -> None:
        """Damage chits lie off the play area on the target owner's side, one per hit."""
        y = 66.0 if target.player == "A" else self.seq.layout.play_area_mm[2][1] + 14.0
        k = len(self.chits)
        x = 360.0 + 22.0 * k
        self.chits.append((target.id, Chit((x, y), 8.0, "yellow", str(target.damage))))

    def end_turn(self, player: str) -> None:
        self.seq.events.append({"type": "turn_end", "player": player,
                                "frame": len(self.seq.frames), "t_s": len(self.seq.frames) / FPS})


def build_sequence(seed: int, *, name: str = "demo", image_size: tuple[int, int] = (1280, 720),
                   surface: str | None = None, max_frames: int | None = None,
                   turns: int = 8, foul: bool = False, tilt_deg: float = 12.0) -> Sequence:
    """Script a game (no rendering). ``foul`` adds one deliberately illegal step (§4.2)."""
    rng = np.random.default_rng([seed, 3])
    table = (600.0, 600.0)
    layout = standard_layout(*table)
    camera = fit_camera(image_size, table, 1100.0, tilt_deg, 0.0)
    seq = Sequence(name, seed, layout, camera, surface or str(rng.choice(["wood", "felt"])))
    g = _Game(seq, rng, None)
    x0 = float(rng.uniform(-30, 30))
    fleet = {"A": [("L1", Size.LARGE, 220), ("L2", Size.LARGE, 350)],
             "B": [("M1", Size.MEDIUM, 180), ("S1", Size.SMALL, 260), ("S2", Size.SMALL, 330),
                   ("M2", Size.MEDIUM, 410)]}
    for player, ships in fleet.items():
        for sid, size, x in ships:
            y, h = (120.0, 90.0) if player == "A" else (470.0, 270.0)
            pose = Pose(x + x0 + float(rng.uniform(-8, 8)), y + float(rng.uniform(-10, 10)),
                        h + float(rng.uniform(-15, 15)))
            g.pieces[sid] = Piece(sid, player, size, pose)
        # Spares (and the Large one is the ruler) lie off the play area, between the markers.
        ys = 30.0 if player == "A" else table[1] - 30.0
        for size, x in ((Size.LARGE, 72.0), (Size.MEDIUM, 134.0), (Size.SMALL, 186.0)):
            px = x if player == "A" else table[0] - x
            g.pieces[f"{player}-spare-{size.value}"] = Piece(
                f"{player}-spare-{size.value}", player, size,
                Pose(px, ys, 0.0 if player == "A" else 180.0), role="spare")
    seq.ships0 = [{"id": p.id, "player": p.player, "size": p.size.value,
                   "color": PLAYERS[p.player]["color"], "stern": [p.pose.x_mm, p.pose.y_mm],
                   "heading": p.pose.heading_deg} for p in g.pieces.values() if p.role == "ship"]
    g.settle(3)
    order = ["B", "A"]
    fouled = not foul
    for turn in range(turns):
        player = order[turn % 2]
        moved: set[str] = set()
        fired: dict[str, int] = {}
        for _action in range(3):
            if g.full():
                break
            mine = [p for p in g.pieces.values() if p.role == "ship" and p.player == player]
            theirs = [p for p in g.pieces.values() if p.role == "ship" and p.player != player]
            if not mine or not theirs:
                break
            shots = [(s, t, pl) for s in mine if fired.get(s.id, 0) < s.size.pips
                     for t in theirs if (pl := g.shot(s, t)) is not None]
            if shots:
                s, t, pl = max(shots, key=lambda x: x[2]["depth_mm"])
                fired[s.id] = fired.get(s.id, 0) + 1
                g.fire(s, t, pl)
                continue
            can_move = [p for p in mine if p.id not in moved]
            if not can_move:
                break
            ship = min(can_move, key=lambda p: min(g.sil(p).distance(g.sil(t)) for t in theirs))
            target = min(theirs, key=lambda t: g.sil(ship).distance(g.sil(t)))
            goal = _broadside_goal(g, ship, target)
            if not fouled and ship.size == Size.SMALL:
                fouled = True
                g.move(ship, goal, 1, force_turn=84.0 if rng.random() < 0.5 else -84.0)
            elif not g.move(ship, goal, ship.size.max_steps):
                continue
            moved.add(ship.id)
        g.end_turn(player)
        if not [p for p in g.pieces.values() if p.role == "ship" and p.player != player]:
            seq.events.append({"type": "victory", "player": player,
                               "frame": len(seq.frames), "t_s": len(seq.frames) / FPS})
            break
    g.settle(2)
    if max_frames is not None:
        _truncate(seq, max_frames)
    return seq


def _truncate(seq: Sequence, max_frames: int) -> None:
    """Keep at most ``max_frames`` frames, cut where the table has settled after a whole action
    (so the events kept all happened in the frames kept)."""
    f = seq.frames
    cut = max(k for k in range(1, min(max_frames, len(f)) + 1)
              if (f[k - 1].settled and (k == len(f) or not f[k].settled))
              or k == 1)
    del f[cut:]
    seq.events = [e for e in seq.events if e["frame"] < cut
                  or (e["frame"] == cut and e["type"] in ("turn_end", "victory"))]


def _broadside_goal(g: _Game, ship: Piece, target: Piece):
    """Score a pose: short of contact, bring the target abeam at about half a ruler's length."""
    d = g.dims(ship)
    tgt = g.sil(target)
    tc = np.array(tgt.centroid.coords[0])

    def score(p: Pose) -> float:
        mid = np.array(p.tip_mm(d.footprint_length_mm / 2))
        u = np.array(p.direction)
        rel = tc - mid
        along = float(rel @ u)
        across = abs(float(rel[0] * u[1] - rel[1] * u[0]))
        return abs(across - 30.0) + 0.8 * abs(along) + (0.0 if g.shot(
            replace(ship, pose=p), target) is None else -100.0)

    return score


def frame_spec(seq: Sequence, i: int, noise_sigma: float = 1.5,
               jpeg_quality: int | None = 85) -> SceneSpec:
    """The scene of frame ``i`` (same table texture for every frame, fresh sensor noise)."""
    f = seq.frames[i]
    pieces = tuple(PieceSpec(size, color, pose) for _id, _pl, size, color, pose, _r in f.pieces)
    extras = f.chits + ((f.hand,) if f.hand else ())
    return SceneSpec(seq.layout, seq.camera, pieces, seq.surface, extras,
                     noise_sigma=noise_sigma, jpeg_quality=jpeg_quality,
                     seed=seq.seed * 100003 + i, table_seed=seq.seed,
                     piece_set=seq.piece_set, table_mm=(600.0, 600.0))


def frame_truth(seq: Sequence, i: int) -> dict[str, Any]:
    f = seq.frames[i]
    d = seq.piece_set
    return {"index": i, "file": f"frame_{i:04d}.jpg", "t_s": i / FPS, "settled": f.settled,
            "hand": f.hand is not None, "action": f.action,
            "pieces": [{"id": pid, "player": pl, "role": role, "size": size, "color": color,
                        "stern": [pose.x_mm, pose.y_mm],
                        "tip": list(pose.tip_mm(d.dims(size).footprint_length_mm)),
                        "heading": pose.heading_deg}
                       for pid, pl, size, color, pose, role in f.pieces]}


def events_json(seq: Sequence) -> dict[str, Any]:
    """events.json: players, the opening position, the true events and per-frame truth."""
    return {"sequence": seq.name, "seed": seq.seed, "fps": FPS,
            "frame_count": len(seq.frames), "layout": "layout.json", "camera": "camera.json",
            "players": {k: {"color": v["color"], "side": "near" if k == "A" else "far"}
                        for k, v in PLAYERS.items()},
            "ships": seq.ships0, "events": seq.events,
            "frames": [frame_truth(seq, i) for i in range(len(seq.frames))]}


DEMO = {"seed": 1, "name": "demo", "foul": False, "max_frames": None, "surface": "wood"}


def write_demo(out_dir: str | Path) -> dict[str, Path]:
    """Render the demo game (the one in sample_images/sequences/demo) into ``out_dir``."""
    return write_sequence(build_sequence(**DEMO), out_dir, jpeg_quality=75, noise_sigma=1.2)


def render_sequence(seed: int, *, image_size: tuple[int, int] = (1280, 720),
                    surface: str | None = None, max_frames: int | None = None,
                    name: str = "demo", foul: bool = False) -> Sequence:
    """Script the game (rendering happens frame by frame in :func:`write_sequence`)."""
    return build_sequence(seed, name=name, image_size=image_size, surface=surface,
                          max_frames=max_frames, foul=foul)


def write_sequence(seq: Sequence, out_dir: str | Path, jpeg_quality: int = 85,
                   noise_sigma: float = 1.5) -> dict[str, Path]:
    """Render every frame to ``frame_NNNN.jpg`` and write layout.json, camera.json (with the
    pose) and events.json into ``out_dir``."""
    from armada_vision.synth.io import write_json
    from armada_vision.synth.render import render

    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    for i in range(len(seq.frames)):
        r = render(frame_spec(seq, i, noise_sigma, jpeg_quality))
        (out / f"frame_{i:04d}.jpg").write_bytes(r.encoded or b"")
    write_json(out / "layout.json", seq.layout.to_dict())
    write_json(out / "camera.json", seq.camera.to_dict())
    write_json(out / "events.json", events_json(seq))
    return {"dir": out, "events": out / "events.json"}


