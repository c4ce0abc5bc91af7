import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/defineRoute.js';
import type { Feature } from '../../features/Feature.js';
import { probeWritable } from '../../platform/store/probeWritable.js';

const readinessSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  store: z.object({ writable: z.boolean(), detail: z.string().optional() }),
  modules: z.record(z.string(), z.object({ status: z.enum(['ok', 'degraded', 'unavailable']), detail: z.string().optional() }).loose()),
});

/** Liveness and readiness probes (no key: load balancers and the Docker HEALTHCHECK call them). */
export function healthRoutes(deps: { dataDir: string; features: Feature[] }): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/_enclave/health',
      summary: 'Liveness: the process answers',
      tag: 'health',
      auth: 'public',
      responses: { 200: { description: 'Alive', schema: z.object({ status: z.literal('ok') }) } },
      handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { status: 'ok' };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/_enclave/ready',
      summary: 'Readiness: store writable and the state of the live site and workers',
      tag: 'health',
      auth: 'public',
      responses: {
        200: { description: 'Ready (status may be `degraded`, with reasons)', schema: readinessSchema },
        503: { description: 'Not ready: the store cannot be written', schema: readinessSchema },
      },
      async handler(ctx) {
        const store = await probeWritable(deps.dataDir);
        const modules: Record<string, { status: 'ok' | 'degraded' | 'unavailable'; detail?: string }> = {};
        for (const feature of deps.features) if (feature.readiness) modules[feature.name] = feature.readiness();
        const degraded = Object.values(modules).some((m) => m.status !== 'ok');
        ctx.set('Cache-Control', 'no-store');
        ctx.status = store.writable ? 200 : 503;
        ctx.body = { status: !store.writable ? 'unavailable' : degraded ? 'degraded' : 'ok', store, modules };
      },
    }),
  ];
}
