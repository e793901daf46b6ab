"""The rules of Armada as geometry (docs/rules.md). numpy, shapely and stdlib only; pure.

>>> from armada_vision.geometry import Pose
>>> table = Table(PlayArea.rectangle(0, 0, 600, 600), (
...     Ship("L1", "A", "large", Pose(300, 300, 90)),
...     Ship("S1", "B", "small", Pose(335, 320, 90)),
... ))
>>> adjudicate_shot(table, "L1", "S1").verdict
'yes'
>>> adjudicate_move(table, "L1", Pose(300, 300 + 46.2287, 90)).verdict
'yes'
"""

from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.doubt import allowance_mm, in_doubt, piece_sigma_mm
from armada_vision.rules.fire import adjudicate_shot, firing_zones
from armada_vision.rules.game import (
    GameState,
    apply_move,
    apply_shot,
    end_turn,
    new_game,
    victory,
)
from armada_vision.rules.move import adjudicate_move
from armada_vision.rules.reach import reachable_region
from armada_vision.rules.scene import Scene, answer_scene, parse_scene
from armada_vision.rules.setup import check_setup
from armada_vision.rules.step import StepOptions, adjudicate_step, step_options, step_zone
from armada_vision.rules.table import Obstacle, PlayArea, Ship, Table
from armada_vision.rules.verdict import Verdict

__all__ = [
    "DEFAULT_CONFIG",
    "GameState",
    "Obstacle",
    "PlayArea",
    "RulesConfig",
    "Scene",
    "Ship",
    "StepOptions",
    "Table",
    "Verdict",
    "adjudicate_move",
    "adjudicate_shot",
    "adjudicate_step",
    "allowance_mm",
    "answer_scene",
    "apply_move",
    "apply_shot",
    "check_setup",
    "end_turn",
    "firing_zones",
    "in_doubt",
    "new_game",
    "parse_scene",
    "piece_sigma_mm",
    "reachable_region",
    "step_options",
    "step_zone",
    "victory",
]
