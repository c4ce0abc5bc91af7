import type { Yaml } from 'mdast';
import { bail } from './FastPathBail.js';

/**
 * The YAML block at the start of the text (only the exact `---` fences; anything else that
 * starts with `---` bails), with micromark's position, which markdownCopy uses to cut it out.
 * Returns the node and the index of the first line after it.
 */
export function readFrontmatterNode(lines: string[]): { node: Yaml; next: number } {
  if (lines[0] !== '---') bail('frontmatter fence');
  let offset = 4;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i] === '---') {
      const node: Yaml = {
        type: 'yaml',
        value: lines.slice(1, i).join('\n'),
        position: { start: { line: 1, column: 1, offset: 0 }, end: { line: i + 1, column: 4, offset: offset + 3 } },
      };
      return { node, next: i + 1 };
    }
    offset += lines[i].length + 1;
  }
  return bail('unclosed frontmatter');
}
