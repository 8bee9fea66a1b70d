#!/usr/bin/env bash
# Configures and builds a preset (default: release). Used by run.sh and test.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-release}"
shift || true
cmake --preset "$preset" "$@" > /dev/null
cmake --build --preset "$preset" -j"$(nproc)"
