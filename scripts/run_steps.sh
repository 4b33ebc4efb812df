# Shared by the long-run scripts (whole_game_run.sh, moving_run.sh): sourced from RUN_DIR, whose
# after/ folder receives the answers drawn from a finished run and whose run.log records them.
stamp() { date -u +%FT%TZ; }

# step NAME COMMAND...: COMMAND's stdout becomes after/NAME when it succeeds (its time and
# stderr go to after/NAME.log); a step whose file exists is skipped, so a rerun does only what
# is missing.
step() {
  local name=$1
  shift
  [ -e "after/$name" ] && return 0
  echo "=== $(stamp) $name: $*" >> run.log
  if /usr/bin/time -v "$@" > "after/$name.tmp" 2> "after/$name.log"; then
    mv "after/$name.tmp" "after/$name"
  else
    echo "=== $(stamp) $name failed (after/$name.log)" >> run.log
  fi
}
