import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { SigningKeyring } from '../../platform/SigningKeyring.js';
import type { FeedbackFilter, FeedbackPageKey } from './FeedbackEntry.js';

/** A decoded cursor: where the previous page ended and which filters it was made for. */
export interface DecodedCursor extends FeedbackPageKey {
  filterHash: string;
}

/** Why a cursor was refused; shown to the client. */
export type CursorProblem = 'malformed' | 'tampered';

/** Hash of a project's filters; a cursor carries it so it can't be replayed with other filters. */
export function hashFeedbackFilter(projectId: string, filter: FeedbackFilter): string {
  const canonical = JSON.stringify([
    projectId,
    filter.fromMs ?? null,
    filter.toMs ?? null,
    filter.source ?? null,
    [...new Set(filter.statuses ?? [])].sort(),
    // Appended only when set, so cursors issued before the site filter existed stay valid.
    ...(filter.domain === undefined ? [] : [filter.domain.toLowerCase()]),
  ]);
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 16);
}

/**
 * Opaque keyset cursors for the analytics API: base64url JSON of the last `(createdAt, id)`
 * and the filter hash, plus an HMAC under the appliance's signing key so an edited cursor is
 * detected instead of silently skipping or repeating entries.
 */
export class FeedbackCursor {
  constructor(private readonly keyring: SigningKeyring) {}

  /** Encodes the position after `key` for the filters hashed as `filterHash`. */
  encode(key: FeedbackPageKey, filterHash: string): string {
    const kid = this.keyring.active().kid;
    const payload = Buffer.from(JSON.stringify({ t: key.createdAtMs, i: key.id, f: filterHash, k: kid })).toString('base64url');
    return `${payload}.${this.sign(kid, payload)}`;
  }

  /** Decodes a cursor, or says whether it was malformed or altered. */
  decode(cursor: string): DecodedCursor | CursorProblem {
    const [payload, signature, extra] = cursor.split('.');
    if (!payload || !signature || extra !== undefined || cursor.length > 512) return 'malformed';
    let value: { t?: unknown; i?: unknown; f?: unknown; k?: unknown };
    try {
      value = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return 'malformed';
    }
    if (typeof value?.k !== 'string' || !this.keyring.find(value.k)) return 'tampered';
    const expected = Buffer.from(this.sign(value.k, payload));
    const given = Buffer.from(signature);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'tampered';
    if (
      typeof value.t !== 'number' ||
      !Number.isFinite(value.t) ||
      typeof value.i !== 'string' ||
      !/^fb_[0-9a-f]{16}$/.test(value.i) ||
      typeof value.f !== 'string'
    )
      return 'malformed';
    return { createdAtMs: value.t, id: value.i, filterHash: value.f };
  }

  private sign(kid: string, payload: string): string {
    const secret = Buffer.from(this.keyring.find(kid)!.secret, 'base64');
    return createHmac('sha256', secret).update(`enclave-feedback-cursor\n${payload}`).digest('base64url').slice(0, 22);
  }
}
