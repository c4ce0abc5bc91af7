import { open, stat, truncate } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { redactUrl } from '../platform/logging/redact.js';
import { BundleRefusedError } from './BundleRefusedError.js';

/** Limits of one download. */
export interface DownloadOptions {
  maxBytes: number;
  timeoutMs: number;
  /** How long the connection may stay silent before the attempt is given up. */
  idleTimeoutMs?: number;
  /** Attempts in total (a dropped transfer resumes with Range when the server allows it). */
  maxAttempts?: number;
}

const MAX_REDIRECTS = 5;
/** Errors that mean "nobody there": retrying them only delays the answer. */
const FATAL_CONNECT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
]);

/** A failed attempt that may be resumed or retried. */
class TransientError extends Error {}

/**
 * Streams an http(s) URL into `dest` (created or truncated) without holding it in memory:
 * the size cap is enforced on Content-Length and again on the bytes as they arrive, the whole
 * download has a deadline and every attempt an idle timeout, and a transfer that drops midway
 * resumes with `Range` (guarded by `If-Range`) when the server advertises byte ranges, or
 * starts over when it doesn't. Failures are BundleRefusedError with a reason that never
 * contains the link signature.
 */
// size: one retry loop whose deadline, redirects, size cap and resume rules share state; split, the control flow would be harder to follow
export async function downloadBundle(url: string, dest: string, options: DownloadOptions): Promise<void> {
  const shown = redactUrl(url);
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const maxAttempts = options.maxAttempts ?? 4;
  await (await open(dest, 'w', 0o600)).close();
  let validator: string | null = null;
  let rangesAllowed = false;
  let lastError = '';
  try {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const have = (await stat(dest)).size;
      const resume = have > 0 && rangesAllowed;
      if (have > 0 && !resume) await truncate(dest, 0);
      const headers: Record<string, string> = { 'Accept-Encoding': 'identity', 'User-Agent': 'enclave-deploy' };
      if (resume) {
        headers.Range = `bytes=${have}-`;
        if (validator) headers['If-Range'] = validator;
      }
      let response: IncomingMessage;
      try {
        response = await requestFollowingRedirects(url, headers, deadline.signal, options.idleTimeoutMs ?? 30_000);
      } catch (err) {
        if (deadline.signal.aborted) throw new BundleRefusedError(`download of ${shown} timed out after ${options.timeoutMs} ms`, 'fetch');
        const code = (err as NodeJS.ErrnoException).code ?? '';
        const reason = `cannot reach ${shown}: ${code || (err as Error).message}`;
        if (err instanceof BundleRefusedError || FATAL_CONNECT_CODES.has(code))
          throw err instanceof BundleRefusedError ? err : new BundleRefusedError(reason, 'fetch');
        lastError = reason;
        continue;
      }
      const status = response.statusCode ?? 0;
      if (status !== 200 && status !== 206) {
        const detail = await readErrorDetail(response);
        throw new BundleRefusedError(`HTTP ${status} from ${shown}${detail ? `: ${detail}` : ''}`, 'fetch');
      }
      rangesAllowed = /\bbytes\b/i.test(response.headers['accept-ranges'] ?? '') || status === 206;
      validator = strongValidator(response) ?? validator;
      let start = 0;
      let total: number | null = null;
      if (status === 206) {
        const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers['content-range'] ?? '');
        if (!range || Number(range[1]) !== have) {
          response.destroy();
          rangesAllowed = false; // the server answered a different range: start over without one
          lastError = `${shown} answered an unexpected range`;
          continue;
        }
        start = have;
        total = Number(range[3]);
      } else {
        const length = response.headers['content-length'];
        total = length === undefined ? null : Number(length);
        if (have > 0) await truncate(dest, 0);
      }
      if (total !== null && total > options.maxBytes) {
        response.destroy();
        throw new BundleRefusedError(`bundle at ${shown} is ${total} bytes (limit ${options.maxBytes})`, 'fetch');
      }
      try {
        const out = await open(dest, 'r+');
        await pipeline(response, new ByteCap(start, options.maxBytes, shown), out.createWriteStream({ start }));
      } catch (err) {
        if (err instanceof BundleRefusedError) throw err;
        if (deadline.signal.aborted) throw new BundleRefusedError(`download of ${shown} timed out after ${options.timeoutMs} ms`, 'fetch');
        lastError = `transfer from ${shown} broke off: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
        continue;
      }
      const got = (await stat(dest)).size;
      if (total !== null && got !== total) {
        lastError = `transfer from ${shown} ended early (${got} of ${total} bytes)`;
        continue;
      }
      return;
    }
    throw new BundleRefusedError(`download failed after ${maxAttempts} attempts: ${lastError}`, 'fetch');
  } finally {
    clearTimeout(timer);
  }
}

function requestFollowingRedirects(
  url: string,
  headers: Record<string, string>,
  signal: AbortSignal,
  idleTimeoutMs: number,
): Promise<IncomingMessage> {
  const go = (target: URL, hops: number): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const client = target.protocol === 'https:' ? https : http;
      const request = client.get(target, { headers, signal, timeout: idleTimeoutMs, agent: false }, (response) => {
        const location = response.headers.location;
        if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
          response.resume();
          if (hops >= MAX_REDIRECTS) return reject(new BundleRefusedError(`too many redirects from ${redactUrl(url)}`, 'fetch'));
          const next = new URL(location, target);
          if (next.protocol !== 'http:' && next.protocol !== 'https:')
            return reject(new BundleRefusedError(`redirect to an unsupported scheme from ${redactUrl(url)}`, 'fetch'));
          return resolve(go(next, hops + 1));
        }
        // The idle timeout keeps applying while the body streams.
        response.socket.setTimeout(idleTimeoutMs, () => response.destroy(new TransientError(`no data for ${idleTimeoutMs} ms`)));
        resolve(response);
      });
      request.on('timeout', () => request.destroy(new TransientError(`no answer within ${idleTimeoutMs} ms`)));
      request.on('error', reject);
    });
  return go(new URL(url), 0);
}

/** A validator safe for If-Range: a strong ETag, else Last-Modified. */
function strongValidator(response: IncomingMessage): string | null {
  const etag = response.headers.etag;
  if (etag && !etag.startsWith('W/')) return etag;
  return response.headers['last-modified'] ?? null;
}

/** The `error` field of a JSON error body (e.g. Enclave's "link expired"), or a short text. */
async function readErrorDetail(response: IncomingMessage): Promise<string> {
  let text = '';
  try {
    for await (const chunk of response) {
      text += String(chunk);
      if (text.length > 2048) break; // bounded: only the start of the body is shown
    }
  } catch {
    return '';
  } finally {
    response.destroy();
  }
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === 'string') return parsed.error.slice(0, 200);
  } catch {
    // not JSON: fall through to the raw text
  }
  return /<|\n/.test(text) ? '' : text.trim().slice(0, 200);
}

/** Stops the transfer as soon as the file would grow past the cap. */
class ByteCap extends Transform {
  constructor(
    private seen: number,
    private readonly cap: number,
    private readonly shown: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.cap) callback(new BundleRefusedError(`bundle at ${this.shown} exceeds the limit of ${this.cap} bytes`, 'fetch'));
    else callback(null, chunk);
  }
}
