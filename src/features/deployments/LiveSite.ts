import type { ActiveSiteInfo } from './ActiveSite.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import { isHashedAsset } from './loadSiteVersion.js';
import type { ServedFile, SiteVersion } from './SiteVersion.js';
import { basename, dirname, join } from 'node:path';
import { versionLayout } from './versionLayout.js';

/**
 * The live pointer: which version answers requests. A switch is one assignment, so every
 * request sees either the old or the new version, never a mix; a request keeps the version it
 * started with (it holds a reference) until it finishes.
 */
export class LiveSite {
  private active: SiteVersion | null = null;
  /** Other versions still on disk, newest first: they answer content-hashed assets only. */
  private kept: SiteVersion[] = [];
  /** Why no version is live yet though one is on its way (the first export runs), or null. */
  private coming: string | null = null;

  constructor(
    private readonly sites: Pick<SiteDirectory, 'find'>,
    /** The site's domain, or null for the default site (which is known by its bundle's domain). */
    private readonly site: string | null = null,
  ) {}

  /** The version serving requests now. */
  version(): SiteVersion | null {
    return this.active;
  }

  /** Kept versions (not live), newest activation first. */
  keptVersions(): readonly SiteVersion[] {
    return this.kept;
  }

  /**
   * Says that a first version is being prepared and why (`the sample docs are being exported`),
   * so a request meanwhile learns it is a matter of moments; null when that is over.
   */
  expectFirstVersion(reason: string | null): void {
    this.coming = reason;
  }

  /** Why a version is on its way while none is live, or null. */
  firstVersionComing(): string | null {
    return this.active ? null : this.coming;
  }

  /** Makes `next` live and `kept` the fallback set, in one step. */
  switchTo(next: SiteVersion | null, kept: SiteVersion[]): void {
    this.active = next;
    this.kept = kept.filter((v) => v !== next);
  }

  /**
   * A content-hashed asset the live version lacks but a kept one has. A page fetched just
   * before a switch asks for its own assets just after; their names embed their content hash,
   * so serving them from the older version is exact, and the page never breaks mid-load.
   */
  olderAsset(path: string): { version: SiteVersion; file: ServedFile } | null {
    if (!isHashedAsset(path)) return null;
    for (const version of this.kept) {
      const file = version.file(path);
      if (file) return { version, file };
    }
    return null;
  }

  /** What other modules see of the live version, or null when none is active. */
  current(): ActiveSiteInfo | null {
    const live = this.active;
    if (!live) return null;
    const domain = this.site ?? live.domain;
    const filesDir = versionLayout(dirname(live.dir), basename(live.dir)).files;
    return {
      domain,
      projectId: this.sites.find(domain)?.projectId ?? null,
      version: live.version,
      pagePaths: live.pagePaths,
      installed: {
        id: live.id,
        filesDir,
        access: live.access?.map ?? null,
        pathOf: (path) => live.file(path)?.identity.absPath ?? join(filesDir, path),
      },
    };
  }
}
