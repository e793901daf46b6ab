"""Setup (rules.md §2): fleets of each variant and the check of a starting table.

All coordinates are table-frame millimetres. Fleet and setup problems are values (a
:class:`Verdict`, a :class:`SetupReport`), never exceptions; only malformed arguments raise.

>>> plan = basic_game("A", "B", large_player="A")
>>> [(f.player, f.small, f.medium, f.large) for f in plan.fleets], plan.first_player
([('A', 0, 0, 4), ('B', 4, 4, 0)], 'B')
>>> check_fleets(plan).verdict
'yes'
>>> check_fleets(FleetPlan("multi_stash", (Fleet("A", 4, 4, 1, "red"),
...                                         Fleet("B", 0, 0, 4, "blue")), "A")).reason
'fleet of A is worth 15 pips; a multi-stash fleet is worth 12'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import shapely

from armada_vision.geometry.pieces import Size
from armada_vision.rules.config import DEFAULT_CONFIG, RulesConfig
from armada_vision.rules.doubt import allowance_mm
from armada_vision.rules.table import Table
from armada_vision.rules.verdict import Verdict

Variant = Literal["basic", "advanced", "multi_stash", "melee"]
VARIANTS: tuple[str, ...] = ("basic", "advanced", "multi_stash", "melee")
STASH = 5          # one stash: 5 of each size ...
PER_SIZE = 4       # ... of which one is the spare/ruler, so at most 4 of a size are ships
FLEET_PIPS = 12    # multi-stash fleet value


@dataclass(frozen=True, slots=True)
class Fleet:
    """How many ships of each size one player fields, and the fleet's colour."""

    player: str
    small: int = 0
    medium: int = 0
    large: int = 0
    color: str = "unknown"

    def __post_init__(self) -> None:
        for z in Size:
            n = getattr(self, z.value)
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise ValueError(f"{z.value}: expected a whole number ≥ 0, got {n!r}")

    def count(self, size: Size | str) -> int:
        return getattr(self, Size.parse(size).value)

    @property
    def ships(self) -> int:
        return self.small + self.medium + self.large

    @property
    def pips(self) -> int:
        return sum(self.count(z) * z.pips for z in Size)

    def sizes(self) -> set[Size]:
        return {z for z in Size if self.count(z) > 0}


@dataclass(frozen=True, slots=True)
class FleetPlan:
    """The fleets of one game (in turn order after ``first_player``) and its variant."""

    variant: str
    fleets: tuple[Fleet, ...]
    first_player: str
    teams: tuple[tuple[str, str], ...] = ()    # (player, team) pairs; empty: each on his own

    def fleet(self, player: str) -> Fleet:
        for f in self.fleets:
            if f.player == player:
                return f
        raise KeyError(player)

    @property
    def turn_order(self) -> tuple[str, ...]:
        players = [f.player for f in self.fleets]
        i = players.index(self.first_player)
        return tuple(players[i:] + players[:i])

    def team_of(self, player: str) -> str:
        return dict(self.teams).get(player, player)


def owner_of(plan: FleetPlan, size: Size | str, color: str = "unknown") -> str | None:
    """Which player a piece of this size and colour belongs to (§2): with one stash (basic,
    advanced) size tells the fleets apart; with a stash each (multi-stash, melee) colour does.
    None when no fleet (or more than one) fits.

    >>> owner_of(basic_game("A", "B"), "small"), owner_of(basic_game("A", "B"), "large")
    ('B', 'A')
    >>> owner_of(melee_game([("A", "red"), ("B", "blue")]), "small", "blue")
    'B'
    """
    z = Size.parse(size)
    if plan.variant in ("basic", "advanced"):
        fits = [f.player for f in plan.fleets if f.count(z) > 0]
    else:
        fits = [f.player for f in plan.fleets if f.color == str(color).lower()]
    return fits[0] if len(fits) == 1 else None


