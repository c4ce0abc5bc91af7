/**
 * The assistant's retrieval input: every listed page cut into its sections, written at export
 * time so the appliance never parses MDX while serving. One JSON object per line (JSON Lines):
 * it is written while pages render and read back a line at a time. It lives under `_enclave/`,
 * which the site never serves (agent-only text and, later, group-restricted pages are in it).
 */
export const SECTION_CHUNKS_FILE = '_enclave/sections.jsonl';

/** One section of one page, as the assistant's search returns it. */
export interface SectionChunk {
  /** Page path without extension or leading slash (`guides/start`), as in the search index. */
  path: string;
  /** The page title. */
  title: string;
  /** The section heading ('' for the text above the first heading). */
  section: string;
  /** The section's id on the page ('' for the top of the page). */
  anchor: string;
  /** The section's Markdown, agent-only text included (the page's Markdown copy, cut at headings). */
  content: string;
  /** The page description (frontmatter), on every chunk of the page. */
  description: string;
  /** The navigation's language, version and product of the page; null where the site has none. */
  language: string | null;
  version: string | null;
  product: string | null;
  /** The frontmatter `tag`, if any. */
  tag: string | null;
}

/** A section longer than this is split into parts (same heading and anchor), so one hit stays quotable. */
const MAX_CHUNK_CHARS = 4000;

/** What a page gives the chunker: its Markdown copy, headings with their ids, scope and frontmatter bits. */
export interface ChunkSource {
  path: string;
  title: string;
  description: string;
  markdown: string;
  /** The page's headings as rendered, with their ids, in document order. */
  headings: { text: string; id: string }[];
  /** `language:fr|version:v2|product:api` ('' for none), as the reader search index scopes pages. */
  scope: string;
  tag?: string;
}

/**
 * Cuts a page's Markdown copy into sections at its ATX headings (level 2 and below; fenced code
 * is skipped), each given the id the rendered heading got: headings are matched by their text,
 * in order, so a heading only the Markdown has (or only the page has) shifts nothing.
 */
export function sectionChunks(page: ChunkSource): SectionChunk[] {
  const scope = parseScope(page.scope);
  const base = { path: page.path, title: page.title, description: page.description, ...scope, tag: page.tag ?? null };
  const out: SectionChunk[] = [];
  let next = 0;
  for (const part of splitAtHeadings(page.markdown)) {
    let anchor = '';
    if (part.heading !== '') {
      const wanted = plain(part.heading);
      const found = page.headings.findIndex((h, i) => i >= next && plain(h.text) === wanted);
      if (found >= 0) {
        anchor = page.headings[found].id;
        next = found + 1;
      } else anchor = slug(part.heading);
    }
    const content = part.text.trim();
    if (content === '') continue;
    for (const piece of splitLong(content)) out.push({ ...base, section: plainHeading(part.heading), anchor, content: piece });
  }
  return out;
}

/** One chunk as its line in the chunk file. */
export function sectionChunkLine(chunk: SectionChunk): string {
  return `${JSON.stringify(chunk)}\n`;
}

/** The page's Markdown in runs, each starting at a heading ('' for the text above the first). */
function splitAtHeadings(markdown: string): { heading: string; text: string }[] {
  const parts: { heading: string; text: string }[] = [{ heading: '', text: '' }];
  let fence: string | null = null;
  let first = true;
  for (const line of markdown.split('\n')) {
    const fenceMark = /^\s{0,3}(`{3,}|~{3,})/.exec(line)?.[1];
    if (fenceMark && (fence === null || (fenceMark[0] === fence[0] && fenceMark.length >= fence.length))) {
      fence = fence === null ? fenceMark : null;
    }
    const heading = fence === null ? /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line) : null;
    // The copy opens with `# Title`: the page title, not a section.
    if (heading && first && heading[1].length === 1) {
      first = false;
      continue;
    }
    first = false;
    if (heading && heading[1].length >= 2) parts.push({ heading: heading[2], text: `${line}\n` });
    else parts[parts.length - 1].text += `${line}\n`;
  }
  return parts;
}

/** A long section in pieces of at most MAX_CHUNK_CHARS, cut at paragraph (else line) breaks. */
function splitLong(text: string): string[] {
  if (text.length <= MAX_CHUNK_CHARS) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > MAX_CHUNK_CHARS) {
    const window = rest.slice(0, MAX_CHUNK_CHARS);
    let cut = window.lastIndexOf('\n\n');
    if (cut < MAX_CHUNK_CHARS / 2) cut = window.lastIndexOf('\n');
    if (cut < MAX_CHUNK_CHARS / 2) cut = MAX_CHUNK_CHARS;
    pieces.push(rest.slice(0, cut).trim());
    rest = rest.slice(cut);
  }
  if (rest.trim()) pieces.push(rest.trim());
  return pieces;
}

/** Heading text without Markdown marks, as a reader sees it. */
function plainHeading(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*_]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Heading text for matching: plain, lower-case, letters and digits only. */
function plain(heading: string): string {
  return plainHeading(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** An id for a heading the rendered page did not list (GitHub-style slug). */
function slug(heading: string): string {
  return plainHeading(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s/g, '-');
}

/** `language:fr|version:v2` → its parts; a division the site doesn't have is null. */
function parseScope(scope: string): Pick<SectionChunk, 'language' | 'version' | 'product'> {
  const out: Pick<SectionChunk, 'language' | 'version' | 'product'> = { language: null, version: null, product: null };
  for (const part of scope.split('|')) {
    const colon = part.indexOf(':');
    const kind = part.slice(0, colon);
    if (kind === 'language' || kind === 'version' || kind === 'product') out[kind] = part.slice(colon + 1);
  }
  return out;
}
