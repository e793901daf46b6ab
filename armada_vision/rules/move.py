"""A whole move seen on the table (rules.md §4): reconstruct the steps, or say what fails.

Coordinates are table-frame millimetres (+x right, +y away from the viewer), headings in degrees.

A move from ``before`` to ``after`` is legal when some sequence of 1…N legal steps (N = 4 / 2 / 1
for small / medium / large) ends within the placement tolerance of ``after``: the stern within
``place_tol_mm − a`` and the heading within ``place_tol_deg − a°``, each on its own. ``a`` is the
allowance between two positions of the same ship, ``allowance_mm([σ, σ], floor)`` with σ the
piece's §7 σ; ``a°`` is its angular counterpart ``2·√2·sigma_deg + floor/s`` in degrees (the
heading σ of both positions, the floor turned into degrees at the piece's length s), so a
pose σ of 0.3 mm / 0.3° leaves 0.5 mm and 1.6° of the default 2 mm / 3°.

Reconstruction. Step j puts stern S_j = S_{j−1} + s·u(h_{j−1}); the first new stern S_1 is the old
tip. With k steps the stern ends at S_1 + s·(u(h_1) + … + u(h_{k−1})): the last two links are
solved in closed form as the intersection of two circles of radius s (around S_{k−2} and around
the target), earlier headings are searched over a grid; the final heading is chosen inside the
exact legal interval of the last step (``step.options_at``) within the heading tolerance. Every
intermediate placement is checked (§4.4); the candidate with the largest clearance margin wins.
The targets are the observed stern first and, only when that fails, points of the tolerance disc.

>>> from armada_vision.rules.table import PlayArea, Ship, Table
>>> from armada_vision.geometry import Pose, Size
>>> m1 = Ship("M1", "A", Size.MEDIUM, Pose(200, 300, 0))
>>> t = Table(PlayArea.rectangle(0, 0, 600, 600), (m1,))
>>> v = adjudicate_move(t, "M1", Pose(200 + 2 * 36.307, 300, 20.0))
>>> v.verdict, len(v.steps)
('yes', 2)
>>> adjudicate_move(t, "M1", Pose(400, 300, 0.0)).decided_by
'distance'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
import shapely

from armada_vision.geometry.pose import Pose, angle_diff_deg
from armada_vision.rules import angles
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.reach import reachable_region
from armada_vision.rules.step import PLAY_AREA, StepEnv, options_at, ship_of
from armada_vision.rules.table import Table
from armada_vision.rules.verdict import Verdict

__all__ = ["adjudicate_move", "adjudicate_steps", "reachable_region"]

_SEARCH_DEG = 1.0        # grid of the free (earliest) headings of 4+ step moves
_FINAL_CANDIDATES = 4    # chains whose last step gets the exact interval treatment
_BATCH = 48              # chains whose intermediate steps are checked at a time
_MAX_FINISHES = 12       # last-step treatments per step count before giving up
_TIE = 1e-6              # failing chains this close (mm, degrees) are tied


@dataclass(frozen=True, slots=True)
class _Chain:
    """One reconstructed sequence of placements and how it fares."""

    poses: tuple[Pose, ...]
    slack_mm: float            # tightest clearance − allowance over all steps (> 0: clear)
    failed_step: int | None    # 1-based first step with slack ≤ 0
    which: int                 # object index at the failed / tightest step (−1 edge, −2 none)
    stern_err_mm: float
    score_mm: float            # tightest of every margin − allowance, in mm (angles at s)


def adjudicate_move(table: Table, ship_id: str, after: Pose,
                    config: RulesConfig = DEFAULT_CONFIG) -> Verdict:
    """Is ``after`` (table mm) where ``ship_id`` can end a move of 1…N steps from its pose on
    ``table``? ``Verdict.steps`` holds the reconstructed pose after each step."""
    ship = ship_of(table, ship_id)
    return adjudicate_steps(table, ship_id, after, config, max_steps=ship.size.max_steps)


def adjudicate_steps(table: Table, ship_id: str, after: Pose,
                     config: RulesConfig = DEFAULT_CONFIG, *, max_steps: int,
                     from_pose: Pose | None = None) -> Verdict:
    """Like :func:`adjudicate_move` with an explicit step limit and optional start pose."""
    if not isinstance(after, Pose):
        raise ValueError(f"after: expected a Pose, got {after!r}")
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps: expected a whole number ≥ 1, got {max_steps!r}")
    env = StepEnv.for_ship(table, ship_id, config)
    start = from_pose or env.ship.pose
    bad = _start_overlap(env, start)
    if bad is not None:
        return bad
    return _Reconstruction(env, start, after, config, max_steps).verdict()


def _start_overlap(env: StepEnv, start: Pose) -> Verdict | None:
    """§4 needs a possible start: a ship lying on another piece is an error of the scene."""
    poly = env.silhouettes([start.x_mm], [start.y_mm], [start.heading_deg])[0]
    if not len(env.ids):
        return None
    idx = env.tree.query(poly, predicate="intersects")
    for j in idx:
        if shapely.area(shapely.intersection(poly, env.geoms[j])) > 1e-6:
            depth = env.signed_clearance(start, int(j))
            return Verdict.no(
                f"impossible start: {env.ship.id} already overlaps {env.ids[j]} by "
                f"{-depth:.2f} mm before moving", decided_by="state", margin_mm=depth,
                allowance_mm=float(env.allow[j]), blocker=env.ids[j])
    return None


def _two_link(p: np.ndarray, q: np.ndarray, s: float) -> tuple[np.ndarray, np.ndarray]:
    """Headings (deg) of two links of length s from points p to points q, both solutions:
    returns arrays (2M,) of first and second headings; NaN where |q − p| > 2s."""
    dv = q - p
    d = np.hypot(dv[:, 0], dv[:, 1])
    with np.errstate(invalid="ignore", divide="ignore"):
        hgt = np.sqrt(s * s - (d / 2.0) ** 2)
        perp = np.column_stack([-dv[:, 1], dv[:, 0]]) / d[:, None]
    mid = p + dv / 2.0
    firsts, seconds = [], []
    for sgn in (1.0, -1.0):
        knee = mid + sgn * hgt[:, None] * perp
        firsts.append(np.degrees(np.arctan2(knee[:, 1] - p[:, 1], knee[:, 0] - p[:, 0])))
        seconds.append(np.degrees(np.arctan2(q[:, 1] - knee[:, 1], q[:, 0] - knee[:, 0])))
    return np.concatenate(firsts), np.concatenate(seconds)


def _best_first(v: np.ndarray) -> np.ndarray:
    """Indices of ``v`` from largest to smallest; values equal to 1e-9 keep their order, so
    that moving the whole table (which changes the last bits) does not reorder them."""
    return np.argsort(-np.round(v, 9), kind="stable")


def _total_turn(start: Pose, poses: tuple[Pose, ...]) -> float:
    """Sum of a chain's turns in degrees (frame-independent)."""
    hs = [start.heading_deg] + [p.heading_deg for p in poses]
    return sum(abs(angle_diff_deg(b, a)) for a, b in pairwise(hs))


