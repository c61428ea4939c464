"""Rules of the queue_protocol family (see rules.py for the code ranges)."""

from __future__ import annotations
