#!/usr/bin/env bash
# Runs the whole `npm test` with CPU hogs running beside it (4 by default, HOGS=N to change),
# to show that no test passes or fails with machine load. The hogs are busy loops started
# here and killed when the run ends, however it ends. Extra arguments go to `npm test`.
# Prints the suite's "N passed, N failed" line and how long the run took; exits with its status.
set -u
cd "$(dirname "$0")/.."
hogs=${HOGS:-4}
pids=()
stop_hogs() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait "${pids[@]}" 2>/dev/null
  pids=()
}
trap stop_hogs EXIT
trap 'stop_hogs; exit 130' INT TERM
for _ in $(seq "$hogs"); do
  # A subshell spinning on a builtin: one full core each, no I/O, nothing to clean up.
  (while :; do :; done) &
  pids+=($!)
done
echo "test:load: ${hogs} CPU hogs running (pids ${pids[*]}) on $(nproc) cores; starting npm test"
started=$(date +%s)
log=$(mktemp -t enclave-test-load.XXXXXX)
npm test -- "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
seconds=$(($(date +%s) - started))
stop_hogs
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
rm -f "$log"
echo "test:load: npm test beside ${hogs} CPU hogs: ${summary:-no summary line}; exit ${status}; $((seconds / 60)) min $((seconds % 60)) s"
exit "$status"
