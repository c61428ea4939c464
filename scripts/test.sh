#!/usr/bin/env bash
# The whole test suite: set up with every extra (test, train, bench), then Rust tests and Python tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test,train,bench
export OMP_NUM_THREADS=1
cargo test --quiet
.venv/bin/python -m pytest "$@"
