"""Combat: outcomes, and the data-driven resolver (ordered special rules, then a value table or values).

A variant's ``combat`` section is compiled once into a table indexed by (attacker type, defender type):
each cell holds the few special rules that can apply to that pair (with their conditions on squares and
zones) and the outcome to fall back on. Resolving a fight is then a short list walk, no hook call.
"""

from __future__ import annotations

import re

import attrs

ATTACKER = "attacker"
DEFENDER = "defender"


@attrs.frozen
class Outcome:
    """What a fight did: which roles were removed, which piece was driven back, and why, in words."""

    removed: tuple = ()  # subset of ("attacker", "defender")
    retreat: str | None = None  # "attacker" or "defender": driven one square towards its own back rank
    reason: str = ""
    rule: str = ""

    @property
    def nothing(self) -> bool:
        """True when both pieces stay where they are."""
        return not self.removed and not self.retreat


@attrs.frozen
class CompiledRule:
    """One special combat rule compiled for one ordered pair of types."""

    name: str
    conditions: tuple  # of (condition name, role or argument)
    result: str  # attacker | defender | both | none | retreat-attacker | retreat-defender
    reason: str
    first: str  # which role is the rule's "first"
    outcome: Outcome  # what the rule does when its conditions hold


_ROLE_ON = re.compile(r"^(first|second|attacker|defender)-on-(own-|enemy-)?([\w.-]+?)$")
_OUT = re.compile(r"^(first|second|attacker|defender)-out-of-element$")
SQUARE_CONDITIONS = ("across-coast", "same-element", "both-sea", "both-land")


def parse_condition(text: str) -> tuple | None:
    """``"first-on-river"`` -> ``("on", "first", "", "river")``; None when the text is not a condition."""
    if text in SQUARE_CONDITIONS:
        return (text,)
    m = _OUT.match(text)
    if m:
        return ("out", m.group(1))
    m = _ROLE_ON.match(text)
    if m:
        return ("on", m.group(1), (m.group(2) or "").rstrip("-"), m.group(3))
    return None


def role_of(name: str, first: str) -> str:
    """Map first/second/attacker/defender to attacker/defender given which role is ``first``."""
    if name in (ATTACKER, DEFENDER):
        return name
    if name == "first":
        return first
    return DEFENDER if first == ATTACKER else ATTACKER


def outcome_for(result: str, first: str, reason: str, rule: str) -> Outcome:
    """Build the Outcome of a rule result word, seen from the rule's ``first`` role."""
    if result.startswith("retreat-"):
        return Outcome((), role_of(result[len("retreat-"):], first), reason, rule)
    if result == "both":
        return Outcome((ATTACKER, DEFENDER), None, reason, rule)
    if result == "none":
        return Outcome((), None, reason, rule)
    winner = role_of(result, first)
    loser = DEFENDER if winner == ATTACKER else ATTACKER
    return Outcome((loser,), None, reason, rule)
