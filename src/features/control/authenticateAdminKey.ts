import { timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../platform/Clock.js';
import type { AdminKeyRecord } from './controlDocument.js';
import type { AdminKeyRepository } from './AdminKeyRepository.js';
import { hashAdminKey, wellFormedKeyKind } from './adminKeyFormat.js';

/** Why a presented key was refused (for logs; the client always sees the same 401). */
export type KeyRefusal = 'missing' | 'malformed' | 'unknown' | 'revoked' | 'expired';

/** Result of checking a bearer key. */
export type KeyCheck = { ok: true; key: AdminKeyRecord } | { ok: false; reason: KeyRefusal };

/**
 * Checks a presented key of either kind (admin or assistant; the caller decides what each may
 * do): shape and checksum first (no store access for typos), then the hash lookup, a
 * constant-time comparison, revocation and expiry.
 */
export function authenticateAdminKey(keys: AdminKeyRepository, clock: Clock, presented: string | undefined): KeyCheck {
  if (!presented) return { ok: false, reason: 'missing' };
  const kind = wellFormedKeyKind(presented);
  if (kind === null) return { ok: false, reason: 'malformed' };
  const hash = hashAdminKey(presented);
  const record = keys.findByHash(hash);
  // The map lookup already matched; the constant-time compare keeps the check honest if the
  // index is ever replaced by something that matches on prefixes.
  if (!record || !timingSafeEqual(Buffer.from(record.hash, 'hex'), Buffer.from(hash, 'hex'))) return { ok: false, reason: 'unknown' };
  // A stored kind that disagrees with the prefix would be a forged record: treat it as unknown.
  if ((record.kind ?? 'admin') !== kind) return { ok: false, reason: 'unknown' };
  if (record.revokedAt) return { ok: false, reason: 'revoked' };
  const now = clock.now();
  if (record.expiresAt && Date.parse(record.expiresAt) <= now.getTime()) return { ok: false, reason: 'expired' };
  keys.touch(record, now);
  return { ok: true, key: record };
}
