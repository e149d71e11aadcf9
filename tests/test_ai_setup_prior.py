"""The beliefs' prior from set-up statistics: where each type is likely to start (``ai/setup_prior.py``)."""

import random
from collections import Counter

import pytest

from gibson_core.ai import make_agent, setup_prior
from gibson_core.ai.beliefs import infer_beliefs
from gibson_core.ai.heuristic import planned_setup
from gibson_core.ai.setup_prior import setup_frequencies, setup_ratios, start_squares
from gibson_core.ai.world import variant_of
from gibson_core.observe import observe
from gibson_core.plugins import load_variant, variant_names
from gibson_core.state import GameState


def planned_game(name: str, seed: int) -> GameState:
    variant = load_variant(name)
    rng = random.Random(seed)
    return GameState.from_setups(variant, {p: planned_setup(variant, p, rng) for p in variant.players})


@pytest.mark.parametrize("name", variant_names())
def test_frequencies_are_shares_of_the_set_up_squares(name):
    """Every square of the player's set-up area that the planner fills has shares summing to one, only
    of types the army has; the table is the same on every call (a fixed generator, cached)."""
    variant = load_variant(name)
    player = variant.players[1]
    table = setup_frequencies(variant, player)
    assert table and set(table) <= {variant.grid.names[sq] for sq in variant.setup_squares[player]}
    ids = {t.id for t in variant.types if t.count}
    for shares in table.values():
        assert set(shares) <= ids
        assert sum(shares.values()) == pytest.approx(1.0)
    assert setup_frequencies(variant, player) is table


def test_ratios_mix_the_statistics_with_the_uniform_prior():
    """``share`` 0 gives no table; otherwise no ratio falls below ``1 - share``, and in L'Attaque the Flag
    is likelier than its share of the army on the back rank and far less likely on the front one (never
    there in the samples: only the shrinking towards the army's shares keeps it above nothing)."""
    variant = load_variant("lattaque")
    red = variant.players[1]
    assert setup_ratios(variant, red, 0.0) == {}
    ratios = setup_ratios(variant, red, 0.75)
    assert min(r for row in ratios.values() for r in row.values()) >= 0.25 - 1e-12
    back = [sq for sq in ratios if sq.endswith("10")]
    front = [sq for sq in ratios if sq.endswith("7")]
    assert min(ratios[sq]["Flag"] for sq in back) > 1.0
    assert 0.25 < max(ratios[sq]["Flag"] for sq in front) < 0.5
    full = setup_ratios(variant, red, 1.0)
    assert 0.0 < max(full[sq]["Flag"] for sq in front) < 0.25


def test_start_squares_follow_the_moves_back():
    """A piece that moved is placed where it started; one that never moved where it stands."""
    state = planned_game("lattaque", 3)
    rng = random.Random(3)
    first = {pid: state.square[pid] for pid in range(1, len(state.owner))}
    for _ in range(40):
        if state.result is not None:
            break
        state.play(rng.choice(state.legal_moves()))
    for player in state.variant.players:
        start = start_squares(observe(state, player))
        names = state.variant.grid.names
        assert start == {pid: names[sq] for pid, sq in first.items()}


@pytest.mark.parametrize("name", variant_names())
def test_beliefs_with_the_prior_stay_sound(name):
    """With the prior every piece's types still sum to one, each type's marginals over the hidden pieces
    still add up to what is left of it, the real type stays possible, and samples keep the counts."""
    state = planned_game(name, 5)
    rng = random.Random(5)
    for _ in range(30):
        if state.result is not None:
            break
        state.play(rng.choice(state.legal_moves()))
    variant = state.variant
    me, them = variant.players
    obs = observe(state, me)
    belief = infer_beliefs(obs, variant, setup_ratios(variant, them, 0.75))
    marginals = belief.marginals()
    assert belief.prior and set(marginals) == set(belief.allowed)
    for handle, dist in marginals.items():
        assert sum(dist.values()) == pytest.approx(1.0)
        assert variant.types[state.ptype[handle]].id in belief.allowed[handle]
    rows = len(belief.allowed) + len(belief.unseen_removed)
    total = sum(n for n in belief.remaining.values() if n > 0)
    on_board = Counter()
    for dist in marginals.values():
        on_board.update(dist)
    for t, n in belief.remaining.items():
        if n > 0 and not belief.unseen_removed:  # the removed rows take their share of the counts
            assert on_board[t] == pytest.approx(n * rows / total, rel=1e-3)
    sample = belief.sample(random.Random(0))
    assert all(sample[h] in belief.allowed[h] for h in sample)
    assert all(k <= belief.remaining[t] for t, k in Counter(sample.values()).items())


def test_the_prior_finds_the_flag_on_the_back_rank():
    """Over L'Attaque set-ups by the planner, the prior gives the real Flag a higher probability at the
    start than the uniform beliefs do, and its samples put the Flag on the back rank far more often."""
    variant = load_variant("lattaque")
    blue, red = variant.players
    ratios = setup_ratios(variant, red, 0.75)
    plain_p = prior_p = 0.0
    for seed in range(12):
        state = planned_game("lattaque", 100 + seed)
        obs = observe(state, blue)
        flag = next(pid for pid in state.pids[1] if variant.types[state.ptype[pid]].id == "Flag")
        plain_p += infer_beliefs(obs, variant).marginals()[flag]["Flag"]
        prior_p += infer_beliefs(obs, variant, ratios).marginals()[flag]["Flag"]
    assert prior_p > 1.5 * plain_p
    state = planned_game("lattaque", 7)
    obs = observe(state, blue)
    at = {p.handle: p.square for p in obs.enemy()}

    def back_rank_flags(belief) -> int:
        rng = random.Random(1)
        return sum(at[h].endswith("10") for _ in range(200) for h, t in belief.sample(rng).items() if t == "Flag")

    assert back_rank_flags(infer_beliefs(obs, variant, ratios)) > 2 * back_rank_flags(infer_beliefs(obs, variant))


def test_the_search_takes_the_prior_as_a_setting():
    """``search:prior=S`` sets the share (every level has one); outside 0..1 is refused with a clear
    error; the set-up statistics are counted while the search sets up, not on its first move's clock."""
    assert make_agent("search", prior=0.5).prior == 0.5
    assert make_agent("search-easy").prior == make_agent("search-hard").prior > 0
    with pytest.raises(ValueError, match="prior"):
        make_agent("search", prior=1.5)
    variant = load_variant("lattaque")
    blue, red = variant.players
    key = (variant, red, 0.5)
    setup_prior._RATIOS.pop(key, None)
    make_agent("search", prior=0.5).choose_setup(variant, blue, random.Random(0))
    assert key in setup_prior._RATIOS
    # the search's own load of the variant from an Observation (every option spelled out) is that variant
    assert variant_of(observe(planned_game("lattaque", 1), blue)) is variant
