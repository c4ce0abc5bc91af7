import type { Clock } from '../../platform/Clock.js';
import type { AdminKeyRepository } from './AdminKeyRepository.js';
import { authenticateAdminKey } from './authenticateAdminKey.js';

/** An assistant key's check: the caller and its project, or why it was refused (for logs only). */
export type AssistantKeyCheck = { ok: true; keyId: string; projectId: string } | { ok: false; reason: string };

/**
 * Checks a key presented to an assistant endpoint (search, page, answers, MCP): only a live
 * assistant key passes. An admin key is refused there: it must never be put in a page, and an
 * endpoint built for pages must not teach anyone to do so.
 */
export function verifyAssistantKey(keys: AdminKeyRepository, clock: Clock) {
  return function verifyAssistantKeyFor(presented: string | undefined): AssistantKeyCheck {
    const check = authenticateAdminKey(keys, clock, presented);
    if (!check.ok) return check;
    if (check.key.kind !== 'assistant') return { ok: false, reason: 'admin key' };
    return { ok: true, keyId: check.key.id, projectId: check.key.projectId };
  };
}
