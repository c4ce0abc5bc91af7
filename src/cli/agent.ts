import { ExitCode, type CliIo } from './CliIo.js';

/** `enclave agent` (not built yet). */
export async function runAgent(_args: string[], io: CliIo): Promise<number> {
  io.err.write('enclave agent: not available in this build yet\n');
  return ExitCode.failed;
}
