#!/usr/bin/env bash
# The long versions of the tests the test command keeps short, run before a
# release (not in CI): every preset on every solver and both backends for the
# full 300 frames (5 s) instead of what each scene needs (PresetRuns; see the
# top of tests/app/preset_runs_test.cpp). About 700 test-seconds on 2 cores.
# The hour-long runs are separate: scripts/soak.sh (20,000 frames a case) and
# scripts/sanitize.sh (the suites under ASan and TSan).
#
#   scripts/long-tests.sh            build the release tree if needed, run them
#   scripts/long-tests.sh -R chain   extra arguments go to ctest
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh release
TETLAB_LONG_TESTS=1 xvfb-run -a -s "-screen 0 1280x800x24" \
  ctest --preset release -j"$(nproc)" -R 'PresetRuns\.' --output-junit ctest-long-junit.xml "$@"
scripts/slowest-tests.sh build/ctest-long-junit.xml 15
