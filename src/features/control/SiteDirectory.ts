import type { GitSourceConfig } from '../../config/sections/gitSource.js';
import type { ReaderAuthSetting } from '../../config/sections/readerAuth.js';
import type { ProjectRecord } from './controlDocument.js';

/** A site as the rest of the appliance sees it, whether declared in config or stored. */
export interface Site {
  domain: string;
  source: string;
  ref: string | null;
  projectId: string;
  origin: 'config' | 'store';
  /** Exports keep scripts written in pages (config-file sites only: an operator's choice, not a key's). */
  authorScripts?: boolean;
  /**
   * Set when the docs come from a branch of a remote repository: `source` is then the
   * appliance's own clone and `ref` the fetched branch (the sources feature keeps it fetched).
   */
  git?: GitSourceConfig;
  /** Reader sign-in (absent: mode none, the site is open). A password only ever as its hash. */
  auth?: ReaderAuthSetting;
}

/** Told after a stored site was saved or removed (its domain, lower-case). */
export type SiteChangeListener = (domain: string) => void;

/**
 * What other features may know of the control plane: the sites, their owner projects, and when
 * a site changes at run time. It reads; it never writes. Keys, site edits and the store itself
 * stay inside the control feature, so a feature can't grow a dependency on them by accident.
 */
export interface SiteDirectory {
  /** The site serving `domain` (case-insensitive), or undefined. */
  find(domain: string): Site | undefined;
  /** Every site, those declared in the config file first. */
  list(): Site[];
  /** The project with `id`, or undefined. */
  project(id: string): Readonly<ProjectRecord> | undefined;
  /** Calls `listener` after every durable change of a stored site (live site edits). */
  onChange(listener: SiteChangeListener): void;
}
