#!/usr/bin/env bash
# Who wins the start: the moving phase solved, then the starts of herds proved by search over
# its tables (docs/RESULTS.md, "Who wins: the start proved by search"). Usage:
#
#   scripts/opening_run.sh RUN_DIR MORABARABA RULES HERD...
#
# Solves the whole moving phase under RULES into RUN_DIR/db (resuming after a kill), then for
# each HERD, in the order given, proves `......../......../........ w N N 0` with
# `prove --json`, each under /usr/bin/time -v: RUN_DIR/after/prove-N.json and prove-N.time; the
# last HERD with every first placement too (--moves: prove-N-moves.json), so that `12 9 10 11 12`
# answers herd 12's start first and its first placements last. What a search proved is kept in
# RUN_DIR/db/proofs.mpf, so a killed run started again resumes there. PROVE_OPTIONS in the
# environment adds options (default: --memory 6 --decode 8 --threads 2). Last, the checks of
# scripts/moving_run.sh (info, check, verify --sample), after the answers.
#
# Keep RUN_DIR and MORABARABA outside the work tree and start it detached:
#   nohup setsid scripts/opening_run.sh /work/runs/malom /work/runs/bin/morabaraba malom \
#     12 9 10 11 12 > /dev/null 2>&1 &
set -uo pipefail
if [ $# -lt 4 ]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
run_dir=$1
mora=$(realpath "$2")
rules=$3
shift 3
scripts=$(realpath "$(dirname "$0")")
mkdir -p "$run_dir/after" && cd "$run_dir" || exit 1
echo "=== $(date -u +%FT%TZ) start $rules: $("$mora" --version)" >> run.log
OMP_WAIT_POLICY=passive /usr/bin/time -v -a -o time.log "$mora" solve --db db --rules "$rules" \
  --max-total 24 --threads "$(nproc)" >> run.log 2>&1 || exit $?
count=$#
for ((i = 1; i <= count; ++i)); do
  herd=${!i}
  name=prove-$herd
  moves=()
  [ "$i" -eq "$count" ] && { name=$name-moves; moves=(--moves); }
  [ -e "after/$name.json" ] && continue
  echo "=== $(date -u +%FT%TZ) $name" >> run.log
  # shellcheck disable=SC2086
  /usr/bin/time -v -o "after/$name.time" "$mora" prove --db db --json "${moves[@]}" \
    ${PROVE_OPTIONS:---memory 6 --decode 8 --threads 2} \
    "......../......../........ w $herd $herd 0" > "after/$name.tmp" 2>> run.log
  status=$?
  [ $status -eq 0 ] && mv "after/$name.tmp" "after/$name.json"
  echo "=== $(date -u +%FT%TZ) $name exit $status" >> run.log
done
MAX_TOTAL=24 "$scripts/moving_run.sh" "$run_dir" "$mora" "$rules"
