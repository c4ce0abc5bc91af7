import type { Logger } from 'pino';
import { settleVariants } from './settleVariants.js';
import type { SiteVersion } from './SiteVersion.js';
import { versionLayout } from './versionLayout.js';
import type { VerifiedVariants } from './VerifiedVariants.js';

/**
 * Bytes of changed files compressed before a version goes live; the rest (the site-wide search
 * index and llms files, or the hundreds of pages a title change touches) are compressed after the
 * switch by VariantSettler and served uncompressed meanwhile (docs/performance.md, issue 32).
 */
export const INLINE_COMPRESS_BYTES = 1024 * 1024;

/** What the settler works on and when it must give way. */
export interface VariantSettlerDeps {
  versionsDir: string;
  logger: Logger;
  /** The versions whose variants to settle, most wanted (the live one) first. */
  versions: () => SiteVersion[];
  /** True while a deployment or rollback waits: the settler stops at the next file and is queued again after it. */
  busy: () => boolean;
  /** The variants this deployer made or checked (see VerifiedVariants). */
  verified: VerifiedVariants;
}

/**
 * One deployer's compression left for after a switch (settleVariants): at most one run queued,
 * run in the deployer's queue when no deployment is waiting, stopped by one (which queues it
 * again once done) and by shutdown, which waits for the file in hand so nothing is written after.
 */
export class VariantSettler {
  private queued = false;
  private closed = false;
  private running: Promise<void> | null = null;

  constructor(private readonly deps: VariantSettlerDeps) {}

  /** Whether a run should be queued now (some version has unsettled files and none is queued); marks it queued. */
  wanted(): boolean {
    if (this.closed || this.queued || !this.deps.versions().some((v) => v.unsettled.length > 0)) return false;
    this.queued = true;
    return true;
  }

  /** The queued run: settles each version in turn until done, busy or closed. Never throws. */
  async run(): Promise<void> {
    this.queued = false;
    if (this.closed) return;
    this.running = this.settleAll();
    await this.running;
    this.running = null;
  }

  /** Stops at the next file and waits for the one in hand (shutdown). */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private async settleAll(): Promise<void> {
    const stop = () => this.closed || this.deps.busy();
    for (const version of this.deps.versions()) {
      if (stop()) return;
      if (version.unsettled.length === 0) continue;
      try {
        await settleVariants(version, versionLayout(this.deps.versionsDir, version.id).extras, {
          stop,
          logger: this.deps.logger,
          verified: this.deps.verified,
        });
      } catch (err) {
        this.deps.logger.error(
          { err, deploymentId: version.id },
          'could not record compressed variants; the files are served uncompressed',
        );
      }
    }
  }
}
