import type { Readable, Writable } from 'node:stream';

/** Where a CLI verb reads and writes; tests pass buffers, the binary passes the process's. */
export interface CliIo {
  out: Writable;
  err: Writable;
  env: NodeJS.ProcessEnv;
  stdin?: Readable & { isTTY?: boolean };
}

/** Exit codes shared by every verb. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  apiError: 3,
  unreachable: 4,
  config: 78,
} as const;

/** A verb: parses its own arguments and returns an exit code. */
export type CliVerb = (args: string[], io: CliIo) => Promise<number>;
