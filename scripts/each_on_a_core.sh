# Sourced by scripts/test.sh and scripts/fuzz.sh. each_on_a_core FUNCTION ARG...: calls
# FUNCTION ARG for every ARG in the background, as many at once as the machine has cores, and
# waits for them all (FUNCTION keeps its own exit status: the callers report in their order).
each_on_a_core() {
  local run=$1 running=0 arg
  shift
  for arg in "$@"; do
    if [ "$running" -ge "$(nproc)" ]; then
      wait -n || true
      running=$((running - 1))
    fi
    "$run" "$arg" &
    running=$((running + 1))
  done
  wait
}
