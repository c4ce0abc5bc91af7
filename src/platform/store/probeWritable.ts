import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';

/** Checks that the data directory accepts a synced write right now (full or read-only disks fail). */
export async function probeWritable(dataDir: string): Promise<{ writable: boolean; detail?: string }> {
  const path = join(dataDir, '.ready-probe');
  try {
    const handle = await open(path, 'w', 0o600);
    try {
      await handle.writeFile('ok');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rm(path, { force: true });
    return { writable: true };
  } catch (err) {
    return { writable: false, detail: `data directory not writable (${(err as NodeJS.ErrnoException).code ?? 'error'})` };
  }
}
