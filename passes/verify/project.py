"""Rules of the project family (see rules.py for the code ranges)."""

from __future__ import annotations
