import { PAGE_CACHE_FORMAT, PageCache } from './PageCache.js';
import type { PageBody } from './PageBody.js';
import { type BodySettings, type PageInputKeys, pageInputKeys } from './pageInputKeys.js';
import type { LoadedSite } from '../site/loadSite.js';
import type { DocsSource } from '../source/readDocsSource.js';

/** Where and how an export keeps page bodies for the next one (plain data: it crosses to the worker). */
export interface IncrementalSettings {
  /** The site's cache folder (`<dataDir>/cache/<domain>`). */
  dir: string;
  /** Throw the cache away first and render every page (`"full": true` on the job). */
  full?: boolean;
  /** The cache's bound in bytes; past it, no more pages are kept (default 1 GiB). */
  maxBytes?: number;
}

/** What an incremental export reused and rendered, and what became of its cache. */
export interface IncrementalOutcome {
  reusedPages: number;
  renderedPages: number;
  /** Why the cache was thrown away at the start of this export, if it was. */
  discarded?: string;
  cacheBytes: number;
  /** The cache reached its bound: some pages were not kept. */
  reachedBound: boolean;
}

const DEFAULT_MAX_BYTES = 1024 * 1024 * 1024;

/**
 * One export's use of the page cache: which pages' bodies can be reused (`take`), keeping the
 * ones rendered afresh (`keep`), and the tally at the end (`finish`).
 */
export class IncrementalRender {
  private reused = 0;
  private rendered = 0;
  private readonly keys = new Map<number, string>();

  private constructor(
    private readonly opened: { cache: PageCache; discarded?: string },
    private readonly inputs: PageInputKeys,
    private readonly paths: readonly string[],
  ) {}

  /** Opens the site's cache for an export of `site` with these settings. */
  static async open(
    settings: IncrementalSettings,
    site: LoadedSite,
    source: DocsSource,
    body: BodySettings & { rendererVersion: string },
  ): Promise<IncrementalRender> {
    const inputs = pageInputKeys(site, source, { ...body, format: PAGE_CACHE_FORMAT });
    const opened = await PageCache.open({
      dir: settings.dir,
      siteKey: inputs.siteKey,
      rendererVersion: body.rendererVersion,
      maxBytes: settings.maxBytes ?? DEFAULT_MAX_BYTES,
      full: settings.full,
    });
    return new IncrementalRender(
      opened,
      inputs,
      site.selected.map((p) => p.path),
    );
  }

  /** The kept body of the page at `position`, if its inputs are unchanged. */
  take(position: number): PageBody | undefined {
    const key = this.inputs.pageKey(position);
    this.keys.set(position, key);
    const body = this.opened.cache.get(this.paths[position], key, (modules) => this.inputs.modulesKey(modules));
    if (body) this.reused++;
    return body;
  }

  /** Keeps a body rendered afresh in this export (asked for by `take` before). */
  keep(position: number, body: PageBody): void {
    this.rendered++;
    const key = this.keys.get(position) ?? this.inputs.pageKey(position);
    this.opened.cache.put(key, this.inputs.modulesKey(body.modules), body);
  }

  /** Waits for the cache's writes, drops pages no longer in the site, and tallies. */
  async finish(paths: readonly string[]): Promise<IncrementalOutcome> {
    const { bytes, reachedBound } = await this.opened.cache.finish(paths);
    return {
      reusedPages: this.reused,
      renderedPages: this.rendered,
      ...(this.opened.discarded === undefined ? {} : { discarded: this.opened.discarded }),
      cacheBytes: bytes,
      reachedBound,
    };
  }
}
