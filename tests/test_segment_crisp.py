"""The holes the crisp edges enclose once their gaps are closed (segment.closed_holes): a
clear piece's outline that breaks for a pixel or two still encloses the piece (issue 4,
clear27), and nothing else is joined."""
from __future__ import annotations

import cv2
import numpy as np

from armada_vision.vision.segment import CLOSE_GAP_MM, closed_holes

PPM = 1.5  # the detector's view: px per mm


def _outline(gap_px: int) -> np.ndarray:
    """A lying medium's footprint as seen (a 40 px triangle), its outline a band 2 px wide
    as the crisp edges draw it, its lit side broken by ``gap_px`` pixels (0/1 uint8)."""
    e = np.zeros((80, 80), np.uint8)
    cv2.polylines(e, [np.array([[20, 20], [60, 20], [40, 70]], np.int32)], True, 1, 2)
    if gap_px:
        e[17:24, 40:40 + gap_px] = 0
    return e


def _filled(edges: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = np.zeros_like(edges)
    cv2.drawContours(out, contours, -1, 1, thickness=cv2.FILLED)
    return out


def test_an_outline_broken_for_two_pixels_encloses_the_piece() -> None:
    # 5104-set, e.g. 5193's clear medium on laminate: its crisp area was its edge band (0.39
    # of the footprint), its inside left out; closed, 1.0.
    e = _outline(2)
    assert not _filled(e)[40, 40]  # the broken outline encloses nothing
    got = (_filled(e).view(bool) | closed_holes(e, _filled(e).view(bool), PPM))
    assert got[30:50, 35:45].all()
    # The gap itself is no part of it (only holes are added).
    assert not got[19:21, 40:42].any()


def test_an_outline_broken_wider_than_the_closing_stays_open() -> None:
    e = _outline(round(2 * CLOSE_GAP_MM * PPM))
    assert not (_filled(e).view(bool) | closed_holes(e, _filled(e).view(bool), PPM))[40, 40]


def test_two_areas_a_pixel_apart_are_not_joined() -> None:
    # A closing bridges them, but a bridge is no hole: the crisp pass's areas stay apart.
    e = np.zeros((40, 60), np.uint8)
    cv2.rectangle(e, (5, 5), (25, 30), 1, 1)
    cv2.rectangle(e, (28, 5), (50, 30), 1, 1)
    got = (_filled(e).view(bool) | closed_holes(e, _filled(e).view(bool), PPM))
    assert np.array_equal(got, _filled(e).view(bool))
