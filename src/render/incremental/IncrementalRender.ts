import type { BundleFile, RunLayout } from '../../bundle/BundleSink.js';
import { DeflateRunsRecord } from './DeflateRunsRecord.js';
import { PAGE_CACHE_FORMAT, PageCache } from './PageCache.js';
import type { PageBody } from './PageBody.js';
import { PAGE_OUTPUTS_FORMAT, type PageOutput, PageOutputs } from './PageOutputs.js';
import type { PageShare } from './PageShare.js';
import { PageShares, type RecordedShare } from './PageShares.js';
import { PageSharesWriter } from './PageSharesWriter.js';
import { type BodySettings, hashParts, type PageInputKeys, pageInputKeys } from './pageInputKeys.js';
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
    private readonly outputs: PageOutputs,
    private readonly dir: string,
    private readonly shares: { last: PageShares; next: PageSharesWriter },
    private readonly shellKey: (path: string) => string,
    /** How the last export's zip deflated its streamed files (DeflateRunsRecord), for the sink's `reuseRuns`. */
    readonly lastRuns: readonly RunLayout[],
  ) {}

  /**
   * Opens the site's cache for an export of `site` with these settings; `shellKey` tells what
   * each page's shell shows besides its body (ShellParts.shellKey).
   */
  static async open(
    settings: IncrementalSettings,
    site: LoadedSite,
    source: DocsSource,
    body: BodySettings & { rendererVersion: string },
    shellKey: (path: string) => string,
  ): Promise<IncrementalRender> {
    const inputs = pageInputKeys(site, source, { ...body, format: PAGE_CACHE_FORMAT });
    const opened = await PageCache.open({
      dir: settings.dir,
      siteKey: inputs.siteKey,
      rendererVersion: body.rendererVersion,
      maxBytes: settings.maxBytes ?? DEFAULT_MAX_BYTES,
      full: settings.full,
    });
    const stale = settings.full || opened.discarded !== undefined;
    const outputs = await PageOutputs.open(settings.dir, stale);
    const shares = { last: await PageShares.open(settings.dir, stale), next: PageSharesWriter.create(settings.dir) };
    const lastRuns = await DeflateRunsRecord.read(settings.dir, stale);
    return new IncrementalRender(
      opened,
      inputs,
      site.selected.map((p) => p.path),
      outputs,
      settings.dir,
      shares,
      shellKey,
      lastRuns,
    );
  }

  /**
   * The key of everything the files of the page at `position` depend on, made from `body`: its
   * body's inputs (the page key and its modules), and what its shell shows (the shell key: its
   * sidebar, tabs, breadcrumbs, prev/next; the site key inside the page key covers the config,
   * theme, files and settings). A title change elsewhere changes it only for the pages whose
   * navigation shows that title: they are assembled again, not rendered; the rest are copied.
   */
  outputKey(position: number, body: PageBody): string {
    return this.keyOf(position, this.keys.get(position) ?? this.inputs.pageKey(position), body.modules);
  }

  private keyOf(position: number, pageKey: string, modules: readonly string[]): string {
    const shellKey = this.shellKey(this.paths[position]);
    return hashParts(String(PAGE_OUTPUTS_FORMAT), pageKey, this.inputs.modulesKey(modules), shellKey);
  }

  /** What the last export made of the page at `position` from the same inputs, if it recorded it. */
  priorOutput(position: number, body: PageBody): PageOutput | undefined {
    if (body.failedReason !== undefined) return undefined;
    return this.outputs.get(this.paths[position], this.outputKey(position, body));
  }

  /**
   * Records what this export made of its pages, for the next export's `priorOutput`: each page's
   * output key, references and its HTML and Markdown copy as `listed` (the bundle's files once
   * every page is written). Pages the anchor check rewrote (`rewritten`) are left out: their
   * HTML depends on other pages' headings, which no output key covers.
   */
  saveOutputs(
    listed: readonly BundleFile[],
    pages: readonly { path: string; file: string; key?: string; refs: string[] }[],
    rewritten: ReadonlySet<string>,
  ): Promise<void> {
    const byPath = new Map(listed.map((f) => [f.path, f]));
    const record = new Map<string, PageOutput>();
    for (const page of pages) {
      if (page.key === undefined || rewritten.has(page.path)) continue;
      const html = byPath.get(page.file);
      const markdown = byPath.get(`${page.path}.md`);
      if (html && markdown) record.set(page.path, { key: page.key, refs: page.refs, files: [html, markdown] });
    }
    // A record that could not be written only costs the next export its assembling.
    return PageOutputs.save(this.dir, record).catch(() => {});
  }

  /**
   * The page at `position` as the last export left it, when nothing it depends on changed: its
   * share of the site-wide files (PageShares) and its files in the last bundle (PageOutputs),
   * both under the output key it has now. Its body is not read: the output key is checked with
   * the modules the record says the body loaded. The caller copies the files (or, when the
   * previous bundle no longer holds them, takes the body after all) and calls `reuseRecorded`.
   */
  recorded(position: number): { recorded: RecordedShare; output: PageOutput } | undefined {
    const path = this.paths[position];
    const pageKey = this.inputs.pageKey(position);
    this.keys.set(position, pageKey);
    const recorded = this.shares.last.get(path, (modules) => this.keyOf(position, pageKey, modules));
    const output = recorded && this.outputs.get(path, recorded.entry[0]);
    return recorded && output ? { recorded, output } : undefined;
  }

  /** Counts the page at `position` as reused whole from the record (see `recorded`), and records its share again. */
  reuseRecorded(position: number, recorded: RecordedShare): void {
    this.reused++;
    const path = this.paths[position];
    this.opened.cache.counted(path, recorded.entry[2]);
    this.shares.next.copy(path, recorded);
  }

  /** Records the share of the page at `position`, made now from a body that loaded `modules`, under its output key. */
  recordShare(position: number, key: string, modules: readonly string[], share: PageShare): void {
    const path = this.paths[position];
    this.shares.next.add(path, key, modules, this.opened.cache.sizeOf(path), share);
  }

  /** Writes the shares recorded in this export for the next one (see PageShares). */
  saveShares(): Promise<void> {
    return this.shares.next.save();
  }

  /** Records how this export's streamed files were deflated (the sink's `streamedRuns`) for the next one. */
  saveRuns(layouts: readonly RunLayout[]): Promise<void> {
    return DeflateRunsRecord.save(this.dir, layouts);
  }

  /** The export failed: the shares being recorded are dropped. */
  abandon(): Promise<void> {
    return this.shares.next.abandon();
  }

  /** The kept body of the page at `position`, if its inputs are unchanged. */
  take(position: number): PageBody | undefined {
    const key = this.keys.get(position) ?? this.inputs.pageKey(position);
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
