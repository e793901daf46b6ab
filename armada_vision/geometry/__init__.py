"""Pure geometry of lying pyramids: sizes, poses, shapes. numpy, shapely and stdlib only."""

from armada_vision.geometry.pieces import NOMINAL_PIECES, PieceDims, PieceSet, Size
from armada_vision.geometry.pose import Pose, angle_diff_deg, normalize_deg
from armada_vision.geometry.shapes import (
    SIDES,
    Side,
    body_local_3d,
    firing_zone,
    firing_zone_local,
    footprint,
    footprint_local,
    long_side_local,
    ruler_local,
    ruler_slide_mm,
    silhouette,
    silhouette_local,
)

__all__ = [
    "NOMINAL_PIECES",
    "SIDES",
    "PieceDims",
    "PieceSet",
    "Pose",
    "Side",
    "Size",
    "angle_diff_deg",
    "body_local_3d",
    "firing_zone",
    "firing_zone_local",
    "footprint",
    "footprint_local",
    "long_side_local",
    "normalize_deg",
    "ruler_local",
    "ruler_slide_mm",
    "silhouette",
    "silhouette_local",
]
