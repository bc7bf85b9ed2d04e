#!/usr/bin/env bash
# Instructions per call of the wrapper hop, deterministic (valgrind --tool=callgrind):
# wrapper_hop_bench --callgrind-driver=public|impl runs N calls of miopenGetVersion through
# libMIOpen.so / of miopenGetVersion_impl directly; collection is on only inside the driver loop
# (--toggle-collect), so the difference of the two totals / N is the hop's extra instructions.
#
#   hop_callgrind.sh WRAPPER_HOP_BENCH [CALLS] [MAX_EXTRA]
# Prints a table; exits 1 when the extra instructions per call exceed MAX_EXTRA (default 3: compare,
# branch, jump through the GOT), 2 when valgrind is missing or fails.
set -euo pipefail
bench=${1:?usage: hop_callgrind.sh WRAPPER_HOP_BENCH [CALLS] [MAX_EXTRA]}
calls=${2:-100000}
max_extra=${3:-3}
command -v valgrind >/dev/null || { echo "hop_callgrind: valgrind not found" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

count() { # path -> instructions collected in hop_loop_<path>
  local path=$1
  valgrind --tool=callgrind --collect-atstart=no --toggle-collect="hop_loop_$path" \
    --callgrind-out-file="$tmp/$path.out" "$bench" --callgrind-driver="$path" --calls="$calls" \
    >"$tmp/$path.log" 2>&1 || { cat "$tmp/$path.log" >&2; exit 2; }
  awk '/^(summary|totals):/ { print $2; exit }' "$tmp/$path.out"
}

pub=$(count public)
imp=$(count impl)
[ -n "$pub" ] && [ -n "$imp" ] || { echo "hop_callgrind: no totals in the callgrind output" >&2; exit 2; }
awk -v p="$pub" -v i="$imp" -v n="$calls" -v m="$max_extra" 'BEGIN {
  printf "| path | instructions (%d calls, callgrind) | per call |\n|---|---:|---:|\n", n
  printf "| miopenGetVersion (libMIOpen.so stub -> _impl) | %d | %.3f |\n", p, p / n
  printf "| miopenGetVersion_impl (direct) | %d | %.3f |\n", i, i / n
  extra = (p - i) / n
  printf "\nhop: %+.3f instructions/call; target <= %s: %s\n", extra, m, (extra <= m ? "met" : "MISSED")
  exit (extra <= m ? 0 : 1)
}'
