import { open, stat, truncate } from 'node:fs/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { redactUrl } from '../../platform/logging/redact.js';
import { BundleRefusedError } from '../BundleRefusedError.js';

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
export async function downloadBundle(url: string, dest: string, options: DownloadOptions): Promise<void> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const maxAttempts = options.maxAttempts ?? 4;
  await (await open(dest, 'w', 0o600)).close();
  const download: Download = { url, shown: redactUrl(url), dest, options, signal: deadline.signal, validator: null, rangesAllowed: false };
  let lastError = '';
  try {
    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      const retry = await attemptDownload(download);
      if (retry === null) return;
      lastError = retry;
    }
    throw new BundleRefusedError(`download failed after ${maxAttempts} attempts: ${lastError}`, 'fetch');
  } finally {
    clearTimeout(timer);
  }
}

/** One download across its attempts: what they share. */
interface Download {
  url: string;
  /** The URL as logs and errors may show it (no link signature). */
  shown: string;
  dest: string;
  options: DownloadOptions;
  /** The whole download's deadline. */
  signal: AbortSignal;
  /** What If-Range sends when resuming (see strongValidator). */
  validator: string | null;
  /** The server said it serves byte ranges: a dropped transfer resumes where it stopped. */
  rangesAllowed: boolean;
}

/** One attempt: null once `dest` holds the whole bundle, else why another attempt may do better; a refusal throws. */
async function attemptDownload(d: Download): Promise<string | null> {
  const { shown, dest, options } = d;
  const have = (await stat(dest)).size;
  const resume = have > 0 && d.rangesAllowed;
  if (have > 0 && !resume) await truncate(dest, 0);
  const headers: Record<string, string> = { 'Accept-Encoding': 'identity', 'User-Agent': 'enclave-deploy' };
  if (resume) {
    headers.Range = `bytes=${have}-`;
    if (d.validator) headers['If-Range'] = d.validator;
  }
  let response: IncomingMessage;
  try {
    response = await requestFollowingRedirects(d.url, headers, d.signal, options.idleTimeoutMs ?? 30_000);
  } catch (err) {
    if (d.signal.aborted) throw new BundleRefusedError(`download of ${shown} timed out after ${options.timeoutMs} ms`, 'fetch');
    const code = (err as NodeJS.ErrnoException).code ?? '';
    const reason = `cannot reach ${shown}: ${code || (err as Error).message}`;
    if (err instanceof BundleRefusedError || FATAL_CONNECT_CODES.has(code))
      throw err instanceof BundleRefusedError ? err : new BundleRefusedError(reason, 'fetch');
    return reason;
  }
  const status = response.statusCode ?? 0;
  if (status !== 200 && status !== 206) {
    // The body is never read: a bundleUrl may point at an internal service, and its reply
    // would otherwise reach the API caller and the deployment history.
    response.destroy();
    throw new BundleRefusedError(`HTTP ${status} from ${shown}: ${describeRefusal(status)}`, 'fetch');
  }
  d.rangesAllowed = /\bbytes\b/i.test(response.headers['accept-ranges'] ?? '') || status === 206;
  d.validator = strongValidator(response) ?? d.validator;
  const body = await bodyPlacement(d, response, have);
  if (typeof body === 'string') return body;
  return receiveBody(d, response, body);
}

/**
 * Where the answer's bytes go in `dest` and how many the whole file has (null: not said). A 206
 * for another range than asked makes the next attempt start over without one (the reason is
 * returned); a 200 replaces what an earlier attempt left.
 */
async function bodyPlacement(
  d: Download,
  response: IncomingMessage,
  have: number,
): Promise<{ start: number; total: number | null } | string> {
  if (response.statusCode === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers['content-range'] ?? '');
    if (!range || Number(range[1]) !== have) {
      response.destroy();
      d.rangesAllowed = false; // the server answered a different range: start over without one
      return `${d.shown} answered an unexpected range`;
    }
    return { start: have, total: Number(range[3]) };
  }
  const length = response.headers['content-length'];
  if (have > 0) await truncate(d.dest, 0);
  return { start: 0, total: length === undefined ? null : Number(length) };
}

/** Streams the answer into `dest` from `start`, under the size cap: null once complete, else why to try again. */
async function receiveBody(
  d: Download,
  response: IncomingMessage,
  { start, total }: { start: number; total: number | null },
): Promise<string | null> {
  const { shown, dest, options } = d;
  if (total !== null && total > options.maxBytes) {
    response.destroy();
    throw new BundleRefusedError(`bundle at ${shown} is ${total} bytes (limit ${options.maxBytes})`, 'fetch');
  }
  try {
    const out = await open(dest, 'r+');
    await pipeline(response, new ByteCap(start, options.maxBytes, shown), out.createWriteStream({ start }));
  } catch (err) {
    if (err instanceof BundleRefusedError) throw err;
    if (d.signal.aborted) throw new BundleRefusedError(`download of ${shown} timed out after ${options.timeoutMs} ms`, 'fetch');
    return `transfer from ${shown} broke off: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`;
  }
  const got = (await stat(dest)).size;
  if (total !== null && got !== total) return `transfer from ${shown} ended early (${got} of ${total} bytes)`;
  return null;
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

/** A fixed text for a refusing status, the same whatever the server said in its body. */
function describeRefusal(status: number): string {
  if (status === 401 || status === 403) return 'access refused (an expired or re-signed Enclave link answers 403)';
  if (status === 404 || status === 410) return 'no bundle at that address';
  if (status >= 500) return 'the server failed';
  return 'not a bundle download';
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
