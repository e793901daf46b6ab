"""Fits made side by side (issue 4, 720p cold detect speed, speed23): fits_from_axis and
leftover_piece run their fits through Scene.fits / Scene.screens (fit.fit_poses), and give the
very candidates the one-by-one fits give. Scenes and truth from the renderer."""

from __future__ import annotations

import pytest

import armada_vision.vision.scene as scene_mod
from armada_vision.geometry.pieces import NOMINAL_PIECES, Size
from armada_vision.geometry.pose import Pose
from armada_vision.geometry.shapes import footprint
from armada_vision.vision.explain import fits_from_axis, leftover_piece
from armada_vision.vision.fit import fit_pose, lying_local_3d, upright_local_3d
from armada_vision.vision.scene import CLASH_SHARE, Candidate, Scene
from armada_vision.vision.segment import blobs
from tests.test_explain import fresh, scene_and_truth, truth_pose


def one_by_one(monkeypatch: pytest.MonkeyPatch) -> None:
    """Scene.fits and Scene.screens as a loop of single fits (what they stand for)."""
    monkeypatch.setattr(Scene, "fits", lambda self, starts, **k: [
        self.fit(z, p, **k) for z, p in starts])
    monkeypatch.setattr(Scene, "screens", lambda self, starts, iterations=3: [
        self.screen(z, p, iterations) for z, p in starts])


def side_by_side_count(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of fits of each fit_poses call that fits more than one."""
    calls: list[int] = []
    real = scene_mod.fit_poses

    def counted(fg, grid, jobs, *a, **k):
        if len(jobs) > 1:
            calls.append(len(jobs))
        return real(fg, grid, jobs, *a, **k)

    monkeypatch.setattr(scene_mod, "fit_poses", counted)
    return calls


def single_count(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """One entry per fit or screen made on its own (fit.fit_pose called by the scene)."""
    calls: list[int] = []
    real = scene_mod.fit_pose

    def counted(*a, **k):
        calls.append(1)
        return real(*a, **k)

    monkeypatch.setattr(scene_mod, "fit_pose", counted)
    return calls


def same(a: list[Candidate], b: list[Candidate]) -> bool:
    return len(a) == len(b) and all(
        x.size == y.size and x.fit.pose == y.fit.pose and x.fit.cost == y.fit.cost
        and x.fit.sigma_mm == y.fit.sigma_mm for x, y in zip(a, b, strict=True))


def axis_starts(truth: list[dict]) -> list[tuple[Pose, float]]:
    """Axis guesses on each true piece: its stern, its stern turned round (the tip starts
    are then needed), and one 6 mm off."""
    out = []
    for p in truth:
        t = truth_pose(p)
        n = NOMINAL_PIECES.dims(Size(p["size"])).footprint_length_mm
        tip = t.tip_mm(n)
        out += [(t, n), (Pose(tip[0], tip[1], t.heading_deg + 180.0), n),
                (Pose(t.x_mm + 6.0, t.y_mm, t.heading_deg + 8.0), n + 7.0)]
    return out


@pytest.mark.parametrize("screened", [False, True])
def test_fits_from_axis_fits_side_by_side_what_one_by_one_fits_give(monkeypatch, screened):
    scene, truth = scene_and_truth()
    starts = axis_starts(truth)
    calls = side_by_side_count(monkeypatch)
    a, b = fresh(scene), fresh(scene)
    batched = [fits_from_axis(a, init, n, screened=screened) for init, n in starts]
    # (Screened, each size's three screens were already side by side: more than three.)
    assert calls and max(calls) > (3 if screened else 1), "no fits were made side by side"
    one_by_one(monkeypatch)
    plain = [fits_from_axis(b, init, n, screened=screened) for init, n in starts]
    assert all(same(x, y) for x, y in zip(batched, plain, strict=True))
    # Nothing more than a few extra fits of sizes not asked for (in memory only).
    assert sum(map(len, batched)) == sum(map(len, plain))


def test_leftover_piece_fits_side_by_side_what_one_by_one_fits_give(monkeypatch):
    scene, _truth = scene_and_truth()
    _mask, regions = blobs(scene.score, scene.grid)
    singles = single_count(monkeypatch)
    a, b = fresh(scene), fresh(scene)
    batched = [leftover_piece(a, region, sub, []) for sub, region in regions]
    n_batched = len(singles)
    assert any(batched), "no region gave a piece: nothing compared"
    one_by_one(monkeypatch)
    plain = [leftover_piece(b, region, sub, []) for sub, region in regions]
    assert all(same(x, y) for x, y in zip(batched, plain, strict=True))
    # The corners' screens and fits side by side: far fewer made on their own.
    assert n_batched < 0.5 * (len(singles) - n_batched), (n_batched, len(singles) - n_batched)


def test_a_pairs_overlap_is_remembered_and_equals_the_plain_test():
    scene, truth = scene_and_truth()
    s = fresh(scene)
    cands = [s.fit(Size(p["size"]), Pose(t.x_mm + dx, t.y_mm, t.heading_deg))
             for p in truth for t in [truth_pose(p)] for dx in (0.0, 6.0, 15.0)]
    for c in cands:
        for o in cands:
            fc = footprint(c.fit.pose, NOMINAL_PIECES.dims(c.size))
            fo = footprint(o.fit.pose, NOMINAL_PIECES.dims(o.size))
            plain = fc.intersection(fo).area >= CLASH_SHARE * min(fc.area, fo.area)
            assert s.overlap(c, o) == plain
    n = len(s._shapes)
    assert all(s.overlap(c, o) == s.overlap(c, o) for c in cands for o in cands)
    assert len(s._shapes) == n  # asked again: answered from memory


def test_a_scenes_bodies_are_made_once_and_fit_as_fresh_ones():
    """speed25: Scene._local keeps each size's body (lying or upright) for the scene; a fit
    with it is the fit with a body made afresh, and the stored body is never written to."""
    scene, truth = scene_and_truth()
    s = fresh(scene)
    for z in Size:
        d = NOMINAL_PIECES.dims(z)
        for upright, make in ((False, lying_local_3d), (True, upright_local_3d)):
            assert s._local(z, upright) is s._local(z, upright)
            assert s._local(z, upright).tobytes() == make(d).tobytes()
    p = truth[0]
    start = truth_pose(p)
    start = Pose(start.x_mm + 1.0, start.y_mm - 1.0, start.heading_deg + 2.0)
    got = s.fit(Size(p["size"]), start).fit
    want = fit_pose(s.fg, s.grid, lying_local_3d(NOMINAL_PIECES.dims(Size(p["size"]))), start,
                    s.camera_mm, give_up=scene_mod.GIVE_UP)
    assert (got.pose, got.cost, got.sigma_mm) == (want.pose, want.cost, want.sigma_mm)
    assert s._local(Size(p["size"]), False).tobytes() == lying_local_3d(
        NOMINAL_PIECES.dims(Size(p["size"]))).tobytes()
