"""Play a rendered sequence's ground truth (``events.json`` of ``sample_images/sequences/*``)
through the recorder, as a tracker and a phone would: per-frame pieces become detections with
stable track ids (the truth's piece ids), hand frames are occluded, shots and turn ends are
declared at the frame the truth says. This tests the log without the vision layer, and lets a
demo record a game from a sequence. Everything is table-frame mm.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import shapely

from armada_vision.gamelog.events import Damage, Event, Flagged, Move, Shot, Sinking, TurnEnd
from armada_vision.gamelog.judge import DEFAULT_JUDGE, Judge
from armada_vision.gamelog.recorder import Recorder
from armada_vision.gamelog.store import GameStore
from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.table import Ship
from armada_vision.vision.types import DetectedPiece, VisionFailure

Point = tuple[float, float]


def _pose(d: Mapping[str, Any], field: str) -> Pose:
    try:
        (x, y), h = d["stern"], d["heading"]
        return Pose(float(x), float(y), float(h))
    except (KeyError, TypeError, ValueError):
        raise ValueError(f"{field}: expected stern [x, y] and heading") from None


def truth_players(truth: Mapping[str, Any]) -> tuple[str, ...]:
    """Players in turn order: whoever acts first, then the others as listed."""
    listed = list(truth.get("players", {}))
    first = next((e["player"] for e in truth.get("events", []) if "player" in e), None)
    return tuple(([first] if first else []) + [p for p in listed if p != first])


def truth_ships(truth: Mapping[str, Any]) -> tuple[Ship, ...]:
    return tuple(Ship(s["id"], s["player"], Size.parse(s["size"]), _pose(s, f"ships[{i}]"),
                      color=s.get("color", "unknown"))
                 for i, s in enumerate(truth["ships"]))


def seen_ships(truth: Mapping[str, Any], pieces: Sequence[DetectedPiece], *,
               max_mm: float = 15.0) -> tuple[Ship, ...]:
    """The truth's opening ships (ids, players) as the camera saw them: the pose, σ and colour
    of the nearest detected piece of the same size whose stern is within ``max_mm`` (table mm),
    as a live game starts from its first settled view. A ship nobody detected is a
    ``ValueError`` naming it."""
    out, used = [], set()
    for i, s in enumerate(truth["ships"]):
        size, stern = Size.parse(s["size"]), s["stern"]
        near = [(math.dist(d.pose.stern_mm, stern), k) for k, d in enumerate(pieces)
                if d.size == size and k not in used]
        dist, k = min(near, default=(math.inf, -1))
        if dist > max_mm:
            raise ValueError(f"ships[{i}]: {s['id']} ({s['size']}) was not detected within "
                             f"{max_mm:g} mm of {stern}")
        used.add(k)
        d = pieces[k]
        out.append(Ship(s["id"], s["player"], size, d.pose, 0, d.sigma_mm, d.sigma_deg,
                        s.get("color", d.color)))
    return tuple(out)


def record_from_views(truth: Mapping[str, Any], views: Iterable[Any],
                      play_area: Sequence[Point], *, store: GameStore | None = None,
                      game_id: str | None = None, judge: Judge = DEFAULT_JUDGE,
                      config: RulesConfig = DEFAULT_CONFIG, accept_flags: bool = False,
                      table: str = "table") -> Recorder:
    """Record a rendered sequence as the camera saw it: ``views`` are the tracker's states
    (``vision.track.TrackState``, one per frame of ``truth["frames"]``, in order). The game
    starts at the first settled view with the ships where they were seen
    (:func:`seen_ships`); shots and turn ends are declared at the truth's frames, as a phone
    would. ``accept_flags``: the players accept every flagged move (the rendered game goes on
    whatever the log said), so the turn's count of actions follows the truth's."""
    phone: dict[int, list[Mapping[str, Any]]] = {}
    for e in truth.get("events", []):
        if e.get("type") in ("shot", "turn_end"):
            phone.setdefault(int(e["frame"]), []).append(e)
    rec: Recorder | None = None
    frames = truth["frames"]
    for frame, view in zip(frames, views, strict=False):
        i = int(frame["index"])
        if rec is None:
            if getattr(view, "settled", False) and getattr(view, "failure", None) is None:
                rec = Recorder.start(
                    store, game_id=game_id or str(truth.get("sequence", "sequence")),
                    players=truth_players(truth), ships=seen_ships(truth, view.pieces),
                    play_area=play_area, table=table, config=config, judge=judge,
                    pieces=view.pieces)
            continue
        for e in phone.get(i, []):
            if e["type"] == "shot":
                rec.declare_shot(e["shooter"], e["target"])
            elif rec.state.player == e["player"] and rec.state.result is None:
                rec.end_turn()
        logged = rec.observe_track(view, frame=str(frame.get("file", i)))
        if accept_flags:
            for ev in logged:
                if isinstance(ev, Flagged) and isinstance(rec.events[(ev.cause or 1) - 1], Move):
                    rec.correct(ev.n, "accept", note="the game went on (rendered sequence)")
    if rec is None:
        raise ValueError("views: the table never settled")
    for e in phone.get(len(frames), []):
        if e["type"] == "turn_end" and rec.state.player == e["player"]:
            rec.end_turn()
    return rec


def record_sequence(folder: Path, *, game_id: str | None = None,
                    accept_flags: bool = True) -> tuple[Recorder, dict[str, Any]]:
    """A rendered sequence folder (frames, ``events.json``, ``layout.json``, ``camera.json``)
    seen frame by frame by the vision tracker and recorded (:func:`record_from_views`, flags
    accepted by default so the game goes on as rendered). Returns the recorder and the truth.
    Minutes of CPU: detection runs on every settled change."""
    import json

    from armada_vision.vision.io import load_camera_file, load_layout_file, read_image
    from armada_vision.vision.track import Tracker

    truth = json.loads((folder / "events.json").read_text(encoding="utf-8"))
    layout = load_layout_file(folder / "layout.json")
    tracker = Tracker(layout, load_camera_file(folder / "camera.json"))
    fps = float(truth.get("fps", 2.0))

    def views() -> Iterable[Any]:
        for f in truth["frames"]:
            img = read_image(folder / f["file"])
            if isinstance(img, VisionFailure):
                raise ValueError(f"frames: {img.reason}")
            yield tracker.update(img, int(f["index"]) / fps)

    rec = record_from_views(truth, views(), layout.play_area_mm, game_id=game_id,
                            accept_flags=accept_flags)
    return rec, truth


def frame_detections(frame: Mapping[str, Any], play_area: Sequence[Point], *,
                     config: RulesConfig = DEFAULT_CONFIG, sigma_mm: float = 0.3,
                     sigma_deg: float = 0.4, noise: random.Random | None = None
                     ) -> list[DetectedPiece]:
    """The lying pieces of one truth frame as a tracker would report them; ``noise`` adds
    Gaussian pose noise of the given σ."""
    area = shapely.Polygon(play_area)
    out = []
    for i, p in enumerate(frame["pieces"]):
        size = Size.parse(p["size"])
        pose = _pose(p, f"frames[{frame.get('index')}].pieces[{i}]")
        if noise is not None:
            pose = pose.moved(noise.gauss(0, sigma_mm), noise.gauss(0, sigma_mm),
                              noise.gauss(0, sigma_deg))
        d = config.pieces.dims(size)
        inside = bool(area.contains(footprint(pose, d)))
        out.append(DetectedPiece(size, p.get("color", "unknown"), pose,
                                 pose.tip_mm(d.footprint_length_mm), sigma_mm, sigma_deg,
                                 inside, track_id=str(p["id"])))
    return out


def record_from_truth(truth: Mapping[str, Any], play_area: Sequence[Point], *,
                      store: GameStore | None = None, game_id: str | None = None,
                      judge: Judge = DEFAULT_JUDGE, config: RulesConfig = DEFAULT_CONFIG,
                      noise_seed: int | None = None, sigma_mm: float = 0.1,
                      sigma_deg: float = 0.1, accept_fouls: bool = True,
                      table: str = "table") -> Recorder:
    """Record the game of an ``events.json`` object. ``accept_fouls``: the rendered game goes
    on after a deliberate foul, so the players are taken to accept each flagged illegal move
    (logged as a correction) and the turn's count of actions matches the truth's.
    ``sigma_mm`` / ``sigma_deg``: the σ the detections claim; with ``noise_seed`` the poses are
    also perturbed by that much."""
    rng = random.Random(noise_seed) if noise_seed is not None else None
    frames = truth["frames"]
    rec = Recorder.start(
        store, game_id=game_id or str(truth.get("sequence", "sequence")),
        players=truth_players(truth), ships=truth_ships(truth), play_area=play_area,
        table=table, config=config, judge=judge,
        calibration="ground truth (no camera)",
        pieces=frame_detections(frames[0], play_area, config=config, sigma_mm=sigma_mm,
                                sigma_deg=sigma_deg) if frames else ())
    phone: dict[int, list[Mapping[str, Any]]] = {}
    for e in truth.get("events", []):
        if e.get("type") in ("shot", "turn_end"):
            phone.setdefault(int(e["frame"]), []).append(e)
    for frame in frames:
        i = int(frame["index"])
        for e in phone.get(i, []):
            if e["type"] == "shot":
                rec.declare_shot(e["shooter"], e["target"])
            elif rec.state.player == e["player"] and rec.state.result is None:
                rec.end_turn()       # unless the third action already ended it
        dets = frame_detections(frame, play_area, config=config, noise=rng,
                                sigma_mm=sigma_mm, sigma_deg=sigma_deg)
        logged = rec.observe(dets, settled=bool(frame["settled"]), occluded=bool(frame["hand"]),
                             frame=str(frame.get("file", i)))
        if accept_fouls:
            for ev in logged:
                if isinstance(ev, Flagged) and isinstance(rec.events[(ev.cause or 1) - 1], Move):
                    rec.correct(ev.n, "accept", note="the game went on (rendered truth)")
    # The truth's last turn end may fall after the last frame.
    for e in phone.get(len(frames), []):
        if e["type"] == "turn_end" and rec.state.player == e["player"]:
            rec.end_turn()
    return rec


def observable_events(truth: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The true events a camera could see completed: a sequence cut at a frame budget may list
    a move whose frames end before the table settles again."""
    last = max((f["index"] for f in truth["frames"] if f["settled"]), default=-1)
    return [e for e in truth["events"] if e["type"] != "move" or e["frame"] < last]


