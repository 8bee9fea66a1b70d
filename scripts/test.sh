#!/usr/bin/env bash
# The test command: install what is missing, build, run every test suite
# (core, cpu, gpu on PoCL, conformance, session, bench, app under Xvfb), the quick benchmark, the shortened
# soak, then the core suite again under AddressSanitizer + UndefinedBehaviorSanitizer, then a minute of
# fuzzing per input path. Each phase prints its wall time, and ctest's slowest tests are listed, so a
# change that makes the command slower is seen in the log of the run it lands in (budget: 30 minutes
# on 2 cores from a clean clone, build included; README "The two commands").
#
# Compilation goes through ccache (CMakeLists.txt) for the release, ASan and fuzz trees alike; the
# cache lives outside the clone (ccache's own default, ~/.cache/ccache), so a clean clone rebuilds
# from it. The hour-long runs are not here: scripts/long-tests.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
phase_start=$SECONDS
phase() {  # phase NAME: prints the time since the previous phase ended
  echo "test.sh: $1 took $((SECONDS - phase_start)) s (total $((SECONDS - start)) s)"
  phase_start=$SECONDS
}
scripts/install-deps.sh
phase "install-deps"
scripts/build.sh release
phase "release build"
xvfb-run -a -s "-screen 0 1280x800x24" \
  ctest --preset release -j"$(nproc)" --output-junit ctest-junit.xml
scripts/slowest-tests.sh build/ctest-junit.xml 15
phase "ctest"
# The benchmark's quick run: every solver on both backends on small scenes,
# times printed for the log, never asserted; it fails only when a case fails
# (an error or a blow-up).
build/tetlab-bench --quick
phase "tetlab-bench --quick"
# The shortened soak (issue 16): 2000 frames each of a solid, a sheet and
# strands; fails on NaN, an energy blow-up or resident memory growing > 5 %.
scripts/soak.sh --quick
phase "soak --quick"
# Sanitizer pass over the core library only (the app and GL stack are not
# instrumented; their libraries are not built with ASan). Only the core test
# executable is built: the cpu/gpu suites would take minutes to build and are
# not run here.
cmake --preset asan -DTETLAB_BUILD_APP=OFF > /dev/null
cmake --build --preset asan -j"$(nproc)" --target tetlab_tests_core
ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 ctest --preset asan -L core -j"$(nproc)"
phase "ASan build and core suite"
# Bounded fuzzing (issue 16): the OBJ loader, the scene file and the command
# line, 60 s each under libFuzzer + ASan + UBSan, after replaying every kept
# crash (tests/fuzz/regressions). Its own clang build of only the libraries the
# targets need (core and the command-line reader): a few minutes on 2 cores.
scripts/fuzz.sh 60
phase "fuzz build and 3 x 60 s"
echo "test.sh: all passed in $((SECONDS - start)) s"
