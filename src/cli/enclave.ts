import type { CliIo, CliVerb } from './CliIo.js';
import { ExitCode } from './CliIo.js';

/** Verbs load lazily so `enclave keys list` doesn't pay for the renderer. */
const verbs: Record<string, { summary: string; load: () => Promise<CliVerb> }> = {
  serve: { summary: 'run the appliance (HTTP API, site, workers)', load: async () => (await import('./serve.js')).runServe },
  init: { summary: 'create the data directory, default project, signing secret and first key', load: async () => (await import('./init.js')).runInit },
  keys: { summary: 'keys create|list|revoke (server stopped); list-signing|rotate-signing|retire-signing', load: async () => (await import('./keys.js')).runKeys },
  sites: { summary: 'sites add|list (store access; server stopped)', load: async () => (await import('./sites.js')).runSites },
  doctor: { summary: 'check config, permissions, disk and store health', load: async () => (await import('./doctor.js')).runDoctor },
  export: { summary: 'export start|status|bundle|download', load: async () => (await import('./export.js')).runExport },
  deploy: { summary: 'deploy <url|file> [--version V] | --rollback | --status', load: async () => (await import('./deploy.js')).runDeploy },
  feedback: { summary: 'feedback list|export', load: async () => (await import('./feedback.js')).runFeedback },
  agent: { summary: 'agent create|get|wait', load: async () => (await import('./agent.js')).runAgent },
};

/** Usage text listing every verb. */
export function usage(): string {
  const lines = Object.entries(verbs).map(([name, v]) => `  ${name.padEnd(9)} ${v.summary}`);
  return [
    'usage: enclave <verb> [options]',
    '',
    ...lines,
    '',
    'API verbs read ENCLAVE_URL (default http://127.0.0.1:8080), ENCLAVE_ADMIN_KEY and ENCLAVE_PROJECT_ID.',
    'Exit codes: 0 ok, 1 failed, 2 usage, 3 API refused, 4 server unreachable, 78 bad config.',
  ].join('\n');
}

/** Runs `enclave <verb> …` and returns the exit code. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out.write(`${usage()}\n`);
    return name ? ExitCode.ok : ExitCode.usage;
  }
  const verb = verbs[name];
  if (!verb) {
    io.err.write(`enclave: unknown verb '${name}'\n${usage()}\n`);
    return ExitCode.usage;
  }
  return (await verb.load())(rest, io);
}
