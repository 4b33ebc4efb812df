#!/usr/bin/env bash
# Killed and restarted solves, and morabaraba-mpi on one machine, against a single-process run
# (ctest; the MPI modes when MPI is found).
#   solve_test.sh MORABARABA WORKDIR MODE [MORABARABA_MPI MPIEXEC]
# MODE reference: `morabaraba solve -q` of the target into WORKDIR/reference (the fixture),
# which must print its summary line only.
# MODE kill: `morabaraba solve` is killed once its first table is written, then started again
# with the same command; it must keep what was finished, end with the same files and leave
# no temporary file behind.
# MODE kill-checkpoint: the same with a checkpoint at every layer, killed once the first
# checkpoint is written, in the middle of a unit: the restart must resume from it.
# MODE kill-placing-checkpoint: the same, killed once the largest placing subspace (3v4+1+0,
# a second of work) has written a checkpoint.
# MODE damaged-scratch: killed in a unit's pure part (a checkpoint newer than the unit's
# ply-limit scratch file), one byte of that file changed; the restart must refuse the file with
# a warning, solve the unit from the start and end with the reference. MODE old-scratch: the
# same with the file as programs before its checksum wrote it (its bytes without the header).
# MODE damaged-checkpoint: killed once a checkpoint is written, one byte of it changed; the
# same checks.
# MODE swapped-tables: the reference with 3v4.mtb and 4v3.mtb swapped and 4v4.mtb removed;
# MODE copied-table: with 3v3.mtb copied over 4v3.mtb. The solve must refuse each table that
# its header says is another subspace's, naming both, solve it again and end with the reference.
# MODE sigint, sigterm: the same, with the signal instead of a kill: the run must stop within
# seconds with status 130 or 143 and say so, keep its checkpoint, and the restart resume from
# it. SIGINT is sent to a background job, whose shell ignores it (the solver takes it over).
# MODE barred-kill-rule, barred-kill-pure: mssa-1 up to 8 cows on the board, a checkpoint at
# every layer, killed in the ply-limit or the pure part of 5v3, whose barred nodes keep the pure
# part's initial states in a scratch file while the ply-limit part runs; the restart must resume
# that part and end with the tables of tests/data/mssa-1-8.sha256.
# MODE np2, np3: a fresh run on 2 or 3 ranks writes the same files, byte for byte; the units
# other ranks than 0 solved are logged with their CPU time and peak memory, and the summary
# line gives the run's time on the wall, not the units' added up.
# MODE mpi-sigterm: a 2-rank run whose mpirun gets SIGTERM once the first table is written: a
# rank says it was ended by SIGTERM and what was in progress; the restart as for kill.
# MODE kill-all, kill-rank: a 2-rank run is killed once its first table is written (every
# process of the job, or one rank, after which mpirun must end the others), then started again
# with the same command; the same checks as for kill.
set -euo pipefail
mora=$1 work=$2 mode=$3 mora_mpi=${4:-} mpiexec=${5:-}
# The whole game of herd 4: the moving units 3v3, 4v3 and 4v4, then the placing subspaces.
target=(--whole-game --herd 4)
barred_sums=$(realpath "$(dirname "$0")")/data/mssa-1-8.sha256
[[ $mode != barred-* ]] || target=(--rules mssa-1 --max-total 8)
# CI has 2 cores: one OpenMP thread per rank, no core binding, more ranks than cores allowed.
launch=("$mpiexec" --oversubscribe --bind-to none)
# Containers run as root, which Open MPI refuses without this.
[ "$(id -u)" -ne 0 ] || launch+=(--allow-run-as-root)
db=$work/$mode
rm -rf "$db" "$db.log"
mkdir -p "$work"

fail() {
  echo "solve_test $mode: $*" >&2
  [ ! -f "$db.log" ] || cat "$db.log" >&2
  exit 1
}

# The solve run of every mode, single-process and under MPI (the rank count follows).
solve_args=(solve --db "$db" "${target[@]}" --threads 1 -q)
solve_one=("$mora" "${solve_args[@]}")
solve_mpi() { "${launch[@]}" -np "$1" "$mora_mpi" "${solve_args[@]}"; }

