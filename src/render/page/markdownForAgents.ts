const FENCE = /^\s*(`{3,}|~{3,})/;
const OPEN = /^(\s*)<Visibility\s+for\s*=\s*(?:"|'|\{\s*["'])(humans|agents)(?:"|'|["']\s*\})\s*>(.*)$/;
const CLOSE = /^(.*?)<\/Visibility>\s*$/;
const INLINE = /<Visibility\s+for\s*=\s*(?:"|'|\{\s*["'])(humans|agents)(?:"|'|["']\s*\})\s*>([\s\S]*?)<\/Visibility>/g;

/**
 * A page's Markdown copy as agents should read it: `<Visibility for="humans">` blocks left out,
 * `<Visibility for="agents">` blocks kept without their wrapper (and without the indentation
 * JSX nesting gave them, which Markdown would read as code). Fenced code is left alone, so a
 * page that documents the component keeps its examples.
 */
export function markdownForAgents(markdown: string): string {
  if (!markdown.includes('<Visibility')) return markdown;
  const out: string[] = [];
  let fence: string | null = null;
  let block: { audience: string; lines: string[] } | null = null;
  const emit = (line: string) => (block ? block.lines.push(line) : out.push(line));
  const closeBlock = () => {
    if (!block) return;
    if (block.audience === 'agents') out.push(...dedent(block.lines));
    block = null;
  };
  for (const line of markdown.split('\n')) {
    if (fence) {
      emit(line);
      if (line.trim().startsWith(fence)) fence = null;
      continue;
    }
    const f = FENCE.exec(line);
    if (f) {
      fence = f[1];
      emit(line);
      continue;
    }
    if (!block) {
      const open = OPEN.exec(line);
      if (open && !open[3].includes('</Visibility>')) {
        block = { audience: open[2], lines: open[3].trim() ? [open[3]] : [] };
        continue;
      }
      out.push(line.replace(INLINE, (_m, audience: string, inner: string) => (audience === 'agents' ? inner : '')));
      continue;
    }
    const close = CLOSE.exec(line);
    if (close) {
      if (close[1].trim()) block.lines.push(close[1]);
      closeBlock();
      continue;
    }
    block.lines.push(line);
  }
  closeBlock();
  return out.join('\n').replace(/\n{3,}/g, '\n\n');
}

/** Removes the indentation all non-blank lines share. */
function dedent(lines: string[]): string[] {
  const indents = lines.filter((l) => l.trim()).map((l) => /^[ \t]*/.exec(l)![0].length);
  const cut = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(Math.min(cut, /^[ \t]*/.exec(l)![0].length)));
}
