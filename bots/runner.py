"""The bot runner: plays the seats that games gave to server-side bots.

A runner is a process of its own (``cablecar bots run``; ``cablecar serve``
starts one next to the embedded server), never a request worker, so a bot's
thinking never delays a request.  Each round it

1. **claims** the games whose bot seat must act from the bot-turn index
   (:mod:`events.recorders.bot_turns`): an indexed query that also takes a lease per
   game, so any number of runners on any number of hosts never work on one
   game at the same time (a crashed runner's leases lapse, and another one
   carries on: the database is the truth);
2. **decides** for that seat from the seat's own view, rendered exactly as
   ``GET /v1/games/{id}`` renders it for the seat's token and decoded from
   JSON, and its legal actions as ready-to-send bodies: the strategy
   (:mod:`bots.strategies`) gets nothing else, so hidden state is out
   of its reach;
3. **appends** through the command path a person's action takes
   (:meth:`service.usecases.commands.GameCommands.act_for_bot`): authored by the
   seat, with the version it decided on as ``expected_version`` and an
   Idempotency-Key, so a move can never be applied twice and the audit
   cannot tell a bot's move from a client's.

Many games at once (issue 36): a runner has ``slots`` games in play at a
time (threads; the search bots' thinking is CPU-bound, so ``cablecar serve``
sizes slots and runner processes to the machine), claiming a game for a
slot as soon as one is free.  Claims go round-robin across creators
(:meth:`events.recorders.bot_turns.BotTurnIndex.claim_bot_turns`), so one creator's
hundreds of games do not starve another's one.  A runner keeps a heartbeat
in the store while it runs; while no runner's is alive the server refuses
new bot seats (``503 bots_unavailable``) and says so in ``GET /v1/health``.

Time controls: a bot acts as soon as its runner sees the turn (every
``interval``), and the search bot's budget is capped by the seat's running
clock (:func:`bots.client.think_time`).  ``move_delay_ms`` lets bots wait
before moving (so people can follow the game); it is never longer than the
seat's clock allows either.
"""

from __future__ import annotations

import json
import logging
import os
import random
import secrets
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from bots.arena import FIRST_PAGE, legal_bodies
from bots.client import think_time
from bots.strategies import DEFAULT_THINK_MS, Strategy, strategy
from bots.ttr_mcts import WALL_FACTOR
from domain.errors import GameFinished, IllegalAction, MalformedAction, NotYourTurn
from events.recorders.bot_turns import BotTurnIndex
from events.recorders.deadlines import DeadlineIndex
from events.records import GameNotFound, StaleVersion
from service.adapters import prometheus
from service.api.schemas.responses import GameViewSchema
from service.api.text import json_text
from service.errors import GameDamaged
from service.usecases.bot_seats import bot_seats
from service.usecases.bot_turns import waiting_bot_seats
from service.usecases.commands import ActionRequest, GameCommands
from service.usecases.loaded import Loaded
from service.usecases.presentation import game_view
from service.usecases.queries import GameQueries

log = logging.getLogger("cablecar.bots")

#: how long a runner holds a game it claimed; another runner takes over this long after it dies
LEASE_SECONDS = 10.0
#: the longest the search bot may think per move (well inside the lease)
MAX_THINK_MS = 5000
#: moves one claim may make in a row in one game: one seat's turn (its draws, its tiles), at most this many
MOVES_PER_CLAIM = 16
#: the most games one runner plays at once
MAX_SLOTS = 32


def machine_slots(cpus: int | None = None) -> int:
    """Games a runner plays at once when not told: 4 per CPU core, at most :data:`MAX_SLOTS`."""
    return max(1, min(MAX_SLOTS, 4 * (cpus or os.cpu_count() or 1)))
_VIEW = GameViewSchema()


def seat_view(loaded: Loaded, seat: int) -> dict[str, Any]:
    """``seat``'s view of ``loaded`` as a client receives it: the answer of
    ``GET /v1/games/{id}`` with that seat's token, decoded from its JSON."""
    decoded: dict[str, Any] = json.loads(json_text(_VIEW.dump(game_view(loaded, seat))))
    return decoded


def seat_actions(loaded: Loaded, seat: int, bot: str) -> list[dict[str, Any]]:
    """``seat``'s legal actions as ready-to-send bodies (a cable-car lay turn:
    the first page a client would fetch; none for the planner, which lays
    from the view), without ``resign``: a server bot never resigns."""
    page = 0 if _lays_from_view(loaded, bot) else FIRST_PAGE
    bodies = legal_bodies(loaded.definition, loaded.state, seat, page)
    return [b for b in bodies if b.get("type") != "resign"]


@dataclass
class RunnerStats:
    """What a runner did (for its log and the benchmarks)."""

    moves: int = 0
    conflicts: int = 0
    errors: int = 0
    claims: int = 0


