#!/usr/bin/env bash
# ctest baseline_find_db (label baseline): a find-db written by the pre-split baseline is read by
# the current Public library (RFC 4.8).
#  1. the baseline runs Find (MIOPEN_FIND_MODE=NORMAL) on every problem of conv_dump, writing a
#     fresh user find-db (MIOPEN_USER_DB_PATH, docs/find-db.md);
#  2. the baseline, then the current library, run the same problems in the default find mode
#     (DYNAMIC_HYBRID: a hit is used; a miss would benchmark and rewrite the file);
#  3. checks: the db's bytes, mtime and the directory listing are unchanged after each reading run
#     (nothing re-measured or rewritten); the current run's Find lists are the records' best entry
#     per algorithm with the stored times; its Find and GetSolution lists equal the baseline's
#     reading run's; and every output, the plain calls' included (their solver comes from the
#     records), is bitwise the same as the baseline's.
#   baseline_find_db.sh BASE_EXE BASE_LIBDIR CUR_EXE CUR_LIBDIR WORKDIR [ALLOW_DIFF_IDS]
set -euo pipefail
base_exe=$1 base_lib=$2 cur_exe=$3 cur_lib=$4 work=$5 allow=${6:-}
rm -rf "$work" && mkdir -p "$work/db"
unset MIOPEN_FIND_MODE MIOPEN_FIND_ENFORCE MIOPEN_DEBUG_DISABLE_FIND_DB MIOPEN_LOG_LEVEL MIOPEN_ENABLE_LOGGING \
      MIOPEN_ENABLE_LOGGING_CMD MIOPEN_DISABLE_HIPDNN_FOR
export MIOPEN_NUM_THREADS=${MIOPEN_NUM_THREADS:-2} MIOPEN_USER_DB_PATH="$work/db" MIOPEN_HIPDNN_FORWARDING=disabled

MIOPEN_FIND_MODE=NORMAL LD_LIBRARY_PATH="$base_lib" "$base_exe" dump "$work/baseline_write.bin" \
  --expect-lib-dir="$base_lib" >/dev/null
shopt -s nullglob
dbs=("$work"/db/*.ufdb.txt)
[ "${#dbs[@]}" -eq 1 ] || { echo "FAIL: expected one find-db file in $work/db, found ${#dbs[@]}"; ls -la "$work/db"; exit 1; }
db=${dbs[0]}
echo "find-db written by the baseline: $(basename "$db"), $(wc -l <"$db") records, $(stat -c %s "$db") bytes"
snapshot() { sha256sum "$db" | cut -d' ' -f1; stat -c '%y' "$db" "$work/db"; ls -lA --time-style=full-iso "$work/db" | tail -n +2; }
before=$(snapshot)

check_unchanged() {
  if [ "$(snapshot)" != "$before" ]; then
    echo "FAIL: the find-db changed during the $1 run (records re-measured or rewritten)"
    diff <(echo "$before") <(snapshot) || true
    exit 1
  fi
  echo "find-db unchanged after the $1 run (sha256, mtime, listing)"
}
LD_LIBRARY_PATH="$base_lib" "$base_exe" dump "$work/baseline_read.bin" --expect-lib-dir="$base_lib" >/dev/null
check_unchanged "baseline reading"
LD_LIBRARY_PATH="$cur_lib" "$cur_exe" dump "$work/current_read.bin" --expect-lib-dir="$cur_lib"
check_unchanged "current reading"
"$cur_exe" compare "$work/baseline_read.bin" "$work/current_read.bin" --same-find --db="$db" \
  ${allow:+--allow-diff="$allow"} | tee "$work/compare.txt"
