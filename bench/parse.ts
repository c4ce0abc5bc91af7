// Parse cost per page: micromark (parseWithMicromark) against the fast path (fastParse), on a synthetic
// site of 1,000 pages (the export benchmark's content) and on the real corpora.
// usage: npx tsx bench/parse.ts [ROUNDS=5]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { normalizeSource, parseWithMicromark, type SourceKind } from '../src/render/mdx/parseSource.js';
import { fastParse } from '../src/render/mdx/fastParse/fastParse.js';

const rounds = Number(process.argv[2] ?? 5);

interface Page {
  kind: SourceKind;
  text: string;
}

function pagesUnder(dir: string): Page[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && /\.mdx?$/.test(e.name))
    .map((e) => {
      const kind: SourceKind = e.name.endsWith('.mdx') ? 'mdx' : 'md';
      return { kind, text: normalizeSource(readFileSync(join(e.parentPath, e.name), 'utf8'), kind) };
    });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Median over rounds of the ms per page `parse` takes across `pages`. */
function msPerPage(pages: Page[], parse: (p: Page) => unknown): number {
  if (pages.length === 0) return NaN;
  const times: number[] = [];
  for (let r = 0; r < rounds + 1; r++) {
    const start = performance.now();
    for (const p of pages) parse(p);
    if (r > 0) times.push((performance.now() - start) / pages.length); // round 0 warms up
  }
  return median(times);
}

// parseSource itself now tries the fast path first, so the reference is micromark alone.
const micromark = (p: Page) => {
  try {
    return parseWithMicromark(p.text, p.kind);
  } catch {
    return null;
  }
};

const synthetic = mkdtempSync(join(tmpdir(), 'enclave-bench-parse-'));
try {
  execFileSync(process.execPath, [resolve('../shared/bin/gen-corpus.mjs'), synthetic, '1000']);
  const sets: Array<[string, Page[]]> = [
    ['synthetic (1,000)', pagesUnder(synthetic)],
    ...['starter', 'mcp', 'unstructured'].map((c): [string, Page[]] => [c, pagesUnder(resolve('../shared/corpora', c))]),
  ];
  const rows = sets.map(([name, pages]) => {
    const fast = pages.filter((p) => fastParse(p.text, p.kind) !== null);
    const slowMs = msPerPage(fast, micromark);
    const fastMs = msPerPage(fast, (p) => fastParse(p.text, p.kind));
    // What a page costs with `fastParse(...) ?? parseWithMicromark(...)` (parseSource), fallbacks included.
    const combinedMs = msPerPage(pages, (p) => fastParse(p.text, p.kind) ?? micromark(p));
    const allMicromarkMs = msPerPage(pages, micromark);
    return {
      corpus: name,
      pages: pages.length,
      'fast-path share': `${((100 * fast.length) / pages.length).toFixed(1)}%`,
      'micromark ms/page (fast-path pages)': slowMs.toFixed(3),
      'fast path ms/page': fastMs.toFixed(3),
      speed_up: `${(slowMs / fastMs).toFixed(1)}×`,
      'all pages: micromark ms/page': allMicromarkMs.toFixed(3),
      'all pages: fast ?? micromark ms/page': combinedMs.toFixed(3),
    };
  });
  console.log(`medians of ${rounds} rounds`);
  console.table(rows);
} finally {
  rmSync(synthetic, { recursive: true, force: true });
}
