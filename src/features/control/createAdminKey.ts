import type { Clock } from '../../platform/Clock.js';
import { AppError } from '../../platform/AppError.js';
import { randomId } from '../../platform/randomId.js';
import type { AdminKeyRecord } from './controlDocument.js';
import type { ControlStore } from './ControlStore.js';
import { generateAdminKey, hashAdminKey } from './adminKeyFormat.js';

/** What to create: a named key for one project. */
export interface NewAdminKey {
  projectId: string;
  name: string;
  scope: 'read' | 'write';
  /** `assistant`: a key for the search, page, answer and MCP endpoints only (its scope is stored as `read`). */
  kind?: 'admin' | 'assistant';
  expiresAt?: Date | null;
  /** The id of the key that asks for this one; its expiry caps the new key's. */
  createdBy?: string | null;
}

/**
 * Creates and stores a key; the plain key is returned once and never stored. A key made by
 * another key never outlives it: its expiry is cut to the creator's (an expiring key can't
 * mint a lasting one), and the creator is recorded so that revoking it can take the new key
 * along.
 */
export async function createAdminKey(
  control: ControlStore,
  clock: Clock,
  input: NewAdminKey,
): Promise<{ key: string; record: AdminKeyRecord }> {
  if (!control.projects.find(input.projectId)) throw AppError.notFound(`Project ${input.projectId} not found`);
  if (input.expiresAt && input.expiresAt.getTime() <= clock.now().getTime()) throw AppError.badRequest('expiresAt must be in the future');
  const creatorExpiry = input.createdBy ? control.keys.find(input.createdBy)?.expiresAt : null;
  let expiresAt = input.expiresAt ?? null;
  if (creatorExpiry && (!expiresAt || expiresAt.getTime() > Date.parse(creatorExpiry))) expiresAt = new Date(creatorExpiry);
  const kind = input.kind ?? 'admin';
  const key = generateAdminKey(kind);
  const record: AdminKeyRecord = {
    id: randomId('key_'),
    projectId: input.projectId,
    name: input.name,
    // An assistant key never writes through the admin API; `read` keeps it out of the
    // "last usable write key" count as well.
    scope: kind === 'assistant' ? 'read' : input.scope,
    kind,
    hash: hashAdminKey(key),
    last4: key.slice(-4),
    createdAt: clock.now().toISOString(),
    expiresAt: expiresAt ? expiresAt.toISOString() : null,
    lastUsedAt: null,
    revokedAt: null,
    createdBy: input.createdBy ?? null,
  };
  await control.keys.insert(record);
  return { key, record };
}
