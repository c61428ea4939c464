#!/usr/bin/env bash
# The main job: set up, run ascendc-check over the bundled example kernels, then the benchmark over the bundled
# task suite's reference solutions (every stage, on the simulator; exit 1 if a reference solution fails).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
.venv/bin/ascendc-check examples/
export OMP_NUM_THREADS=1
exec .venv/bin/ascendir bench
