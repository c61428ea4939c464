"""Rules of the alignment family (see rules.py for the code ranges)."""

from __future__ import annotations
