import { ExitCode, type CliIo } from './CliIo.js';
import { escapeControls, formatJson } from './escapeControls.js';
import { formatTable } from './printTable.js';
import { runControlVerb } from './runControlVerb.js';

/** The signing-key actions of `enclave keys`. */
export type SigningKeyAction =
  | { kind: 'list-signing'; json: boolean }
  | { kind: 'rotate-signing' }
  | { kind: 'retire-signing'; kid: string };

/**
 * `enclave keys list-signing|rotate-signing|retire-signing KID`: through the API when a server
 * owns the data directory (its keyring is in memory; editing the file under it would be lost),
 * else on the keyring file under the data directory lock.
 */
export function runSigningKeyAction(io: CliIo, action: SigningKeyAction): Promise<number> {
  return runControlVerb(io, {}, async (backend) => {
    if (action.kind === 'rotate-signing') {
      const rotated = await backend.rotateSigningKey();
      const older = (await backend.listSigningKeys()).filter((k) => !k.active).map((k) => k.kid);
      io.out.write(`${escapeControls(rotated.kid)}\n`);
      io.err.write(
        `${escapeControls(rotated.kid)} now signs new links.${older.length ? ` Links signed by ${escapeControls(older.join(', '))} keep working until you run \`enclave keys retire-signing KID\`.` : ''}\n`,
      );
    } else if (action.kind === 'retire-signing') {
      await backend.retireSigningKey(action.kid);
      io.err.write(`Retired ${escapeControls(action.kid)}: links it signed now answer 403.\n`);
    } else {
      const keys = await backend.listSigningKeys();
      io.out.write(
        action.json
          ? `${formatJson(keys)}\n`
          : formatTable(
              ['KID', 'CREATED', 'ACTIVE'],
              keys.map((k) => [k.kid, k.createdAt, k.active ? 'yes' : '']),
            ),
      );
    }
    return ExitCode.ok;
  });
}
