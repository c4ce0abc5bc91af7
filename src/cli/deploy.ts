import { ExitCode, type CliIo } from './CliIo.js';

/** `enclave deploy` (not built yet). */
export async function runDeploy(_args: string[], io: CliIo): Promise<number> {
  io.err.write('enclave deploy: not available in this build yet\n');
  return ExitCode.failed;
}
