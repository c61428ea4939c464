"""Rules of the host_code family (see rules.py for the code ranges)."""

from __future__ import annotations
