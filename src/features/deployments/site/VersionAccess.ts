import type { ReaderAudience } from '../../../platform/access/mayAudienceSee.js';
import { mayOpenPage } from '../../../platform/access/mayAudienceSee.js';
import {
  type AccessMap,
  AUDIENCE_FILES,
  audienceFolder,
  type BuiltAudience,
  type PageAccess,
} from '../../../platform/access/PageAccess.js';
import type { ServedFile } from '../SiteVersion.js';

/** Site-wide files an audience has its own copy of, by the name of that copy. */
type AudienceFileName = (typeof AUDIENCE_FILES)[keyof typeof AUDIENCE_FILES];

/** The site-wide search index: one name since issue 32, a hash of the export's inputs in older bundles. */
const SEARCH_INDEX = /^_assets\/search-index(?:\.[0-9a-f]+)?\.js$/;

/**
 * What one version knows of reader access: each page's access (the bundle's access map, or
 * none: every page then needs a signed-in reader), which files show a page's content (its HTML
 * and Markdown copy), and the per-audience search index and llms files that stand in for the
 * site-wide ones when sign-in is on.
 */
export class VersionAccess {
  /** Group names any page of the version is limited to. */
  private readonly siteGroups: ReadonlySet<string>;
  /** Every group name an access rule of the version names (pages and assets): what keyOf tells apart. */
  private readonly ruleGroups: ReadonlySet<string>;
  /** keyOf's answers by reader object: the gate hands out one object per session, so a page view computes none. */
  private readonly keys = new WeakMap<NonNullable<ReaderAudience>, string>();

  constructor(
    readonly map: AccessMap | null,
    /** Bundle file → the page path whose content it shows. */
    private readonly pageOfFile: ReadonlyMap<string, string>,
    /** `_enclave/audiences/…` files, by bundle path (never served under their own name). */
    private readonly audienceFiles: ReadonlyMap<string, ServedFile>,
    /** Assets only some readers may load (the access map's `assets`), by bundle path. */
    private readonly assets: Readonly<Record<string, PageAccess>> = {},
  ) {
    this.siteGroups = new Set(map?.audiences.flatMap((a) => a.groups ?? []) ?? []);
    const named = [...Object.values(map?.pages ?? {}), ...Object.values(assets)].flatMap((a) => (Array.isArray(a) ? a : []));
    this.ruleGroups = new Set([...this.siteGroups, ...named]);
  }

  /** The page a bundle file shows, or undefined for an asset, a redirect stub or the 404 page. */
  pageOf(file: string): string | undefined {
    return this.pageOfFile.get(file);
  }

  /** May `reader` load the bundle file `file` as an asset: undefined when it is not a restricted one. */
  mayLoadAsset(file: string, reader: ReaderAudience): boolean | undefined {
    const access = Object.hasOwn(this.assets, file) ? this.assets[file] : undefined;
    return access === undefined ? undefined : mayOpenPage(access, reader);
  }

  /** May `reader` open the page at page path `page`. */
  mayOpen(page: string, reader: ReaderAudience): boolean {
    return mayOpenPage(this.map?.pages[page], reader);
  }

  /**
   * The file to serve for a site-wide search index or llms file (`file`) to `reader`: their
   * audience's copy, the site-wide file itself for a reader who sees every page, or null when
   * they may see none of it. Undefined when `file` is not such a file.
   */
  standIn(file: ServedFile, reader: ReaderAudience): ServedFile | null | undefined {
    const name = standInName(file.path);
    if (!name) return undefined;
    if (!this.map) return reader === null ? null : file;
    const audience = this.audienceFor(reader);
    if (!audience) return file;
    return this.audienceFiles.get(`${audienceFolder(audience.id)}/${name}`) ?? null;
  }

  /**
   * A key naming what `reader` may see, for memos of per-reader answers ('' for the public):
   * readers with the same key get the same answer for every file of the version, as no rule of
   * it names a group that tells them apart.
   */
  keyOf(reader: ReaderAudience): string {
    if (reader === null) return '';
    let key = this.keys.get(reader);
    if (key === undefined) {
      key = `+${reader.groups
        .filter((g) => this.ruleGroups.has(g))
        .sort()
        .join('\n')}`;
      this.keys.set(reader, key);
    }
    return key;
  }

  /**
   * The built audience whose files `reader` gets: the one holding exactly their groups of the
   * site's, else the largest whose groups they all hold (it shows them no page they may not
   * open, though it may miss some they may). Undefined: the reader sees every page.
   */
  private audienceFor(reader: ReaderAudience): BuiltAudience | undefined {
    const audiences = this.map?.audiences ?? [];
    if (reader === null) return audiences.find((a) => a.groups === null);
    const held = reader.groups.filter((g) => this.siteGroups.has(g));
    if (held.length === this.siteGroups.size && this.siteGroups.size > 0) return undefined;
    let best: BuiltAudience | undefined;
    for (const a of audiences) {
      if (a.groups === null || !a.groups.every((g) => held.includes(g))) continue;
      if (a.groups.length === held.length) return a;
      if (!best || a.groups.length > (best.groups?.length ?? 0)) best = a;
    }
    // No groups on any page: a signed-in reader sees everything, the site-wide files.
    return best ?? (this.siteGroups.size === 0 ? undefined : audiences[0]);
  }
}

function standInName(path: string): AudienceFileName | undefined {
  if (path === 'llms.txt') return AUDIENCE_FILES.llms;
  if (path === 'llms-full.txt') return AUDIENCE_FILES.llmsFull;
  if (SEARCH_INDEX.test(path)) return AUDIENCE_FILES.searchIndex;
  return undefined;
}
