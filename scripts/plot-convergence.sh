#!/usr/bin/env bash
# Draws tetlab-bench's convergence CSV (--convergence FILE) as a PNG: the
# relative residual after each iteration of the last substep against the
# solve time it took, one line per (scene, solver, backend), log scale.
#   scripts/plot-convergence.sh out/bench/sizes.conv.csv docs/img/convergence.png ["title"] [scene]
# Needs gnuplot (Debian: apt-get install gnuplot-nox); only this script does.
set -euo pipefail
csv=${1:?usage: plot-convergence.sh CONVERGENCE.csv OUT.png [title] [scene]}
png=${2:?usage: plot-convergence.sh CONVERGENCE.csv OUT.png [title] [scene]}
title=${3:-relative residual against solve time}
only=${4:-}
command -v gnuplot > /dev/null || { echo "plot-convergence.sh: gnuplot not found: apt-get install gnuplot-nox" >&2; exit 1; }
[ -r "$csv" ] || { echo "plot-convergence.sh: cannot read '$csv' (write it with tetlab-bench --convergence)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One data file per series: "scene solver backend" -> ms relative_residual.
awk -F, -v dir="$tmp" -v only="$only" 'NR > 1 && (only == "" || $1 == only) {
  key = $1 "_" $2 "_" $3; print $5, $6 > (dir "/" key ".dat"); names[key] = 1 }
  END { for (k in names) print k > (dir "/series") }' "$csv"
[ -s "$tmp/series" ] || { echo "plot-convergence.sh: '$csv' has no curves${only:+ for scene '$only'}" >&2; exit 1; }
plot=""
while read -r key; do
  plot+="${plot:+, }'$tmp/$key.dat' using 1:2 with linespoints title '${key//_/ }'"
done < <(sort "$tmp/series")
gnuplot <<GP
set terminal pngcairo size 900,560 font ",11"
set output '$png'
set title '$title'
set xlabel 'solve time within the frame [ms] (frame time / (substeps x iterations) per iteration)'
set ylabel 'residual / residual after the first iteration'
set logscale y
set format y '1e%T'
set grid
set key outside right
plot $plot
GP
echo "wrote $png"
