import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Markdown syntax that reached a page's visible text unrendered: page and the text around it. */
export interface RawMarkdown {
  page: string;
  text: string;
}

/** Bold, links and inline code as written in Markdown; none of them should survive rendering. */
const MARKDOWN = /\*\*[^*\s][^*]*\*\*|\[[^\]\n]+\]\([^)\s]+\)|`[^`\n]+`/;

/**
 * Looks for Markdown left unrendered in the visible text of every page (component props rendered
 * as plain strings were the usual cause): code, preformatted and script content is skipped.
 */
export async function findRawMarkdown(siteDir: string): Promise<RawMarkdown[]> {
  const found: RawMarkdown[] = [];
  const files = (await readdir(siteDir, { recursive: true })).map(String).filter((f) => f.endsWith('.html') && !f.startsWith('_'));
  for (const file of files) {
    const html = await readFile(join(siteDir, file), 'utf8');
    const main = html.slice(Math.max(0, html.indexOf('<main')), html.lastIndexOf('</main>') + 1 || html.length);
    const text = main
      // Code shows Markdown on purpose; prev/next labels are page titles, plain text by definition.
      .replace(/<(pre|code|script|style|textarea|template|kbd)\b[\s\S]*?<\/\1>/g, ' ')
      .replace(/<nav class="enclave-pagination"[\s\S]*?<\/nav>/g, ' ')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#96;/g, '`');
    const m = MARKDOWN.exec(text);
    if (m)
      found.push({
        page: file,
        text: text
          .slice(Math.max(0, m.index - 30), m.index + m[0].length + 30)
          .replace(/\s+/g, ' ')
          .trim(),
      });
  }
  return found;
}
