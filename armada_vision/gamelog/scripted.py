"""Detections built from known poses: drive the recorder without a camera.

A tracker reports lying pieces with stable track ids; these helpers build the same
``DetectedPiece`` lists from ships whose poses are known (a scripted game, or a rendered
sequence's ground truth), so the recorder can be played and tested without OpenCV. Poses are
table-frame mm.

>>> from armada_vision.geometry.pose import Pose
>>> from armada_vision.rules.table import Ship
>>> (d,) = detections_of([Ship("L1", "A", "large", Pose(100, 100, 0))])
>>> d.track_id, d.size.value, [round(c, 3) for c in d.tip_mm]
('t-L1', 'large', [146.229, 100.0])
"""

from __future__ import annotations

from collections.abc import Iterable

from armada_vision.gamelog.events import Change
from armada_vision.gamelog.recorder import Recorder
from armada_vision.gamelog.store import GameStore
from armada_vision.geometry.pieces import Size
from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.table import Ship
from armada_vision.vision.types import DetectedPiece


def detected(size: Size | str, pose: Pose, *, track_id: str | None = None,
             color: str = "unknown", sigma_mm: float = 0.3, sigma_deg: float = 0.4,
             in_play_area: bool = True, config: RulesConfig = DEFAULT_CONFIG) -> DetectedPiece:
    """One lying piece as a tracker would report it."""
    z = Size.parse(size)
    tip = pose.tip_mm(config.pieces.dims(z).footprint_length_mm)
    return DetectedPiece(z, color, pose, tip, sigma_mm, sigma_deg, in_play_area,
                         track_id=track_id)


def detections_of(ships: Iterable[Ship], *, sigma_mm: float = 0.3, sigma_deg: float = 0.4,
                  config: RulesConfig = DEFAULT_CONFIG) -> list[DetectedPiece]:
    """The pieces of ``ships`` as detections, track id ``t-<ship id>``."""
    return [detected(s.size, s.pose, track_id=f"t-{s.id}", color=s.color, sigma_mm=sigma_mm,
                     sigma_deg=sigma_deg, config=config) for s in ships]


def stepped(pose: Pose, size: Size | str, turns_deg: Iterable[float], *,
            config: RulesConfig = DEFAULT_CONFIG) -> Pose:
    """Where a ship ends after steps turning by ``turns_deg`` each (rules.md §4.1: each new
    stern on the old tip), table mm.

    >>> stepped(Pose(0, 0, 0), "large", [90.0]).heading_deg
    90.0
    """
    s = config.pieces.dims(Size.parse(size)).footprint_length_mm
    for t in turns_deg:
        x, y = pose.tip_mm(s)
        pose = Pose(x, y, pose.heading_deg + t)
    return pose


class ScriptedTable:
    """A table whose pieces a test moves by hand: ``view()`` is what a tracker would report.

    >>> from armada_vision.rules.table import Ship
    >>> t = ScriptedTable([Ship("M1", "B", "medium", Pose(300, 300, 180))])
    >>> t.step("M1", [0, 0]).x_mm < 300 - 72, len(t.view())
    (True, 1)
    >>> t.remove("M1"); t.view()
    []
    """

    def __init__(self, ships: Iterable[Ship], *, config: RulesConfig = DEFAULT_CONFIG,
                 sigma_mm: float = 0.3, sigma_deg: float = 0.4) -> None:
        self.config = config
        self.sizes = {s.id: s.size for s in ships}
        self.poses: dict[str, Pose | None] = {s.id: s.pose for s in ships}
        self.extras: list[DetectedPiece] = []
        self.sigma_mm, self.sigma_deg = sigma_mm, sigma_deg

    def step(self, ship_id: str, turns_deg: Iterable[float]) -> Pose:
        pose = self.poses[ship_id]
        assert pose is not None, f"{ship_id} is off the table"
        self.poses[ship_id] = stepped(pose, self.sizes[ship_id], turns_deg, config=self.config)
        return self.poses[ship_id]

    def place(self, ship_id: str, pose: Pose | None) -> None:
        self.poses[ship_id] = pose

    def remove(self, ship_id: str) -> None:
        self.poses[ship_id] = None

    def view(self) -> list[DetectedPiece]:
        out = [detected(self.sizes[k], p, track_id=f"t-{k}", sigma_mm=self.sigma_mm,
                        sigma_deg=self.sigma_deg, config=self.config)
               for k, p in self.poses.items() if p is not None]
        return out + list(self.extras)


def scripted_game(store: GameStore | None = None, game_id: str = "club-7") -> Recorder:
    """A short game with every kind of event, recorded with the real rules on a 600 mm
    square play area: a hit and a sinking, legal and illegal moves, a flag put right by
    putting the piece back, a knocked piece and a stray, a correction, an undo."""
    ships = (Ship("L1", "A", "large", Pose(100, 100, 0)),
             Ship("L2", "A", "large", Pose(100, 400, 0)),
             Ship("M1", "B", "medium", Pose(450, 450, 180)),
             Ship("S1", "B", "small", Pose(110, 140, 0)))
    table = ScriptedTable(ships)
    rec = Recorder.start(store, game_id=game_id, players=("A", "B"), ships=ships,
                         play_area=((0, 0), (600, 0), (600, 600), (0, 600)),
                         table="60×60 cm table", date="2026-11-23",
                         calibration='markers 0–7, "good" 0.21 px', pieces=table.view())
    rec.check_setup()                                       # S1 starts far too close to L1
    rec.declare_shot("L1", "S1")                            # hit, S1 sunk
    table.remove("S1")
    rec.observe(table.view(), frame="f10")                 # sinking
    table.step("L1", [10.0])
    rec.observe(table.view(), frame="f20")                 # legal move
    rec.declare_shot("L1", "M1")                            # out of range: miss
    rec.end_turn()
    table.step("M1", [10.0, -20.0])
    rec.observe(table.view(), frame="f30")                 # legal 2-step move
    m1 = table.poses["M1"]
    table.step("M1", [0.0])
    rec.observe(table.view(), frame="f40")                 # moved twice: illegal, flagged
    table.place("M1", m1)
    rec.observe(table.view(), frame="f50")                 # put back: restored
    table.step("L2", [0.0])
    table.extras.append(detected("small", Pose(300, 250, 30)))
    flag = rec.observe(table.view(), frame="f60")[-1]      # A's ship moved + a stray: flagged
    rec.correct(flag.n, "set", changes=(Change("L2", table.poses["L2"], Pose(100, 400, 0)),),
                note="L2 was knocked {by a sleeve}; put back")
    rec.record_hit("L2", by="M1", note="agreed")
    rec.undo(note="no, it missed")
    rec.end_turn()
    return rec