same_as_reference() {
  if [[ $mode == barred-* ]]; then
    (cd "$db" && sha256sum --check --strict --quiet "$barred_sums") || fail "other tables"
    return
  fi
  local ref=$work/reference
  diff <(cd "$ref" && ls -- *.mtb) <(cd "$db" && ls -- *.mtb) || fail "other table files"
  for f in "$ref"/*.mtb; do cmp -- "$f" "$db/${f##*/}" || fail "${f##*/} differs"; done
}

# The processes of session $1 (mpirun started by setsid, and its ranks).
session() { ps -eo pid=,sid= | awk -v s="$1" '$2 == s { print $1 }'; }

written() { compgen -G "$db/$1" >/dev/null; }

# A checkpoint of the pure part: newer than its unit's ply-limit scratch file. Prints the
# scratch file.
in_pure_part() {
  local c p
  for c in "$db"/*.checkpoint; do
    p=${c%.checkpoint}.ply-limit.tmp
    [ -f "$p" ] && [ "$c" -nt "$p" ] && echo "$p" && return 0
  done
  return 1
}

# 5v3 checkpointed in its ply-limit part (its barred nodes' pure starts spilled), or in its pure
# part (the checkpoint newer than the ply-limit scratch file).
in_5v3_rule_part() {
  [ -f "$db/5v3.checkpoint" ] && [ -f "$db/5v3.barred-pure-start.tmp" ] &&
    [ ! -f "$db/5v3.ply-limit.tmp" ]
}
in_5v3_pure_part() {
  [ -f "$db/5v3.ply-limit.tmp" ] && [ "$db/5v3.checkpoint" -nt "$db/5v3.ply-limit.tmp" ]
}

# Waits until the run $1 has written a file matching $2 (a table by default), kills it as $mode
# says, and waits until no process of it is left.
kill_after_first_table() {
  kill_when "$1" written "${2:-*.mtb}"
}

# Waits until the command $2... succeeds (every 10 ms), kills the run $1 as $mode says, and
# waits until no process of it is left.
kill_when() {
  local job=$1
  shift
  for ((i = 0; i < 6000; ++i)); do
    "$@" >/dev/null && break
    sleep 0.01
  done
  "$@" >/dev/null || fail "no $* after 60 s"
  case $mode in
    kill-rank) kill -KILL $(ps -o pid= --ppid "$job" | head -n 1) ;;
    *) kill -KILL $(session "$job") ;;
  esac
  local status=0
  wait "$job" || status=$?
  [ "$status" -ne 0 ] || fail "the killed run ended normally"
  for ((i = 0; i < 100; ++i)); do
    [ -n "$(session "$job")" ] || return 0
    sleep 0.1
  done
  fail "processes still running 10 s after the run was killed"
}

# Changes the byte in the middle of file $1.
damage() {
  local at=$(($(stat -c %s "$1") / 2))
  local byte=$(od -An -tu1 -j "$at" -N1 "$1" | tr -d ' ')
  printf "$(printf '\\%03o' $(((byte + 1) % 256)))" | dd of="$1" bs=1 seek="$at" conv=notrunc status=none
}

# The rerun of a run killed with a bad scratch file or checkpoint: warned about it, solved the
# unit from the start, and ended with the reference.
check_refused() {
  "${solve_one[@]}" >>"$db.log" 2>&1 || fail "the second run failed"
  grep -q "^warning: $1.*; solving the unit .* from the start" "$db.log" ||
    fail "the second run did not refuse $1"
  ! grep -q "resumed from its checkpoint" "$db.log" || fail "the second run resumed"
  same_as_reference
  [ -z "$(ls "$db" | grep -v '\.mtb$')" ] || fail "files left behind: $(ls "$db")"
}

# After the restart of a killed run: the finished tables were kept, the result is the
# reference, and no temporary file is left.
check_restart() {
  local tables
  tables=$(if [[ $mode == barred-* ]]; then wc -l <"$barred_sums"; else ls "$work"/reference/*.mtb | wc -l; fi)
  [ "$(ls "$db" | grep -c '\.mtb$')" -lt "$tables" ] || fail "killed too late: every table was written"
  "$@" >>"$db.log" 2>&1 || fail "the second run failed"
  if [ "$mode" = barred-kill-rule ]; then
    grep -q '"resumed_from":"ply-limit part.*"unit":"5v3"' "$db.log" ||
      fail "the second run did not resume 5v3's ply-limit part"
  elif [ "$mode" = barred-kill-pure ]; then
    grep -q '"resumed_from":"pure part.*"unit":"5v3"' "$db.log" ||
      fail "the second run did not resume 5v3's pure part"
  elif [[ $mode == kill-checkpoint || $mode == sig* ]]; then
    # -q leaves the unit lines out; the restart's --json reports where each unit resumed.
    grep -q '"resumed_from":"' "$db.log" || fail "the second run did not resume"
  elif [ "$mode" = kill-placing-checkpoint ]; then
    grep -q '"resumed_from":"group ' "$db.log" ||
      fail "the second run did not resume the placing subspace"
  else
    grep -Eq "[1-9][0-9]* (was|were) finished before" "$db.log" ||
      fail "the second run did not keep the finished tables"
  fi
  same_as_reference
  [ -z "$(ls "$db" | grep -v '\.mtb$')" ] || fail "files left behind: $(ls "$db")"
}

case $mode in
  reference)
    # -q: the summary line and nothing else, on stdout or stderr.
    "${solve_one[@]}" >"$db.log" 2>&1 || fail "failed"
    [ "$(wc -l <"$db.log")" -eq 1 ] && grep -Eq '^solved 30 units .*; peak RSS [0-9]+ MiB$' "$db.log" ||
      fail "-q printed more or other than the summary line"
    ;;
  np2 | np3)
    start=$(date +%s.%N)
    solve_mpi "${mode#np}" >"$db.log" 2>&1 || fail "failed"
    wall=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { print b - a }')
    same_as_reference
    grep -Eq "rank [1-9] solved" "$db.log" || fail "no unit solved by a rank other than 0"
    ! grep -E "rank [1-9] solved" "$db.log" | grep -Eq "cpu 0 s|peak RSS 0 MiB" ||
      fail "a unit of another rank than 0 logged without its CPU time or memory"
    seconds=$(sed -En 's/^solved 30 units \(.*\) in ([0-9.e+-]+) s; .*/\1/p' "$db.log")
    [ -n "$seconds" ] && awk -v s="$seconds" -v w="$wall" 'BEGIN { exit !(s <= w) }' ||
      fail "the summary's ${seconds:-missing} s are more than the run's $wall s on the wall"
    ;;
  mpi-sigterm)
    setsid "${launch[@]}" -np 2 "$mora_mpi" "${solve_args[@]}" >>"$db.log" 2>&1 &
    job=$!
    for ((i = 0; i < 6000; ++i)); do
      written "*.mtb" && break
      sleep 0.01
    done
    kill -TERM "$job"
    wait "$job" && fail "the run ended normally after SIGTERM"
    grep -Eq "^morabaraba-mpi: rank [0-9] ended by SIGTERM; .*the same command continues$" \
      "$db.log" || fail "no rank said it was ended by SIGTERM"
    check_restart solve_mpi 2
    ;;
  kill)
    # setsid: the run is a session of its own, as the MPI runs are.
    setsid "${solve_one[@]}" >>"$db.log" 2>&1 &
    kill_after_first_table $!
    check_restart "${solve_one[@]}"
    ;;
  kill-checkpoint | kill-placing-checkpoint)
    solve_one+=(--checkpoint-minutes 0)
    setsid "${solve_one[@]}" >>"$db.log" 2>&1 &
    if [ "$mode" = kill-checkpoint ]; then
      kill_after_first_table $! "*.checkpoint"
    else
      kill_after_first_table $! "3v4+1+0.checkpoint"
    fi
    check_restart "${solve_one[@]}" --json
    ;;
  barred-kill-rule | barred-kill-pure)
    solve_one+=(--checkpoint-minutes 0)
    setsid "${solve_one[@]}" >>"$db.log" 2>&1 &
    kill_when $! "in_5v3_${mode#barred-kill-}_part"
    check_restart "${solve_one[@]}" --json
    ;;
  damaged-scratch | old-scratch)
    solve_one+=(--checkpoint-minutes 0)
    setsid "${solve_one[@]}" >>"$db.log" 2>&1 &
    kill_when $! in_pure_part
    scratch=$(in_pure_part)
    if [ "$mode" = damaged-scratch ]; then
      damage "$scratch"
    else
      # The 64-byte header and the array's 8-byte size off: what older programs wrote.
      tail -c +73 "$scratch" >"$scratch.old" && mv "$scratch.old" "$scratch"
    fi
    check_refused "$scratch"
    ;;
  damaged-checkpoint)
    solve_one+=(--checkpoint-minutes 0)
    setsid "${solve_one[@]}" >>"$db.log" 2>&1 &
    kill_after_first_table $! "*.checkpoint"
    checkpoint=$(compgen -G "$db/*.checkpoint")
    damage "$checkpoint"
    check_refused "$checkpoint"
    ;;
  swapped-tables | copied-table)
    cp -r "$work/reference" "$db"
    if [ "$mode" = swapped-tables ]; then
      mv "$db/3v4.mtb" "$db/swap" && mv "$db/4v3.mtb" "$db/3v4.mtb" && mv "$db/swap" "$db/4v3.mtb"
      rm "$db/4v4.mtb"
      refused=("4v3.mtb: holds subspace 3v4, not 4v3")
    else
      cp "$db/3v3.mtb" "$db/4v3.mtb"
      refused=("4v3.mtb: holds subspace 3v3, not 4v3")
    fi
    "${solve_one[@]}" >>"$db.log" 2>&1 || fail "the solve failed"
    for r in "${refused[@]}"; do
      grep -q "^warning: .*$r; solving it again" "$db.log" || fail "no warning: $r"
    done
    same_as_reference
    ;;
  sigint | sigterm)
    solve_one+=(--checkpoint-minutes 0)
    "${solve_one[@]}" >>"$db.log" 2>&1 &
    job=$!
    for ((i = 0; i < 600; ++i)); do
      compgen -G "$db/*.checkpoint" >/dev/null && break
      sleep 0.1
    done
    compgen -G "$db/*.checkpoint" >/dev/null || fail "no checkpoint after 60 s"
    signal=${mode#sig}
    kill -"${signal^^}" "$job"
    for ((i = 0; i < 100; ++i)); do
      kill -0 "$job" 2>/dev/null || break
      sleep 0.1
    done
    if kill -0 "$job" 2>/dev/null; then
      kill -KILL "$job"
      fail "still running 10 s after SIG${signal^^}"
    fi
    status=0
    wait "$job" || status=$?
    expected=$([ "$mode" = sigint ] && echo 130 || echo 143)
    [ "$status" -eq "$expected" ] || fail "exit status $status after SIG${signal^^}, not $expected"
    grep -q "stopped by signal SIG${signal^^}; the same command continues" "$db.log" ||
      fail "no message on stopping"
    compgen -G "$db/*.checkpoint" >/dev/null || fail "the checkpoint was not kept"
    check_restart "${solve_one[@]}" --json
    # The summary's peak is the whole run's: at least every unit's.
    python3 -c '
import json, sys
objects = [json.loads(l) for l in open(sys.argv[1]) if l.startswith("{")]
units = [o for o in objects if o["type"] == "unit" and not o["finished_before"]]
summary = objects[-1]
assert summary["type"] == "summary" and summary["stopped_by"] is None, summary
assert units and summary["peak_rss_bytes"] >= max(u["peak_rss_bytes"] for u in units), summary
' "$db.log" || fail "the --json summary lacks the peak of the whole run"
    ;;
  kill-all | kill-rank)
    # Not a process-group kill: Open MPI puts each rank in a group of its own.
    setsid "${launch[@]}" -np 2 "$mora_mpi" "${solve_args[@]}" >>"$db.log" 2>&1 &
    kill_after_first_table $!
    check_restart solve_mpi 2
    ;;
  *)
    fail "unknown mode"
    ;;
esac
echo "solve_test $mode: ok"
