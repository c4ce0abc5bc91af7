import { randomFillSync } from 'node:crypto';
import { feedbackIdFromParts } from './feedbackRecord.js';

/** Ids drawn per refill of the random pool. */
const IDS_PER_REFILL = 512;

/**
 * New random feedback ids, with their two halves for the index. The bytes come from the
 * CSPRNG in one draw per 512 ids rather than one per ingest request, and the halves are taken
 * from the bytes, so the id text no longer has to be parsed back for the index.
 */
export class FeedbackIdSource {
  private pool = Buffer.alloc(0);
  private next = 0;

  /** A fresh id such as `fb_3f9a0c1d2b4e5f60` and its halves. */
  take(): { id: string; idHi: number; idLo: number } {
    if (this.next === this.pool.length) {
      this.pool = randomFillSync(Buffer.allocUnsafe(IDS_PER_REFILL * 8));
      this.next = 0;
    }
    const idHi = this.pool.readUInt32BE(this.next);
    const idLo = this.pool.readUInt32BE(this.next + 4);
    this.next += 8;
    return { id: feedbackIdFromParts(idHi, idLo), idHi, idLo };
  }
}
