import type { IncomingMessage } from 'node:http';
import { AppError } from '../../platform/AppError.js';

/**
 * The request body as sent, up to `limitBytes` (413 above): a webhook's signature covers the
 * exact bytes, so they are checked before any JSON parsing.
 */
export async function readRawBody(req: IncomingMessage, limitBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limitBytes) throw new AppError(413, `Request body too large (limit ${limitBytes} bytes)`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limitBytes) throw new AppError(413, `Request body too large (limit ${limitBytes} bytes)`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
