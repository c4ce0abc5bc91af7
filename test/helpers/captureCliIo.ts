import { PassThrough } from 'node:stream';

/** A CliIo whose output is collected: `out()` and `err()` return what the verb wrote so far. */
export function captureCliIo(env: Record<string, string>) {
  const out = new PassThrough();
  const err = new PassThrough();
  let o = '';
  let e = '';
  out.setEncoding('utf8').on('data', (c: string) => (o += c));
  err.setEncoding('utf8').on('data', (c: string) => (e += c));
  return { io: { out, err, env: { ENCLAVE_LOG_LEVEL: 'silent', ...env } }, out: () => o, err: () => e };
}
