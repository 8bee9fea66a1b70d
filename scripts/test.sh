#!/usr/bin/env bash
# The test command: install what is missing, build, run every test suite
# (core, cpu, gpu on PoCL, conformance, session, bench, app under Xvfb), the quick benchmark, the shortened
# soak, then the core suite again under AddressSanitizer + UndefinedBehaviorSanitizer, then a minute of
# fuzzing per input path.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh release
xvfb-run -a -s "-screen 0 1280x800x24" ctest --preset release -j"$(nproc)"
# The benchmark's quick run: every solver on both backends on small scenes,
# times printed for the log, never asserted; it fails only when a case fails
# (an error or a blow-up).
build/tetlab-bench --quick
# The shortened soak (issue 16): 2000 frames each of a solid, a sheet and
# strands; fails on NaN, an energy blow-up or resident memory growing > 5 %.
scripts/soak.sh --quick
# Sanitizer pass over the core library only (the app and GL stack are not
# instrumented; their libraries are not built with ASan). Only the core test
# executable is built: the cpu/gpu suites would take minutes to build and are
# not run here.
cmake --preset asan -DTETLAB_BUILD_APP=OFF > /dev/null
cmake --build --preset asan -j"$(nproc)" --target tetlab_tests_core
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -L core -j"$(nproc)"
# Bounded fuzzing (issue 16): the OBJ loader, the scene file and the command
# line, 60 s each under libFuzzer + ASan + UBSan, after replaying every kept
# crash (tests/fuzz/regressions). Its own clang build of only the libraries the
# targets need (core and the command-line reader): a few minutes on 2 cores.
scripts/fuzz.sh 60
