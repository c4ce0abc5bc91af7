import type { OperationRenderer } from '../page/renderPageContent.js';
import { renderOperation } from '../openapi/index.js';
import type { LoadedSite } from './loadSite.js';

/** Finds which loaded OpenAPI document defines an operation (preferring the named file) and renders it. */
export function createOperationRenderer(site: Pick<LoadedSite, 'openapi' | 'operations'>): OperationRenderer {
  return {
    render(method, path, specHint, ctx, pageContent) {
      const hint = specHint?.replace(/^\.?\//, '');
      const specs = [...site.operations.keys()];
      const ordered = hint ? [...specs.filter((s) => s === hint || s.endsWith(`/${hint}`) || hint.endsWith(s)), ...specs] : specs;
      for (const spec of ordered) {
        const found = site.operations.get(spec)?.some((o) => o.method.toUpperCase() === method.toUpperCase() && o.path === path);
        if (!found) continue;
        ctx.assets.use('openapi');
        return renderOperation(site.openapi.get(spec)!, method, path, ctx, { pageContent });
      }
      return null;
    },
  };
}
