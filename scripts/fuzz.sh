#!/usr/bin/env bash
# Bounded fuzzing (issue 16): configures and builds the `fuzz` preset (clang-14,
# libFuzzer, ASan + UBSan; only the libraries the targets need), then for each
# target replays its kept crashes (tests/fuzz/regressions/<target>) and fuzzes
# it for SECONDS from a fresh corpus seeded by tests/fuzz/gather_seeds.sh.
# Everything is written to a temporary folder, never to the repository; it is
# removed when all targets pass and kept (path printed) when one fails.
# Fails on any crash, hang (> 10 s per input), leak, UBSan report or RSS above 2 GB.
#
#   scripts/fuzz.sh [SECONDS] [TARGET...]     SECONDS per target (default 60);
#                                             TARGET: obj, scene, cli (default all)
#   scripts/fuzz.sh 1800 scene                one target for half an hour
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(obj scene cli)

cmake --preset fuzz > /dev/null
cmake --build --preset fuzz -j"$(nproc)"

work="$(mktemp -d "${TMPDIR:-/tmp}/tetlab-fuzz.XXXXXX")"
tests/fuzz/gather_seeds.sh "$work/seeds"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
failed=0
for target in "${targets[@]}"; do
  exe="build-fuzz/tetlab_fuzz_$target"
  [ -x "$exe" ] || { echo "fuzz: no fuzz target '$target' (obj, scene, cli)"; exit 2; }
  mkdir -p "$work/corpus/$target" "$work/crashes/$target"
  log="$work/$target.log"
  # -close_fd_mask=3: the target's own output (help text, error lines) is
  # dropped; libFuzzer and the sanitizers still report on a duplicate of stderr.
  common=(-timeout=10 -rss_limit_mb=2048 -close_fd_mask=3 "-artifact_prefix=$work/crashes/$target/")
  regressions=(tests/fuzz/regressions/"$target"/*)
  if [ -e "${regressions[0]}" ] && ! "$exe" "${common[@]}" "${regressions[@]}" > "$log.replay" 2>&1; then
    echo "fuzz: $target: a kept regression input fails again:"
    tail -n 40 "$log.replay"
    failed=1
    continue
  fi
  if "$exe" "${common[@]}" -max_total_time="$seconds" -print_final_stats=1 -dict="$work/seeds/$target.dict" \
      "$work/corpus/$target" "$work/seeds/$target" > "$log" 2>&1; then
    runs=$(grep -oE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || echo "?")
    cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -n 1 || true)
    echo "fuzz: $target: ok, ${seconds} s, $runs inputs, $cov, corpus $(find "$work/corpus/$target" -type f | wc -l) files"
  else
    echo "fuzz: $target: FAILED; the input is in $work/crashes/$target/ (keep it in tests/fuzz/regressions/$target/):"
    grep -E -A 30 '^==[0-9]+==ERROR|runtime error|^fuzz_|ALARM|out-of-memory|deadly signal' "$log" | head -n 60 || tail -n 60 "$log"
    failed=1
  fi
done
if [ "$failed" -ne 0 ]; then
  echo "fuzz: failed; logs, corpus and crashing inputs kept in $work"
  exit 1
fi
rm -rf "$work"
