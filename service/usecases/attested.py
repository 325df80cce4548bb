"""Whether the transparency log holds a stored game as it is (issue 48): the
server's own ``inclusion`` check, worded as ``cablecar verify --checkpoint``
words it, so that ``/audit`` and ``verify`` give one verdict on one record.

The game's last stored event is a leaf of the latest published checkpoint
when the log has a leaf for it below that checkpoint's size and the leaf hash
the log stored is ``leaf_hash(its hash || the game's leaf_salt)``; its hash
chain then commits to every earlier event.  A record whose only fault is a
signature and that the log holds so is *damaged and log-attested*
(:attr:`events.integrity.verdict.Verdict.attested`): nothing moves it aside
(:mod:`service.usecases.quarantine`).
"""

from __future__ import annotations

from events.integrity import merkle
from events.integrity.checkpoint import Checkpoint, parse_note
from events.integrity.verdict import Check
from events.recorders.transparency_log import TransparencyLog
from events.records import GameRecord, StoredEvent


def log_inclusion(log: TransparencyLog, record: GameRecord, last: StoredEvent) -> Check:
    """The ``inclusion`` check of the stored game whose last event is ``last``
    in the latest published checkpoint (not made while none holds it yet)."""
    checkpoint = log.checkpoint()
    leaf = log.game_leaf(record.game_id, last.seq)
    if checkpoint is None or leaf is None or leaf.leaf_index >= checkpoint.tree_size:
        return Check.not_made("inclusion", f"no published checkpoint holds the game's last event (seq {last.seq}) "
                                           "yet")
    try:
        origin = Checkpoint.parse(parse_note(checkpoint.note)[0]).origin
    except ValueError:
        origin = "(a checkpoint whose note does not parse)"
    where = f"leaf {leaf.leaf_index} of the tree of {checkpoint.tree_size} leaves (checkpoint {origin}, the latest)"
    held = log.node_hashes([(0, leaf.leaf_index)]).get((0, leaf.leaf_index))
    try:
        stored = merkle.leaf_hash(bytes.fromhex(last.hash) + bytes.fromhex(str(record.metadata.get("leaf_salt"))))
    except ValueError:
        stored = None
    if held is None or stored != held:
        return Check("inclusion", False, f"the game's last event (seq {last.seq}) as stored is not {where} as the "
                                         "log holds it: the stored record was changed after it was logged")
    return Check("inclusion", True, f"last event (seq {last.seq}) is {where}")
