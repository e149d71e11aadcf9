"""Terrain kinds and zones from a variant's data, and the element of a square under a given piece."""

from __future__ import annotations

import attrs

LAND = "land"
SEA = "sea"
AIR = "air"


@attrs.frozen
class TerrainKind:
    """A kind of square: its element (fixed, or by the occupant's tags), whether pieces may stand on it
    (``transit``: crossed but not stayed on), whether it can be entered at all, and render colours."""

    id: str
    name: str
    element: str | None = None
    element_by_tag: tuple = ()  # ((tag, element), ...) then ("else", element)
    transit: bool = False
    passable: bool = True
    color: str = "#777777"
    stroke: str = "#555555"

    def element_under(self, tags: frozenset) -> str | None:
        """The element of a square of this kind with a piece of these tags standing on it."""
        if not self.element_by_tag:
            return self.element
        for tag, element in self.element_by_tag:
            if tag == "else" or tag in tags:
                return element
        return None
