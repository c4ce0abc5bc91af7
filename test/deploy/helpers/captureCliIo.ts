import { PassThrough } from 'node:stream';

/** A CliIo whose output is collected as text (`text.out`, `text.err`), with `env` as the environment. */
export function captureCliIo(env: Record<string, string>) {
  const out = new PassThrough();
  const err = new PassThrough();
  const text = { out: '', err: '' };
  out.on('data', (c) => (text.out += String(c)));
  err.on('data', (c) => (text.err += String(c)));
  return { io: { out, err, env }, text };
}
