import { join } from 'node:path';
import type { Clock } from '../../platform/Clock.js';
import { JsonStore } from '../../platform/store/JsonStore.js';

/** The document `reader-sign-outs.json`: signed-out session ids → their cookie's expiry (ms). */
interface SignOutData {
  schemaVersion: number;
  sessions: Record<string, number>;
}

const SCHEMA_VERSION = 1;
/** Sign-outs remembered at most; beyond it the soonest to expire are forgotten first. */
const MAX_SIGNED_OUT = 100_000;

/**
 * Reader sessions ended by a sign-out, kept on disk under the data directory so a signed-out
 * cookie stays refused after a restart. Each id is kept only until its cookie would have
 * expired anyway (the signed expiry refuses it from then on), so the list stays as small as the
 * sign-outs of one session lifetime, and never larger than MAX_SIGNED_OUT.
 */
export class SignedOutSessions {
  private constructor(
    private readonly store: JsonStore<SignOutData>,
    private readonly clock: Clock,
  ) {}

  /** Opens (or creates) `<dataDir>/reader-sign-outs.json`. */
  static async open(dataDir: string, clock: Clock): Promise<SignedOutSessions> {
    const store = await JsonStore.open<SignOutData>({
      path: join(dataDir, 'reader-sign-outs.json'),
      schemaVersion: SCHEMA_VERSION,
      defaults: () => ({ schemaVersion: SCHEMA_VERSION, sessions: {} }),
    });
    return new SignedOutSessions(store, clock);
  }

  /** True when session `sid` was signed out. */
  has(sid: string): boolean {
    return Object.hasOwn(this.store.data.sessions, sid);
  }

  /** Records the sign-out of `sid` (its cookie valid until `expiresAt`, ms); resolves once it is on disk. */
  add(sid: string, expiresAt: number): Promise<void> {
    const now = this.clock.now().getTime();
    return this.store.update((data) => {
      const kept = Object.entries(data.sessions).filter(([, exp]) => exp > now);
      if (kept.length >= MAX_SIGNED_OUT) kept.sort((a, b) => b[1] - a[1]).length = MAX_SIGNED_OUT - 1;
      data.sessions = Object.fromEntries(kept);
      data.sessions[sid] = expiresAt;
    });
  }
}
