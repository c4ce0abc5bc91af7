import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BundleManifest } from '../../../bundle/bundleManifest.js';

/** What the banner names. */
export interface PreviewBannerFacts {
  branch: string;
  sha: string;
  slug: string;
}

const NOINDEX_META = '<meta name="robots" content="noindex, nofollow">';

/**
 * Hides the banner for the rest of the tab's session once dismissed. Inline, so its hash is
 * recorded with the page's other inline scripts when the version is installed (the page's CSP
 * allows it and nothing else new).
 */
const DISMISS_SCRIPT =
  "(function(){var b=document.getElementById('enclave-preview-banner');if(!b)return;" +
  "var k='enclave-preview-hidden:'+b.getAttribute('data-slug');" +
  'try{if(sessionStorage.getItem(k)){b.remove();return}}catch(e){}' +
  "b.querySelector('button').addEventListener('click',function(){b.remove();try{sessionStorage.setItem(k,'1')}catch(e){}})})();";

/**
 * The banner every preview page carries: which branch and commit it shows, in the site's own
 * theme (its CSS variables, with fallbacks for a page without them), dismissible.
 */
export function previewBannerHtml(facts: PreviewBannerFacts): string {
  const short = facts.sha.slice(0, 7);
  return (
    `<div id="enclave-preview-banner" class="enclave-preview-banner" role="status" data-slug="${escapeHtml(facts.slug)}" ` +
    'style="display:flex;gap:.75rem;align-items:center;justify-content:center;padding:.45rem 1rem;' +
    'font:500 .875rem/1.4 var(--enclave-font,system-ui,sans-serif);background:var(--enclave-primary-soft,#e7f5f1);' +
    'color:var(--enclave-fg,#111);border-bottom:2px solid var(--enclave-primary,#0d9373)">' +
    `<span>Preview of branch <strong data-preview-branch>${escapeHtml(facts.branch)}</strong> at commit ` +
    `<code data-preview-commit title="${escapeHtml(facts.sha)}" style="font-family:var(--enclave-mono,monospace)">${escapeHtml(short)}</code>` +
    ' — not the live site</span>' +
    '<button type="button" aria-label="Hide this banner" style="border:0;background:transparent;color:inherit;' +
    'font-size:1.1rem;line-height:1;cursor:pointer;padding:0 .25rem">×</button></div>' +
    `<script>${DISMISS_SCRIPT}</script>`
  );
}

/** `html` with the noindex meta in its head and the banner first in its body (unchanged parts where either is missing). */
export function withPreviewBanner(html: string, facts: PreviewBannerFacts): string {
  let out = html;
  const headEnd = out.search(/<\/head\s*>/i);
  if (headEnd >= 0) out = `${out.slice(0, headEnd)}${NOINDEX_META}${out.slice(headEnd)}`;
  const body = /<body\b[^>]*>/i.exec(out);
  if (body) {
    const at = body.index + body[0].length;
    out = `${out.slice(0, at)}${previewBannerHtml(facts)}${out.slice(at)}`;
  }
  return out;
}

/**
 * The rewrite a preview version is installed with (see PreviewHosting): every HTML page gets
 * the banner and the noindex meta, and its manifest entry the new size and SHA-256, so the
 * served lengths and ETags are those of the bytes on disk. The bundle as built stays as it is.
 */
export function previewBannerRewrite(facts: PreviewBannerFacts): (filesDir: string, manifest: BundleManifest) => Promise<void> {
  return async (filesDir, manifest) => {
    for (const entry of manifest.files) {
      if (!entry.path.endsWith('.html') || entry.path.startsWith('_enclave/')) continue;
      const path = join(filesDir, entry.path);
      const bytes = Buffer.from(withPreviewBanner(await readFile(path, 'utf8'), facts), 'utf8');
      await writeFile(path, bytes);
      entry.size = bytes.length;
      entry.sha256 = createHash('sha256').update(bytes).digest('hex');
    }
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
