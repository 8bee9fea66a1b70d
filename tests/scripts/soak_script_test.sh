#!/usr/bin/env bash
# scripts/soak.sh against a stand-in for `tetlab run --soak` (the real runs
# take minutes each; the quick soak in the test command runs the real binary):
# rows and verdicts for ok, blow-up and memory-growth exits, --jobs really
# running cases side by side, --resume and --resume-from skipping what is done
# and running a failed case again, and bad --jobs values refused.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/soak-script-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check DESCRIPTION COMMAND...: the command must succeed
  local what="$1"; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failures=$((failures + 1)); fi
}

# The stand-in: its exit code comes from the preset's name (good*: 0, nan*: 2,
# grow*: 3), and it prints the lines soak.sh reads. With STUB_PEERS=N set, each
# case waits (up to 20 s) until N cases have started, and says whether they did.
stub="$work/tetlab"
cat > "$stub" <<'STUB'
#!/usr/bin/env bash
scene="$3"; solver="$5"; backend="$7"
echo "$scene $solver $backend" >> "$STUB_DIR/calls"
touch "$STUB_DIR/started.$scene.$solver.$backend"
if [ -n "${STUB_PEERS:-}" ]; then
  for _ in $(seq 200); do
    [ "$(ls "$STUB_DIR" | grep -c '^started\.')" -ge "$STUB_PEERS" ] && break
    sleep 0.1
  done
  [ "$(ls "$STUB_DIR" | grep -c '^started\.')" -ge "$STUB_PEERS" ] && echo "together" > "$STUB_DIR/peers.$scene" \
    || echo "alone" > "$STUB_DIR/peers.$scene"
fi
echo "tetlab run: done, t = 1.0000 s, total energy 4.5 J, residual 1e-06, max violation 0 m, 2.500 ms/step"
case "$scene" in
  good*) echo "tetlab run: resident memory 8.0 MB at frame 25, 8.0 MB at the end (+0.00 %)"; exit 0 ;;
  nan*) echo "tetlab run: non-finite position at frame 12"; exit 2 ;;
  grow*) echo "tetlab run: resident memory 8.0 MB at frame 25, 9.0 MB at the end (+12.50 %)"; exit 3 ;;
esac
exit 1
STUB
chmod +x "$stub"
soak() { TETLAB_BIN="$stub" STUB_DIR="$STUB_DIR" "$root/scripts/soak.sh" --frames 50 --solvers xpbd --backends cpu "$@"; }
fresh() { STUB_DIR="$work/$1"; rm -rf "$STUB_DIR"; mkdir -p "$STUB_DIR"; : > "$STUB_DIR/calls"; }

# Two jobs: both cases start before either ends, and both rows are ok.
fresh parallel
out="$(STUB_PEERS=2 soak --jobs 2 --presets good_a,good_b --log "$work/log1")"; rc=$?
check "--jobs 2 exits 0 when every case passed" [ "$rc" = 0 ]
check "--jobs 2 ran the two cases side by side" grep -qx together "$STUB_DIR/peers.good_a"
check "--jobs 2 ran the two cases side by side (second)" grep -qx together "$STUB_DIR/peers.good_b"
check "both rows are ok with ms/step and memory" \
  [ "$(grep -c '| good_[ab] | xpbd | cpu | 50 | ok | 2.500 | 8.0 MB -> 8.0 MB (+0.00 %) | end 4.5 J |' <<< "$out")" = 2 ]
check "the summary counts the cases" grep -q 'soak: 2 cases, 0 failed' <<< "$out"

# Failures in the background are counted, whatever the order they end in.
fresh failing
out="$(soak --jobs 2 --presets good_c,nan_a,grow_a --log "$work/log2")"; rc=$?
check "a blow-up or memory growth makes the exit non-zero" [ "$rc" != 0 ]
check "the blow-up row" grep -qF '| nan_a | xpbd | cpu | 50 | **blow-up** |' <<< "$out"
check "the memory row" grep -qF '| grow_a | xpbd | cpu | 50 | **memory grew** |' <<< "$out"
check "a failed case shows its log's tail" grep -qF '    tetlab run: non-finite position at frame 12' <<< "$out"
check "the summary counts two failures" grep -q 'soak: 3 cases, 2 failed' <<< "$out"

# --resume: the rows kept in the log folder stand; nothing runs again, and the failures still count.
fresh resumed
out="$(soak --jobs 2 --presets good_c,nan_a,grow_a --log "$work/log2" --resume)"; rc=$?
check "--resume runs nothing already in the log" [ ! -s "$STUB_DIR/calls" ]
check "--resume keeps the verdict" [ "$rc" != 0 ]
check "--resume still counts the failures" grep -q 'soak: 3 cases, 2 failed' <<< "$out"

# --resume-from: an ok row at the same frame count is done; a failed row, or one at another count, runs again.
fresh table
cat > "$work/table.md" <<'TABLE'
| preset | solver | backend | frames | result | ms/step | memory (frame 1000 -> end) | energy |
| --- | --- | --- | --- | --- | --- | --- | --- |
| good_d | xpbd | cpu | 50 | ok | 1.0 | 8.0 MB -> 8.0 MB (+0.00 %) | end 1 J |
| good_e | xpbd | cpu | 20000 | ok | 1.0 | 8.0 MB -> 8.0 MB (+0.00 %) | end 1 J |
| nan_b | xpbd | cpu | 50 | **blow-up** | 1.0 | - | - |
TABLE
out="$(soak --presets good_d,good_e,nan_b --log "$work/log3" --resume --resume-from "$work/table.md")"; rc=$?
check "--resume-from skips the ok row at this frame count" bash -c "! grep -q '^good_d ' '$STUB_DIR/calls'"
check "--resume-from runs a case done at another frame count" grep -q '^good_e ' "$STUB_DIR/calls"
check "--resume-from runs a failed row again" grep -q '^nan_b ' "$STUB_DIR/calls"
check "the table's row is printed for the skipped case" grep -qF '| good_d | xpbd | cpu | 50 | ok | 1.0 |' <<< "$out"

# Bad --jobs values are refused before anything runs.
fresh badjobs
for j in 0 abc -1 100; do
  out="$(soak --jobs "$j" --presets good_f --log "$work/log4" 2>&1)"; rc=$?
  check "--jobs $j is refused with exit 2" [ "$rc" = 2 ]
  check "--jobs $j names the flag" grep -q "soak: --jobs '$j'" <<< "$out"
done
check "nothing ran for a bad --jobs" [ ! -s "$STUB_DIR/calls" ]

echo "soak_script_test: $failures failed"
[ "$failures" = 0 ]
