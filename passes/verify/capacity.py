"""Rules of the capacity family (see rules.py for the code ranges)."""

from __future__ import annotations
