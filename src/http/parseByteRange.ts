/** A single byte range, inclusive on both ends. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Parses a `Range` header for a resource of `size` bytes (RFC 9110 §14): a single
 * `bytes=a-b`, `bytes=a-` or `bytes=-n` range. Returns null to serve the whole file (no header,
 * another unit, several ranges, or bad syntax — all of which a server may ignore) and
 * `'unsatisfiable'` when the range lies entirely past the end (416).
 */
export function parseByteRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}
