#!/usr/bin/env bash
# The main job: set up, then run ascendc-check over the bundled example kernels.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/ascendc-check examples/
