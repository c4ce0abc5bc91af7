/** Node's error codes for a full volume or an exhausted quota. */
const DISK_FULL_CODES = new Set(['ENOSPC', 'EDQUOT']);

/** True when `err` says the data volume has no room left (nothing was written). */
export function isDiskFull(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && DISK_FULL_CODES.has(code);
}
