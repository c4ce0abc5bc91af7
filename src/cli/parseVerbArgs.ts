import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ExitCode, type CliIo } from './CliIo.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a verb's arguments (`enclave <verb> <action> …`) the same way for every verb: on a
 * parse error, or when the caller reports a `usage` problem, the problem and the verb's usage
 * text go to stderr and the exit code is 2.
 */
export function parseVerbArgs<O extends Options>(io: CliIo, verb: string, usageText: string, rest: string[], options: O) {
  const usage = (problem: string): number => {
    io.err.write(`enclave ${verb}: ${problem}\n${usageText}\n`);
    return ExitCode.usage;
  };
  try {
    const { values, positionals } = parseArgs({ args: rest, allowPositionals: true, options, strict: true });
    return { ok: true as const, values, positionals, usage };
  } catch (err) {
    return { ok: false as const, code: usage((err as Error).message), usage };
  }
}
