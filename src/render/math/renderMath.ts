import type { ElementContent, RenderContext } from '../types.js';

/** Renders TeX (placeholder: shows the source until KaTeX is wired in). */
export function renderMath(tex: string, display: boolean, ctx: RenderContext): ElementContent {
  void ctx;
  return { type: 'element', tagName: display ? 'div' : 'span', properties: { className: ['enclave-math'] }, children: [{ type: 'text', value: tex }] };
}
