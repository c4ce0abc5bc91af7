#!/usr/bin/env bash
# Runs the whole `npm test` with CPU hogs running beside it (4 by default, HOGS=N to change),
# to show that no test passes or fails with machine load. The hogs are busy loops started
# here and killed when the run ends, however it ends. Extra arguments go to `npm test`.
# Prints the suite's "N passed, N failed" line and how long the run took; exits with its status.
#
# `timeout 3600 npm run test:load` must end everything: npm test runs in a session of its own,
# and a TERM or INT here ends that whole process tree (ava, its workers, the appliances,
# export workers and browsers they started), not only this script. Before, bash only ran its
# trap once the foreground pipeline had finished, and the signal never reached npm test's
# children, so a timed-out run went on for an hour beside the hogs' replacements.
set -u
cd "$(dirname "$0")/.."
hogs=${HOGS:-4}
# Seconds the suite gets to tidy up (test.mjs removes its temp directory) before KILL.
grace=${GRACE_SECONDS:-15}
hog_pids=()
suite_pid=
log=$(mktemp -t enclave-test-load.XXXXXX)

stop_hogs() {
  for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null; done
  wait "${hog_pids[@]}" 2>/dev/null
  hog_pids=()
}

# Every process below $1, children first listed after their parents (a snapshot: once a parent
# dies its children are re-parented and could no longer be found from it).
descendants() {
  ps -e -o pid=,ppid= | awk -v root="$1" '
    { parent[$1] = $2; pids[NR] = $1 }
    END {
      mark[root] = 1
      do { grew = 0
        for (i in pids) { p = pids[i]; if (!(p in mark) && (parent[p] in mark)) { mark[p] = 1; grew = 1 } }
      } while (grew)
      for (p in mark) if (p != root) print p
    }'
}

# Ends the suite's process tree: TERM to its process group and to every descendant (some, like
# Chromium, run in groups of their own), then KILL to whatever is left after the grace period.
stop_suite() {
  [ -n "$suite_pid" ] || return 0
  local tree
  tree=$(descendants "$suite_pid")
  kill -TERM -- "-$suite_pid" $tree 2>/dev/null
  for _ in $(seq "$grace"); do
    kill -0 -- "-$suite_pid" 2>/dev/null || break
    sleep 1
  done
  kill -KILL -- "-$suite_pid" $tree 2>/dev/null
  wait "$suite_pid" 2>/dev/null
  suite_pid=
}

cleanup() {
  stop_suite
  stop_hogs
  [ -n "${tail_pid:-}" ] && kill "$tail_pid" 2>/dev/null
  rm -f "$log"
}
trap cleanup EXIT
trap 'echo "test:load: interrupted; ending the suite and the hogs" >&2; exit 130' INT
trap 'echo "test:load: terminated; ending the suite and the hogs" >&2; exit 143' TERM

for _ in $(seq "$hogs"); do
  # A subshell spinning on a builtin: one full core each, no I/O, nothing to clean up.
  (while :; do :; done) &
  hog_pids+=($!)
done
echo "test:load: ${hogs} CPU hogs running (pids ${hog_pids[*]}) on $(nproc) cores; starting npm test"
started=$(date +%s)
# In the background, so that `wait` returns as soon as a signal arrives and the traps run.
# setsid: its own session and process group, which stop_suite ends as a whole.
setsid npm test -- "$@" >"$log" 2>&1 </dev/null &
suite_pid=$!
tail -n +1 -f --pid="$suite_pid" "$log" &
tail_pid=$!
wait "$suite_pid"
status=$?
suite_pid=
wait "$tail_pid" 2>/dev/null
seconds=$(($(date +%s) - started))
stop_hogs
summary=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
echo "test:load: npm test beside ${hogs} CPU hogs: ${summary:-no summary line}; exit ${status}; $((seconds / 60)) min $((seconds % 60)) s"
exit "$status"
