/** Encodings a stored file may have besides identity, in order of preference. */
export type StoredEncoding = 'br' | 'gzip';

const memo = new Map<string, { br: boolean; gzip: boolean }>();
const MEMO_LIMIT = 256;

/**
 * Which precompressed encodings an Accept-Encoding header allows (q=0 means "not this one";
 * `*` covers encodings not named). Parsed once per distinct header value: clients send few.
 */
export function acceptedEncodings(header: string | undefined): { br: boolean; gzip: boolean } {
  if (!header) return { br: false, gzip: false };
  const known = memo.get(header);
  if (known) return known;
  const q = new Map<string, number>();
  for (const part of header.split(',').slice(0, 32)) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    if (!token) continue;
    let weight = 1;
    for (const param of params) {
      const m = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param);
      if (m) weight = Number(m[1]);
    }
    q.set(token, Number.isFinite(weight) ? weight : 0);
  }
  const allowed = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  const result = { br: allowed('br'), gzip: allowed('gzip') || allowed('x-gzip') };
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(header, result);
  return result;
}
