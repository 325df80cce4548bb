"""Load, faults and speed harness for the production stack (``bash bench/run.sh``).

Modules: ``stack`` (PostgreSQL, Redis, gunicorn), ``http`` (timed keep-alive
client), ``scripts`` (games decided in advance), ``clients`` (load clients),
``load`` (running a pool for a fixed time), ``stats``, ``cachestats``,
``integrity`` (lost / duplicated events, audits), ``growth``, ``faults``,
``fuzz``, ``harness`` (the whole run), ``report`` (markdown), ``config``.
"""