def _wrap(a: np.ndarray) -> np.ndarray:
    return (np.asarray(a) + 180.0) % 360.0 - 180.0


class _Reconstruction:
    def __init__(self, env: StepEnv, start: Pose, after: Pose, config: RulesConfig,
                 max_steps: int) -> None:
        self.env, self.start, self.after, self.config = env, start, after, config
        self.n = max_steps
        self.s = env.dims.footprint_length_mm
        self.a = env.a_self
        self.a_deg = env.a_self_deg
        self.rho = config.place_tol_mm - self.a
        self.tau = config.place_tol_deg - self.a_deg
        self.lim = env.turn_limit_deg
        self.mt = env.max_turn_deg
        self.s1 = np.array(start.tip_mm(self.s))
        self.target = np.array(after.stern_mm)
        self.d1 = float(np.hypot(*(self.target - self.s1)))

    # -- candidate chains (intermediate headings h_1 … h_{k−1}) ---------------------------------
    def _targets(self, ring: bool) -> np.ndarray:
        if not ring:
            return self.target[None, :]
        # Turned with the start heading, so that turning the table turns the ring too.
        ang = np.radians(self.start.heading_deg + np.arange(0, 360, 45))
        pts = [self.target + r * self.rho * np.column_stack([np.cos(ang), np.sin(ang)])
               for r in (0.5, 0.9)]
        return np.vstack(pts)

    def _chains(self, k: int, ring: bool) -> np.ndarray:
        """(M, k−1) absolute headings of the links that bring the stern to the target(s)."""
        s, h0 = self.s, self.start.heading_deg
        if k == 1:
            return np.zeros((1, 0)) if not ring else np.zeros((0, 0))
        if k == 2:
            if ring:
                return np.zeros((0, 1))
            d = self.d1
            if d < 1e-9:
                return np.zeros((0, 1))
            cosw = (s * s + d * d - self.rho ** 2) / (2 * s * d)
            if cosw > 1.0:
                return np.zeros((0, 1))
            w = math.degrees(math.acos(max(cosw, -1.0)))
            dv = self.target - self.s1
            mid = math.degrees(math.atan2(dv[1], dv[0]))
            # The exact heading first, then both ways across the tolerance window.
            side = np.linspace(0.1, 0.95, 9)
            frac = np.concatenate([[0.0], np.ravel(np.column_stack([side, -side]))])
            return (mid + w * frac)[:, None]
        tg = self._targets(ring)
        if k == 3:
            p = np.repeat(self.s1[None, :], len(tg), axis=0)
            h1, h2 = _two_link(p, tg, s)
            out = np.column_stack([h1, h2])
        else:
            free = k - 3
            grid = h0 + np.arange(-180.0, 180.0, _SEARCH_DEG)
            combos = np.array(np.meshgrid(*([grid] * free), indexing="ij")).reshape(free, -1).T
            pos = self.s1 + s * np.column_stack([
                np.sum(np.cos(np.radians(combos)), axis=1),
                np.sum(np.sin(np.radians(combos)), axis=1)])
            m, t = len(combos), len(tg)
            p = np.repeat(pos, t, axis=0)
            q = np.tile(tg, (m, 1))
            ha, hb = _two_link(p, q, s)
            pre = np.tile(np.repeat(combos, t, axis=0), (2, 1))
            out = np.column_stack([pre, ha, hb])
        return out[np.all(np.isfinite(out), axis=1)]

    def _turn_margins(self, k: int, chains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per chain: the smallest rule-2 margin mt − |φ| (deg) over its k turns, and the
        1-based step where it occurs. The last turn counts only what the heading tolerance
        cannot absorb."""
        h = np.column_stack([np.full(len(chains), self.start.heading_deg), chains])
        turns = np.abs(_wrap(np.diff(h, axis=1))) if k > 1 else np.zeros((len(chains), 0))
        last = np.abs(_wrap(self.after.heading_deg - h[:, -1]))
        last = np.maximum(last - self.tau, 0.0)
        allt = np.column_stack([turns, last])
        worst = np.argmax(allt, axis=1)
        return self.mt - allt[np.arange(len(chains)), worst], worst + 1

    def _poses(self, chain: np.ndarray) -> list[Pose]:
        """Placements after steps 1…k−1 of one chain (the last is chosen separately)."""
        out, stern = [], self.s1.copy()
        for h in chain:
            out.append(Pose(float(stern[0]), float(stern[1]), float(h)))
            stern = stern + self.s * np.array([math.cos(math.radians(h)),
                                               math.sin(math.radians(h))])
        return out

    def _intermediate_slack(self, chains: np.ndarray) -> tuple[np.ndarray, np.ndarray,
                                                                np.ndarray]:
        """Per chain: tightest slack over steps 1…k−1, the step (1-based) and object."""
        m, links = chains.shape
        if links == 0:
            return np.full(m, np.inf), np.zeros(m, dtype=int), np.full(m, -2)
        xs, ys = np.empty((m, links)), np.empty((m, links))
        x, y = np.full(m, self.s1[0]), np.full(m, self.s1[1])
        for j in range(links):
            xs[:, j], ys[:, j] = x, y
            r = np.radians(chains[:, j])
            x, y = x + self.s * np.cos(r), y + self.s * np.sin(r)
        slack, which, _ = self.env.evaluate(xs.ravel(), ys.ravel(), chains.ravel())
        slack, which = slack.reshape(m, links), which.reshape(m, links)
        first_bad = np.where(np.any(slack <= 0, axis=1), np.argmax(slack <= 0, axis=1),
                             np.argmin(slack, axis=1))
        rows = np.arange(m)
        return slack.min(axis=1), first_bad + 1, which[rows, first_bad]

    def _finish(self, chain: np.ndarray, inter_slack: tuple[float, int, int]) -> _Chain:
        """Choose the last step's heading inside its exact legal set within the tolerance."""
        env, k = self.env, chain.shape[0] + 1
        inter = self._poses(chain)
        prev = inter[-1] if inter else self.start
        stern = prev.tip_mm(self.s)
        err = float(np.hypot(stern[0] - self.target[0], stern[1] - self.target[1]))
        strict = self.config.strict_sweep
        isl_v, istep_v, iwh_v = inter_slack
        if strict and isl_v > 0:
            # The sweep of every intermediate turn must be clear too: check with exact sets.
            before = [self.start, *inter]
            for j in range(1, len(inter)):
                opts = options_at(env, before[j - 1], True)
                turn = angle_diff_deg(before[j].heading_deg, before[j - 1].heading_deg)
                if not opts.is_legal(turn):
                    b = opts.blocked_by(turn)
                    which = -1 if b is None or b.by == PLAY_AREA else (
                        env.ids.index(b.by) if b.by in env.ids else -2)
                    isl_v, istep_v, iwh_v = -1e-9, j, which
                    break
        opts = options_at(env, prev, strict)
        delta = angle_diff_deg(self.after.heading_deg, prev.heading_deg)
        window = ((delta - self.tau, delta + self.tau),)
        ok = angles.intersect(opts.legal_deg, window)
        if angles.contains(ok, delta):
            cand = np.array([delta])
        elif ok:
            cand = np.concatenate([np.linspace(lo, hi, 7)[1:-1] for lo, hi in ok])
        else:
            cand = np.array([float(np.clip(delta, -self.lim + 1e-9, self.lim - 1e-9))])
        heads = prev.heading_deg + cand
        sl, wh, _ = env.evaluate(np.full(len(cand), stern[0]), np.full(len(cand), stern[1]),
                                 heads)
        if not ok:
            sl = np.minimum(sl, 0.0)   # nothing legal in the window: this chain fails here
        best = int(np.argmax(sl - 1e-9 * np.abs(cand - delta)))
        poses = (*inter, Pose(stern[0], stern[1], float(heads[best])))
        fsl, fwh = float(sl[best]), int(wh[best])
        score = min(isl_v, fsl, self._kinematic_slack(poses, err))
        if isl_v <= 0:
            return _Chain(poses, min(isl_v, fsl), istep_v, iwh_v, err, score)
        if fsl <= 0:
            return _Chain(poses, fsl, k, fwh, err, score)
        tight_which = iwh_v if isl_v < fsl else fwh
        return _Chain(poses, min(isl_v, fsl), None, tight_which, err, score)

    def _kinematic_slack(self, poses: tuple[Pose, ...], err: float) -> float:
        """Tightest of the turn, stern and heading margins less their allowances, in mm."""
        hs = [self.start.heading_deg] + [p.heading_deg for p in poses]
        turn = max(abs(angle_diff_deg(b, a)) for a, b in pairwise(hs))
        head = abs(angle_diff_deg(self.after.heading_deg, hs[-1]))
        deg = min(self.mt - turn - self.a_deg, self.config.place_tol_deg - head - self.a_deg)
        return min(self.config.place_tol_mm - err - self.a, self.s * math.radians(deg))

    # -- the verdict -----------------------------------------------------------------------------
    def verdict(self) -> Verdict:
        if self.lim <= 0:
            return self._no_tolerance()
        if self.rho > 0 and self.tau > 0:
            return self._search()
        # The allowance eats the whole tolerance, so no move can be a yes; but a move that fails
        # even when every measurement is read in its favour (tolerance widened by the allowance)
        # is a plain no, with what failed: a clear foul must not hide behind "in doubt".
        self.rho = self.config.place_tol_mm + self.a
        self.tau = self.config.place_tol_deg + self.a_deg
        generous = self._search()
        if generous.yes:
            return self._no_tolerance(generous.steps)
        return generous

    def _no_tolerance(self, steps: tuple[Pose, ...] = ()) -> Verdict:
        return Verdict.no(
            f"the doubt allowance ({self.a:.2f} mm, {self.a_deg:.2f}°) leaves no placement "
            "tolerance", decided_by="distance", margin_mm=self.config.place_tol_mm,
            allowance_mm=self.a, steps=steps)

    def _search(self) -> Verdict:
        best_turn: tuple[float, int, int] | None = None     # (margin_deg, step, k)
        finished: list[_Chain] = []
        reached_any = False
        for ring in (False, True):
            for k in range(1, self.n + 1):
                chains = self._chains(k, ring)
                if not len(chains):
                    continue
                sterns = self.s1 + self.s * np.column_stack(
                    [np.sum(np.cos(np.radians(chains)), axis=1),
                     np.sum(np.sin(np.radians(chains)), axis=1)])
                err = np.hypot(*(sterns - self.target).T)
                keep = err < self.rho
                chains, err = chains[keep], err[keep]
                if not len(chains):
                    continue
                reached_any = True
                tm, tstep = self._turn_margins(k, chains)
                i = int(np.argmax(tm))
                if best_turn is None or tm[i] > best_turn[0]:
                    best_turn = (float(tm[i]), int(tstep[i]), k)
                ok = tm > self.a_deg
                chains, err, tm = chains[ok], err[ok], tm[ok]
                if not len(chains):
                    continue
                # Most promising first (turn and placement room), checked in batches: a clear
                # table rarely needs more than the first batch.
                kin = np.minimum(self.s * np.radians(tm - self.a_deg), self.rho - err)
                by_kin = _best_first(kin)
                budget = _MAX_FINISHES
                for b0 in range(0, len(by_kin), _BATCH):
                    sel = by_kin[b0:b0 + _BATCH]
                    isl, istep, iwh = self._intermediate_slack(chains[sel])
                    order = _best_first(np.minimum(isl, kin[sel]))
                    if b0:   # later batches: only chains whose earlier steps are clear
                        order = order[isl[order] > 0]
                    # A few at a time while none is legal, within the budget: the first few
                    # alone made the verdict hang on float noise between near-equal chains.
                    for g in range(0, min(len(order), budget), _FINAL_CANDIDATES):
                        grp = order[g:min(g + _FINAL_CANDIDATES, budget)]
                        finished.extend(self._finish(chains[sel[j]], (
                            float(isl[j]), int(istep[j]), int(iwh[j]))) for j in grp)
                        if any(c.failed_step is None for c in finished):
                            break
                    budget -= min(len(order), budget)
                    if any(c.failed_step is None for c in finished) or budget <= 0:
                        break
                if any(c.failed_step is None for c in finished):
                    break
            if any(c.failed_step is None for c in finished):
                break
        if finished:
            best = max(finished, key=lambda c: (c.failed_step is None, c.score_mm))
            if best.failed_step is None:
                return self._yes(best)
            return self._contact(self._most_direct(
                [c for c in finished if c.score_mm >= best.score_mm - _TIE]))
        if not reached_any:
            return self._too_far()
        assert best_turn is not None
        return self._too_sharp(*best_turn)

    def _most_direct(self, tied: list[_Chain]) -> _Chain:
        """The failing chain to name among chains tied on score (all overlap something, each
        at −allowance): the search finishes near-equal chains in an order set by the frame's
        last bits, so pick by what turning the table does not change: least total turning,
        then nearest the observed stern (each to within _TIE), then the blocker listed first."""
        turn = [_total_turn(self.start, c.poses) for c in tied]
        tied = [c for c, t in zip(tied, turn, strict=True) if t <= min(turn) + _TIE]
        err = min(c.stern_err_mm for c in tied)
        tied = [c for c in tied if c.stern_err_mm <= err + _TIE]
        return min(tied, key=lambda c: (c.which < 0, c.which))

    def _yes(self, c: _Chain) -> Verdict:
        k = len(c.poses)
        hs = [self.start.heading_deg] + [p.heading_deg for p in c.poses]
        turns = [angle_diff_deg(b, a) for a, b in pairwise(hs)]
        turn_margin = self.mt - max(abs(t) for t in turns)
        head_margin = self.config.place_tol_deg - abs(
            angle_diff_deg(self.after.heading_deg, c.poses[-1].heading_deg))
        place_margin = self.config.place_tol_mm - c.stern_err_mm
        # The deciding margin: whichever mm question is tightest against its allowance.
        margin, allow, what = place_margin, self.a, "placement"
        if math.isfinite(c.slack_mm) and c.which >= -1:
            a_obj = self.env.allowance_of(c.which)
            if c.slack_mm < place_margin - self.a:
                margin, allow = c.slack_mm + a_obj, a_obj
                what = f"clearance to {self.env.blocker_name(c.which)}"
        turn_txt = ", ".join(f"{t:+.1f}°" for t in turns)
        return Verdict(True, False,
                       f"legal: {k} step{'s' if k > 1 else ''} (turns {turn_txt}); "
                       f"tightest: {what} {margin:.2f} mm", "move",
                       margin_mm=margin, margin_deg=min(turn_margin, head_margin),
                       allowance_mm=allow, steps=c.poses)

    def _contact(self, c: _Chain) -> Verdict:
        k = c.failed_step or len(c.poses)
        pose = c.poses[k - 1]
        env = self.env
        if c.which < -1:
            return Verdict.no(f"no legal step {k}", decided_by="contact", steps=c.poses,
                              failed_step=k)
        clear = env.signed_clearance(pose, c.which)
        allow = env.allowance_of(c.which)
        name = env.blocker_name(c.which)
        if name == PLAY_AREA:
            what = "off the play area" if clear < 0 else "too close to the play-area edge"
            return Verdict.no(f"{what} at step {k} (clearance {clear:.2f} mm)",
                              decided_by="play_area", margin_mm=clear, allowance_mm=allow,
                              steps=c.poses, failed_step=k, blocker=PLAY_AREA)
        what = "contact" if clear <= 0 else "too close"
        return Verdict.no(f"{what} at step {k} with {name} (clearance {clear:.2f} mm, "
                          f"allowance {allow:.2f} mm)", decided_by="contact", margin_mm=clear,
                          allowance_mm=allow, steps=c.poses, failed_step=k, blocker=name)

    def _too_far(self) -> Verdict:
        s, n, d = self.s, self.n, self.d1
        errs = [d] + [abs(d - s)] + [max(0.0, d - (k - 1) * s) for k in range(3, n + 1)]
        err = min(errs[:n])
        margin = self.config.place_tol_mm - err
        if d > (n - 1) * s:
            need = 1 + math.ceil(max(d - self.rho, 0.0) / s)
            reason = (f"too far: needs {max(need, n + 1)}+ steps, {n} step{'s' if n > 1 else ''}"
                      f" of {s:.1f} mm end {err:.2f} mm short")
        else:
            reason = (f"no {n if n > 1 else 1}-step move ends with the stern there: "
                      f"{err:.2f} mm off at best")
        return Verdict.no(reason, decided_by="distance", margin_mm=margin, allowance_mm=self.a)

    def _too_sharp(self, margin_deg: float, step: int, k: int) -> Verdict:
        # Doubt is judged in degrees; the mm figures are the same angles at the piece's length.
        return Verdict(
            False, abs(margin_deg) <= self.a_deg,
            f"turn too sharp at step {step} of {k}: needs {self.mt - margin_deg:.1f}°, "
            f"limit {self.mt:.2f}°", "turn", margin_deg=margin_deg,
            margin_mm=self.s * math.radians(margin_deg),
            allowance_mm=self.s * math.radians(self.a_deg), failed_step=step)
