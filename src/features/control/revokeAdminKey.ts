import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { AdminKeyRecord } from './controlDocument.js';
import type { ControlStore } from './ControlStore.js';

/** What one revocation did. */
export interface RevokedKeys {
  /** The key asked for. */
  key: AdminKeyRecord;
  /** Keys it created, and keys they created, revoked with it (`cascade`); empty otherwise. */
  alsoRevoked: AdminKeyRecord[];
}

/**
 * Revokes a key of `projectId` and, with `cascade`, every key it minted (transitively, through
 * the recorded `createdBy`), so a leaked key's offspring don't outlive it. Refuses (409) when the
 * project would be left with no usable write key: nobody could then manage it through the API,
 * and only the default project has the local CLI key to fall back on. The check and the change
 * happen in one synchronous step of the store, so two revocations at once can't both pass it.
 */
export async function revokeAdminKey(
  control: ControlStore,
  clock: Clock,
  projectId: string,
  keyId: string,
  options: { cascade?: boolean } = {},
): Promise<RevokedKeys> {
  const key = control.keys.find(keyId);
  if (!key || key.projectId !== projectId) throw AppError.notFound(`No key ${keyId} in this project`);
  const now = clock.now();
  const ids = new Set([keyId]);
  if (options.cascade) for (const child of descendantsOf(control.keys.list(projectId), keyId)) ids.add(child.id);
  await control.keys.revokeAll([...ids], now, (keys) => {
    const usable = (k: AdminKeyRecord) =>
      k.projectId === projectId &&
      k.scope === 'write' &&
      (k.kind ?? 'admin') === 'admin' &&
      !k.revokedAt &&
      (!k.expiresAt || Date.parse(k.expiresAt) > now.getTime());
    const before = keys.filter(usable);
    if (before.length > 0 && before.every((k) => ids.has(k.id)))
      throw AppError.conflict(
        `Revoking ${ids.size > 1 ? `these ${ids.size} keys` : 'this key'} would leave the project with no usable write key; ` +
          'create another write key first (POST /v1/keys), then revoke',
      );
  });
  const alsoRevoked = [...ids].filter((id) => id !== keyId).map((id) => control.keys.find(id)!);
  return { key: control.keys.find(keyId)!, alsoRevoked };
}

/** Keys created by `rootId`, by those keys, and so on (a creator loop, impossible today, ends). */
function descendantsOf(keys: AdminKeyRecord[], rootId: string): AdminKeyRecord[] {
  const found: AdminKeyRecord[] = [];
  const seen = new Set([rootId]);
  for (let frontier = [rootId]; frontier.length > 0; ) {
    const next: string[] = [];
    for (const k of keys)
      if (k.createdBy && frontier.includes(k.createdBy) && !seen.has(k.id)) {
        seen.add(k.id);
        found.push(k);
        next.push(k.id);
      }
    frontier = next;
  }
  return found;
}
