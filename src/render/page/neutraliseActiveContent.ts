import type { Element } from 'hast';
import { isRemoteUrl } from '../offline/isRemoteUrl.js';
import type { RemovedActive } from '../report/BuildReport.js';
import type { PageContext } from '../links/createPageContext.js';

/** Attributes (lower-cased hast names) that hold a URL a browser may navigate to, load or submit to. */
const URL_PROPS = new Set(['href', 'src', 'action', 'formaction', 'xlinkhref', 'xlink:href', 'data', 'poster', 'cite', 'background']);
/** Attributes that send a form somewhere (on `form`, and per button on `button`/`input`). */
const FORM_TARGETS = new Set(['action', 'formaction']);
const EVENT_HANDLER = /^on[a-z]+$/i;
const LONGEST_VALUE = 120;

/**
 * A URL as a browser's URL parser reads it: tabs and newlines anywhere and leading C0 controls
 * or spaces are dropped, so `java\nscript:` and ` javascript:` are what they look like to it.
 */
function asBrowserReadsIt(url: string): string {
  return url.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
}

/** True for a URL that runs script when followed or loaded (`javascript:`, `vbscript:`). */
export function isScriptUrl(url: string): boolean {
  return /^(?:javascript|vbscript):/i.test(asBrowserReadsIt(url));
}

/**
 * Takes out of one element written in a page what would run the author's code or send a
 * reader's input elsewhere: `javascript:` URLs, `<script>`, `srcdoc` and `on…` attributes
 * (unless the site allows author scripts), and the target of a form posting to another origin
 * (unless the export keeps remote loads). Each is listed in the report. Returns false when the
 * whole element must go (a script). Pages without any of these are left byte-identical.
 */
export function neutraliseActiveContent(el: Element, ctx: PageContext): boolean {
  const scripts = ctx.allowsAuthorScripts;
  const removed = (kind: RemovedActive['kind'], where: string, value: string) =>
    ctx.report.removedActive({ page: ctx.pagePath, kind, where, value: value.slice(0, LONGEST_VALUE) });
  const { tagName, properties } = el;
  if (tagName === 'script' && !scripts) {
    const src = typeof properties.src === 'string' ? properties.src : null;
    const text = el.children.map((c) => (c.type === 'text' ? c.value : '')).join('');
    removed('script', src === null ? 'script' : 'script src', src ?? text.trim());
    return false;
  }
  for (const key of Object.keys(properties)) {
    const value = properties[key];
    if (typeof value !== 'string' && !Array.isArray(value)) continue;
    const text = Array.isArray(value) ? value.join(' ') : value;
    const name = key.toLowerCase();
    if (!scripts && (EVENT_HANDLER.test(key) || name === 'srcdoc')) {
      removed(name === 'srcdoc' ? 'script' : 'event-handler', `${tagName} ${name}`, text);
      delete properties[key];
    } else if (URL_PROPS.has(name) && typeof value === 'string') {
      if (!scripts && isScriptUrl(value)) {
        removed('script-url', `${tagName} ${name}`, value);
        delete properties[key];
      } else if (FORM_TARGETS.has(name) && !ctx.keepsRemote && isRemoteUrl(asBrowserReadsIt(value))) {
        removed('remote-form', `${tagName} ${name}`, value);
        delete properties[key];
      }
    }
  }
  return true;
}
