import { systemClock } from '../platform/Clock.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { confirm } from './confirm.js';
import { formatJson } from './escapeControls.js';
import { parseDuration } from './parseDuration.js';
import { parseVerbArgs } from './parseVerbArgs.js';
import { formatTable } from './printTable.js';
import { runControlVerb } from './runControlVerb.js';
import type { ControlBackend } from './controlBackend.js';
import { runSigningKeyAction } from './signingKeysCli.js';

export const USAGE = `usage:
  enclave keys create --name NAME [--scope read|write] [--kind admin|assistant] [--expires-in 30d | --expires-at ISO] [--project proj_…]
                                               --kind assistant: a key for search, page, answers and MCP only (enc_asst_…)
  enclave keys list [--project proj_…] [--json]
  enclave keys revoke KEY_ID [--cascade] [--yes]   --cascade: also the keys it created
  enclave keys list-signing [--json]           signing keys of download links
  enclave keys rotate-signing                  a new key signs new links; old links keep working
  enclave keys retire-signing KID [--yes]      links signed by KID answer 403 from now on

While a server owns the data directory these go through its API (no restart, no downtime),
using the server's local CLI key in <dataDir>/secrets/cli-key — run them as the user the server
runs as (in a container: docker exec). Otherwise they work on the store directly.
Through a running server, keys are those of the default project (--project is refused).`;

const SIGNING_ACTIONS = ['list-signing', 'rotate-signing', 'retire-signing'];

/**
 * `enclave keys create|list|revoke` (admin keys) and `list-signing|rotate-signing|retire-signing`
 * (download-link signing keys), live through the API or on the store when no server runs.
 */
export async function runKeys(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  const parsed = parseVerbArgs(io, 'keys', USAGE, rest, {
    name: { type: 'string' },
    scope: { type: 'string', default: 'write' },
    kind: { type: 'string', default: 'admin' },
    'expires-in': { type: 'string' },
    'expires-at': { type: 'string' },
    project: { type: 'string' },
    json: { type: 'boolean', default: false },
    yes: { type: 'boolean', default: false },
    cascade: { type: 'boolean', default: false },
  });
  if (!parsed.ok) return parsed.code;
  const { values, positionals, usage } = parsed;
  if (!['create', 'list', 'revoke', ...SIGNING_ACTIONS].includes(action ?? ''))
    return usage(action ? `unknown action '${action}'` : 'missing action');
  if (SIGNING_ACTIONS.includes(action)) return runSigningVerb(io, action, positionals, values, usage);
  if (action === 'create' && (!values.name || (values.scope !== 'read' && values.scope !== 'write')))
    return usage('--name is required and --scope must be read or write');
  if (values.kind !== 'admin' && values.kind !== 'assistant') return usage('--kind must be admin or assistant');
  if (action === 'revoke' && positionals.length !== 1) return usage('revoke takes exactly one key id');
  const expiry = parseExpiry(values, systemClock.now());
  if ('problem' in expiry) return usage(expiry.problem);
  const { expiresAt } = expiry;
  if (action === 'revoke' && !(await confirm(io, `Revoke key ${positionals[0]}? Scripts using it will get 401.`, values.yes)))
    return ExitCode.failed;

  return runControlVerb(io, { project: values.project, usage }, async (backend) => {
    if (action === 'list') {
      const keys = await backend.listKeys(values.project);
      if (values.json) io.out.write(`${formatJson(keys)}\n`);
      else
        io.out.write(
          formatTable(
            ['ID', 'NAME', 'SCOPE', 'KEY', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'],
            keys.map((k) => [
              k.id,
              k.name,
              k.scope,
              `${k.kind === 'assistant' ? 'enc_asst_' : 'enc_'}…${k.last4}`,
              k.createdAt,
              k.expiresAt,
              k.lastUsedAt,
              k.revokedAt,
            ]),
          ),
        );
      return ExitCode.ok;
    }
    if (action === 'revoke') {
      const key = await backend.revokeKey(positionals[0], values.cascade);
      const along = key.alsoRevoked.length > 0 ? ` and the keys it created: ${key.alsoRevoked.join(', ')}` : '';
      io.err.write(`Revoked ${key.id} (${key.name})${along}${backend.via === 'api' ? ' on the running server' : ''}.\n`);
      return ExitCode.ok;
    }
    return createKey(io, backend, { ...values, name: values.name! }, expiresAt);
  });
}

/** `keys create`: makes the key and prints it once, as a line a shell can eval. */
async function createKey(
  io: CliIo,
  backend: ControlBackend,
  values: { project?: string; name: string; scope: string; kind: string },
  expiresAt: Date | null,
): Promise<number> {
  const created = await backend.createKey({
    projectId: values.project,
    name: values.name,
    scope: values.scope as 'read' | 'write',
    kind: values.kind as 'admin' | 'assistant',
    expiresAt,
  });
  // An assistant key is no admin key: a script that evals this output must not take it for one.
  const variable = created.kind === 'assistant' ? 'ENCLAVE_ASSISTANT_KEY' : 'ENCLAVE_ADMIN_KEY';
  io.out.write(`${variable}=${created.key}\nENCLAVE_PROJECT_ID=${created.projectId}\n`);
  io.err.write(
    `Created ${created.id} (${created.scope})${backend.via === 'api' ? ' on the running server' : ''}. The key is shown only this once.\n`,
  );
  return ExitCode.ok;
}

/** `list-signing`, `rotate-signing` and `retire-signing <kid>` (the last asks first). */
async function runSigningVerb(
  io: CliIo,
  action: string,
  positionals: string[],
  values: { json: boolean; yes: boolean },
  usage: (problem: string) => number,
): Promise<number> {
  const kid = positionals[0];
  if (positionals.length !== (action === 'retire-signing' ? 1 : 0))
    return usage(action === 'retire-signing' ? 'retire-signing takes exactly one key id' : `${action} takes no arguments`);
  if (action === 'retire-signing' && !(await confirm(io, `Retire signing key ${kid}? Every link it signed will answer 403.`, values.yes)))
    return ExitCode.failed;
  if (action === 'retire-signing') return runSigningKeyAction(io, { kind: action, kid });
  return runSigningKeyAction(io, action === 'list-signing' ? { kind: action, json: values.json } : { kind: 'rotate-signing' });
}

/** The expiry --expires-in (from `now`) or --expires-at gives, null for none, or the problem with it. */
function parseExpiry(
  values: { 'expires-in'?: string; 'expires-at'?: string },
  now: Date,
): { expiresAt: Date | null } | { problem: string } {
  if (values['expires-in']) {
    const ms = parseDuration(values['expires-in']);
    if (ms === null) return { problem: '--expires-in takes a duration such as 90s, 15m, 12h or 30d' };
    return { expiresAt: new Date(now.getTime() + ms) };
  }
  if (values['expires-at']) {
    const expiresAt = new Date(values['expires-at']);
    if (Number.isNaN(expiresAt.getTime())) return { problem: '--expires-at takes an ISO 8601 date' };
    return { expiresAt };
  }
  return { expiresAt: null };
}
