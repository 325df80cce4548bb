"""Hypothesis profiles for the ttr-sf property tests.

``HYPOTHESIS_PROFILE=thorough`` plays thousands of random games (see
``test_properties.py``); the default run keeps to a few dozen.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "thorough",
    max_examples=2000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

_profile = os.environ.get("HYPOTHESIS_PROFILE")
if _profile == "thorough":
    settings.load_profile(_profile)
