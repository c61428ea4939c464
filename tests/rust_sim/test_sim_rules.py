"""Every finding code the Rust side reports has a rule page, listed by `ascendc-check rules` like the static ones."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from passes.sim.rules import SIM_RULES

ROOT = Path(__file__).resolve().parents[2]


def rust_codes() -> set[str]:
    text = (ROOT / "rust_sim/src/checks.rs").read_text()
    return set(re.findall(r'pub const \w+: &str = "(ASC\d+)"', text))


def test_the_rust_codes_and_the_pages_are_the_same_set() -> None:
    assert rust_codes() == set(SIM_RULES)


def test_the_pages_do_not_reuse_a_static_code() -> None:
    from ascendir.lower.diagnostics import PAGES
    from passes.verify import RULES

    assert not set(SIM_RULES) & (set(RULES) | set(PAGES))


def test_ascendc_check_lists_and_prints_them() -> None:
    listed = subprocess.run([sys.executable, "-m", "cli.check", "rules"], capture_output=True, text=True, cwd=ROOT)
    assert listed.returncode == 0
    for code, rule in SIM_RULES.items():
        assert re.search(rf"^{code}\s+{rule.name}\s+simulator", listed.stdout, re.M), code
    page = subprocess.run([sys.executable, "-m", "cli.check", "rule", "ASC953"], capture_output=True, text=True,
                          cwd=ROOT)
    assert page.returncode == 0 and "sim-cross-core-write-overlap (ASC953)" in page.stdout
    assert "## Use instead" in page.stdout
