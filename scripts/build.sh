#!/usr/bin/env bash
# Configures and builds a preset (default: release): every target, or only the
# targets named after the preset (run.sh builds `tetlab` alone, so the sandbox
# does not wait for the test executables; test.sh builds everything).
#   scripts/build.sh [PRESET] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
cmake --preset "$preset" > /dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build --preset "$preset" -j"$(nproc)" "${targets[@]}"