def basic_game(player_a: str, player_b: str, *, large_player: str | None = None,
               first_player: str | None = None) -> FleetPlan:
    """§2 basic game: one stash; one player takes the 4 large, the other 4 medium + 4 small.
    One player chooses the fleet, the other who goes first (default: the small fleet)."""
    large_player = large_player or player_a
    if large_player not in (player_a, player_b):
        raise ValueError(f"large_player: {large_player!r} is not a player of this game")
    small_player = player_b if large_player == player_a else player_a
    fleets = (Fleet(large_player, large=4), Fleet(small_player, small=4, medium=4))
    fleets = tuple(sorted(fleets, key=lambda f: (player_a, player_b).index(f.player)))
    first = first_player or small_player
    if first not in (player_a, player_b):
        raise ValueError(f"first_player: {first!r} is not a player of this game")
    return FleetPlan("basic", fleets, first)


def advanced_game(player_a: str, player_b: str, fleet_1: Mapping[str, int],
                  fleet_2: Mapping[str, int], *, b_swaps: bool = False) -> FleetPlan:
    """§2 advanced setup: A picks how many (0–4) of each size are in play, split into two
    fleets, and takes ``fleet_1``; B accepts (and moves first) or swaps (and A moves first).
    Check the result with :func:`check_fleets`."""
    f1 = {z.value: int(fleet_1.get(z.value, 0)) for z in Size}
    f2 = {z.value: int(fleet_2.get(z.value, 0)) for z in Size}
    a, b = (f2, f1) if b_swaps else (f1, f2)
    return FleetPlan("advanced", (Fleet(player_a, **a), Fleet(player_b, **b)),
                     player_a if b_swaps else player_b)


def multi_stash_game(fleets: Sequence[Fleet], first_player: str | None = None,
                     teams: Mapping[str, str] | None = None) -> FleetPlan:
    """§2 multi-stash: each player his own colour and a 12-pip fleet (≤ 4 of a size); two or
    more players, in teams or not."""
    return FleetPlan("multi_stash", tuple(fleets), first_player or fleets[0].player,
                     tuple((teams or {}).items()))


def melee_game(players: Sequence[tuple[str, str]], first_player: str | None = None,
               teams: Mapping[str, str] | None = None) -> FleetPlan:
    """§2 melee: each (player, colour) fields 4 of every size."""
    fleets = tuple(Fleet(p, 4, 4, 4, c) for p, c in players)
    return FleetPlan("melee", fleets, first_player or fleets[0].player,
                     tuple((teams or {}).items()))


def check_fleets(plan: FleetPlan) -> Verdict:
    """Are the fleets what the variant allows? (§2; decided_by ``fleet``.)"""
    fleets = plan.fleets
    players = [f.player for f in fleets]

    def no(reason: str) -> Verdict:
        return Verdict.no(reason, decided_by="fleet")

    if plan.variant not in VARIANTS:
        return no(f"unknown variant {plan.variant!r} (expected {', '.join(VARIANTS)})")
    if len(fleets) < 2:
        return no("a game needs at least two fleets")
    if len(set(players)) != len(players):
        return no("a player has two fleets")
    if plan.first_player not in players:
        return no(f"first player {plan.first_player!r} has no fleet")
    for f in fleets:
        if f.ships == 0:
            return no(f"fleet of {f.player} has no ships")
        for z in Size:
            if f.count(z) > PER_SIZE:
                return no(f"fleet of {f.player} has {f.count(z)} {z.value} ships; at most "
                          f"{PER_SIZE} of a size (the fifth is the spare and ruler)")
    if plan.variant in ("basic", "advanced"):
        if len(fleets) != 2:
            return no(f"the {plan.variant} game is for two players with one stash")
        if plan.variant == "basic":
            kinds = sorted((f.small, f.medium, f.large) for f in fleets)
            if kinds != [(0, 0, 4), (4, 4, 0)]:
                return no("basic game: one fleet is the 4 large, the other 4 medium + 4 small")
        for z in Size:
            total = sum(f.count(z) for f in fleets)
            if total > PER_SIZE:
                return no(f"{total} {z.value} ships in play; one stash has {STASH}, one of "
                          "which is the spare and ruler")
        shared = fleets[0].sizes() & fleets[1].sizes()
        if shared:
            z = sorted(shared)[0]
            return no(f"both fleets have {z} ships; with one stash size tells the fleets apart")
    else:
        colors = [f.color for f in fleets]
        if "unknown" in colors or len(set(colors)) != len(colors):
            return no(f"{plan.variant}: every fleet needs its own colour")
        for f in fleets:
            if plan.variant == "multi_stash" and f.pips != FLEET_PIPS:
                return no(f"fleet of {f.player} is worth {f.pips} pips; a multi-stash fleet is "
                          f"worth {FLEET_PIPS}")
            if plan.variant == "melee" and (f.small, f.medium, f.large) != (4, 4, 4):
                return no(f"melee: {f.player} fields 4 of every size")
    return Verdict(True, False, f"{plan.variant} fleets are valid", "fleet")


