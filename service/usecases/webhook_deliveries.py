"""The dispatcher: it drives webhook deliveries from the event log.

The dispatcher repeats two steps, both safe to run in any number of threads,
processes and hosts at once:

1. **scan**: read the global log after the dispatch cursor
   (``store.read_all``), turn ``game.started`` (a game's first event, or
   a scheduled game's ``game_started``) and
   ``game.finished`` (the last event of a game whose row says ``finished``)
   into one delivery per matching webhook, and commit them together with the
   new cursor (``store.record_deliveries``).  A dispatcher that dies before
   that commit leaves the cursor where it was, so the next one re-reads the
   same events: no finished game is ever missed, and the unique key
   (webhook, game, event) keeps a delivery from being created twice.  With
   no active webhook the log is not read at all: the cursor moves to the
   head, unless a webhook was registered since the pass began (registration
   and cursor moves serialise on the cursor, so a webhook registered later
   starts after the new cursor).  The published checkpoints of the
   transparency log are followed the same way, by tree size with a cursor
   of their own (:mod:`service.usecases.checkpoint_deliveries`:
   ``log.checkpoint``).
2. **deliver**: lease the due deliveries in the database
   (``store.claim_deliveries``), POST each signed body, and record the
   attempt: ``delivered`` on a 2xx answer, otherwise retried after an
   exponential backoff, and ``failed`` after ``max_attempts``.  A delivery
   the server did not make as it stands (its MAC does not verify: a row a
   database login wrote or changed) or whose webhook's secret is not one the
   server sealed is never sent: it is ``failed`` at once, its attempt saying
   it was refused (:mod:`service.adapters.webhooks.sealing`).  Claims are
   fair: organisers take turns (the one with the fewest deliveries in flight
   first), a webhook holds at most ``policy.per_webhook`` deliveries in
   flight and an organiser at most ``policy.per_organiser``, so one
   organiser's flood, or its hanging receivers, delays only its own.

In :meth:`WebhookDispatcher.run` the two steps run side by side: scanning
in a thread of its own, and each attempt in one of ``policy.senders`` sender
threads, under an overall deadline (connect, send and the whole answer), so a
slow or silent receiver holds one sender for one deadline and delays nobody
else's deliveries.

A delivery is sent at least once: when a receiver answers after our timeout,
or a dispatcher dies between sending and recording, the same delivery id is
sent again.  Receivers deduplicate on the ``X-CableCar-Delivery`` header.
Delivering never blocks a player's action: actions only append events, and
the dispatcher reads them later from the log.
"""

from __future__ import annotations

import functools
import logging
import threading
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from domain.core import JSON, STATUS_CANCELLED, STATUS_FINISHED
from domain.custody import GameStarted
from domain.forfeits import STANDING_RESIGNED, STANDING_TIMED_OUT, SeatResigned, SeatTimedOut
from events.encoding.timestamps import Clock, format_timestamp, system_clock
from events.migrations.apply import SchemaNotMigrated
from events.recorders.deliveries import AttemptOutcome, ClaimedDelivery, DeliveryLog, NewDelivery
from events.recorders.lifecycle import Database
from events.recorders.tournaments import TournamentStore, WebhookRecord
from events.recorders.transparency_log import TransparencyLog
from events.records import GameRecord, StoredEvent, StoreError
from service.adapters import prometheus
from service.adapters.webhooks.hmac import (
    GAME_CANCELLED,
    GAME_FINISHED,
    GAME_SEAT_OUT,
    GAME_STARTED,
    delivery_body,
    delivery_headers,
)
from service.adapters.webhooks.policy import DispatchPolicy
from service.adapters.webhooks.sealing import WebhookKeys
from service.adapters.webhooks.transport import Sender, SendResult, http_send
from service.usecases.checkpoint_deliveries import CheckpointDeliveries
from service.usecases.queries import GameQueries

