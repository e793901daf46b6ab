"""The doubt allowance of rules.md §7.

A piece's σ in mm is ``sigma_mm + s · sigma_deg`` (in radians), s its footprint length. The
allowance of a question about pieces a, b, … is ``2·√(σa² + σb² + …) + floor``. A fixed obstacle
or the play-area edge has σ = 0.

>>> round(piece_sigma_mm(0.3, 0.4, 46.229), 4)
0.6227
>>> round(allowance_mm([0.3, 0.4], floor_mm=0.25), 4)
1.25
>>> in_doubt(1.0, 1.25), in_doubt(-1.0, 1.25), in_doubt(1.3, 1.25)
(True, True, False)
"""

from __future__ import annotations

import math
from collections.abc import Iterable


def piece_sigma_mm(sigma_mm: float, sigma_deg: float, length_mm: float) -> float:
    """Positional σ of a piece in mm: its stern σ plus the tip's swing from the heading σ."""
    return sigma_mm + length_mm * math.radians(sigma_deg)


def allowance_mm(sigmas_mm: Iterable[float], floor_mm: float) -> float:
    """Doubt allowance 2·√(Σσ²) + floor, in mm."""
    return 2.0 * math.sqrt(sum(s * s for s in sigmas_mm)) + floor_mm


def in_doubt(margin_mm: float, allowance: float) -> bool:
    """A margin not larger in size than the allowance leaves the answer in doubt (so: no)."""
    return abs(margin_mm) <= allowance
