import { ExitCode, type CliIo } from './CliIo.js';

/** `enclave feedback` (not built yet). */
export async function runFeedback(_args: string[], io: CliIo): Promise<number> {
  io.err.write('enclave feedback: not available in this build yet\n');
  return ExitCode.failed;
}
