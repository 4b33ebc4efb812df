#!/usr/bin/env bash
# A solve into a filesystem too small for it must stop with a clear message naming the file,
# leave no table that looks finished, and continue to the same result once there is space.
#   disk_full_test.sh MORABARABA WORKDIR
# Needs root and permission to mount a tmpfs; exits 77 (skipped) where that is not allowed.
set -euo pipefail
mora=$1 work=$2
mnt=$work/disk_full
mkdir -p "$mnt"
umount "$mnt" 2>/dev/null || true
if ! mount -t tmpfs -o size=2m tmpfs "$mnt" 2>/dev/null; then
  echo "disk_full_test: skipped: cannot mount a tmpfs here (needs root and mount permission)"
  exit 77
fi
trap 'umount "$mnt" 2>/dev/null || true' EXIT
fail() {
  echo "disk_full_test: $*" >&2
  exit 1
}
run=("$mora" solve --db "$mnt/db" --whole-game --herd 4 --threads 1 -q)
status=0
"${run[@]}" >"$work/disk_full.log" 2>&1 || status=$?
[ "$status" -ne 0 ] || fail "the solve into 2 MB did not fail"
grep -q "No space left on device" "$work/disk_full.log" || fail "no clear message: $(cat "$work/disk_full.log")"
grep -q "the same command continues" "$work/disk_full.log" || fail "no word on what to do"
grep -Eq "$mnt/db/[^ ]+" "$work/disk_full.log" || fail "the message names no file"
# Whatever is there under a table's name must be a complete table.
"$mora" check --db "$mnt/db" >/dev/null || fail "a table in the full folder fails its check"
mount -o remount,size=64m "$mnt"
"${run[@]}" >>"$work/disk_full.log" 2>&1 || fail "the second run failed: $(tail -3 "$work/disk_full.log")"
ref=$work/disk_full_reference
rm -rf "$ref"
"$mora" solve --db "$ref" --whole-game --herd 4 --threads 1 -q >/dev/null 2>&1
for f in "$ref"/*.mtb; do cmp -- "$f" "$mnt/db/${f##*/}" || fail "${f##*/} differs"; done
[ -z "$(ls "$mnt/db" | grep -v '\.mtb$')" ] || fail "files left behind: $(ls "$mnt/db")"
[ "$(ls "$mnt/db" | wc -l)" -eq "$(ls "$ref" | wc -l)" ] || fail "other table files"
echo "disk_full_test: ok"
