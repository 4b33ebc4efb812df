#!/usr/bin/env bash
# The bench tools on a whole-game folder (the probe_db fixture's herd3-morabaraba, placing
# tables too): each runs to its end on a token amount of work. No figure is checked here.
#   bench_tools_test.sh BIN_DIR DB_ROOT WORKDIR
set -euo pipefail
bin=$1 db=$2/herd3-morabaraba work=$3
rm -rf "$work"
mkdir -p "$work"
MORABARABA_BENCH_DB=$db "$bin/probe_bench" --benchmark_min_time=0.001 \
  --benchmark_filter='BM_ProbeWdl/0/-1/real_time/threads:1|BM_ProbeFull/0/-1/real_time/threads:1|BM_Moves/0$' \
  >"$work/probe_bench.out"
"$bin/table_sizes" "$db" "$work/resized" >"$work/table_sizes.out"
"$bin/table_compare" "$db" "$work/resized" >"$work/table_compare.out"
grep -q "; 0 tables differ" "$work/table_compare.out"
"$bin/stream_entropy" "$db" >"$work/stream_entropy.out"
echo "bench_tools: ok"
