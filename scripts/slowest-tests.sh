#!/usr/bin/env bash
# Prints the N slowest tests of a ctest run (default 15) from its JUnit report
# (ctest --output-junit FILE), with their share of the summed test time, so a
# new slow test is seen in the log of the run it lands in.
#
#   scripts/slowest-tests.sh build/ctest-junit.xml [N]
set -euo pipefail
report="${1:?usage: scripts/slowest-tests.sh JUNIT.xml [N]}"
count="${2:-15}"
[ -r "$report" ] || { echo "slowest-tests: cannot read '$report' (run ctest with --output-junit)"; exit 2; }
# One <testcase name="..." ... time="SECONDS" ...> per test; names hold no double quotes.
grep -oE '<testcase name="[^"]*"[^>]* time="[0-9.eE+-]+"' "$report" |
  sed -E 's/<testcase name="([^"]*)".* time="([^"]*)"/\2\t\1/' |
  awk -F'\t' -v n="$count" '
    { t[NR] = $1 + 0; name[NR] = $2; total += $1 }
    END {
      m = NR; for (i = 1; i <= m; ++i) idx[i] = i
      # selection of the n largest (m is ~1000: n passes are cheap)
      for (k = 1; k <= n && k <= m; ++k) {
        best = k
        for (j = k + 1; j <= m; ++j) if (t[idx[j]] > t[idx[best]]) best = j
        tmp = idx[k]; idx[k] = idx[best]; idx[best] = tmp
      }
      printf "slowest %d of %d tests (%.0f test-seconds in all):\n", (n < m ? n : m), m, total
      for (k = 1; k <= n && k <= m; ++k) {
        i = idx[k]; nm = name[i]; sub(/  # GetParam.*/, "", nm)
        printf "  %7.1f s  %4.1f %%  %s\n", t[i], 100 * t[i] / (total > 0 ? total : 1), nm
      }
    }'
