import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { z } from 'zod';
import type { AuthState } from '../../http/AuthState.js';
import { defineRoute } from '../../http/defineRoute.js';
import type { Feature } from '../Feature.js';

/** The dashboard's files: its own, and uPlot's from node_modules (an npm dependency, never a CDN). */
const ASSETS: Record<string, { from: () => string; type: string }> = {
  'dashboard.js': { from: () => new URL('./assets/dashboard.js', import.meta.url).pathname, type: 'text/javascript; charset=utf-8' },
  'dashboard.css': { from: () => new URL('./assets/dashboard.css', import.meta.url).pathname, type: 'text/css; charset=utf-8' },
  'uplot.js': {
    from: () => createRequire(import.meta.url).resolve('uplot/dist/uPlot.iife.min.js'),
    type: 'text/javascript; charset=utf-8',
  },
  'uplot.css': { from: () => createRequire(import.meta.url).resolve('uplot/dist/uPlot.min.css'), type: 'text/css; charset=utf-8' },
};

/**
 * The admin dashboard at `/_enclave/admin`: a static page and its scripts, read into memory at
 * startup. createApp serves it only on a listener without docs (the admin listener, or the
 * dashboard's own), so no author's script shares its origin. It holds no data and no key: the
 * page asks for a key, keeps it in that origin's sessionStorage and calls the admin API with
 * it. The app's own CSP (scripts from 'self' only, no inline script) applies to it unchanged.
 */
export async function createDashboardFeature(): Promise<Feature> {
  const page = await readFile(new URL('./assets/index.html', import.meta.url), 'utf8');
  const files = new Map<string, { body: Buffer; type: string }>();
  for (const [name, asset] of Object.entries(ASSETS)) files.set(name, { body: await readFile(asset.from()), type: asset.type });
  return {
    name: 'dashboard',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/_enclave/admin',
        summary: 'The admin dashboard (static page; it asks for a key)',
        tag: 'dashboard',
        auth: 'public',
        responses: { 200: { description: 'The page', contentType: 'text/html' } },
        handler(ctx) {
          ctx.set('Cache-Control', 'no-cache');
          ctx.type = 'text/html; charset=utf-8';
          ctx.body = page;
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/_enclave/admin/assets/:file',
        summary: 'A script or stylesheet of the dashboard',
        tag: 'dashboard',
        auth: 'public',
        params: z.object({ file: z.enum(Object.keys(ASSETS) as [string, ...string[]]) }),
        responses: { 200: { description: 'The file' }, 400: { description: 'Not a dashboard file' } },
        handler(ctx, { params }) {
          const file = files.get(params.file)!;
          ctx.set('Cache-Control', 'no-cache');
          ctx.type = file.type;
          ctx.body = file.body;
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/_enclave/admin/session',
        summary: 'The project and scope of the key the dashboard signed in with',
        tag: 'dashboard',
        auth: 'admin',
        responses: {
          200: { description: 'Who the key is', schema: z.object({ projectId: z.string(), scope: z.string() }) },
          401: { description: 'Missing or invalid admin key' },
        },
        handler(ctx) {
          const auth = ctx.state.auth as AuthState;
          ctx.set('Cache-Control', 'no-store');
          ctx.body = { projectId: auth.projectId, scope: auth.scope };
        },
      }),
    ],
  };
}
