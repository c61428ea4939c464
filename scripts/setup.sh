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
# The train extra's torch wheels need about 12 GB while they install (downloads, unpacking and the 6-7 GB
# .venv); name the cause up front instead of leaving pip's "No space left on device" as the only clue.
case ",$extras," in
    *,train,*)
        if ! .venv/bin/python -c "import torch" 2>/dev/null; then
            free_kb=$(df -Pk . "${TMPDIR:-/tmp}" | awk 'NR > 1 && (min == "" || $4 < min) { min = $4 } END { print min }')
            if [ -n "$free_kb" ] && [ "$free_kb" -lt $((12 * 1024 * 1024)) ]; then
                echo "setup.sh: warning: $((free_kb / 1024 / 1024)) GB free here or in ${TMPDIR:-/tmp};" \
                     "installing torch for the train extra needs about 12 GB" >&2
            fi
        fi
        ;;
esac
.venv/bin/pip install -q --no-cache-dir -e "$spec"

# An editable install leaves our sources uncompiled, and where PYTHONDONTWRITEBYTECODE is set every start
# of ascendc-check would compile them again (about 0.4 s). Compile them once, as a wheel install would.
.venv/bin/python -m compileall -q -j 0 frontend ascendir passes cli bench llm >/dev/null
