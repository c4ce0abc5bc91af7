import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../platform/Clock.js';
import type { ControlStore } from './ControlStore.js';
import { generateAdminKey, hashAdminKey } from './adminKeyFormat.js';

/** Where the running appliance leaves its local CLI key (mode 0600, inside the 0700 data directory). */
export function localCliKeyPath(dataDir: string): string {
  return join(dataDir, 'secrets', 'cli-key');
}

/**
 * Mints a write key for the default project that lives only while this process runs and
 * leaves it in a 0600 file of the data directory. Whoever can read that file can already read
 * and rewrite the store, so it grants nothing new — but it lets `enclave keys create` and
 * `enclave sites add` (e.g. through `docker exec`) manage a running appliance through its API,
 * which is also how an admin who lost every key gets one back without downtime.
 * Returns a function that removes the file (on stop).
 */
export function issueLocalCliKey(control: ControlStore, dataDir: string, projectId: string, clock: Clock): () => void {
  const key = generateAdminKey();
  control.keys.addSessionKey({
    id: 'key_local_cli',
    projectId,
    name: 'local CLI (data directory owner)',
    scope: 'write',
    hash: hashAdminKey(key),
    last4: key.slice(-4),
    createdAt: clock.now().toISOString(),
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
  });
  const path = localCliKeyPath(dataDir);
  rmSync(path, { force: true }); // a leftover from a killed run may belong to another user's umask
  writeFileSync(path, `${key}\n`, { mode: 0o600 });
  return () => rmSync(path, { force: true });
}
