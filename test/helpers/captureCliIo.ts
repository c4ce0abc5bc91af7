import { PassThrough } from 'node:stream';
import type { CliIo } from '../../src/cli/CliIo.js';

/** A CLI io whose output is collected; `tty` makes stderr look like a terminal. */
export function captureCliIo(env: NodeJS.ProcessEnv, tty = false): { io: CliIo; out: () => string; err: () => string } {
  const out = new PassThrough();
  const err = Object.assign(new PassThrough(), { isTTY: tty });
  let o = '';
  let e = '';
  out.setEncoding('utf8').on('data', (c: string) => (o += c));
  err.setEncoding('utf8').on('data', (c: string) => (e += c));
  return { io: { out, err, env: { ENCLAVE_LOG_LEVEL: 'silent', ...env } }, out: () => o, err: () => e };
}
