import { AppError } from '../platform/AppError.js';
import { reportApiFailure } from './ApiClient.js';
import { ExitCode, type CliIo } from './CliIo.js';

/**
 * Prints why a keys/sites action failed: a refusal of the store operation (exit 1) reads like
 * the API's, an API refusal or an unreachable server keeps the shared exit codes (3, 4).
 */
export function reportControlFailure(io: CliIo, err: unknown): number {
  if (err instanceof AppError) {
    io.err.write(`enclave: ${err.message}${err.details ? `\n${err.details.map((d) => `  - ${d.message}`).join('\n')}` : ''}\n`);
    return ExitCode.failed;
  }
  if (err instanceof Error && err.message.startsWith('No project exists yet')) {
    io.err.write(`enclave: ${err.message}\n`);
    return ExitCode.failed;
  }
  return reportApiFailure(io, err);
}