class BotRunner:
    """Claims games whose bot seat must act and plays those turns."""

    def __init__(
        self,
        queries: GameQueries,
        commands: GameCommands,
        turns: BotTurnIndex,
        clock: DeadlineIndex,
        think_ms: int = DEFAULT_THINK_MS,
        move_delay_ms: int = 0,
        interval: float = 0.1,
        batch: int = 8,
        lease_seconds: float = LEASE_SECONDS,
        owner: str | None = None,
        slots: int = 1,
    ) -> None:
        self.queries = queries
        self.commands = commands
        self.turns = turns
        self.clock = clock
        self.think_ms = max(0, min(think_ms, MAX_THINK_MS))
        self.move_delay_ms = max(0, min(move_delay_ms, MAX_THINK_MS))
        self.interval = interval
        self.batch = batch
        self.lease_seconds = lease_seconds
        self.owner = owner or f"bots-{secrets.token_hex(6)}"
        self.slots = max(1, min(slots, MAX_SLOTS))
        self.stats = RunnerStats()
        self._lock = threading.Lock()  # the stats, counted by every slot
        self._stop = threading.Event()
        #: the games found damaged, each said once in the log
        self._damaged: set[str] = set()

    # ------------------------------------------------------------------ loop
    def run(self) -> None:
        """Play until :meth:`stop`, up to ``slots`` games at once, keeping the
        runner's heartbeat (a database outage is logged and waited out)."""
        log.info("bot runner %s started (%d slots, think %d ms, move delay %d ms)", self.owner, self.slots,
                 self.think_ms, self.move_delay_ms)
        beating = threading.Thread(target=self._heartbeat, name=f"{self.owner}-heartbeat", daemon=True)
        beating.start()
        prometheus.BOT_SLOTS.inc(self.slots)
        in_flight: dict[Future[int], str] = {}
        with ThreadPoolExecutor(self.slots, thread_name_prefix=self.owner) as pool:
            while not self._stop.is_set():
                claimed: list[str] = []
                try:
                    free = self.slots - len(in_flight)
                    claimed = self.claim(min(free, self.batch)) if free > 0 else []
                except Exception as e:  # the database may be down: try again, never die
                    log.warning("bot runner %s: %s", self.owner, e)
                for game_id in claimed:
                    in_flight[pool.submit(self.turn, game_id)] = game_id
                if in_flight:
                    done, _ = wait(in_flight, timeout=None if len(in_flight) >= self.slots else self.interval,
                                   return_when=FIRST_COMPLETED)
                    for future in done:
                        del in_flight[future]
                elif not claimed:
                    self._stop.wait(self.interval)
                prometheus.BOT_IN_PLAY.set(len(in_flight))
            wait(in_flight)
        prometheus.BOT_IN_PLAY.set(0)
        prometheus.BOT_SLOTS.dec(self.slots)
        self._stop.set()
        beating.join()

    def _heartbeat(self) -> None:
        """Keep this runner alive in the store (every third of a lease) until it stops, then say it stopped."""
        while True:
            stopping = self._stop.is_set()
            try:
                self.beat(0 if stopping else self.lease_seconds)
            except Exception as e:
                log.warning("bot runner %s: heartbeat: %s", self.owner, e)
            if stopping:
                return
            self._stop.wait(self.lease_seconds / 3)

    def beat(self, seconds: float) -> None:
        """Record that this runner is alive for ``seconds`` more (0: it stops)."""
        self.turns.beat_bot_runner(self.owner, self.clock.database_time(), seconds)

    def stop(self) -> None:
        """Ask :meth:`run` to return once the games in play have their turns."""
        self._stop.set()

    def claim(self, limit: int) -> list[str]:
        """Lease up to ``limit`` games whose bot seat waits (round-robin across creators)."""
        now = self.clock.database_time()
        ready = now - timedelta(milliseconds=self.move_delay_ms)
        games = self.turns.claim_bot_turns(self.owner, now, self.lease_seconds, ready, limit)
        with self._lock:
            self.stats.claims += len(games)
        prometheus.BOT_CLAIMED.inc(len(games))
        return games

    def run_once(self) -> int:
        """One round: claim up to ``batch`` games waiting for a bot and play
        their turns, ``slots`` at a time; the number of moves made."""
        games = self.claim(self.batch)
        if self.slots == 1 or len(games) <= 1:
            return sum(self.turn(game_id) for game_id in games)
        with ThreadPoolExecutor(min(self.slots, len(games)), thread_name_prefix=self.owner) as pool:
            return sum(pool.map(self.turn, games))

    def turn(self, game_id: str) -> int:
        """Play the claimed game's waiting bot turn, then give its lease back; the moves made."""
        conflicted: list[bool] = []
        try:
            made = self.play(game_id, conflicted)
        except GameDamaged as e:
            self._skip_damaged(game_id, e)
            return 0
        except Exception:
            made = 0
            self._count("errors")
            log.exception("bot runner %s: game %s", self.owner, game_id)
        if made:
            self._damaged.discard(game_id)  # repaired: say it again should it break again
        # A game where nothing could be done (an error, a bot with no move) keeps the
        # lease until it lapses: it is tried again then, not in a hot loop.
        if made or conflicted:
            self.turns.release_bot_turn(game_id, self.owner)
        return made

    def _count(self, stat: str) -> None:
        prometheus.BOT_OUTCOMES.labels(stat).inc()
        with self._lock:
            setattr(self.stats, stat, getattr(self.stats, stat) + 1)

    def _skip_damaged(self, game_id: str, damaged: GameDamaged) -> None:
        """A game whose record fails its check takes no move: it leaves the
        bot-turn index (no runner claims it again until its record is repaired
        and a newer version recorded) and the log says so once."""
        self.turns.drop_bot_turn(game_id)
        if game_id not in self._damaged:
            self._damaged.add(game_id)
            log.warning("bot runner %s: game %s skipped: its record is damaged from seq %d "
                        "(an operator runs `cablecar quarantine %s`)", self.owner, game_id, damaged.seq, game_id)

    # ----------------------------------------------------------------- turns
    def play(self, game_id: str, conflicted: list[bool] | None = None) -> int:
        """Play the turn of the bot seat that must act in ``game_id`` (all its moves, so
        that a per-turn deadline covers them; then the next game's turn); the moves made
        (``conflicted`` gets True when another writer was first)."""
        moves = 0
        deadline = time.monotonic() + self.lease_seconds / 2
        playing: int | None = None
        while moves < MOVES_PER_CLAIM and time.monotonic() < deadline:
            try:
                loaded = self.queries.load(game_id)  # appends the timeouts already due first
            except GameNotFound:
                return moves
            seats = waiting_bot_seats(loaded)
            if not seats or (playing is not None and seats[0] != playing):
                return moves  # one seat's whole turn per claim: then the game waits its turn among games
            playing = seats[0]
            if not self.move(loaded, playing, conflicted):
                return moves
            moves += 1
            if self.move_delay_ms:
                return moves  # the next move waits its delay in the index
        return moves

    def move(self, loaded: Loaded, seat: int, conflicted: list[bool] | None = None) -> bool:
        """Decide and append one move of ``seat``; False if the game moved on first
        (then ``conflicted`` gets True) or the bot has no move."""
        bot = bot_seats(loaded.record.metadata)[seat]
        assert bot is not None
        view = seat_view(loaded, seat)
        actions = seat_actions(loaded, seat, bot)
        if not actions and not _lays_from_view(loaded, bot):
            return False
        started = time.perf_counter()
        rng = random.Random(f"{loaded.record.game_id}:{seat}:{loaded.version}:{secrets.token_hex(4)}")
        # the search's budget is CPU time within a wall-clock cap of WALL_FACTOR times it: the cap must fit the clock
        budget = int(1000 * think_time(view, seat, int(self.think_ms * WALL_FACTOR)) / WALL_FACTOR)
        chosen = _strategy(bot, loaded.record.game_type, budget)
        body = dict(chosen(view, actions, rng))
        try:
            try:
                self._append(loaded, seat, body)
            except (IllegalAction, MalformedAction) as e:
                # the strategy's move was refused (a bug in it): play on with any legal move rather than stall
                log.warning("bot %s in game %s seat %d sent %s: %s", bot, loaded.record.game_id, seat, body, e)
                if not actions:
                    raise
                self._append(loaded, seat, rng.choice(actions))
        except (StaleVersion, NotYourTurn, GameFinished):
            self._count("conflicts")  # a person (or a timeout) was first: look again
            if conflicted is not None:
                conflicted.append(True)
            return False
        self._count("moves")
        prometheus.BOT_MOVE_SECONDS.observe(time.perf_counter() - started)
        log.info("moved: game %s seat %d (%s) version %d", loaded.record.game_id, seat, bot, loaded.version)
        return True

    def _append(self, loaded: Loaded, seat: int, body: dict[str, Any]) -> None:
        # the key names the decision: one move per seat and version, whoever tries it
        key = f"bot-{seat}-{loaded.version}"
        request = ActionRequest(None, body, expected_version=loaded.version, idempotency_key=key)
        self.commands.act_for_bot(loaded.record.game_id, seat, request)


def _lays_from_view(loaded: Loaded, bot: str) -> bool:
    """The cable-car planner builds its tile placements from the view (it needs no listed pairs)."""
    return bot == "planner" and loaded.record.game_type == "cable-car"


def _strategy(name: str, game_type: str, think_ms: int) -> Strategy:
    return strategy(name, game_type, max(1, think_ms))
