#!/usr/bin/env bash
# Reproduces docs/benchmarks.md: every scene of assets/scenes with its own
# solver, on the CPU reference and on OpenCL with each launch schedule, then
# the 10k-tet throughput targets. Run after scripts/build.sh; takes about
# 5 minutes on 2 cores. Prints tables; writes CSVs to out/bench/.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p out/bench
scenes=scene:beam,scene:bunny_drop,scene:squash,scene:pile,scene:chain,scene:hang,scene:ramp
for schedule in per_color auto; do
  echo "== presets, OpenCL schedule: $schedule"
  build/tetlab-bench --scenes "$scenes" --solvers own --frames 60 --warmup 5 --schedule "$schedule" \
    --csv "out/bench/presets_$schedule.csv"
done
echo "== 10k-tet bunny: XPBD 10 x 1 and VBD 1 x 10 (targets: 200 and 100 steps/s)"
build/tetlab-bench --scenes mesh:assets/meshes/bunny_10k.obj --target-tets 10000 --solvers xpbd \
  --substeps 10 --iterations 1 --frames 20 --warmup 3 --csv out/bench/bunny10k_xpbd.csv
build/tetlab-bench --scenes mesh:assets/meshes/bunny_10k.obj --target-tets 10000 --solvers vbd \
  --substeps 1 --iterations 10 --frames 20 --warmup 3 --csv out/bench/bunny10k_vbd.csv
