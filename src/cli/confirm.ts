import { createInterface } from 'node:readline/promises';
import type { CliIo } from './CliIo.js';

/**
 * Asks before a destructive action. With `--yes` it proceeds; without a terminal to ask on
 * (scripts, CI) it refuses rather than guess.
 */
export async function confirm(io: CliIo, question: string, yes: boolean): Promise<boolean> {
  if (yes) return true;
  if (!io.stdin?.isTTY) {
    io.err.write(`${question} Refusing without --yes (no terminal to ask on).\n`);
    return false;
  }
  const rl = createInterface({ input: io.stdin, output: io.err });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
