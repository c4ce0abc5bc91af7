import { createHash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { BundleRefusedError } from '../BundleRefusedError.js';

/** Counts and hashes bytes as they are inflated; stops the stream the moment it exceeds the cap. */
export class SizeAndHashMeter extends Transform {
  private bytes = 0;
  private readonly hash = createHash('sha256');
  constructor(
    private readonly cap: number,
    private readonly label: string,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.cap) {
      callback(
        new BundleRefusedError(`entry ${this.label} inflates beyond its declared size of ${this.cap} bytes (possible decompression bomb)`),
      );
      return;
    }
    this.hash.update(chunk);
    callback(null, chunk);
  }
  assertComplete(): void {
    if (this.bytes !== this.cap) throw new BundleRefusedError(`entry ${this.label} holds ${this.bytes} bytes but declares ${this.cap}`);
  }
  sha256(): string {
    return this.hash.digest('hex');
  }
}

/** Runs a pipeline, reporting damaged deflate data as a refusal rather than an internal error. */
export async function runStages(
  stages: (NodeJS.ReadableStream | NodeJS.ReadWriteStream | NodeJS.WritableStream)[],
  label: string,
): Promise<void> {
  try {
    await pipeline(stages);
  } catch (err) {
    if (err instanceof BundleRefusedError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code?.startsWith('Z_')) throw new BundleRefusedError(`corrupt compressed data in ${label}`);
    throw err;
  }
}
