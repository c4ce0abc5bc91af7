import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** The nice value a background thread gets: the lowest priority there is. */
const BACKGROUND_NICE = 19;

/**
 * Gives the calling thread the lowest CPU priority, leaving the other threads of the process as
 * they are, and returns its nice value (null where that can't be done). A busy helper thread
 * that a post wakes up can otherwise take the core of the thread that posted for as long as its
 * work lasts; at the lowest priority it runs on a core nobody else wants. Linux only: there a
 * thread is a task of its own, named by /proc/thread-self, and setpriority applies to it alone.
 */
export function lowerThreadPriority(): number | null {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return null;
    setPriority(tid, BACKGROUND_NICE);
    return getPriority(tid);
  } catch {
    return null;
  }
}
