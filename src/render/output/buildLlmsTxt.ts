/** A page as listed in llms.txt. */
export interface LlmsPage {
  path: string;
  title: string;
  description?: string;
  section?: string;
}

/**
 * llms.txt in the llmstxt.org shape: site name, summary, then pages by section, each linking
 * its Markdown copy. Links are relative (to the bundle root), like everything else in the bundle.
 */
export function buildLlmsTxt(name: string, description: string | undefined, pages: LlmsPage[]): string {
  const out = [`# ${name}`, ''];
  if (description) out.push(`> ${description}`, '');
  const sections = new Map<string, LlmsPage[]>();
  for (const p of pages) {
    const key = p.section || 'Pages';
    if (!sections.has(key)) sections.set(key, []);
    sections.get(key)!.push(p);
  }
  for (const [section, list] of sections) {
    out.push(`## ${section}`, '');
    for (const p of list)
      out.push(
        `- [${p.title.replace(/[[\]]/g, '')}](${encodeURI(p.path)}.md)${p.description ? `: ${p.description.replace(/\s+/g, ' ')}` : ''}`,
      );
    out.push('');
  }
  return out.join('\n');
}
