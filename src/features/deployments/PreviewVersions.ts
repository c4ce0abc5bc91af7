import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { BundleManifest } from '../../bundle/bundleManifest.js';
import type { BundleLimits } from '../../bundle/install/verifyBundle.js';
import type { SiteRequest, SiteRequestHandler } from '../../http/SiteRequestHandler.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import { installBundleVersion } from './installBundleVersion.js';
import { LiveSite } from './LiveSite.js';
import { loadSiteVersion } from './loadSiteVersion.js';
import { createSiteHandler } from './site/createSiteHandler.js';
import type { ReaderGate } from './site/ReaderGate.js';
import { versionLayout } from './versionLayout.js';

/** Where preview versions live: beside the sites' versions, never inside them. */
export function previewVersionsDir(dataDir: string): string {
  return join(dataDir, 'previews');
}

/** Changes a preview's extracted files before they are compressed (the banner); keeps the manifest in step. */
export type PreviewRewrite = (filesDir: string, manifest: BundleManifest) => Promise<void>;

/**
 * The deployment feature's port for previews (app/ hands it to sources): versions installed,
 * loaded and served apart from every site's live versions, each under a name of the caller's.
 */
export interface PreviewHosting {
  /** Verifies and installs a bundle as version `name`, rewritten by `rewrite`, and serves it. */
  install(name: string, zipPath: string, rewrite: PreviewRewrite): Promise<void>;
  /** Serves version `name` again after a restart; false when it is not on disk. */
  open(name: string): Promise<boolean>;
  /** Stops serving version `name` and deletes it (once requests reading it have finished). */
  remove(name: string): Promise<void>;
  /** Deletes what no preview names: staging leftovers of a crash, versions of deleted previews. */
  prune(keep: ReadonlySet<string>): Promise<void>;
  /** Answers `request` (its `path` relative to `request.base`) from version `name`. */
  serve(name: string, request: SiteRequest): ReturnType<SiteRequestHandler>;
}

/**
 * Preview versions on disk under `<dataDir>/previews/<name>`, each in a LiveSite of its own, and
 * one site handler over them: the live sites' code path (reader sign-in, ETags, encodings),
 * without the page-view hook and without the X-Enclave-Site mark, so a preview feeds no
 * analytics and shows no feedback widget, and with `X-Robots-Tag: noindex` on every page.
 */
export class PreviewVersions implements PreviewHosting {
  private readonly served = new Map<string, LiveSite>();
  private readonly handler: SiteRequestHandler;
  private readonly dir: string;

  constructor(
    private readonly deps: {
      dataDir: string;
      limits: BundleLimits;
      sites: Pick<SiteDirectory, 'find'>;
      logger: Logger;
      readerGate?: ReaderGate;
      tryItOrigins?: readonly string[];
    },
  ) {
    this.dir = previewVersionsDir(deps.dataDir);
    const missing = { live: new LiveSite(deps.sites) };
    this.handler = createSiteHandler(
      // The "host" a preview request carries is the version's name (see serve).
      { forHost: (name) => (this.served.has(name) ? { live: this.served.get(name)! } : missing) },
      {
        logger: deps.logger,
        siteMark: null,
        pageHeaders: ['X-Robots-Tag', 'noindex, nofollow'],
        readerGate: deps.readerGate,
        tryItOrigins: deps.tryItOrigins,
      },
    );
  }

  /** @inheritdoc */
  async install(name: string, zipPath: string, rewrite: PreviewRewrite): Promise<void> {
    const installed = await installBundleVersion(zipPath, this.dir, name, this.deps.limits, null, { inspect: rewrite });
    this.show(name, await loadSiteVersion(name, installed.layout, installed));
  }

  /** @inheritdoc */
  async open(name: string): Promise<boolean> {
    try {
      this.show(name, await loadSiteVersion(name, versionLayout(this.dir, name)));
      return true;
    } catch (err) {
      this.deps.logger.warn({ err, name }, 'a preview version could not be loaded; it is not served');
      return false;
    }
  }

  /** @inheritdoc */
  async remove(name: string): Promise<void> {
    const live = this.served.get(name);
    this.served.delete(name);
    const version = live?.version();
    const dir = versionLayout(this.dir, name).dir;
    const removeDir = () => rm(dir, { recursive: true, force: true });
    if (version?.inUse()) version.retire(() => void removeDir().catch(() => {}));
    else {
      version?.retire(() => {});
      await removeDir();
    }
  }

  /** @inheritdoc */
  async prune(keep: ReadonlySet<string>): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) if (!keep.has(name)) await rm(join(this.dir, name), { recursive: true, force: true });
  }

  /** @inheritdoc */
  serve(name: string, request: SiteRequest): ReturnType<SiteRequestHandler> {
    return this.handler({ ...request, host: name });
  }

  private show(name: string, version: Awaited<ReturnType<typeof loadSiteVersion>>): void {
    const live = new LiveSite(this.deps.sites);
    live.switchTo(version, []);
    this.served.set(name, live);
  }
}
