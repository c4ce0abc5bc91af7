import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Rounds of scan-and-kill: a process forking while we look is caught by the next round. */
const MAX_ROUNDS = 20;
const ROUND_PAUSE_MS = 20;
const NUL = Buffer.from([0]);

/** pid → parent pid of every live process /proc shows, and those carrying `marker` in their environment. */
function scanProcesses(marker: Buffer): { parents: Map<number, number>; marked: Set<number> } {
  const parents = new Map<number, number>();
  const marked = new Set<number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] === 'Z' || fields[0] === 'X') continue; // dead; its parent reaps it
      parents.set(pid, Number(fields[1]));
      if (Buffer.concat([NUL, readFileSync(`/proc/${entry}/environ`)]).includes(marker)) marked.add(pid);
    } catch {
      // exited while we looked, or not ours to read
    }
  }
  return { parents, marked };
}

/**
 * Kills every process left from one agent run: those whose environment still carries the
 * run's `ENCLAVE_JOB_ID` (inherited by everything it started, even after `setsid` moved them
 * out of its process group and session) and all their descendants. A PID namespace, when the
 * server can make one, already guarantees this; the scan is what works everywhere else.
 * Resolves with how many processes were signalled.
 */
export async function killJobProcesses(jobId: string): Promise<number> {
  const marker = Buffer.from(`\0ENCLAVE_JOB_ID=${jobId}\0`);
  let killed = 0;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { parents, marked } = scanProcesses(marker);
    const doomed = new Set(marked);
    for (let grew = true; grew; ) {
      grew = false;
      for (const [pid, ppid] of parents) {
        if (!doomed.has(pid) && doomed.has(ppid)) {
          doomed.add(pid);
          grew = true;
        }
      }
    }
    doomed.delete(process.pid);
    if (doomed.size === 0) return killed;
    for (const pid of doomed) {
      try {
        process.kill(pid, 'SIGKILL');
        killed += 1;
      } catch {
        // already gone
      }
    }
    await sleep(ROUND_PAUSE_MS);
  }
  return killed;
}
