import { SigningKeyring, type SigningKeyInfo } from '../bundle/SigningKeyring.js';
import type { Config } from '../config/schema.js';
import { retireSigningKey } from '../features/signingKeys/retireSigningKey.js';
import { rotateSigningKey } from '../features/signingKeys/rotateSigningKey.js';
import { AppError } from '../platform/AppError.js';
import { systemClock } from '../platform/Clock.js';
import { DataDirLockedError } from '../platform/store/DataDirLock.js';
import { apiClientFromEnv, reportApiFailure } from './ApiClient.js';
import { ExitCode, type CliIo } from './CliIo.js';
import { escapeControls, formatJson } from './escapeControls.js';
import { withDataDirLock } from './openStoreOffline.js';
import { formatTable } from './printTable.js';

/** The signing-key actions of `enclave keys`. */
export type SigningKeyAction = { kind: 'list-signing'; json: boolean } | { kind: 'rotate-signing' } | { kind: 'retire-signing'; kid: string };

/** What an action produced, the same whether it went through the API or the keyring file. */
type Outcome = { keys: SigningKeyInfo[] } | { rotated: SigningKeyInfo; keys: SigningKeyInfo[] } | { retired: string; keys: SigningKeyInfo[] };

/** Runs an action on the keyring file (no server running), holding the data directory lock. */
async function actOnFile(config: Config, io: CliIo, action: SigningKeyAction): Promise<Outcome | null | DataDirLockedError> {
  return withDataDirLock(config, io, async () => {
    const keyring = SigningKeyring.load(config.dataDir);
    if (action.kind === 'rotate-signing') return { rotated: await rotateSigningKey(keyring, systemClock), keys: keyring.list() };
    if (action.kind === 'retire-signing') {
      await retireSigningKey(keyring, action.kid);
      return { retired: action.kid, keys: keyring.list() };
    }
    return { keys: keyring.list() };
  });
}

/** Runs an action through the admin API of the server that owns the data directory. */
async function actThroughApi(io: CliIo, action: SigningKeyAction): Promise<Outcome | number> {
  const client = apiClientFromEnv(io);
  if (!client) return ExitCode.usage;
  try {
    if (action.kind === 'rotate-signing') {
      const rotated = await client.request<SigningKeyInfo>('POST', '/v1/signing-keys/rotate');
      return { rotated, ...(await client.request<{ keys: SigningKeyInfo[] }>('GET', '/v1/signing-keys')) };
    }
    if (action.kind === 'retire-signing') {
      const { keys } = await client.request<{ keys: SigningKeyInfo[] }>('DELETE', `/v1/signing-keys/${encodeURIComponent(action.kid)}`);
      return { retired: action.kid, keys };
    }
    return await client.request<{ keys: SigningKeyInfo[] }>('GET', '/v1/signing-keys');
  } catch (err) {
    return reportApiFailure(io, err);
  }
}

/**
 * `enclave keys list-signing|rotate-signing|retire-signing KID`: through the API when a
 * server owns the data directory (its keyring is in memory; editing the file under it would
 * be lost), else on the keyring file directly.
 */
export async function runSigningKeyAction(config: Config, io: CliIo, action: SigningKeyAction): Promise<number> {
  let outcome: Outcome | number | null | DataDirLockedError;
  try {
    outcome = await actOnFile(config, io, action);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    io.err.write(`enclave: ${escapeControls(err.message)}\n`);
    return ExitCode.failed;
  }
  if (outcome instanceof DataDirLockedError) outcome = await actThroughApi(io, action);
  if (outcome === null) return ExitCode.failed;
  if (typeof outcome === 'number') return outcome;
  if ('rotated' in outcome) {
    io.out.write(`${outcome.rotated.kid}\n`);
    const older = outcome.keys.filter((k) => !k.active).map((k) => k.kid);
    io.err.write(`${escapeControls(outcome.rotated.kid)} now signs new links.${older.length ? ` Links signed by ${escapeControls(older.join(', '))} keep working until you run \`enclave keys retire-signing KID\`.` : ''}\n`);
  } else if ('retired' in outcome) {
    io.err.write(`Retired ${escapeControls(outcome.retired)}: links it signed now answer 403.\n`);
  } else if (action.kind === 'list-signing' && action.json) {
    io.out.write(`${formatJson(outcome.keys)}\n`);
  } else {
    io.out.write(formatTable(['KID', 'CREATED', 'ACTIVE'], outcome.keys.map((k) => [k.kid, k.createdAt, k.active ? 'yes' : ''])));
  }
  return ExitCode.ok;
}
