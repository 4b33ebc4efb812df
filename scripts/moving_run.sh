#!/usr/bin/env bash
# The long run of a preset's whole moving phase (docs/RESULTS.md, issue 29), and the answers
# drawn from its folder when it ends. Usage:
#
#   scripts/moving_run.sh RUN_DIR MORABARABA RULES [REFERENCE_DB]
#
# Solves every moving-phase subspace (--max-total 24), both parts, under preset RULES into
# RUN_DIR/db on every core, appending the solver's output to RUN_DIR/run.log and each start's
# /usr/bin/time -v to RUN_DIR/time.log; started again after a kill, it resumes (the solver's
# checkpoints). When the solve has finished, it writes into RUN_DIR/after/: `info --json`,
# RESULTS.md's tables (scripts/moving_results.py; with REFERENCE_DB, another preset's folder of
# the same board, the positions whose value differs, from `compare`), the per-unit table
# (scripts/unit_results.py over run.log), `check` and `verify --sample 0.0001 --seed 1`. Each
# step as in whole_game_run.sh: written when it succeeds, skipped when its file exists.
# MAX_TOTAL in the environment solves only up to that many cows on the board (the tests').
#
# Keep RUN_DIR and MORABARABA outside the work tree and start it detached:
#   nohup setsid scripts/moving_run.sh /work/runs/online24 /work/runs/bin/morabaraba-COMMIT \
#     online /work/runs/moving24/db > /dev/null 2>&1 &
set -uo pipefail
if [ $# -lt 3 ]; then
  sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
run_dir=$1
mora=$(realpath "$2")
rules=$3
reference=${4:+$(realpath "$4")}
scripts=$(realpath "$(dirname "$0")")
max_total=${MAX_TOTAL:-24}
mkdir -p "$run_dir/after" && cd "$run_dir" || exit 1
. "$scripts/run_steps.sh"

echo "=== $(stamp) start $rules: $("$mora" --version)" >> run.log
OMP_WAIT_POLICY=passive /usr/bin/time -v -a -o time.log "$mora" solve --db db --rules "$rules" \
  --max-total "$max_total" --threads "$(nproc)" >> run.log 2>&1
status=$?
echo "=== $(stamp) solve exit $status" >> run.log
[ $status -eq 0 ] || exit $status

step info.json "$mora" info --db db --json
step units.md python3 "$scripts/unit_results.py" run.log
if [ -n "$reference" ]; then
  step compare.json "$mora" compare --db db --with "$reference" --json
  step results.md sh -c "python3 '$scripts/moving_results.py' --against after/compare.json \
    < after/info.json"
else
  step results.md sh -c "python3 '$scripts/moving_results.py' < after/info.json"
fi
step check.txt "$mora" check --db db --max-total "$max_total"
step verify.txt "$mora" verify --db db --sample 0.0001 --seed 1
echo "=== $(stamp) done" >> run.log
