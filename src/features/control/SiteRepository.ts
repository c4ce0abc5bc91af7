import type { ConfiguredSite } from '../../config/sections/sites.js';
import { gitSourceDir } from '../../platform/git/gitSourceDir.js';
import { gitSourceTree } from '../../platform/git/gitSourceTree.js';
import type { ReaderAuthSetting } from '../../config/sections/readerAuth.js';
import { readerAuthSetting } from './readerAuthSetting.js';
import type { JsonStore } from '../../platform/store/JsonStore.js';
import type { ControlData, SiteRecord } from './controlDocument.js';
import type { Site, SiteChangeListener } from './SiteDirectory.js';

/** Sites: those in the config file (which win) merged with those added at run time. */
export class SiteRepository {
  private readonly listeners: SiteChangeListener[] = [];
  /** Config-file sites' reader sign-in, a password hashed once here rather than on every list(). */
  private readonly configuredAuth: (ReaderAuthSetting | undefined)[];

  constructor(
    private readonly store: JsonStore<ControlData>,
    private readonly configured: ConfiguredSite[],
    private readonly dataDir: string,
  ) {
    this.configuredAuth = configured.map((s) => (s.auth ? readerAuthSetting(s.auth) : undefined));
  }

  /** Every site, config first. */
  list(): Site[] {
    const defaultProject = this.store.data.defaultProjectId ?? '';
    const fromConfig: Site[] = this.configured.map((s, i) => ({
      domain: s.domain.toLowerCase(),
      ...(typeof s.source === 'string'
        ? { source: s.source, ref: s.ref ?? null }
        : {
            // The branch as last fetched into the appliance's clone (see features/sources).
            source: gitSourceDir(this.dataDir, s.domain),
            ref: gitSourceTree(`refs/remotes/origin/${s.source.branch}`, s.source.path),
            git: s.source,
          }),
      projectId: s.projectId ?? defaultProject,
      origin: 'config',
      ...(s.authorScripts ? { authorScripts: true } : {}),
      ...withAuth(this.configuredAuth[i]),
    }));
    const seen = new Set(fromConfig.map((s) => s.domain));
    const stored: Site[] = this.store.data.sites
      .filter((s) => !seen.has(s.domain))
      .map((s) => ({ domain: s.domain, source: s.source, ref: s.ref, projectId: s.projectId, origin: 'store', ...withAuth(s.auth) }));
    return [...fromConfig, ...stored];
  }

  /** The site serving `domain` (case-insensitive), or undefined. */
  find(domain: string): Site | undefined {
    const wanted = domain.toLowerCase();
    return this.list().find((s) => s.domain === wanted);
  }

  /**
   * Calls `listener` after every durable change of a stored site: the live-site registry
   * starts or stops serving a domain without a restart.
   */
  onChange(listener: SiteChangeListener): void {
    this.listeners.push(listener);
  }

  /** Adds or replaces a stored site durably. */
  async upsert(site: SiteRecord): Promise<void> {
    const domain = site.domain.toLowerCase();
    await this.store.update((d) => {
      d.sites = d.sites.filter((s) => s.domain !== domain);
      d.sites.push({ ...site, domain });
    });
    this.changed(domain);
  }

  /** Removes a stored site durably; false when none was stored under `domain`. */
  async remove(domain: string): Promise<boolean> {
    const wanted = domain.toLowerCase();
    const removed = await this.store.update((d) => {
      const before = d.sites.length;
      d.sites = d.sites.filter((s) => s.domain !== wanted);
      return d.sites.length !== before;
    });
    if (removed) this.changed(wanted);
    return removed;
  }

  private changed(domain: string): void {
    for (const listener of this.listeners) listener(domain);
  }
}

/** The `auth` key of a Site: left out for none, so an open site reads as before. */
function withAuth(auth: ReaderAuthSetting | undefined): { auth?: ReaderAuthSetting } {
  return auth && auth.mode !== 'none' ? { auth } : {};
}
