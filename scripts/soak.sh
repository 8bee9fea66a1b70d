#!/usr/bin/env bash
# Soak (issue 16): long headless runs of the presets through `tetlab run
# --soak`, each of which fails on NaN/inf (exit 2), an energy blow-up in the
# unforced run (exit 2) or resident memory growing more than 5 % from frame
# 1000 to the end (exit 3). Prints one Markdown row per case and exits non-zero
# when any case failed; each case's output is kept under the log folder.
#
#   scripts/soak.sh                  every preset x every solver x cpu and opencl, 20000 frames
#   scripts/soak.sh --quick          the CI set (about a minute): 2000 frames of a solid, a
#                                    sheet and strands, on both backends
#   scripts/soak.sh --frames N [--presets a,b] [--solvers s,t] [--backends cpu,opencl] [--log DIR]
#   scripts/soak.sh --log DIR --resume   skip the cases DIR already holds a result for (the full soak
#                                    is about 12 CPU-hours here: it can be run in parts)
#   scripts/soak.sh --resume-from docs/robustness.md   also skip the cases that file's table already
#                                    shows as ok at the same frame count (a log folder does not
#                                    outlive the machine; the committed table does)
#   scripts/soak.sh --jobs N         run N cases at a time (a CPU case uses one core; rows then
#                                    print in the order the cases end). The full soak on two cores:
#                                    --frames 20000 --jobs 2 --log DIR --resume --resume-from docs/robustness.md
#   TETLAB_BIN=PATH scripts/soak.sh  the binary to run (default build/tetlab)
set -euo pipefail
cd "$(dirname "$0")/.."

frames=20000
presets=""
solvers="pbd,xpbd,vbd,avbd"
backends="cpu,opencl"
log=""
quick=0
resume=0
resume_from=""
jobs=1
bin="${TETLAB_BIN:-build/tetlab}"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1 ;;
    --frames) frames="$2"; shift ;;
    --presets) presets="$2"; shift ;;
    --solvers) solvers="$2"; shift ;;
    --backends) backends="$2"; shift ;;
    --log) log="$2"; shift ;;
    --resume) resume=1 ;;
    --resume-from) resume_from="$2"; shift ;;
    --jobs) jobs="$2"; shift ;;
    *) echo "soak: unknown argument '$1' (see the header of $0)"; exit 2 ;;
  esac
  shift
done
[ "$resume" = 0 ] || [ -n "$log" ] || { echo "soak: --resume needs --log DIR"; exit 2; }
[ -z "$resume_from" ] || [ -r "$resume_from" ] || { echo "soak: --resume-from '$resume_from': no such file (give a Markdown file holding soak rows, e.g. docs/robustness.md)"; exit 2; }
[[ "$jobs" =~ ^[1-9][0-9]?$ ]] || { echo "soak: --jobs '$jobs': give a whole number from 1 to 99"; exit 2; }
[ -x "$bin" ] || { echo "soak: $bin is missing: run scripts/build.sh release first"; exit 2; }
created=0
if [ -z "$log" ]; then log="$(mktemp -d "${TMPDIR:-/tmp}/tetlab-soak.XXXXXX")"; created=1; fi
mkdir -p "$log"

cases=()
if [ "$quick" = 1 ]; then
  # About a minute on two cores: a solid, a sheet and strands, both backends.
  frames=2000
  cases=("beam xpbd cpu" "cloth_flag avbd cpu" "hair xpbd opencl")
else
  [ -n "$presets" ] || presets="$(ls assets/scenes/*.json | xargs -n1 basename | sed 's/\.json$//' | paste -sd, -)"
  IFS=, read -ra P <<< "$presets"; IFS=, read -ra S <<< "$solvers"; IFS=, read -ra B <<< "$backends"
  for p in "${P[@]}"; do for s in "${S[@]}"; do for b in "${B[@]}"; do cases+=("$p $s $b"); done; done; done
fi

echo "| preset | solver | backend | frames | result | ms/step | memory (frame 1000 -> end) | energy |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
# One case: its log, its row (also kept as LOG/CASE.txt.row) and, when it failed, the log's tail.
run_case() {
  local preset="$1" solver="$2" backend="$3" out="$4" rc result ms memory energy rise soft
  set +e
  "$bin" run --scene "$preset" --solver "$solver" --backend "$backend" --frames "$frames" --soak > "$out" 2>&1
  rc=$?
  set -e
  case $rc in
    0) result="ok" ;;
    2) result="**blow-up**" ;;
    3) result="**memory grew**" ;;
    *) result="**failed ($rc)**" ;;
  esac
  ms="$(sed -n 's/.*, \([0-9.]*\) ms\/step$/\1/p' "$out" | tail -1)"
  memory="$(sed -n 's/^tetlab run: resident memory \([0-9.]* MB\) at frame [0-9]*, \([0-9.]* MB\) at the end (\(.*\))$/\1 -> \2 (\3)/p' "$out")"
  # Bounded, not conserved: an unforced run's largest rise above its start is
  # shown (tetlab run flags it past its tolerance); only a blow-up fails.
  energy="$(sed -n 's/.*total energy \([^ ]* J\).*/end \1/p' "$out" | tail -1)"
  rise="$(sed -n 's/^tetlab run: energy rose \([^ ]* J\) above the start.*/, rose \1 above the start/p' "$out")"
  # PBD is checked by its motion; its shape's excess is softness, not a gain.
  soft="$(sed -n "s/^tetlab run: the material's energy of PBD's shape rose up to \([^ ]* J\) above the start.*/, PBD's shape +\1 (softer than its material)/p" "$out")"
  local row="| $preset | $solver | $backend | $frames | $result | ${ms:--} | ${memory:--} | ${energy:--}${rise}${soft} |"
  echo "$row" > "$out.row"
  # One write per case, so rows of parallel cases do not interleave.
  if [ $rc = 0 ]; then echo "$row"; else printf '%s\n%s\n' "$row" "$(sed 's/^/    /' "$out" | tail -5)"; fi
}

failed=0
counted=()  # the cases whose row in the log folder gives the verdict: run now, or kept by --resume
for c in "${cases[@]}"; do
  read -r preset solver backend <<< "$c"
  out="$log/${preset}_${solver}_${backend}.txt"
  if [ "$resume" = 1 ] && [ -f "$out.row" ]; then
    cat "$out.row"
    counted+=("$out")
    continue
  fi
  if [ -n "$resume_from" ]; then
    # Only an ok row at this frame count counts as done: a failed case runs again.
    done_row="$(grep -F "| $preset | $solver | $backend | $frames | ok |" "$resume_from" | head -1 || true)"
    if [ -n "$done_row" ]; then echo "$done_row"; continue; fi
  fi
  rm -f "$out.row"  # a stale row from an earlier run must not stand for this one
  counted+=("$out")
  if [ "$jobs" = 1 ]; then
    run_case "$preset" "$solver" "$backend" "$out"
  else
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || true; done
    run_case "$preset" "$solver" "$backend" "$out" &
  fi
done
wait
# The verdict comes from the rows, the same way whether a case ran here, in the background or earlier.
for out in "${counted[@]}"; do
  grep -q '| ok |' "$out.row" 2>/dev/null || failed=$((failed + 1))
done
if [ "$failed" = 0 ] && [ "$created" = 1 ]; then
  rm -rf "$log"
  echo "soak: ${#cases[@]} cases, all passed"
else
  echo "soak: ${#cases[@]} cases, $failed failed; logs in $log"
fi
[ "$failed" = 0 ]
