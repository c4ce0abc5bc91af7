import { randomBytes } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileDurably } from './store/writeFileDurably.js';
import { StoreFileError } from './store/StoreFileError.js';

/** One HMAC key for signed links. Old keys stay to verify links issued before a rotation. */
export interface SigningKey {
  kid: string;
  secret: string; // base64, 32 random bytes
  createdAt: string;
}

interface KeyringFile {
  active: string;
  keys: SigningKey[];
  /** Ids of retired keys (their secrets are gone), so their links are refused as retired, not as forged. */
  retired?: string[];
}

/** How many retired key ids are remembered. */
const MAX_RETIRED = 256;

/** A signing key as operators see it: never the secret. */
export interface SigningKeyInfo {
  kid: string;
  createdAt: string;
  active: boolean;
}

/** What `retire` did: retired it, or refused because it signs new links or does not exist. */
export type RetireOutcome = 'retired' | 'active' | 'unknown';

/** Key ids as `newKey` makes them; anything else can't name a key. */
export const SIGNING_KID = /^k[0-9a-f]{8}$/;

/** The signing secret file, mode 0600, in the data directory. */
export function keyringPath(dataDir: string): string {
  return join(dataDir, 'secrets', 'signing-keys.json');
}

/**
 * The keyring of link-signing secrets: one active key signs, every listed key verifies, so a
 * rotation doesn't break links already handed out.
 */
export class SigningKeyring {
  private constructor(
    private file: KeyringFile,
    private readonly path: string,
  ) {}

  /** Loads the keyring; a missing, unreadable, world-readable or damaged file is an error. */
  static load(dataDir: string): SigningKeyring {
    const path = keyringPath(dataDir);
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw new StoreFileError(
        path,
        code === 'ENOENT'
          ? 'the signing secret is missing (run `enclave init` to create a new one; links signed with the old one stop working)'
          : `cannot read it (${code})`,
      );
    }
    if ((statSync(path).mode & 0o077) !== 0)
      throw new StoreFileError(path, 'its permissions let other users read it; run `chmod 600` on it');
    let file: KeyringFile;
    try {
      file = JSON.parse(text) as KeyringFile;
    } catch (err) {
      throw new StoreFileError(path, `not valid JSON (${(err as Error).message})`);
    }
    if (!Array.isArray(file.keys) || !file.keys.some((k) => k.kid === file.active)) throw new StoreFileError(path, 'no active signing key');
    return new SigningKeyring(file, path);
  }

  /** Creates a keyring with one fresh key (first start, or recovery by `enclave init`). */
  static async create(dataDir: string, now: Date): Promise<SigningKeyring> {
    const key = newKey(now);
    const ring = new SigningKeyring({ active: key.kid, keys: [key] }, keyringPath(dataDir));
    await ring.save();
    return ring;
  }

  /** The key that signs new links. */
  active(): SigningKey {
    return this.file.keys.find((k) => k.kid === this.file.active)!;
  }

  /** The key with id `kid`, for verification. */
  find(kid: string): SigningKey | undefined {
    return this.file.keys.find((k) => k.kid === kid);
  }

  /** True when `kid` named a key that has since been retired. */
  wasRetired(kid: string): boolean {
    return this.file.retired?.includes(kid) ?? false;
  }

  /** Every key, oldest first, without secrets. */
  list(): SigningKeyInfo[] {
    return this.file.keys.map((k) => ({ kid: k.kid, createdAt: k.createdAt, active: k.kid === this.file.active }));
  }

  /** Adds a new active key; older keys keep verifying until `retire`d. */
  async rotate(now: Date): Promise<SigningKey> {
    const key = newKey(now);
    await this.replace({ ...this.file, active: key.kid, keys: [...this.file.keys, key] });
    return key;
  }

  /**
   * Removes a key, so every link it signed is refused from now on. The active key is refused:
   * retiring it would leave nothing to sign with (rotate first).
   */
  async retire(kid: string): Promise<RetireOutcome> {
    if (kid === this.file.active) return 'active';
    if (!this.find(kid)) return 'unknown';
    await this.replace({
      active: this.file.active,
      keys: this.file.keys.filter((k) => k.kid !== kid),
      retired: [...(this.file.retired ?? []), kid].slice(-MAX_RETIRED),
    });
    return 'retired';
  }

  /** Writes `next` durably, then adopts it: a failed write (full disk) leaves memory as the file is. */
  private async replace(next: KeyringFile): Promise<void> {
    await writeFileDurably(this.path, JSON.stringify(next, null, 2), 0o600);
    this.file = next;
  }

  private async save(): Promise<void> {
    await this.replace(this.file);
  }
}

function newKey(now: Date): SigningKey {
  return { kid: `k${randomBytes(4).toString('hex')}`, secret: randomBytes(32).toString('base64'), createdAt: now.toISOString() };
}
