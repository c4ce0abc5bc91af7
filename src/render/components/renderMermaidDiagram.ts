import type { Element, RenderContext } from '../types.js';
import { el } from './buildElement.js';

/**
 * A Mermaid diagram placeholder: the source sits in a `<pre>` (readable without JS) and
 * components.js renders it with the bundled mermaid library, in the current colour theme.
 */
export function renderMermaidDiagram(chart: string, ctx: RenderContext): Element {
  ctx.assets.use('mermaid');
  return el('figure', { className: ['enclave-mermaid'], dataEnclaveMermaid: '' }, [
    el('pre', { className: ['enclave-mermaid-source'] }, chart.trim()),
  ]);
}
