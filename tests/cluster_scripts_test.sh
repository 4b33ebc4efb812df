#!/usr/bin/env bash
# The batch scripts of scripts/cluster (docs/CLUSTER.md) as a cluster user meets them: each
# parses (bash -n), and runs against stub srun, mpirun and scontrol, submitted from another
# folder than the repository, giving the command line the docs promise: one rank a node with
# every core as a thread (srun gets --cpus-per-task, which Slurm 22.05 and later do not pass
# from #SBATCH), no core binding, the program by an absolute path; srun's exit status is the
# job's; USR1 before the time limit requeues the Slurm job; Torque's node file, one line a
# core, becomes one host a rank; a missing folder or program is named.
#   cluster_scripts_test.sh SCRIPTS_CLUSTER_DIR WORKDIR
set -uo pipefail
scripts=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work/stubs" "$work/submit/build/bin" "$work/elsewhere" || exit 1
work=$(realpath "$work")
fail() { echo "FAIL: $*" >&2; exit 1; }
log=$work/calls.log
for stub in srun mpirun scontrol; do
  cat > "$work/stubs/$stub" <<STUB
#!/usr/bin/env bash
echo "$stub \$*" >> "$log"
while [ \$# -gt 0 ]; do
  [ "\$1" = --hostfile ] && sed 's/^/host /' "\$2" >> "$log"
  shift
done
[ "$stub" = scontrol ] && exit 0
sleep "\${STUB_SLEEP:-0}"
exit "\${STUB_STATUS:-0}"
STUB
  chmod +x "$work/stubs/$stub"
done
program=$work/submit/build/bin/morabaraba-mpi
printf '#!/bin/sh\n' > "$program" && chmod +x "$program"
export PATH=$work/stubs:$PATH

for f in slurm.sbatch openpbs.pbs torque.pbs; do
  bash -n "$scripts/$f" || fail "$f does not parse"
done

slurm() {  # slurm: runs the Slurm script as sbatch would, from another folder
  (cd "$work/elsewhere" && SLURM_SUBMIT_DIR=$work/submit SLURM_CPUS_PER_TASK=32 \
    SLURM_JOB_ID=77 bash "$scripts/slurm.sbatch")
}
: > "$log"
MORABARABA_DB=/shared/db slurm > "$work/out.txt" 2>&1 || fail "slurm: exit $?: $(cat "$work/out.txt")"
expected="srun --cpus-per-task=32 --cpu-bind=none $program solve --db /shared/db --max-total 24 \
--threads 32 -q"
[ "$(cat "$log")" = "$expected" ] || fail "slurm ran '$(cat "$log")', not '$expected'"
echo "ok: slurm.sbatch: $(cat "$log")"

STUB_STATUS=3 MORABARABA_DB=/shared/db slurm > /dev/null 2>&1
status=$?
[ $status -eq 3 ] || fail "slurm: srun's exit 3 became $status"
echo "ok: slurm.sbatch: srun's exit status 3 is the job's"

: > "$log"
(cd "$work/elsewhere" && STUB_SLEEP=3 MORABARABA_DB=/shared/db SLURM_SUBMIT_DIR=$work/submit \
  SLURM_CPUS_PER_TASK=32 SLURM_JOB_ID=77 exec bash "$scripts/slurm.sbatch") > "$work/out.txt" 2>&1 &
job=$!
for _ in $(seq 50); do grep -q "^srun" "$log" && break; sleep 0.1; done
kill -USR1 "$job"
wait "$job" || fail "slurm after USR1: exit $?: $(cat "$work/out.txt")"
grep -q "^scontrol requeue 77$" "$log" || fail "USR1 did not requeue: $(cat "$log")"
grep -q "requeueing job 77" "$work/out.txt" || fail "the requeue is not logged"
echo "ok: slurm.sbatch: USR1 requeues job 77 and waits for srun"

SLURM_SUBMIT_DIR=$work/submit SLURM_CPUS_PER_TASK=32 SLURM_JOB_ID=77 \
  bash "$scripts/slurm.sbatch" > "$work/out.txt" 2>&1 && fail "slurm without a folder: exit 0"
grep -q MORABARABA_DB "$work/out.txt" || fail "slurm without a folder: $(cat "$work/out.txt")"
MORABARABA_DB=/shared/db MORABARABA_MPI=$work/none SLURM_SUBMIT_DIR=$work/submit \
  SLURM_CPUS_PER_TASK=32 SLURM_JOB_ID=77 bash "$scripts/slurm.sbatch" > "$work/out.txt" 2>&1 &&
  fail "slurm without the program: exit 0"
grep -q "no morabaraba-mpi at $work/none" "$work/out.txt" ||
  fail "slurm without the program: $(cat "$work/out.txt")"
echo "ok: slurm.sbatch: a missing folder or program is named"

printf 'node1\nnode2\nnode3\nnode4\n' > "$work/openpbs-nodes"
: > "$log"
(cd "$work/elsewhere" && MORABARABA_DB=/shared/db PBS_O_WORKDIR=$work/submit \
  PBS_NODEFILE=$work/openpbs-nodes OMP_NUM_THREADS=32 bash "$scripts/openpbs.pbs") \
  > "$work/out.txt" 2>&1 || fail "openpbs: exit $?: $(cat "$work/out.txt")"
expected="mpirun --hostfile $work/openpbs-nodes --map-by ppr:1:node --bind-to none $program solve \
--db /shared/db --max-total 24 --threads 32 -q"
[ "$(head -1 "$log")" = "$expected" ] || fail "openpbs ran '$(head -1 "$log")', not '$expected'"
echo "ok: openpbs.pbs: $(head -1 "$log")"

for node in node1 node2; do for _ in 1 2 3; do echo $node; done; done > "$work/torque-nodes"
: > "$log"
(cd "$work/elsewhere" && MORABARABA_DB=/shared/db PBS_O_WORKDIR=$work/submit \
  PBS_NODEFILE=$work/torque-nodes PBS_NUM_PPN=3 bash "$scripts/torque.pbs") \
  > "$work/out.txt" 2>&1 || fail "torque: exit $?: $(cat "$work/out.txt")"
sed -E -i 's/--hostfile [^ ]+/--hostfile HOSTS/' "$log"
expected="mpirun --hostfile HOSTS --map-by ppr:1:node --bind-to none $program solve --db /shared/db \
--max-total 24 --threads 3 -q
host node1
host node2"
[ "$(cat "$log")" = "$expected" ] || fail "torque ran '$(cat "$log")', not '$expected'"
echo "ok: torque.pbs: one rank a node (node1, node2), 3 threads each"
