"""The one rule of Fords that its YAML cannot say: a player who holds both fords wins."""

from gibson_core.hookspecs import hookimpl

FORDS = ("c5", "e5")


@hookimpl
def gibson_game_result(state):
    """After every move: a player with a piece on each ford wins."""
    owners = {state.owner_of(pid) if (pid := state.pid_at(square)) else None for square in FORDS}
    if len(owners) == 1 and None not in owners:
        (winner,) = owners
        return winner, f"{winner} holds both fords"
    return None
