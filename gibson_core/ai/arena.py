"""``gibson arena``: many games between two agents, in parallel, with the statistics to compare them.

Game ``i`` gives the first agent the ``i % 2``-th colour and lets the ``(i // 2) % 2``-th colour move first,
so colours and the first move are balanced over every four games. Game ``i`` uses seed ``--seed + i``; each
set-up and each agent draws from its own generator derived from that seed, so ``--only i`` replays game
``i`` of a match alone (exactly, for agents limited by iterations rather than seconds). Results are counted from the first
agent's side: wins, draws (including games stopped by ``--max-plies``), losses, a 95% Wilson interval for
its share of decided games, the score with a 95% interval, the Elo difference that score implies, how the
games ended (each reason with its count) and the wall time. With ``--record DIR`` every game's record is
saved in ``DIR`` as ``game-NNNNN.json``, and ``DIR/arena.json`` holds the match (variant, options, agents,
seeds, limits), one row per game played so far (rewritten after each game, so a stopped run keeps what it
played) and, at the end, the summary. ``--resume`` (with ``--record DIR``) goes on with the match that
``DIR/arena.json`` holds: the games it has are kept, the others (or more, with a larger ``--games``) are
played, and the report covers them all. ``--start RECORD... --back K`` plays on from recorded games instead
of new set-ups, each from its position ``K`` plies before its end, game ``i`` from record ``(i // 2) mod n``
(so with the colours above each position is played from both sides): a suite of positions that matter,
such as the moves before a Flag was lost, on which two agents are compared with less noise than whole games.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import os
import shlex
import sys
import time
from pathlib import Path

import attrs

from .. import __version__
from ..errors import GibsonError, RecordError, UsageError
from ..match import MatchError, play_match
from ..options import check_options, decode_text, parse_option_args
from ..plugins import load_variant
from ..record import load_record
from . import make_agent

Z95 = 1.959964
PLY_LIMIT = "ply-limit"  # the variant option --max-plies sets: a record played to another limit may start a game


@attrs.frozen
class GameJob:
    """One arena game to play (picklable, for worker processes)."""

    index: int
    variant: str
    options: tuple  # ((name, value), ...)
    agents: tuple  # (first agent spec, second agent spec)
    seed: int
    budget: float | None
    max_plies: int | None
    record_dir: str | None
    start: str | None = None  # a game record to go on from (``--start``)...
    start_ply: int = 0  # ...after this many of its plies


@attrs.frozen
class GameResult:
    """How one arena game went, from the first agent's side: ``score`` 1, 0.5 or 0."""

    index: int
    score: float
    plies: int
    reason: str
    error: str | None = None
    seed: int | None = None
    colour: str | None = None  # the first agent's colour


def agent_from_spec(spec: str):
    """``search:level=hard`` or ``search-hard`` or ``heuristic`` -> an agent."""
    if not isinstance(spec, str):
        return make_agent(spec)  # an AgentError naming the wrong value
    name, _, rest = spec.partition(":")
    kwargs = {k: decode_text(v) for k, v in parse_option_args(rest.split(";")).items()} if rest else {}
    return make_agent(name, **kwargs)


