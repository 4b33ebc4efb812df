#!/usr/bin/env bash
# Whether two builds write the same tables, byte for byte: each solves under every RULES to
# m + o <= MAX_TOTAL, and, with HERD set, the house rules' whole game of that herd, one thread
# each, the two side by side, into WORK/old-* and WORK/new-*; then one line a folder, "N tables,
# byte-identical" or "DIFFER" with the tables that do. Exit status 1 if any folder differs. For
# changes that must keep every value and every byte (docs/RESULTS.md's tables stay valid):
#   HERD=5 scripts/same_tables.sh OLD_MORABARABA NEW_MORABARABA WORK 10 morabaraba malom online
set -uo pipefail
if [ $# -lt 5 ]; then
  sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
fi
old=$1 new=$2 work=$3 max_total=$4
shift 4
folders=("$@")
[ -z "${HERD:-}" ] || folders+=("herd$HERD")
mkdir -p "$work"
pids=()
for side in old new; do
  bin=$old
  [ "$side" = new ] && bin=$new
  (
    set -e
    for rules in "$@"; do
      OMP_WAIT_POLICY=passive "$bin" solve --db "$work/$side-$rules" --rules "$rules" \
        --max-total "$max_total" --threads 1 -q
    done
    [ -z "${HERD:-}" ] || OMP_WAIT_POLICY=passive "$bin" solve --db "$work/$side-herd$HERD" \
      --whole-game --herd "$HERD" --threads 1 -q
  ) >"$work/$side.log" 2>&1 &
  pids+=($!)
done
status=0
for i in 0 1; do
  side=old
  [ "$i" -eq 1 ] && side=new
  wait "${pids[i]}" || { echo "the $side build's solves failed: $work/$side.log" >&2; status=1; }
done
for f in "${folders[@]}"; do
  if differ=$(cd "$work" && diff <(cd "old-$f" && sha256sum -- *.mtb) <(cd "new-$f" && sha256sum -- *.mtb)); then
    echo "$f: $(ls "$work/new-$f" | grep -c '\.mtb$') tables, byte-identical"
  else
    echo "$f: DIFFER"
    echo "$differ" | awk '/^[<>]/ {print "  " $3}' | sort -u
    status=1
  fi
done
exit $status
