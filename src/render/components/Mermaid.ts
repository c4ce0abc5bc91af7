import { toText } from 'hast-util-to-text';
import type { ComponentRenderer } from '../types.js';
import { textProp } from './readProps.js';
import { renderMermaidDiagram } from './renderMermaidDiagram.js';

/** `Mermaid`: a diagram from the `chart` prop (or the text content). */
export const Mermaid: ComponentRenderer = (props, children, ctx) =>
  renderMermaidDiagram(textProp(props, 'chart') ?? children.map((c) => toText(c)).join(''), ctx);