def truth_actions(truth: Mapping[str, Any]) -> list[tuple]:
    """The true events as comparable tuples: ``("move", ship, legal)``, ``("shot", shooter,
    target, hit)``, ``("damage", ship, total)``, ``("sinking", ship)``, ``("turn_end",
    player)``."""
    out: list[tuple] = []
    for e in observable_events(truth):
        t = e["type"]
        if t == "move":
            out.append(("move", e["ship"], bool(e["legal"])))
        elif t == "shot":
            out.append(("shot", e["shooter"], e["target"], bool(e["hit"])))
        elif t == "damage":
            out.append(("damage", e["ship"], e["damage"]))
        elif t == "sunk":
            out.append(("sinking", e["ship"]))
        elif t == "turn_end":
            out.append(("turn_end", e["player"]))
    return out


def log_actions(events: Sequence[Event]) -> list[tuple]:
    """The logged events as the tuples of :func:`truth_actions` (flags, corrections, undos and
    results left out)."""
    out: list[tuple] = []
    for e in events:
        if isinstance(e, Move):
            out.append(("move", e.ship, e.verdict.yes))
        elif isinstance(e, Shot):
            out.append(("shot", e.shooter, e.target, e.verdict.yes))
        elif isinstance(e, Damage):
            out.append(("damage", e.ship, e.damage))
        elif isinstance(e, Sinking):
            out.append(("sinking", e.ship))
        elif isinstance(e, TurnEnd):
            out.append(("turn_end", e.player))
    return out