# --- the starting table -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class SetupIssue:
    """One problem (``error``) or caution (``warning``) of a starting table.

    ``check``: ``flat``, ``play_area``, ``overlap``, ``distance``, ``spare``, ``fleet``;
    ``ids``: the pieces concerned; ``margin_mm``: distance past the threshold (negative: on
    the wrong side); ``allowance_mm``: the doubt allowance used.
    """

    level: Literal["error", "warning"]
    check: str
    ids: tuple[str, ...]
    message: str
    margin_mm: float | None = None
    allowance_mm: float | None = None


@dataclass(frozen=True, slots=True)
class SetupReport:
    """Everything wrong with (or worth a look on) a starting table."""

    issues: tuple[SetupIssue, ...]
    closest_enemy_mm: float | None = None

    @property
    def errors(self) -> tuple[SetupIssue, ...]:
        return tuple(i for i in self.issues if i.level == "error")

    @property
    def warnings(self) -> tuple[SetupIssue, ...]:
        return tuple(i for i in self.issues if i.level == "warning")

    @property
    def ok(self) -> bool:
        return not self.errors

    def verdict(self) -> Verdict:
        """One verdict: yes when there is no error; the first error decides a no."""
        notes = tuple(f"{i.level}: {i.message}" for i in self.issues)
        if self.errors:
            e = self.errors[0]
            more = f" (and {len(self.errors) - 1} more)" if len(self.errors) > 1 else ""
            return Verdict.no(e.message + more, decided_by=e.check, margin_mm=e.margin_mm,
                              allowance_mm=e.allowance_mm,
                              blocker=e.ids[-1] if e.ids else None, notes=notes)
        closest = ("" if self.closest_enemy_mm is None
                   else f"; closest enemies {self.closest_enemy_mm:.0f} mm apart")
        warn = f", {len(self.warnings)} warning(s)" if self.warnings else ""
        return Verdict(True, False, f"legal setup{closest}{warn}", "setup", notes=notes)


