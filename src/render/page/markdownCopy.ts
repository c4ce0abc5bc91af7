import type { Root } from 'mdast';
import { markdownForAgents } from './markdownForAgents.js';

/**
 * The Markdown copy of a page (`guides/start.md`), as the hosted product offers for LLMs: the
 * source body (as normalised for parsing: node offsets index into it) without frontmatter and import/export statements, under its title and description,
 * with `Visibility` applied for agents (markdownForAgents).
 */
export function markdownCopy(source: string, mdast: Root, title: string, description?: string): string {
  const cut: [number, number][] = [];
  for (const node of mdast.children) {
    if (
      (node.type === 'yaml' || node.type === 'mdxjsEsm') &&
      node.position?.start.offset !== undefined &&
      node.position.end.offset !== undefined
    ) {
      cut.push([node.position.start.offset, node.position.end.offset]);
    }
  }
  const text = source;
  let body = '';
  let at = 0;
  for (const [start, end] of cut) {
    body += text.slice(at, start);
    at = end;
  }
  body += text.slice(at);
  const head = `# ${title}\n\n${description ? `> ${description}\n\n` : ''}`;
  // trim() removes exactly what `\s` matches; the regex /\s+$/ retried at every run of spaces.
  return `${head}${markdownForAgents(body).trim()}\n`;
}
