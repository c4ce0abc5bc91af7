import type { Element } from '../types.js';
import { el } from '../components/buildElement.js';

/** The copy-to-clipboard button shared by code blocks and prompts; components.js wires it up. */
export function copyButton(label = 'Copy code'): Element {
  // A small inline glyph so the button needs no icon set and no request.
  const glyph = el(
    'svg',
    {
      viewBox: '0 0 24 24',
      width: 16,
      height: 16,
      fill: 'none',
      stroke: 'currentColor',
      strokeWidth: 2,
      ariaHidden: 'true',
      focusable: 'false',
    },
    [
      el('rect', { x: 9, y: 9, width: 13, height: 13, rx: 2 }),
      el('path', { d: 'M5 15H4a2 2 0 0 1-2-2V4a2 2 0 0 1 2-2h9a2 2 0 0 1 2 2v1' }),
    ],
  );
  return el('button', { type: 'button', className: ['enclave-copy'], ariaLabel: label, title: label, dataEnclaveCopy: '' }, glyph);
}
