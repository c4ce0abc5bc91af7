import { createWriteStream, type WriteStream } from 'node:fs';

const TRUNCATED = '\n[enclave: log limit reached; further output was discarded]\n';

/**
 * A log file that never grows past `capBytes`. Past the cap, output is counted and dropped
 * (never buffered), so a chatty agent cannot fill the disk or block on a full pipe.
 */
export class CappedLog {
  private written = 0;
  private discarded = 0;
  private readonly stream: WriteStream;

  constructor(
    path: string,
    private readonly capBytes: number,
  ) {
    this.stream = createWriteStream(path, { flags: 'w', mode: 0o600 });
    this.stream.on('error', () => {}); // a log that can't be written must not fail the run
  }

  /** Bytes dropped because the cap was reached. */
  get discardedBytes(): number {
    return this.discarded;
  }

  /** Appends output, cutting it at the cap and marking the cut once. */
  write(chunk: Buffer | string): void {
    const data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (this.discarded > 0) {
      this.discarded += data.length;
      return;
    }
    const room = this.capBytes - this.written;
    if (data.length <= room) {
      this.append(data);
      return;
    }
    // Leave room for the marker so the file, marker included, stays within the cap.
    const marker = Buffer.from(TRUNCATED);
    const keep = Math.max(0, room - marker.length);
    this.append(data.subarray(0, keep));
    this.append(marker.subarray(0, Math.max(0, this.capBytes - this.written)));
    this.discarded = data.length - keep;
  }

  /** Closes the file once everything written so far is in it. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      if (this.stream.destroyed) return resolve();
      this.stream.end(() => resolve());
      this.stream.once('error', () => resolve());
    });
  }

  private append(data: Buffer): void {
    if (data.length === 0) return;
    this.written += data.length;
    this.stream.write(data);
  }
}
