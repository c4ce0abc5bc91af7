import { toText } from 'hast-util-to-text';
import type { ComponentRenderer } from '../types.js';
import { renderMath } from '../math/renderMath.js';

/** `Latex`: its text content typeset with KaTeX at build time. */
export const Latex: ComponentRenderer = (_props, children, ctx) =>
  renderMath(
    children
      .map((c) => toText(c))
      .join('')
      .trim(),
    false,
    ctx,
  );
