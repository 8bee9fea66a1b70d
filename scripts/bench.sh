#!/usr/bin/env bash
# Reproduces docs/benchmarks.md in one command, after scripts/build.sh:
#   1. every scene of assets/scenes with its own solver, CPU reference and
#      OpenCL with each launch schedule (per colour = before, auto = now);
#   2. sizes: the bunny at about 1k, 10k and 100k tets, every solver at 10 x 4
#      (tet-iterations per second, traffic against the copy kernel);
#   3. the 10k-tet targets (XPBD 10 x 1, VBD 1 x 10);
#   4. convergence: every solver on the hang preset at 10 x 10, drawn by
#      scripts/plot-convergence.sh when gnuplot is installed;
#   5. switch latency in the window's session.
# Prints the tables; writes Markdown, JSON, CSV and PNG files to out/bench/.
# About 3 minutes on 2 cores with PoCL's kernel cache warm.
set -euo pipefail
cd "$(dirname "$0")/.."
out=out/bench
mkdir -p "$out"
bench() { # NAME ARGS...: one tetlab-bench run with every output under out/bench/NAME.*
  local name=$1
  shift
  echo "== $name"
  build/tetlab-bench "$@" --csv "$out/$name.csv" --json "$out/$name.json" --markdown "$out/$name.md" \
    --convergence "$out/$name.conv.csv"
}
presets=scene:beam,scene:bunny_drop,scene:squash,scene:pile,scene:chain,scene:hang,scene:ramp
bench presets_per_color --scenes "$presets" --solvers own --frames 60 --warmup 5 --schedule per_color
bench presets_auto --scenes "$presets" --solvers own --frames 60 --warmup 5 --schedule auto
mesh=mesh:assets/meshes/bunny_10k.obj
bench size_1k --scenes "$mesh" --target-tets 1000 --solvers pbd,xpbd,vbd,avbd --substeps 10 --iterations 4 \
  --frames 20 --warmup 3
bench size_10k --scenes "$mesh" --target-tets 10000 --solvers pbd,xpbd,vbd,avbd --substeps 10 --iterations 4 \
  --frames 10 --warmup 2
bench size_100k --scenes "$mesh" --target-tets 100000 --solvers pbd,xpbd,vbd,avbd --backends opencl \
  --substeps 10 --iterations 4 --frames 3 --warmup 1
bench target_xpbd_10k --scenes "$mesh" --target-tets 10000 --solvers xpbd --substeps 10 --iterations 1 \
  --frames 20 --warmup 3
bench target_vbd_10k --scenes "$mesh" --target-tets 10000 --solvers vbd --substeps 1 --iterations 10 \
  --frames 20 --warmup 3
bench convergence --scenes hang --solvers pbd,xpbd,vbd,avbd --substeps 10 --iterations 10 --frames 10 --warmup 2 \
  --no-copy-bandwidth
if command -v gnuplot > /dev/null; then
  scripts/plot-convergence.sh "$out/convergence.conv.csv" "$out/convergence_hang.png" \
    "hang (867 vertices, 3072 tets), 10 substeps x 10 iterations"
else
  echo "(gnuplot not installed: apt-get install gnuplot-nox to draw $out/convergence.conv.csv)"
fi
echo "== switch latency"
build/tetlab-bench --switch-latency bunny_drop | tee "$out/switch_latency.txt"
