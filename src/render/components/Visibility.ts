import type { ComponentRenderer } from '../types.js';
import { textProp } from './readProps.js';

/**
 * `Visibility for="humans|agents"`: readers see `humans` content and never `agents` content.
 * The page's Markdown copy (and so llms-full.txt) does the reverse (see markdownForAgents.ts);
 * `agents` content goes to the search index's agent channel, not the reader index. No wrapper element, as on
 * the hosted site. A missing or unknown audience shows the content and warns.
 */
export const Visibility: ComponentRenderer = (props, children, ctx) => {
  const audience = textProp(props, 'for')?.trim().toLowerCase();
  if (audience === 'agents') {
    ctx.forAgents(children);
    return [];
  }
  if (audience !== 'humans')
    ctx.report.warning(
      `Visibility needs for="humans" or for="agents" (got ${audience === undefined ? 'none' : JSON.stringify(audience)}); its content is shown`,
      ctx.pagePath,
    );
  return children;
};
