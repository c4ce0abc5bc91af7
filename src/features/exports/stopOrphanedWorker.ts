import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long to wait for a killed worker to disappear. */
const GONE_WITHIN_MS = 3000;

/**
 * Kills an export worker left running by a crashed server and waits until it is gone. The pid
 * is checked against /proc first, so a pid reused by an unrelated process is never touched.
 */
export async function stopOrphanedWorker(pid: number): Promise<void> {
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
  if (!cmdline.includes('exportWorker')) return;
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    return;
  }
  for (let waited = 0; waited < GONE_WITHIN_MS; waited += 50) {
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    // Gone, or a zombie waiting for its (dead) parent to reap it: either way it writes nothing.
    if (!state || / Z /.test(state)) return;
    await sleep(50);
  }
}
