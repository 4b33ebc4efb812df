#!/usr/bin/env bash
# The long run of a whole game (docs/RESULTS.md), and the answers drawn from its folder when it
# ends. Usage:
#
#   scripts/whole_game_run.sh RUN_DIR MORABARABA [HERD]
#
# Solves the whole game of HERD cows a player (default 12) under the house rules into
# RUN_DIR/db on every core, appending to RUN_DIR/run.log; started again after a kill, it
# resumes (the solver's checkpoints) and switching MORABARABA between starts is fine (tables are
# byte-identical across builds). When the solve has finished, it writes into RUN_DIR/after/:
# the test vectors, RESULTS.md's tables, the start's probes, `check` and `verify --sample` of the
# folder, and its export of win distances (RUN_DIR/win-distances), the folder to keep. Each
# file is written only when its step succeeds (its time and stderr go to NAME.log) and a step
# whose file exists is skipped, so a rerun does only what is missing.
#
# Keep RUN_DIR and MORABARABA outside the work tree (a copy of build/bin/morabaraba, so that a
# rebuild does not change the binary under a running solve), and start it detached:
#   nohup setsid scripts/whole_game_run.sh /work/runs/herd12 /work/runs/bin/morabaraba-COMMIT \
#     > /dev/null 2>&1 &
set -uo pipefail
if [ $# -lt 2 ]; then
  sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
run_dir=$1
mora=$(realpath "$2")
herd=${3:-12}
scripts=$(realpath "$(dirname "$0")")
mkdir -p "$run_dir/after" && cd "$run_dir" || exit 1
. "$scripts/run_steps.sh"

echo "=== $(stamp) start herd $herd: $("$mora" --version)" >> run.log
OMP_WAIT_POLICY=passive "$mora" solve --db db --whole-game --herd "$herd" --threads "$(nproc)" \
  >> run.log 2>&1
status=$?
echo "=== $(stamp) solve exit $status" >> run.log
[ $status -eq 0 ] || exit $status

start="......../......../........ w $herd $herd 0"
step vectors.jsonl "$mora" sample --db db --herd "$herd" --per-layer 100 --seed 1
step results.md python3 "$scripts/whole_game_results.py" "$mora" db --log run.log
step start.txt "$mora" probe --db db --line "$start"
step start-pure.txt "$mora" probe --db db --line --pure "$start"
step start-moves.txt "$mora" probe --db db --moves "$start"
step start.json "$mora" probe --db db --json --moves "$start"
step check.txt "$mora" check --db db
step verify.txt "$mora" verify --db db --sample 0.00002 --seed 1
# The folder to keep: win distances only (docs/FORMAT.md), which must answer as the full one.
step win-distances.txt "$mora" export --db db --to win-distances --streams win-distances -q
step start-win-distances.json "$mora" probe --db win-distances --json --moves "$start"
step same-answers.txt cmp after/start.json after/start-win-distances.json
echo "=== $(stamp) done" >> run.log
