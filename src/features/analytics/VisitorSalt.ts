import { createHash, randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { DAY_MS, type Clock } from '../../platform/Clock.js';

/** Visitor ids kept in memory for the day; beyond this the cache starts over (ids are just recomputed). */
const RECENT_VISITORS = 50_000;
/**
 * And at most this many characters of keys: a User-Agent may be kilobytes long, and a client
 * inventing a long one per request must not make the cache hold 50,000 of them.
 */
const RECENT_CHARS = 4 * 1024 * 1024;

/** Where versions before 0.1 kept the salt; removed at start, since whoever reads it can test guesses. */
const LEGACY_FILE = 'visitor-salt.json';

/**
 * The secret mixed into visitor hashes: random, one per UTC day, and **in memory only**. It
 * never touches the disk, so whoever copies the data directory holds only hashes they cannot
 * test guesses of address + user agent against. The price: a restart draws a new salt, and the
 * same reader hashes differently before and after it, so the day of a restart counts readers
 * who came back after it twice in its visitor figures (views are not affected).
 */
export class VisitorSalt {
  private salt = '';
  private readonly recent = new Map<string, string>();
  private recentChars = 0;
  /** Day number of `salt` (NaN before the first call). */
  private currentDay = Number.NaN;

  constructor(private readonly clock: Clock) {}

  /** A salt in memory for `clock`, after deleting a salt file an older version left in `dir`. */
  static async open(dir: string, clock: Clock, logger: Logger): Promise<VisitorSalt> {
    await unlink(join(dir, LEGACY_FILE)).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'ENOENT') logger.warn({ err }, 'could not delete the old visitor salt file; delete it by hand');
    });
    return new VisitorSalt(clock);
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
      if (this.recent.size >= RECENT_VISITORS || this.recentChars + key.length > RECENT_CHARS) this.forgetRecent();
      this.recent.set(key, id);
      this.recentChars += key.length;
    }
    return id;
  }

  private forgetRecent(): void {
    this.recent.clear();
    this.recentChars = 0;
  }

  private saltForToday(): string {
    const dayNumber = Math.floor(this.clock.now().getTime() / DAY_MS);
    if (dayNumber !== this.currentDay) {
      // The old salt is dropped with its cache: yesterday's hashes can't be linked to today's.
      this.currentDay = dayNumber;
      this.salt = randomBytes(32).toString('hex');
      this.forgetRecent();
    }
    return this.salt;
  }
}
