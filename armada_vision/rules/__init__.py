"""The rules of Armada as geometry (docs/rules.md). numpy, shapely and stdlib only; pure."""

from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.doubt import allowance_mm, in_doubt, piece_sigma_mm
from armada_vision.rules.table import Obstacle, PlayArea, Ship, Table
from armada_vision.rules.verdict import Verdict

__all__ = [
    "DEFAULT_CONFIG",
    "Obstacle",
    "PlayArea",
    "RulesConfig",
    "Ship",
    "Table",
    "Verdict",
    "allowance_mm",
    "in_doubt",
    "piece_sigma_mm",
]
