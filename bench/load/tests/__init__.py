"""Unit tests of the harness' own checks (``python -m pytest bench/load/tests -q``)."""
