import { slug } from 'github-slugger';
import type { ComponentProps } from '../types.js';
import { textProp } from './readProps.js';

/*
 * Mintlify gives some components a `#anchor` of their own, and authors link to them. A component
 * only requests its anchor (the `dataEnclaveAnchor` property); finalizeContent turns the request
 * into the element's `id` once the headings have their slugs, so a component never renumbers a
 * heading's id and never duplicates one.
 */

/** Accordion and Step: an explicit `id`, else the title slugged like a heading (`Install steps` → `install-steps`). */
export function titleAnchor(props: ComponentProps): string | undefined {
  const title = textProp(props, 'title');
  return textProp(props, 'id') || (title ? slug(title) : '') || undefined;
}

/**
 * ParamField and ResponseField: an explicit `id`, else the field name with camelCase split into
 * words and everything but letters and digits turned into single dashes (`userId`, `user_id`
 * → `user-id`), as Mintlify's field headers do.
 */
export function fieldAnchor(props: ComponentProps, name: string): string | undefined {
  return textProp(props, 'id') || dashed(splitCamelCase(name)) || undefined;
}

/** `HTTPServer2` → `HTTP Server2`, `userId` → `user Id`, `APIKey` → `API Key` (a plural `APIs` stays whole). */
function splitCamelCase(s: string): string {
  return s
    .replace(/([A-Z]{2,})(\d+)/g, '$1 $2')
    .replace(/([a-z\d]+)([A-Z]{2,})/g, '$1 $2')
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-rt-z\d]+)/g, '$1 $2');
}

/** Lower-case ASCII words joined by single dashes (accents dropped). */
function dashed(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z\d]+/g, '-')
    .replace(/^-|-$/g, '');
}
