import { ExitCode, type CliIo } from './CliIo.js';
import { type ControlBackend, withControlBackend } from './controlBackend.js';
import { loadConfigOrExplain } from './loadConfigOrExplain.js';
import { reportControlFailure } from './reportControlFailure.js';

/**
 * Runs one action of `enclave keys` or `enclave sites` on the control backend (the running
 * server's API, or the store when none runs) and turns its refusals into messages and exit
 * codes. `--project` is refused through a running server: its CLI key manages the default project.
 */
export async function runControlVerb(
  io: CliIo,
  options: { project?: string; usage?: (problem: string) => number },
  work: (backend: ControlBackend) => Promise<number>,
): Promise<number> {
  const config = loadConfigOrExplain(io);
  if (!config) return ExitCode.config;
  const code = await withControlBackend(config, io, async (backend) => {
    if (backend.via === 'api' && options.project && options.usage)
      return options.usage('--project is not available while the server runs: its CLI key manages the default project');
    try {
      return await work(backend);
    } catch (err) {
      return reportControlFailure(io, err);
    }
  });
  return code ?? ExitCode.failed;
}
