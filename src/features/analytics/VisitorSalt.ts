import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { DAY_MS, type Clock } from '../../platform/Clock.js';
import { writeFileDurably } from '../../platform/store/writeFileDurably.js';

/** Visitor ids kept in memory for the day; beyond this the cache starts over (ids are just recomputed). */
const RECENT_VISITORS = 50_000;

interface SaltFile {
  day: string;
  salt: string;
}

/**
 * The secret mixed into visitor hashes, one per UTC day. It is kept in the data directory only
 * so a restart the same day keeps counting the same readers once; at the first event of a new
 * day it is replaced (the file is rewritten, the old value is kept nowhere), so yesterday's
 * hashes can never again be linked to an address, nor to today's hashes.
 */
export class VisitorSalt {
  private current: SaltFile;
  private writing: Promise<void> = Promise.resolve();
  private readonly recent = new Map<string, string>();
  /** Day number of `current` once checked (NaN before), so most calls skip formatting a date. */
  private currentDay = Number.NaN;

  private constructor(
    private readonly path: string,
    private readonly clock: Clock,
    private readonly logger: Logger,
    initial: SaltFile,
  ) {
    this.current = initial;
  }

  /** Loads today's salt from `dir`, or makes a new one (a stale or unreadable file is replaced). */
  static async open(dir: string, clock: Clock, logger: Logger): Promise<VisitorSalt> {
    const path = join(dir, 'visitor-salt.json');
    let stored: SaltFile | null = null;
    try {
      const parsed = JSON.parse(await readFile(path, 'utf8')) as Partial<SaltFile>;
      if (typeof parsed.day === 'string' && typeof parsed.salt === 'string' && /^[0-9a-f]{64}$/.test(parsed.salt))
        stored = parsed as SaltFile;
    } catch {
      // Missing or damaged: a new salt only means today's readers are counted afresh.
    }
    const salt = new VisitorSalt(path, clock, logger, stored ?? { day: '', salt: '' });
    salt.saltForToday();
    await salt.writing;
    return salt;
  }

  /** The visitor id of `address` + `userAgent` today: 16 hex digits of a salted SHA-256. */
  visitorOf(address: string, userAgent: string): string {
    const salt = this.saltForToday();
    // A reader loads many pages: their id is hashed once a day. The cache lives in memory only
    // and goes with the salt, so it holds nothing the day's hashes don't already reveal.
    const key = `${address}\n${userAgent}`;
    let id = this.recent.get(key);
    if (id === undefined) {
      id = createHash('sha256').update(salt).update(address).update('\n').update(userAgent).digest('hex').slice(0, 16);
      if (this.recent.size >= RECENT_VISITORS) this.recent.clear();
      this.recent.set(key, id);
    }
    return id;
  }

  /** Waits for a pending rotation to reach the disk. */
  settled(): Promise<void> {
    return this.writing;
  }

  private saltForToday(): string {
    const dayNumber = Math.floor(this.clock.now().getTime() / DAY_MS);
    if (dayNumber === this.currentDay) return this.current.salt;
    const day = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
    this.currentDay = dayNumber;
    if (this.current.day !== day) {
      this.current = { day, salt: randomBytes(32).toString('hex') };
      this.recent.clear();
      const snapshot = JSON.stringify(this.current);
      this.writing = this.writing
        .then(() => writeFileDurably(this.path, snapshot))
        .catch((err) => this.logger.warn({ err }, 'could not store the visitor salt; a restart today counts readers afresh'));
    }
    return this.current.salt;
  }
}
