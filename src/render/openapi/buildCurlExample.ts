import type { Json } from './OpenApiDocument.js';

/** What a generated cURL request needs. */
export interface CurlRequest {
  method: string;
  url: string;
  headers: [string, string][];
  /** Query parameters to show on the URL (required ones, with placeholder values). */
  query: [string, string][];
  mediaType?: string;
  body?: Json;
}

/** Single-quotes a value for a POSIX shell. */
const quote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`;

/** A readable multi-line cURL command for an operation. */
export function buildCurlExample(req: CurlRequest): string {
  const qs = req.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
  const lines = [`curl --request ${req.method.toUpperCase()}`, `  --url ${quote(req.url + (qs ? `?${qs}` : ''))}`];
  for (const [name, value] of req.headers) lines.push(`  --header ${quote(`${name}: ${value}`)}`);
  if (req.body !== undefined && req.mediaType) {
    if (!req.headers.some(([n]) => n.toLowerCase() === 'content-type') && !req.mediaType.startsWith('multipart/')) {
      lines.push(`  --header ${quote(`Content-Type: ${req.mediaType}`)}`);
    }
    if (req.mediaType.startsWith('multipart/') && req.body && typeof req.body === 'object' && !Array.isArray(req.body)) {
      for (const [k, v] of Object.entries(req.body)) {
        lines.push(
          `  --form ${quote(`${k}=${typeof v === 'string' && v === '<binary>' ? '@example-file' : typeof v === 'string' ? v : JSON.stringify(v)}`)}`,
        );
      }
    } else if (
      req.mediaType === 'application/x-www-form-urlencoded' &&
      req.body &&
      typeof req.body === 'object' &&
      !Array.isArray(req.body)
    ) {
      for (const [k, v] of Object.entries(req.body))
        lines.push(`  --data-urlencode ${quote(`${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)}`);
    } else {
      lines.push(`  --data ${quote(typeof req.body === 'string' ? req.body : JSON.stringify(req.body, null, 2))}`);
    }
  }
  return lines.join(' \\\n');
}
