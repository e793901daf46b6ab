"""Looks of the Looney plastic and the other things on the table (BGR).

``transmit``: fraction of light passing one wall, per channel (0 = opaque); ``reflect``: the
colour the plastic scatters back (0–255).

>>> MATERIALS["black"].opaque, MATERIALS["clear"].opaque
(True, False)
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Material:
    transmit: tuple[float, float, float]
    reflect: tuple[float, float, float]

    @property
    def opaque(self) -> bool:
        return max(self.transmit) == 0.0


MATERIALS: dict[str, Material] = {
    "red": Material((0.10, 0.12, 0.88), (35, 35, 205)),
    "yellow": Material((0.12, 0.86, 0.94), (20, 200, 235)),
    "green": Material((0.30, 0.78, 0.12), (50, 165, 30)),
    "blue": Material((0.88, 0.40, 0.10), (210, 80, 25)),
    "orange": Material((0.06, 0.50, 0.94), (20, 120, 240)),
    "cyan": Material((0.90, 0.80, 0.18), (215, 180, 40)),
    "purple": Material((0.70, 0.16, 0.50), (150, 35, 110)),
    "clear": Material((0.90, 0.90, 0.90), (70, 70, 70)),
    "black": Material((0.0, 0.0, 0.0), (24, 24, 27)),
    "white": Material((0.0, 0.0, 0.0), (228, 230, 232)),
}

SKIN = (120.0, 150.0, 205.0)
PAPER = (236.0, 238.0, 238.0)
INK = (22.0, 22.0, 24.0)
FLOOR = (40.0, 44.0, 50.0)
CHIT_COLORS: dict[str, tuple[float, float, float]] = {
    "red": (40, 40, 190), "yellow": (40, 200, 225), "blue": (170, 80, 30),
    "green": (60, 150, 50), "white": (225, 225, 225), "black": (30, 30, 30)}
DIE_COLORS = CHIT_COLORS
COIN = (70, 150, 190)  # brass