def check_setup(table: Table, config: RulesConfig = DEFAULT_CONFIG, *,
                plan: FleetPlan | None = None, spare_ids: Iterable[str] = (),
                upright_ids: Iterable[str] = (),
                teams: Mapping[str, str] | None = None) -> SetupReport:
    """Check a starting table (§2): every ship lies flat (``upright_ids`` are pieces seen
    standing), inside the play area, overlapping no other piece (silhouettes), at least
    ``config.setup_error_mm`` from every enemy piece (silhouette distance; under
    ``config.setup_warn_mm`` a warning); spares (``spare_ids``, objects of the table) outside
    the play area; with a ``plan``, the fleets on the table match it. Enemies are players of
    different teams (``teams``: player → team; default each player alone, or the plan's).
    Margins within the doubt allowance count against the setup (§7)."""
    issues: list[SetupIssue] = []
    floor = config.doubt_floor_mm
    area = table.play_area.shape
    spares = set(spare_ids)
    team = dict(plan.teams) if plan is not None else {}
    team.update(teams or {})

    for uid in upright_ids:
        issues.append(SetupIssue("error", "flat", (uid,),
                                 f"{uid} is standing up; every ship lies flat"))

    for s in table.ships:
        fp, a = s.footprint(config), allowance_mm([s.sigma_total_mm(config)], floor)
        inside = fp.within(area)
        if inside:
            margin = float(area.exterior.distance(fp))
        else:   # how far the footprint pokes out (by its worst corner)
            corners = shapely.points(list(fp.exterior.coords))
            margin = -float(shapely.distance(corners, area).max())
        if not inside or margin <= a:
            issues.append(SetupIssue("error", "play_area", (s.id,),
                                     f"{s.id} is not wholly inside the play area"
                                     + ("" if not inside else
                                        f" with room to spare ({margin:.2f} mm from the edge)"),
                                     margin, a))

    pieces = [(s.id, s.silhouette(config), s.sigma_total_mm(config), s.player)
              for s in table.ships]
    pieces += [(o.id, o.shape, o.sigma_mm, None) for o in table.obstacles]
    closest: float | None = None
    for i, (aid, ash, asig, apl) in enumerate(pieces):
        for bid, bsh, bsig, bpl in pieces[i + 1:]:
            a = allowance_mm([asig, bsig], floor)
            if apl is not None or bpl is not None:
                inter = ash.intersection(bsh).area if ash.intersects(bsh) else 0.0
                if inter > 0:
                    issues.append(SetupIssue("error", "overlap", (aid, bid),
                                             f"{aid} and {bid} overlap"))
                    continue
            if apl is None or bpl is None or team.get(apl, apl) == team.get(bpl, bpl):
                continue
            d = float(shapely.distance(ash, bsh))
            closest = d if closest is None else min(closest, d)
            margin = d - config.setup_error_mm
            if margin <= a:
                issues.append(SetupIssue(
                    "error", "distance", (aid, bid),
                    f"enemies {aid} and {bid} are {d:.1f} mm apart; they must be at least "
                    f"{config.setup_error_mm:g} mm apart"
                    + (f" (within the {a:.2f} mm doubt allowance)" if abs(margin) <= a else ""),
                    margin, a))
            elif d < config.setup_warn_mm:
                issues.append(SetupIssue(
                    "warning", "distance", (aid, bid),
                    f"enemies {aid} and {bid} are only {d:.1f} mm apart (under "
                    f"{config.setup_warn_mm:g} mm, about 12 inches)", margin, a))

    for o in table.obstacles:
        if o.id in spares and o.shape.intersection(area).area > 0:
            issues.append(SetupIssue("error", "spare", (o.id,),
                                     f"spare {o.id} lies in the play area; it stays outside"))
    missing = spares - {o.id for o in table.obstacles}
    for sid in sorted(missing):
        issues.append(SetupIssue("error", "spare", (sid,), f"spare {sid} is not on the table"))

    if plan is not None:
        v = check_fleets(plan)
        if not v.yes:
            issues.append(SetupIssue("error", "fleet", (), v.reason))
        on_table = Counter((s.player, s.size) for s in table.ships)
        for f in plan.fleets:
            for z in Size:
                n = on_table[(f.player, z)]
                if n != f.count(z):
                    issues.append(SetupIssue(
                        "error", "fleet", (f.player,),
                        f"{f.player} has {n} {z.value} ships on the table; the fleet has "
                        f"{f.count(z)}"))
        strangers = sorted({s.player for s in table.ships} - {f.player for f in plan.fleets})
        for p in strangers:
            issues.append(SetupIssue("error", "fleet", (p,), f"{p} has ships but no fleet"))
    return SetupReport(tuple(issues), closest)
