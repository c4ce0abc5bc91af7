import { mkdir, readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import { AppError } from '../../platform/AppError.js';
import type { Clock } from '../../platform/Clock.js';
import type { Readiness } from '../Feature.js';
import type { SiteDirectory } from '../control/SiteDirectory.js';
import type { ActiveSite, ActiveSiteInfo } from './ActiveSite.js';
import type { DeploymentRecord } from './DeploymentRecord.js';
import { DeploymentRepository } from './DeploymentRepository.js';
import { SiteDeployer } from './SiteDeployer.js';
import { siteDirs, siteDomainsDir } from './versionLayout.js';
import { readSiteVersions, removeSiteDeployments } from './removeSiteDeployments.js';

/** What the site registry is built from. */
export interface SiteDeploymentsDeps {
  config: Config;
  logger: Logger;
  clock: Clock;
  sites: Pick<SiteDirectory, 'find' | 'onChange'>;
}

/**
 * Every site's deployments on this appliance. The default site (the single-site
 * `staticExport.*` form, deploys without a domain) answers unknown hosts, IP addresses and
 * localhost; a configured site gets deployments of its own once it has its own
 * `sites[].staticExport` settings or a deployment naming its domain, and from then on answers
 * requests whose Host is its domain, with its own versions, rollback and pin.
 */
export class SiteDeployments implements ActiveSite {
  private readonly byDomain = new Map<string, SiteDeployer>();
  private readonly opening = new Map<string, Promise<SiteDeployer>>();
  /** Deletions of removed sites' versions in progress, by domain (a site added again waits for them). */
  private readonly removals = new Map<string, Promise<void>>();

  private constructor(
    private readonly deps: SiteDeploymentsDeps,
    /** The default site's deployer. */
    readonly defaultSite: SiteDeployer,
  ) {}

  /** Opens the default site and every configured site that has deployments (or settings) of its own. */
  static async open(deps: SiteDeploymentsDeps): Promise<SiteDeployments> {
    const defaultSite = await openDeployer(deps, null);
    const registry = new SiteDeployments(deps, defaultSite);
    const onDisk = await readdir(siteDomainsDir(deps.config.dataDir)).catch(() => [] as string[]);
    const wanted = new Set([...onDisk, ...deps.config.sites.filter((s) => s.staticExport).map((s) => s.domain.toLowerCase())]);
    for (const domain of wanted) {
      if (registry.slotOf(domain) === null) continue;
      if (!deps.sites.find(domain)) {
        deps.logger.warn({ domain }, `deployments of ${domain} are kept on disk but not served: no such site is configured`);
        continue;
      }
      await registry.ensure(domain);
    }
    deps.sites.onChange((domain) => registry.siteChanged(domain));
    return registry;
  }

  /**
   * A stored site was saved or removed at run time. A removed site stops being served at once
   * (its Host falls to the default site) and, once its deployer is idle, its versions are deleted
   * from disk; a site saved again starts with no deployments of its own.
   */
  private siteChanged(domain: string): void {
    const slot = this.slotOf(domain);
    if (slot === null) return;
    const open = this.byDomain.get(slot);
    if (this.deps.sites.find(slot)) {
      if (open) return;
      void (this.removals.get(slot) ?? Promise.resolve())
        .then(() => readdir(siteDomainsDir(this.deps.config.dataDir)))
        .then((onDisk) => (onDisk.includes(slot) ? this.ensure(slot) : undefined))
        .catch((err) => this.deps.logger.warn({ err, domain: slot }, 'could not reopen the deployments of a site saved again'));
      return;
    }
    if (open) this.byDomain.delete(slot);
    this.removals.set(slot, this.removeFromDisk(slot, open));
  }

  /** Deletes a removed site's versions once its deployer (if open) has finished what it was doing. */
  private async removeFromDisk(slot: string, open: SiteDeployer | undefined): Promise<void> {
    const { dataDir } = this.deps.config;
    try {
      await this.removals.get(slot);
      await this.opening.get(slot)?.catch(() => {});
      await open?.drain();
      await open?.flush(); // nothing may write its state file after it is gone
      // Saved again meanwhile: keep what it has.
      if (this.deps.sites.find(slot)) return;
      const had = await readSiteVersions(dataDir, slot);
      await removeSiteDeployments(dataDir, slot);
      if (had)
        this.deps.logger.info(
          { domain: slot, versions: had.versions },
          `site ${slot} removed: no longer served; deleted ${had.versions.length} version(s) from disk`,
        );
    } catch (err) {
      this.deps.logger.warn({ err, domain: slot }, 'could not delete the deployments of a removed site');
    }
  }

  /** The deployer of `domain` (null: the default site), opening its deployments on first use; unknown domains are 404. */
  async ensure(domain: string | null): Promise<SiteDeployer> {
    const slot = domain === null ? null : this.slotOf(domain);
    if (slot === null) return this.defaultSite;
    const open = this.byDomain.get(slot);
    if (open) return open;
    if (!this.deps.sites.find(slot)) throw AppError.notFound(`No site ${slot} is configured`);
    let opening = this.opening.get(slot);
    if (!opening) {
      opening = openDeployer(this.deps, slot).then((deployer) => {
        this.byDomain.set(slot, deployer);
        return deployer;
      });
      opening.finally(() => this.opening.delete(slot)).catch(() => {});
      this.opening.set(slot, opening);
    }
    return opening;
  }

  /**
   * The deployer of `domain` (null: the default site) if it is open, without opening one: a
   * look must not give a site deployments of its own (its Host would stop reaching the default
   * site). A domain that is not a configured site is 404; a configured one with none yet is null.
   */
  lookup(domain: string | null): SiteDeployer | null {
    const slot = domain === null ? null : this.slotOf(domain);
    if (slot === null) return this.defaultSite;
    const open = this.byDomain.get(slot);
    if (open) return open;
    if (!this.deps.sites.find(slot)) throw AppError.notFound(`No site ${slot} is configured`);
    return null;
  }

  /** The deployer whose version answers requests for `host` (lower-case, no port). */
  forHost(host: string | undefined): SiteDeployer {
    return (host !== undefined && this.byDomain.get(host)) || this.defaultSite;
  }

  /** Every deployer, the default site first. */
  deployers(): SiteDeployer[] {
    return [this.defaultSite, ...this.byDomain.values()];
  }

  /** A deployment record by id, from whichever site holds it. */
  record(id: string): DeploymentRecord | undefined {
    for (const deployer of this.deployers()) {
      const record = deployer.record(id);
      if (record) return record;
    }
    return undefined;
  }

  /** @inheritdoc */
  current(host?: string): ActiveSiteInfo | null {
    return this.forHost(host).live.current();
  }

  /** @inheritdoc */
  all(): ActiveSiteInfo[] {
    return this.deployers()
      .map((d) => d.live.current())
      .filter((info): info is ActiveSiteInfo => info !== null);
  }

  /** The default site's readiness; a site of its own that is not ok makes the whole degraded. */
  readiness(): Readiness {
    const main = this.defaultSite.readiness();
    if (this.byDomain.size === 0) return main;
    const sites: Record<string, Readiness> = {};
    for (const [domain, deployer] of this.byDomain) sites[domain] = deployer.readiness();
    const others = Object.values(sites);
    const status =
      main.status === 'unavailable'
        ? 'unavailable'
        : main.status === 'degraded' || others.some((r) => r.status !== 'ok')
          ? 'degraded'
          : 'ok';
    const detail =
      main.detail ??
      (status === 'degraded' ? `site ${Object.entries(sites).find(([, r]) => r.status !== 'ok')?.[0]} is not fully served` : undefined);
    return { ...main, status, ...(detail ? { detail } : {}), sites };
  }

  /** Writes every site's pending state to disk (shutdown). */
  async flush(): Promise<void> {
    await Promise.all(this.deployers().map((d) => d.flush()));
  }

  /** The site whose deployments `domain` names: null for the default site's own domain (`staticExport.domain`). */
  private slotOf(domain: string): string | null {
    const wanted = domain.toLowerCase();
    return wanted === this.deps.config.staticExport.domain?.toLowerCase() ? null : wanted;
  }
}

async function openDeployer(deps: SiteDeploymentsDeps, site: string | null): Promise<SiteDeployer> {
  const dirs = siteDirs(deps.config.dataDir, site);
  await mkdir(dirname(dirs.state), { recursive: true, mode: 0o755 });
  const deployments = await DeploymentRepository.open(dirs.state);
  return SiteDeployer.open({ ...deps, deployments, site, dirs });
}
