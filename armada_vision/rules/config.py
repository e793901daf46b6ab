"""Configuration of the rules core: piece dimensions, doubt floor, placement tolerance."""

from __future__ import annotations

from dataclasses import dataclass, field

from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceDims, PieceSet


@dataclass(frozen=True, slots=True)
class RulesConfig:
    """Every tunable number of the rules, with the defaults of rules.md.

    - ``pieces``: dimensions of the set in play (nominal, or a user's caliper measurements).
    - ``doubt_floor_mm``: what no sigma captures (§7), added to every doubt allowance.
    - ``place_tol_mm`` / ``place_tol_deg``: how far a hand-placed piece may sit from the
      reconstructed step end and still count as there (§4), each on its own.
    - ``setup_error_mm`` / ``setup_warn_mm``: the 10–12 inch enemy distance of setup (§2).
    - ``strict_sweep``: also check the sweep of a turn, not only where the piece is placed (§4.4).
    """

    pieces: PieceSet = field(default=NOMINAL_PIECES)
    doubt_floor_mm: float = 0.25
    place_tol_mm: float = 2.0
    place_tol_deg: float = 3.0
    setup_error_mm: float = 254.0
    setup_warn_mm: float = 305.0
    strict_sweep: bool = False

    @property
    def ruler(self) -> PieceDims:
        """Every ship fires with the Large (§5)."""
        return self.pieces.large


DEFAULT_CONFIG = RulesConfig()
