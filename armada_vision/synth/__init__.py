"""Synthetic tabletop scenes with exact ground truth: specs, renderer, random scenes, I/O."""

from armada_vision.synth.render import Rendered, render, truth
from armada_vision.synth.scene import (
    COLORS,
    SURFACES,
    CameraSpec,
    Chit,
    Coin,
    Die,
    Hand,
    PieceSpec,
    ProjectorSpec,
    SceneSpec,
)

__all__ = [
    "COLORS",
    "SURFACES",
    "CameraSpec",
    "Chit",
    "Coin",
    "Die",
    "Hand",
    "PieceSpec",
    "ProjectorSpec",
    "Rendered",
    "SceneSpec",
    "render",
    "truth",
]
