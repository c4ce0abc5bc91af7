import { ExitCode, type CliIo } from './CliIo.js';

/** `enclave export` (not built yet). */
export async function runExport(_args: string[], io: CliIo): Promise<number> {
  io.err.write('enclave export: not available in this build yet\n');
  return ExitCode.failed;
}
