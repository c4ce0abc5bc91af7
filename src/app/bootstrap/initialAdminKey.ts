import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../../platform/Clock.js';
import type { ControlStore } from '../../features/control/ControlStore.js';
import { createAdminKey } from '../../features/control/createAdminKey.js';
import { hashAdminKey } from '../../features/control/adminKeyFormat.js';

/** The 0600 file holding the first admin key until it is first used. */
export function initialAdminKeyPath(dataDir: string): string {
  return join(dataDir, 'secrets', 'initial-admin-key');
}

/**
 * Creates the first admin key when the store has none. Besides being printed, it is kept in
 * `secrets/initial-admin-key` (0600, shell-evaluable lines) until its first use, so a key
 * printed into a terminal nobody saw (a detached container, a crashed first start) is not lost.
 */
export async function createInitialAdminKey(
  dataDir: string,
  control: ControlStore,
  clock: Clock,
  projectId: string,
): Promise<string | null> {
  if (control.keys.list().length > 0) return null;
  const { key } = await createAdminKey(control, clock, { projectId, name: 'initial admin key', scope: 'write' });
  writeFileSync(initialAdminKeyPath(dataDir), `ENCLAVE_ADMIN_KEY=${key}\nENCLAVE_PROJECT_ID=${projectId}\n`, { mode: 0o600 });
  return key;
}

/**
 * Removes the initial-key file once its key has been used (or revoked): from then on the admin
 * evidently has it, and a secret should not sit on disk longer than needed.
 */
export function forgetInitialAdminKeyOnUse(dataDir: string, control: ControlStore): void {
  const path = initialAdminKeyPath(dataDir);
  if (!existsSync(path)) return;
  const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(readFileSync(path, 'utf8'))?.[1];
  const record = key ? control.keys.findByHash(hashAdminKey(key)) : undefined;
  if (!record || record.lastUsedAt || record.revokedAt) {
    rmSync(path, { force: true });
    return;
  }
  control.keys.onFirstUse(record.id, () => rmSync(path, { force: true }));
}
