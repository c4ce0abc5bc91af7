import { parseArgs } from 'node:util';
import { systemClock } from '../platform/Clock.js';
import { AppError } from '../platform/AppError.js';
import { createAdminKey } from '../features/control/createAdminKey.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { confirm } from './confirm.js';
import { loadConfigOrExplain } from './loadConfigOrExplain.js';
import { withOfflineStore } from './openStoreOffline.js';
import { parseDuration } from './parseDuration.js';
import { formatTable } from './printTable.js';
import { formatJson } from './escapeControls.js';
import { runSigningKeyAction } from './signingKeysCli.js';

const USAGE = `usage:
  enclave keys create --name NAME [--scope read|write] [--expires-in 30d | --expires-at ISO] [--project proj_…]
  enclave keys list [--project proj_…] [--json]
  enclave keys revoke KEY_ID [--yes]
  enclave keys list-signing [--json]           signing keys of download links
  enclave keys rotate-signing                  a new key signs new links; old links keep working
  enclave keys retire-signing KID [--yes]      links signed by KID answer 403 from now on
Admin keys: on the store directly (the server must be stopped). Signing keys: through the API
(ENCLAVE_URL, ENCLAVE_ADMIN_KEY) while a server owns the data directory, else on its file.`;

/**
 * `enclave keys create|list|revoke` on the store directly (the server must be stopped), and
 * `list-signing|rotate-signing|retire-signing` for the download-link signing keys.
 */
export async function runKeys(args: string[], io: CliIo): Promise<number> {
  const [action, ...rest] = args;
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        scope: { type: 'string', default: 'write' },
        'expires-in': { type: 'string' },
        'expires-at': { type: 'string' },
        project: { type: 'string' },
        json: { type: 'boolean', default: false },
        yes: { type: 'boolean', default: false },
      },
    });
  } catch (err) {
    io.err.write(`${(err as Error).message}\n${USAGE}\n`);
    return ExitCode.usage;
  }
  const { values, positionals } = parsed;
  if (!['create', 'list', 'revoke', 'list-signing', 'rotate-signing', 'retire-signing'].includes(action ?? '')) {
    io.err.write(`${USAGE}\n`);
    return ExitCode.usage;
  }
  if (action === 'list-signing' || action === 'rotate-signing' || action === 'retire-signing') {
    const kid = positionals[0];
    if (positionals.length !== (action === 'retire-signing' ? 1 : 0)) {
      io.err.write(`${USAGE}\n`);
      return ExitCode.usage;
    }
    if (action === 'retire-signing' && !(await confirm(io, `Retire signing key ${kid}? Every link it signed will answer 403.`, values.yes))) return ExitCode.failed;
    const config = loadConfigOrExplain(io);
    if (!config) return ExitCode.config;
    if (action === 'retire-signing') return runSigningKeyAction(config, io, { kind: action, kid });
    return runSigningKeyAction(config, io, action === 'list-signing' ? { kind: action, json: values.json } : { kind: action });
  }
  if (action === 'create') {
    if (!values.name || (values.scope !== 'read' && values.scope !== 'write')) {
      io.err.write(`--name is required and --scope must be read or write\n${USAGE}\n`);
      return ExitCode.usage;
    }
  }
  if (action === 'revoke' && positionals.length !== 1) {
    io.err.write(`${USAGE}\n`);
    return ExitCode.usage;
  }
  let expiresAt: Date | null = null;
  if (values['expires-in']) {
    const ms = parseDuration(values['expires-in']);
    if (ms === null) {
      io.err.write('--expires-in takes a duration such as 90s, 15m, 12h or 30d\n');
      return ExitCode.usage;
    }
    expiresAt = new Date(systemClock.now().getTime() + ms);
  } else if (values['expires-at']) {
    expiresAt = new Date(values['expires-at']);
    if (Number.isNaN(expiresAt.getTime())) {
      io.err.write('--expires-at takes an ISO 8601 date\n');
      return ExitCode.usage;
    }
  }
  if (action === 'revoke' && !(await confirm(io, `Revoke key ${positionals[0]}? Scripts using it will get 401.`, values.yes))) return ExitCode.failed;

  const config = loadConfigOrExplain(io);
  if (!config) return ExitCode.config;
  const code = await withOfflineStore(config, io, async (control) => {
    const projectId = values.project ?? control.projects.defaultProjectId();
    if (action === 'list') {
      const keys = control.keys.list(values.project);
      if (values.json) {
        io.out.write(`${formatJson(keys.map(({ hash: _hash, ...rest }) => rest))}\n`);
      } else {
        io.out.write(formatTable(['ID', 'NAME', 'SCOPE', 'KEY', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'], keys.map((k) => [k.id, k.name, k.scope, `enc_…${k.last4}`, k.createdAt, k.expiresAt, k.lastUsedAt, k.revokedAt])));
      }
      return ExitCode.ok;
    }
    if (action === 'revoke') {
      const found = await control.keys.revoke(positionals[0], systemClock.now());
      if (!found) io.err.write(`No key ${positionals[0]}\n`);
      return found ? ExitCode.ok : ExitCode.failed;
    }
    if (!projectId) {
      io.err.write('No project exists yet; run `enclave init` first.\n');
      return ExitCode.failed;
    }
    try {
      const { key, record } = await createAdminKey(control, systemClock, { projectId, name: values.name!, scope: values.scope as 'read' | 'write', expiresAt });
      io.out.write(`ENCLAVE_ADMIN_KEY=${key}\nENCLAVE_PROJECT_ID=${record.projectId}\n`);
      io.err.write(`Created ${record.id} (${record.scope}). The key is shown only this once.\n`);
      return ExitCode.ok;
    } catch (err) {
      if (err instanceof AppError) {
        io.err.write(`${err.message}\n`);
        return ExitCode.failed;
      }
      throw err;
    }
  });
  return code ?? ExitCode.failed;
}
