#!/usr/bin/env bash
# Create .venv, install AscendIR with the given extras, and (re)build the Rust extension.
# Usage: scripts/setup.sh [extras]   e.g. scripts/setup.sh test,train
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-}"
PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
    .venv/bin/pip install -q --no-cache-dir -U pip
fi
spec="."
[ -n "$extras" ] && spec=".[${extras}]"
# Editable install: Python sources are used in place; maturin (re)builds the Rust
# extension on every run, since an editable install does not notice Rust changes by itself.
# --no-cache-dir: torch and its CUDA wheels are about 4 GB; a cached copy of them would double what the
# install leaves on disk, and a CI machine with little room left fails on it.
.venv/bin/pip install -q --no-cache-dir -e "$spec"

# An editable install leaves our sources uncompiled, and where PYTHONDONTWRITEBYTECODE is set every start
# of ascendc-check would compile them again (about 0.4 s). Compile them once, as a wheel install would.
.venv/bin/python -m compileall -q -j 0 frontend ascendir passes cli bench llm >/dev/null