def play_job(job: GameJob) -> GameResult:
    """Play one arena game (in a worker process)."""
    try:
        variant = load_variant(job.variant, dict(job.options) or None)
        players = variant.players
        mine = players[job.index % 2]
        first = players[(job.index // 2) % 2]
        agents = [agent_from_spec(s) for s in job.agents]
        seated = agents if mine == players[0] else agents[::-1]
        start = (start_record(job.start, job.variant, dict(job.options)), job.start_ply) if job.start else None
        record, state = play_match(variant, seated, seed=job.seed, first=first, budget=job.budget,
                                   max_plies=job.max_plies, start=start)
        if job.record_dir:
            record.save(Path(job.record_dir) / f"game-{job.index:05d}.json")
        result = state.outcome()
        score = 0.5 if result is None or result.is_draw else 1.0 if result.winner == mine else 0.0
        reason = result.reason if result else f"stopped after {state.ply} plies"
        return GameResult(job.index, score, state.ply, reason, seed=job.seed, colour=mine)
    except MatchError as exc:  # a crash or an illegal move is reported and not counted as a result
        side = job.agents[0] if exc.player == mine else job.agents[1]
        return GameResult(job.index, 0.5, exc.ply, "error", f"{side} playing {exc}", job.seed, mine)
    except Exception as exc:
        return GameResult(job.index, 0.5, 0, "error", f"{type(exc).__name__}: {exc}", job.seed)


@attrs.frozen
class Summary:
    """Arena statistics from the first agent's side."""

    games: int
    wins: int
    draws: int
    losses: int
    errors: int
    mean_plies: float
    ends: tuple = ()  # ((outcome, reason, games), ...): outcome "won", "drawn" or "lost" from the first side

    @property
    def decided(self) -> int:
        return self.wins + self.losses

    @property
    def score(self) -> float:
        """Points per game (win 1, draw 1/2)."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def win_share(self) -> tuple:
        """Share of decided games won, with its 95% Wilson interval."""
        return wilson(self.wins, self.decided)

    def score_interval(self) -> tuple:
        """The score with a 95% normal interval from the per-game variance."""
        n = self.games
        if not n:
            return 0.5, 0.0, 1.0
        mean = self.score
        second = (self.wins + 0.25 * self.draws) / n
        half = Z95 * math.sqrt(max(second - mean * mean, 0.0) / n)
        return mean, max(0.0, mean - half), min(1.0, mean + half)

    def text(self, names: tuple) -> str:
        """A short report."""
        share, lo, hi = self.win_share()
        score, slo, shi = self.score_interval()
        drawn = f" ({self.draws / self.games:.1%})" if self.games else ""
        lines = [
            f"{names[0]} vs {names[1]}: {self.games} games, {self.wins} wins, {self.draws} draws{drawn}, "
            f"{self.losses} losses" + (f", {self.errors} errors" if self.errors else ""),
            f"decided games won by {names[0]}: {share:.1%} (95% CI {lo:.1%} - {hi:.1%}, {self.decided} decided)",
            f"score {score:.3f} (95% CI {slo:.3f} - {shi:.3f}); Elo difference {elo(score):+.0f} "
            f"(95% CI {elo(slo):+.0f} to {elo(shi):+.0f})",
            f"average game length {self.mean_plies:.1f} plies",
        ]
        for outcome in ("won", "drawn", "lost"):
            ends = [f"{n} {reason}" for o, reason, n in self.ends if o == outcome]
            if ends:
                lines.append(f"{outcome} by {names[0]}: " + "; ".join(ends))
        return "\n".join(lines)

    def as_dict(self) -> dict:
        """The figures as plain data (for ``arena.json``)."""
        share, lo, hi = self.win_share()
        score, slo, shi = self.score_interval()
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "errors": self.errors, "mean_plies": self.mean_plies, "score": score, "score_ci": [slo, shi],
                "decided_won": share, "decided_won_ci": [lo, hi], "elo": elo(score),
                "ends": [{"outcome": o, "reason": r, "games": n} for o, r, n in self.ends]}


def wilson(k: int, n: int) -> tuple:
    """A proportion ``k/n`` with its 95% Wilson score interval (0.5, 0, 1 when ``n`` is 0)."""
    if n == 0:
        return 0.5, 0.0, 1.0
    p = k / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def elo(score: float) -> float:
    """The Elo difference a score implies (clamped at ±1000 for scores of 0 or 1)."""
    score = min(max(score, 1e-3 / 2), 1 - 1e-3 / 2)
    return max(-1000.0, min(1000.0, -400.0 * math.log10(1 / score - 1)))


OUTCOMES = {1.0: "won", 0.5: "drawn", 0.0: "lost"}
ORDER = {outcome: i for i, outcome in enumerate(OUTCOMES.values())}  # how the report lists them


def summarise(results) -> Summary:
    """Count a list of GameResults."""
    played = [r for r in results if r.error is None]
    ends: dict = {}
    for r in played:
        key = (OUTCOMES[r.score], r.reason)
        ends[key] = ends.get(key, 0) + 1
    return Summary(
        games=len(played), wins=sum(r.score == 1.0 for r in played), draws=sum(r.score == 0.5 for r in played),
        losses=sum(r.score == 0.0 for r in played), errors=len(results) - len(played),
        mean_plies=sum(r.plies for r in played) / len(played) if played else 0.0,
        ends=tuple(sorted(((o, reason, n) for (o, reason), n in ends.items()),
                          key=lambda e: (ORDER[e[0]], -e[2], e[1]))),
    )


def run_arena(jobs: list, workers: int = 1, progress=None, on_result=None) -> list:
    """Play every job (in ``workers`` processes when more than one); ``progress(done, total)`` and
    ``on_result(results so far)`` after each."""
    results = []
    workers = min(workers, len(jobs))  # no idle processes started for a short match

    def done(result) -> None:
        results.append(result)
        if on_result:
            on_result(sorted(results, key=lambda r: r.index))
        if progress:
            progress(len(results), len(jobs))

    if workers <= 1:
        for job in jobs:
            done(play_job(job))
        return results
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        for result in pool.imap_unordered(play_job, jobs):
            done(result)
    return sorted(results, key=lambda r: r.index)


MATCH_KEYS = ("variant", "options", "agents", "seed", "budget", "max_plies", "start", "back")  # what a resumed match must share
MATCH_FILE_LIMIT = 64 * 1024 * 1024  # arena.json is read only up to this size (a few hundred bytes a game)


class MatchFile:
    """``arena.json`` in a record folder: the match, its games so far, the wall seconds spent on them and,
    once finished, the summary; each write replaces the whole file (written beside it, then renamed)."""

    def __init__(self, folder: str, args, names: tuple, options: dict):
        self.path = Path(folder) / "arena.json"
        self.match = {"gibson": __version__, "variant": args.variant, "options": options, "agents": list(names),
                      "seed": args.seed, "games": 1 if args.only is not None else args.games, "only": args.only,
                      "budget": args.budget, "max_plies": args.max_plies, "jobs": args.jobs,
                      "start": list(args.start) if args.start else None, "back": args.back if args.start else None}
        self.earlier = 0.0  # wall seconds of the runs this one resumes
        self.start = time.perf_counter()

    def seconds(self) -> float:
        """Wall seconds spent on the match: the runs resumed and this one."""
        return self.earlier + time.perf_counter() - self.start

    def write(self, results, summary: Summary | None = None) -> None:
        data = dict(self.match, results=[attrs.asdict(r) for r in results], wall_seconds=round(self.seconds(), 1))
        if summary is not None:
            data["summary"] = summary.as_dict()
        part = self.path.with_name(self.path.name + ".part")
        part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(part, self.path)

    def resume(self) -> list:
        """The games already played in the match ``arena.json`` holds, as GameResults (those that ended in an
        error are played again); a UsageError when there is no such file, it cannot be read, or it holds
        another match."""
        try:
            with self.path.open("rb") as f:
                raw = f.read(MATCH_FILE_LIMIT + 1)
            if len(raw) > MATCH_FILE_LIMIT:
                raise ValueError(f"larger than {MATCH_FILE_LIMIT // (1024 * 1024)} MB")
            data = json.loads(raw.decode("utf-8"))
            if not isinstance(data, dict):
                raise ValueError("not a JSON object")
            rows = data.get("results")
            if not isinstance(rows, list):
                raise ValueError("no list of results")
            results = [_result_of(row) for row in rows]
            earlier = data.get("wall_seconds", 0.0)
            if not isinstance(earlier, (int, float)) or isinstance(earlier, bool) or not 0 <= earlier < 1e9:
                raise ValueError(f"wall_seconds is {earlier!r}")
        except FileNotFoundError:
            raise UsageError(f"--resume: no {self.path} to resume (start the match with --record first)") from None
        except (OSError, UnicodeDecodeError, ValueError, TypeError) as exc:
            raise UsageError(f"--resume: cannot read {self.path}: {exc}") from None
        differ = [k for k in MATCH_KEYS if data.get(k) != self.match[k]]
        if data.get("only") is not None or self.match["only"] is not None:
            differ.append("only")
        if differ:
            said = "; ".join(f"{k} {data.get(k)!r} there, {self.match[k]!r} here" for k in differ)
            raise UsageError(f"--resume: {self.path} holds another match ({said})")
        games, seed = self.match["games"], self.match["seed"]
        if any(r.seed != seed + r.index for r in results):
            raise UsageError(f"--resume: {self.path} has a game whose seed is not the match's seed plus its index")
        beyond = max((r.index for r in results), default=-1)
        if beyond >= games:
            raise UsageError(f"--resume: {self.path} has game {beyond}; ask for --games {beyond + 1} or more")
        self.earlier = float(earlier)
        return [r for r in results if r.error is None]


def _result_of(row) -> GameResult:
    """A GameResult from a row of ``arena.json`` (a ValueError when it is not one)."""
    if not isinstance(row, dict):
        raise ValueError(f"a result is not an object: {row!r:.60}")
    index, seed, score, plies = row.get("index"), row.get("seed"), row.get("score"), row.get("plies")
    reason, error, colour = row.get("reason"), row.get("error"), row.get("colour")
    ints = (index, seed, plies)
    if any(not isinstance(x, int) or isinstance(x, bool) for x in ints) or index < 0 or plies < 0:
        raise ValueError(f"a result's index, seed or plies is not a whole number: {row!r:.80}")
    if score not in (0, 0.5, 1) or isinstance(score, bool) or not isinstance(reason, str):
        raise ValueError(f"a result's score or reason is wrong: {row!r:.80}")
    if not (error is None or isinstance(error, str)) or not (colour is None or isinstance(colour, str)):
        raise ValueError(f"a result's error or colour is wrong: {row!r:.80}")
    return GameResult(index, float(score), plies, reason, error, seed, colour)


def duration(seconds: float) -> str:
    """``1 h 2 min 3 s``, ``4 min 5 s`` or ``6.7 s``."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return (f"{hours} h " if hours else "") + f"{minutes} min {secs} s"


def _progress_bar(start: float):
    def show(done: int, total: int) -> None:
        width = 30
        filled = width * done // total
        elapsed = time.perf_counter() - start
        sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, {elapsed:.0f}s")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


def cmd_arena(args) -> int:
    """Play the games and print the statistics."""
    from ..cliargs import agents_from_text

    agents_from_text(args.agents)  # fail early on a wrong count, an unknown name or a bad setting
    names = tuple(spec.strip() for spec in args.agents.split(","))
    options = check_options(args.variant, parse_option_args(args.option))
    variant = load_variant(args.variant, options or None)
    if args.max_plies and PLY_LIMIT in variant.option_specs:
        options[PLY_LIMIT] = args.max_plies
    starts = start_positions(args, options)  # before anything is written
    match_file, kept = None, []
    if args.record:
        Path(args.record).mkdir(parents=True, exist_ok=True)
        match_file = MatchFile(args.record, args, names, options)
        if not args.resume and match_file.path.exists():
            raise UsageError(f"{match_file.path} already holds a match: --resume goes on with it, another --record "
                             "folder starts a new one (nothing was played or written)")
        kept = match_file.resume() if args.resume else []
        match_file.write(kept)
    elif args.resume:
        raise UsageError("--resume needs --record DIR: the folder of the match to go on with")
    done = {r.index for r in kept}
    indices = [args.only] if args.only is not None else [i for i in range(args.games) if i not in done]
    jobs = [GameJob(i, args.variant, tuple(sorted(options.items())), names, args.seed + i, args.budget,
                    args.max_plies, args.record, *(starts[(i // 2) % len(starts)] if starts else ()))
            for i in indices]
    start = time.perf_counter()
    on_result = (lambda new: match_file.write(sorted(kept + new, key=lambda r: r.index))) if match_file else None
    results = sorted(kept + run_arena(jobs, args.jobs, None if args.quiet else _progress_bar(start),
                                              on_result), key=lambda r: r.index)
    seconds = time.perf_counter() - start
    summary = summarise(results)
    if match_file:
        match_file.write(results, summary)
    for r in results:
        if r.error:
            print(f"game {r.index} (seed {args.seed + r.index}, ply {r.plies}): {r.error}\n"
                  f"  replay it: {replay_command(args, r.index)}", file=sys.stderr)
    print(f"{variant.name}" + (f", max {args.max_plies} plies" if args.max_plies else "")
          + (f", {args.budget}s a move" if args.budget is not None else ""))
    print(summary.text(names))
    workers = min(args.jobs, len(jobs)) or 1
    print(f"played {len(jobs)} games in {duration(seconds)} with {workers} worker process"
          + ("es" if workers > 1 else "")
          + (f"; {len(kept)} more were played before (arena.json)" if kept else ""))
    return 1 if any(r.error for r in results) else 0


def start_record(path: str, variant: str, options: dict):
    """The game record at ``path`` to go on from under a match's ``options`` (its ply limit may differ
    from the record's); a RecordError when it cannot be read or is of another variant or options."""
    record = load_record(path)
    if record.variant != variant:
        raise RecordError(f"a game of {record.variant}, not of {variant}")
    rules = {k: v for k, v in options.items() if k != PLY_LIMIT}
    theirs = {k: v for k, v in (record.options or {}).items() if k != PLY_LIMIT}
    try:  # options spelled out at their defaults (as every record has them) are no options
        same = load_variant(variant, theirs).options == load_variant(variant, rules).options
    except GibsonError as err:
        raise RecordError(f"its options: {err}") from None
    if not same:
        raise RecordError(f"its options are {theirs or 'none'}, the match's {rules or 'none'}")
    return attrs.evolve(record, options=dict(options), result=None)


def start_positions(args, options: dict) -> list:
    """``[(record path, ply), ...]`` for ``--start``: each record's position ``--back`` plies before its
    end (its first position if it is shorter), checked before anything is played: a record that cannot be
    read or replayed, of another variant or options, or whose game is over there, is a UsageError."""
    if not args.start:
        if args.back is not None:
            raise UsageError("--back needs --start: the game records to go on from")
        return []
    back = args.back or 0
    starts = []
    for path in args.start:
        try:
            record = start_record(path, args.variant, options)
            ply = max(0, len(record.moves) - back)
            over = record.replay(ply).outcome()
        except GibsonError as exc:
            raise UsageError(f"--start {path}: {exc}") from None
        if over is not None:
            raise UsageError(f"--start {path}: the game is over at ply {ply} ({over.reason}); "
                             "a larger --back starts before its end")
        starts.append((str(path), ply))
    return starts


def replay_command(args, index: int) -> str:
    """The command line that plays game ``index`` of this match alone (with its record saved)."""
    words = ["gibson", "arena", args.variant, "--agents", args.agents, "--seed", str(args.seed),
             "--only", str(index), "--record", f"arena-game-{index}"]
    if args.budget is not None:
        words += ["--budget", str(args.budget)]
    if args.max_plies:
        words += ["--max-plies", str(args.max_plies)]
    for option in args.option or ():
        words += ["--option", option]
    if args.start:
        words += ["--start", *args.start] + (["--back", str(args.back)] if args.back is not None else [])
    return shlex.join(words)


def add_commands(subparsers) -> None:
    """Add ``gibson arena`` to the command line."""
    from ..cliargs import count, output_folder, positive_seconds, whole_from, workers

    p = subparsers.add_parser("arena", help="play many games between two agents and compare them")
    p.add_argument("variant")
    p.add_argument("--agents", default="heuristic,random",
                   help="two agents, comma-separated: random, heuristic, search, search-easy|medium|hard, "
                        "openspiel-ismcts (the rl extra), "
                        "or NAME:key=value;key=value (e.g. search:iterations=200)")
    p.add_argument("--games", type=count, default=100)
    p.add_argument("--budget", type=positive_seconds, default=None, help="seconds a move for agents that search")
    p.add_argument("--jobs", type=workers, default=1, help="worker processes")
    p.add_argument("--max-plies", type=count, default=None, help="stop a game as a draw after this many plies")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game (game i uses seed + i)")
    p.add_argument("--only", type=whole_from(0), default=None, metavar="I",
                   help="play only game I of the match (seed + I, its colours): replays one game")
    p.add_argument("--record", type=output_folder,
                   help="save every game record (JSON) in this directory, and arena.json: the match, each game's "
                        "result as it ends, the summary (a directory holding another match is refused)")
    p.add_argument("--option", action="append", help="variant option: NAME or NAME=VALUE")
    p.add_argument("--resume", action="store_true",
                   help="go on with the match in the --record folder: keep the games its arena.json has, play "
                        "the rest (a larger --games plays more)")
    p.add_argument("--start", nargs="+", metavar="RECORD",
                   help="go on from these game records' positions (see --back) instead of new set-ups: game i "
                        "starts from record (i // 2) mod their number, so each is played from both sides")
    p.add_argument("--back", type=whole_from(0), default=None, metavar="K",
                   help="with --start: begin K plies before each record's end (default 0: its last position)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=cmd_arena)
