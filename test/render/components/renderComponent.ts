import { toHtml } from 'hast-util-to-html';
import type { ComponentProps, ElementContent } from '../../../src/render/types.js';
import { builtInComponents } from '../../../src/render/components/index.js';
import { fakeRenderContext, type RecordingContext } from './fakeRenderContext.js';

/** Renders a built-in component by name and returns its HTML (plus the context, to check reports). */
export function renderComponent(
  name: string,
  props: ComponentProps = {},
  children: ElementContent[] = [],
  ctx: RecordingContext = fakeRenderContext(),
): { html: string; ctx: RecordingContext; nodes: ElementContent | ElementContent[] } {
  const renderer = builtInComponents[name];
  if (!renderer) throw new Error(`no built-in component ${name}`);
  const nodes = renderer(props, children, ctx);
  return { html: toHtml(nodes as never), ctx, nodes };
}

/** A text node. */
export const text = (value: string): ElementContent => ({ type: 'text', value });
