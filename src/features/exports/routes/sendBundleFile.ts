import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Context } from 'koa';
import { AppError } from '../../../platform/AppError.js';
import { matchesEtag } from '../../../http/matchesEtag.js';
import { parseByteRange } from '../../../http/parseByteRange.js';

/**
 * Streams a bundle (zip or `.tar.gz`): Content-Length, a strong ETag (its SHA-256), resumable downloads with
 * Range/If-Range (206, 416), conditional GET (304), attachment disposition, and no caching
 * in between (the link, not the file, carries the authorisation). HEAD gets the same headers.
 */
export async function sendBundleFile(
  ctx: Context,
  file: { path: string; sha256: string; sizeBytes: number; downloadName: string },
): Promise<void> {
  const info = await stat(file.path).catch(() => null);
  if (!info?.isFile()) throw AppError.notFound('Bundle not found');
  // A file whose size changed since it was built is damaged (truncated disk, tampering): never
  // hand it out under the original checksum.
  if (info.size !== file.sizeBytes) throw new AppError(410, 'This bundle file is damaged on the server; start a new export');
  const size = info.size;
  const etag = `"${file.sha256}"`;
  ctx.set('ETag', etag);
  ctx.set('Last-Modified', info.mtime.toUTCString());
  ctx.set('Accept-Ranges', 'bytes');
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Disposition', `attachment; filename="${file.downloadName}"`);
  ctx.type = file.downloadName.endsWith('.tar.gz') ? 'application/gzip' : 'application/zip';

  const ifNoneMatch = ctx.get('If-None-Match');
  if (ifNoneMatch && matchesEtag(ifNoneMatch, etag)) {
    ctx.status = 304;
    return;
  }
  // If-Range names the version the client holds a piece of; any other version → whole file.
  const ifRange = ctx.get('If-Range');
  const range = !ifRange || ifRange.trim() === etag ? parseByteRange(ctx.get('Range'), size) : null;
  if (range === 'unsatisfiable') {
    throw new AppError(416, 'Range not satisfiable', { headers: { 'Content-Range': `bytes */${size}` } });
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? size - 1;
  ctx.status = range ? 206 : 200;
  if (range) ctx.set('Content-Range', `bytes ${start}-${end}/${size}`);
  if (ctx.method !== 'HEAD' && size > 0) ctx.body = createReadStream(file.path, { start, end });
  ctx.length = size === 0 ? 0 : end - start + 1;
}
