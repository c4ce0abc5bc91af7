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
    return { ok: false as const, code: usage(describeParseError(err as NodeJS.ErrnoException)), usage };
  }
}

/**
 * Node's parser speaks of itself ("To specify a positional argument starting with a '-' …");
 * the operator gets one short line in the CLI's words, naming the option.
 */
function describeParseError(err: NodeJS.ErrnoException): string {
  const option = /'(--?[^' =<]+)/.exec(err.message)?.[1] ?? 'an option';
  switch (err.code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `unknown option ${option}`;
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return err.message.includes('does not take') ? `${option} takes no value` : `${option} needs a value`;
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return 'unexpected argument';
    default:
      return err.message;
  }
}
