import { appVersion } from '../app/appVersion.js';
import type { CliIo, CliVerb } from './CliIo.js';
import { ExitCode } from './CliIo.js';
import { helpRequested } from './helpRequested.js';

/** A verb's module: its runner and its usage text (printed for --help without running anything). */
interface VerbModule {
  run: CliVerb;
  usage: string;
}

/** Loads a verb's module on first use and pairs its runner with its usage text. */
function lazy<M extends { USAGE: string }>(importer: () => Promise<M>, pick: (m: M) => CliVerb): () => Promise<VerbModule> {
  return async () => {
    const m = await importer();
    return { run: pick(m), usage: m.USAGE };
  };
}

/** Verbs load lazily so `enclave keys list` doesn't pay for the renderer. */
const verbs: Record<string, { summary: string; load: () => Promise<VerbModule> }> = {
  serve: {
    summary: 'run the appliance (HTTP API, site, workers)',
    load: lazy(
      () => import('./serve.js'),
      (m) => m.runServe,
    ),
  },
  init: {
    summary: 'create the data directory, default project, signing secret and first key',
    load: lazy(
      () => import('./init.js'),
      (m) => m.runInit,
    ),
  },
  keys: {
    summary: 'keys create|list|revoke, list-signing|rotate-signing|retire-signing (live through the API while a server runs)',
    load: lazy(
      () => import('./keys.js'),
      (m) => m.runKeys,
    ),
  },
  sites: {
    summary: 'sites add|list|update|remove (live through the API while a server runs)',
    load: lazy(
      () => import('./sites.js'),
      (m) => m.runSites,
    ),
  },
  doctor: {
    summary: 'check config, permissions, disk, store health and site sources',
    load: lazy(
      () => import('./doctor.js'),
      (m) => m.runDoctor,
    ),
  },
  export: {
    summary: 'export start|status|bundle|download',
    load: lazy(
      () => import('./export.js'),
      (m) => m.runExport,
    ),
  },
  deploy: {
    summary: 'deploy <url|file> [--version V] | --rollback | --status',
    load: lazy(
      () => import('./deploy.js'),
      (m) => m.runDeploy,
    ),
  },
  feedback: {
    summary: 'feedback list|export',
    load: lazy(
      () => import('./feedback.js'),
      (m) => m.runFeedback,
    ),
  },
  agent: {
    summary: 'agent create|get|wait',
    load: lazy(
      () => import('./agent.js'),
      (m) => m.runAgent,
    ),
  },
};

/** Usage text listing every verb. */
export function usage(): string {
  const lines = Object.entries(verbs).map(([name, v]) => `  ${name.padEnd(9)} ${v.summary}`);
  return [
    'usage: enclave <verb> [options]     enclave <verb> --help     enclave --version',
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
  if (name === '--version' || name === '-V' || name === 'version') {
    io.out.write(`enclave ${appVersion}\n`);
    return ExitCode.ok;
  }
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out.write(`${usage()}\n`);
    return name ? ExitCode.ok : ExitCode.usage;
  }
  const verb = verbs[name];
  if (!verb) {
    io.err.write(`enclave: unknown verb '${name}'\n${usage()}\n`);
    return ExitCode.usage;
  }
  const loaded = await verb.load();
  // Help is answered here, before the verb sees its arguments: `init --help` must not create a
  // data directory, nor `serve --help` start a server.
  if (helpRequested(rest)) {
    io.out.write(`${loaded.usage}\n`);
    return ExitCode.ok;
  }
  return loaded.run(rest, io);
}