#: the stored event types of a seat going out, and the standing each gives
SEAT_OUT_EVENTS = {SeatResigned.TYPE: STANDING_RESIGNED, SeatTimedOut.TYPE: STANDING_TIMED_OUT}
#: what a refused delivery's attempt says (never sent: nothing was asked of the receiver)
REFUSED_FORGED = "refused: not sent, this delivery is not the server's as it stands (its MAC does not verify)"
REFUSED_SECRET = "refused: not sent, the webhook's secret is not one this server sealed"

log = logging.getLogger("cablecar.webhooks")


@dataclass(frozen=True)
class PassReport:
    """What one dispatcher pass did."""

    events_read: int
    deliveries_created: int
    attempts: int

    @property
    def busy(self) -> bool:
        """Whether there may be more to do right away."""
        return self.events_read > 0 or self.attempts > 0


class WebhookDispatcher:
    """Turns the event log into webhook deliveries and sends them (see the
    module docs).  One instance per process is enough; several are safe."""

    def __init__(
        self,
        deliveries: DeliveryLog,
        tournaments: TournamentStore,
        log: TransparencyLog,
        database: Database,
        queries: GameQueries,
        keys: WebhookKeys,
        policy: DispatchPolicy | None = None,
        sender: Sender | None = None,
        clock: Clock = system_clock,
    ) -> None:
        self.deliveries = deliveries
        self.tournaments = tournaments
        self.database = database
        self.queries = queries
        #: the MACs new deliveries carry and the sealed secrets they are signed with
        self.keys = keys
        self.policy = policy or DispatchPolicy()
        self._send = sender or functools.partial(http_send, allow_private=self.policy.private_addresses)
        self._clock = clock
        self.checkpoints = CheckpointDeliveries(deliveries, tournaments, log, keys, self.policy.scan_batch, clock)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------------ scan
    def scan(self) -> tuple[int, int]:
        """Turn the next page of the log, and of the published checkpoints,
        into deliveries; ``(events and checkpoints read, deliveries
        created)``.  Nothing is created if another dispatcher moved the
        cursor meanwhile (it created the same deliveries)."""
        read, created = self._scan_events()
        checkpoints, delivered = self.checkpoints.scan()
        return read + checkpoints, created + delivered

    def _scan_events(self) -> tuple[int, int]:
        state = self.deliveries.dispatch_state()
        prometheus.WEBHOOK_BACKLOG.set(max(0, state.head - state.cursor))
        if state.head <= state.cursor:
            return 0, 0
        now = self._clock()
        if not state.active:
            # Nobody to tell: move the cursor to the head without reading the
            # log, unless a webhook was registered meanwhile (then the next
            # pass reads it).  Not "busy": the next pass waits poll_seconds.
            self.deliveries.record_deliveries(state.cursor, state.head, [], now, state.webhooks)
            return 0, 0
        events = self.queries.event_log.read_all(state.cursor, self.policy.scan_batch)
        if not events:
            return 0, 0
        deliveries = self._deliveries_for(events, format_timestamp(now))
        recorded = self.deliveries.record_deliveries(
            state.cursor, events[-1].position, deliveries, now, state.webhooks
        )
        return len(events), len(deliveries) if recorded else 0

    def _deliveries_for(self, events: list[StoredEvent], created_at: str) -> list[NewDelivery]:
        # Only a game's first event (game.started) and the last event of each
        # game in this page (maybe the one that finished it) can matter.
        last: dict[str, StoredEvent] = {}
        first: dict[str, StoredEvent] = {}
        scheduled_start: dict[str, StoredEvent] = {}
        out: dict[str, list[StoredEvent]] = defaultdict(list)
        for event in events:
            last[event.game_id] = event
            if event.seq == 1:
                first[event.game_id] = event
            if event.type == GameStarted.TYPE:
                scheduled_start[event.game_id] = event
            if event.type in SEAT_OUT_EVENTS:
                out[event.game_id].append(event)
        webhooks: dict[str, tuple[WebhookRecord, ...]] = {}
        deliveries: list[NewDelivery] = []
        for game_id, final in last.items():
            record = self.queries.event_log.get_game(game_id)
            organiser = record.metadata.get("organiser")
            if not isinstance(organiser, str):
                continue
            if organiser not in webhooks:
                webhooks[organiser] = self.tournaments.list_webhooks(organiser)
            occurred: list[tuple[str, StoredEvent]] = []
            # a scheduled game starts with its game_started, any other with its first event
            started = (scheduled_start if record.metadata.get("starts_at") else first).get(game_id)
            if started is not None:
                occurred.append((GAME_STARTED, started))
            occurred += [(GAME_SEAT_OUT, e) for e in out[game_id]]
            if final.seq == record.version and record.status in (STATUS_FINISHED, STATUS_CANCELLED):
                occurred.append((GAME_FINISHED if record.status == STATUS_FINISHED else GAME_CANCELLED, final))
            for kind, event in occurred:
                for hook in webhooks[organiser]:
                    if self._wants(hook, kind, event, record):
                        deliveries.append(self._new_delivery(hook, kind, record, created_at, event))
        return deliveries

    @staticmethod
    def _wants(hook: WebhookRecord, kind: str, event: StoredEvent, record: GameRecord) -> bool:
        return (
            kind in hook.events
            and event.position > hook.from_position
            and (hook.batch_id is None or hook.batch_id == record.metadata.get("batch"))
        )

    def _new_delivery(
        self, hook: WebhookRecord, kind: str, record: GameRecord, created_at: str, event: StoredEvent
    ) -> NewDelivery:
        delivery_id = uuid.uuid4().hex
        result = self._result(record) if kind == GAME_FINISHED else None
        seat_out = None
        if kind == GAME_SEAT_OUT:
            seat_out = {"seat": event.payload.get("seat"), "standing": SEAT_OUT_EVENTS[event.type], "seq": event.seq}
        body = delivery_body(delivery_id, kind, created_at, record, result, seat_out)
        occurrence = event.seq if kind == GAME_SEAT_OUT else 0
        return self.keys.vouched(NewDelivery(delivery_id, hook.webhook_id, record.game_id, kind, body, occurrence))

    def _result(self, record: GameRecord) -> JSON | None:
        try:
            loaded = self.queries.load(record.game_id)
        except StoreError:
            raise
        except Exception:  # a game the rules cannot replay: deliver without its result
            log.exception("cannot rebuild game %s for its webhook result", record.game_id)
            return None
        return loaded.definition.result(loaded.state)

    # --------------------------------------------------------------- deliver
    def deliver_due(self) -> int:
        """Lease the due deliveries and make one attempt at each; the number of attempts."""
        owner = f"dispatcher-{uuid.uuid4().hex}"
        claimed = self._claim(owner, self.policy.claim_batch)
        for delivery in claimed:
            self.attempt(delivery, owner)
        return len(claimed)

    def _claim(self, owner: str, limit: int) -> Sequence[ClaimedDelivery]:
        """Lease up to ``limit`` due deliveries, fairly: organisers take turns
        and the policy caps what one webhook or organiser holds in flight."""
        policy = self.policy
        return self.deliveries.claim_deliveries(owner, self._clock(), policy.lease_seconds, limit,
                                           policy.per_webhook, policy.per_organiser)

    def attempt(self, delivery: ClaimedDelivery, owner: str) -> AttemptOutcome:
        """Send one leased delivery and record how it went (a delivery the
        server did not make, or without a secret it sealed: refused, not sent)."""
        secret = self.keys.open(delivery.webhook_id, delivery.secret)
        if secret is None or not self.keys.vouches(delivery):
            return self._refuse(delivery, owner, REFUSED_SECRET if secret is None else REFUSED_FORGED)
        body = delivery.body.encode("utf-8")
        number = delivery.attempts + 1
        sent = self._send(delivery.url, body, delivery_headers(delivery, secret, body, number),
                          self.policy.timeout_seconds)
        outcome = self.policy.outcome(sent, number, self._clock())
        prometheus.WEBHOOK_ATTEMPTS.labels(outcome.state).inc()
        if not self.deliveries.record_attempt(delivery.delivery_id, owner, outcome):
            log.warning("delivery %s: lease lost before the attempt was recorded", delivery.delivery_id)
        elif outcome.state != "delivered":
            log.info(
                "delivery %s to %s: attempt %d failed (%s), now %s",
                delivery.delivery_id,
                delivery.url,
                number,
                sent.error or sent.status_code,
                outcome.state,
            )
        return outcome

    def _refuse(self, delivery: ClaimedDelivery, owner: str, why: str) -> AttemptOutcome:
        outcome = self.policy.outcome(SendResult(None, why, 0), self.policy.max_attempts, self._clock())
        prometheus.WEBHOOK_ATTEMPTS.labels("refused").inc()
        log.warning("delivery %s of webhook %s: %s", delivery.delivery_id, delivery.webhook_id, why)
        self.deliveries.record_attempt(delivery.delivery_id, owner, outcome)
        return outcome

    # ------------------------------------------------------------------ loop
    def run_once(self) -> PassReport:
        """One pass: scan the log, then attempt the due deliveries."""
        read, created = self.scan()
        attempts = self.deliver_due()
        return PassReport(read, created, attempts)

    def run(self, stop: threading.Event | None = None) -> None:
        """Scan and deliver until ``stop`` is set or the store is closed.

        Scanning runs in a thread of its own and up to ``policy.senders``
        attempts are in flight at once, each in its own thread: a receiver
        that hangs holds one sender until its attempt's deadline, never the
        recording of new deliveries nor anybody else's attempts.  Store
        failures are logged and retried."""
        stop = stop or self._stop
        scanner = threading.Thread(target=self._keep_scanning, args=(stop,), name="cablecar-webhooks-scan", daemon=True)
        scanner.start()
        try:
            self._keep_delivering(stop)
        finally:
            scanner.join(self.policy.timeout_seconds + 1.0)

    def _running(self, stop: threading.Event) -> bool:
        return not stop.is_set() and not self.database.closed

    def _guarded(self, step: Callable[[], int], what: str) -> int:
        """Run one step; a failure is logged and counts as no work."""
        try:
            return step()
        except StoreError as e:
            if not self.database.closed and not isinstance(e, SchemaNotMigrated):  # that one is said once by the store
                log.warning("webhook dispatcher: the store failed while %s (%s); retrying", what, e)
        except Exception:
            log.exception("webhook dispatcher: unexpected error while %s; retrying", what)
        return 0

    def _keep_scanning(self, stop: threading.Event) -> None:
        while self._running(stop):
            if not self._guarded(lambda: self.scan()[0], "scanning"):
                stop.wait(self.policy.poll_seconds)

    def _keep_delivering(self, stop: threading.Event) -> None:
        owner = f"dispatcher-{uuid.uuid4().hex}"
        slots = threading.Condition()
        in_flight = 0

        def finished(_: object) -> None:
            nonlocal in_flight
            with slots:
                in_flight -= 1
                slots.notify()

        def send(delivery: ClaimedDelivery) -> None:
            self._guarded(lambda: bool(self.attempt(delivery, owner)), "sending a delivery")

        with ThreadPoolExecutor(self.policy.senders, thread_name_prefix="cablecar-webhooks-send") as pool:
            while self._running(stop):
                with slots:
                    free = self.policy.senders - in_flight
                claimed: list[ClaimedDelivery] = []
                if free > 0:
                    claimed = list(self._guarded_claim(owner, min(free, self.policy.claim_batch)))
                for delivery in claimed:
                    with slots:
                        in_flight += 1
                    pool.submit(send, delivery).add_done_callback(finished)
                if not claimed:
                    with slots:  # woken early when a sender frees up
                        slots.wait(self.policy.poll_seconds)

    def _guarded_claim(self, owner: str, limit: int) -> Sequence[ClaimedDelivery]:
        found: Sequence[ClaimedDelivery] = ()

        def claim() -> int:
            nonlocal found
            found = self._claim(owner, limit)
            return len(found)

        self._guarded(claim, "claiming deliveries")
        return found

    def start(self) -> None:
        """Run :meth:`run` in a daemon thread (idempotent)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self.run, name="cablecar-webhooks", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> None:
        """Ask the background thread to stop and wait for it (at most ``timeout`` s)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        """Whether the background thread is alive."""
        return self._thread is not None and self._thread.is_alive()
