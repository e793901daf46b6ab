"""The rules the log judges with: a small adapter over ``rules.move`` and ``rules.fire``.

The recorder and ``replay`` ask a judge, not the rules modules directly, so tests can drive the
recorder with a scripted judge and the log keeps working (with honest ``no`` verdicts) in a build
where a rules module is missing. Tables and poses are table-frame mm.
"""

from __future__ import annotations

from typing import Protocol

from armada_vision.geometry.pose import Pose
from armada_vision.rules.config import RulesConfig
from armada_vision.rules.table import Table
from armada_vision.rules.verdict import Verdict


class Judge(Protocol):
    """What the log needs from the rules (rules.md §4, §5)."""

    def move(self, table: Table, ship_id: str, after: Pose, config: RulesConfig) -> Verdict: ...

    def shot(self, table: Table, shooter_id: str, target_id: str,
             config: RulesConfig) -> Verdict: ...

    def setup(self, table: Table, config: RulesConfig) -> tuple[Verdict, tuple[str, ...]]: ...


class RulesJudge:
    """The project's rules core: ``rules.move.adjudicate_move``,
    ``rules.fire.adjudicate_shot`` and ``rules.setup.check_setup``, imported when first used."""

    def move(self, table: Table, ship_id: str, after: Pose, config: RulesConfig) -> Verdict:
        try:
            from armada_vision.rules.move import adjudicate_move
        except ImportError:
            return Verdict.no("moves cannot be judged: the move rules are not installed",
                              decided_by="unavailable")
        return adjudicate_move(table, ship_id, after, config)

    def shot(self, table: Table, shooter_id: str, target_id: str,
             config: RulesConfig) -> Verdict:
        try:
            from armada_vision.rules.fire import adjudicate_shot
        except ImportError:
            return Verdict.no("shots cannot be judged: the firing rules are not installed",
                              decided_by="unavailable")
        return adjudicate_shot(table, shooter_id, target_id, config)


    def setup(self, table: Table, config: RulesConfig) -> tuple[Verdict, tuple[str, ...]]:
        """The setup verdict and the warnings' messages."""
        try:
            from armada_vision.rules.setup import check_setup
        except ImportError:
            return (Verdict.no("setup cannot be checked: the setup rules are not installed",
                               decided_by="unavailable"), ())
        report = check_setup(table, config)
        return report.verdict(), tuple(w.message for w in report.warnings)


DEFAULT_JUDGE = RulesJudge()
