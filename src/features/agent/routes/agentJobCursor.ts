import type { AgentJobCursor } from '../AgentJobRecord.js';

/** An opaque cursor for the next page: the position of the last job returned. */
export function encodeAgentJobCursor(position: AgentJobCursor): string {
  return Buffer.from(JSON.stringify([position.createdAt, position.id])).toString('base64url');
}

/** The position a cursor names, or null when it was not made by encodeAgentJobCursor. */
export function decodeAgentJobCursor(cursor: string): AgentJobCursor | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return null;
    const [createdAt, id] = value as unknown[];
    if (typeof createdAt !== 'string' || Number.isNaN(Date.parse(createdAt)) || typeof id !== 'string' || !/^aj_[0-9a-f]{16}$/.test(id))
      return null;
    return { createdAt, id };
  } catch {
    return null;
  }
}
