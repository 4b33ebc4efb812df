#!/usr/bin/env bash
# Solving throughput: time, canonical positions per second and peak memory (peak RSS) of
# `morabaraba solve` for every subspace with m + o <= N, on 1 and 2 threads, and of the 5v5
# unit alone on one thread (pure values, its inputs solved), five times; then the whole game of
# herd 5 (herd 6 with SLOW=1, or HERD=N) under the house rules on 2 threads, with the moving units
# and the placing subspaces apart; ONLY=whole runs that part alone. Usage:
#   bench/solve_bench.sh [build/bin/morabaraba] [work folder]
set -euo pipefail
tool=${1:-build/bin/morabaraba}
work=${2:-/tmp/mora_solve_bench}
mkdir -p "$work"

# The peak RSS of a run is the one its summary line gives: the solver resets the kernel's
# high-water mark per unit, so /usr/bin/time's %M would be the last unit's.
peak_mib() { grep -o 'peak RSS [0-9]*' "$1" | tr -dc 0-9; }

run() {  # run <label> <args...>: prints label, seconds, positions, peak RSS
  local label=$1; shift
  local seconds positions
  seconds=$( { /usr/bin/time -f "%e" "$tool" solve -q "$@" >"$work/last.out"; } 2>&1 | tail -1)
  positions=$(grep -o '([0-9]* positions)' "$work/last.out" | tr -dc 0-9)
  printf '| %s | %s | %s | %.2f M/s | %d MiB |\n' "$label" "$seconds" "$positions" \
    "$(echo "$positions / $seconds / 1000000" | bc -l)" "$(peak_mib "$work/last.out")"
}

echo "| run | seconds | positions | rate | peak RSS |"
echo "|---|---:|---:|---:|---:|"
[ "${ONLY:-}" = whole ] || {
for n in 8 10; do
  for t in 1 2; do
    [ "$n" = 10 ] && [ "$t" = 1 ] && [ -z "${SLOW:-}" ] && continue
    rm -rf "$work/m$n-t$t"
    run "morabaraba, m+o <= $n, $t thread(s)" --db "$work/m$n-t$t" --max-total "$n" --threads "$t"
  done
done
rm -rf "$work/malom"
"$tool" solve -q --rules malom --db "$work/malom" --max-total 9 >/dev/null
# Five runs: on a shared machine one run can be 30 % off.
for k in 1 2 3 4 5; do
  rm -f "$work/malom/5v5.mtb"
  run "malom (pure), 5v5 unit alone, 1 thread, run $k" --rules malom --db "$work/malom" \
    --subspace 5v5 --threads 1
done
}

# The whole game: the per-unit lines of the log give the moving and the placing parts apart.
herd=${HERD:-5}
[ -z "${SLOW:-}" ] || herd=${HERD:-6}
rm -rf "$work/whole"
/usr/bin/time -f "%e" -o "$work/whole.time" "$tool" solve --db "$work/whole" --whole-game \
  --herd "$herd" --threads 2 2>"$work/whole.log" >"$work/whole.out"
printf '| morabaraba, whole game of herd %d, 2 threads | %s | | | %d MiB |\n' "$herd" \
  "$(cat "$work/whole.time")" "$(peak_mib "$work/whole.out")"
grep -E '^\[[0-9]+/[0-9]+\] [0-9]+v[0-9]+' "$work/whole.log" | awk '
  { part = index($2, "+") ? "placing" : "moving"; n[part] += $3; t[part] += $6 }
  END { for (p in n) printf "| %s part | %.1f | %d | %.2f M/s | |\n", p, t[p], n[p], n[p] / t[p] / 1e6 }'
