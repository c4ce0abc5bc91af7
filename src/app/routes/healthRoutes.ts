import { z } from 'zod';
import { connectionBudgetOf, type ConnectionBudget } from '../../http/ConnectionGuard.js';
import { defineRoute, type RouteSpec } from '../../http/defineRoute.js';
import type { Feature } from '../../features/Feature.js';
import { probeWritable } from '../../platform/store/probeWritable.js';

const readinessSchema = z.object({
  status: z.enum(['ok', 'degraded', 'unavailable']),
  store: z.object({ writable: z.boolean(), detail: z.string().optional() }),
  modules: z.record(z.string(), z.object({ status: z.enum(['ok', 'degraded', 'unavailable']), detail: z.string().optional() }).loose()),
});

const connectionsSchema = z
  .object({ open: z.number(), ordinarySlots: z.number(), stalled: z.number(), cutSlowReaders: z.number() })
  .describe(
    "This listener's sockets: open, slots for ordinary requests, responses whose reader stopped taking bytes, readers cut so far for reading too slowly",
  );

/** What the probes say of an exhausted connection budget. */
function describeExhaustion(budget: ConnectionBudget): string {
  return `a new connection to this listener found every slot taken within the last 10 s (${budget.open} open, ${budget.ordinarySlots} ordinary slots, ${budget.stalled} stalled readers): new readers are being refused`;
}

/**
 * Liveness and readiness probes (no key: load balancers and the Docker HEALTHCHECK call them).
 * Both report on the listener they were asked through: `health` answers 503 `overloaded` while
 * its connection budget is exhausted (so the Docker HEALTHCHECK, which polls it, turns the
 * container unhealthy instead of green while readers are refused), `ready` lists it as a
 * degraded `connections` module.
 */
export function healthRoutes(deps: { dataDir: string; features: Feature[] }): RouteSpec[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/_enclave/health',
      summary: 'Liveness: the process answers, and this listener still has connections for readers',
      tag: 'health',
      auth: 'public',
      responses: {
        200: { description: 'Alive', schema: z.object({ status: z.literal('ok') }) },
        503: {
          description: 'Alive, but every connection slot is taken (readers are refused): a flood or slow readers',
          schema: z.object({ status: z.literal('overloaded'), detail: z.string(), connections: connectionsSchema }),
        },
      },
      handler(ctx) {
        ctx.set('Cache-Control', 'no-store');
        const budget = connectionBudgetOf(ctx.req);
        if (budget?.exhausted) {
          const { exhausted: _exhausted, ...connections } = budget;
          ctx.status = 503;
          ctx.body = { status: 'overloaded', detail: describeExhaustion(budget), connections };
          return;
        }
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
        const budget = connectionBudgetOf(ctx.req);
        if (budget) {
          const { exhausted, ...counts } = budget;
          modules.connections = exhausted
            ? { status: 'degraded', detail: describeExhaustion(budget), ...counts }
            : { status: 'ok', ...counts };
        }
        const degraded = Object.values(modules).some((m) => m.status !== 'ok');
        ctx.set('Cache-Control', 'no-store');
        ctx.status = store.writable ? 200 : 503;
        ctx.body = { status: !store.writable ? 'unavailable' : degraded ? 'degraded' : 'ok', store, modules };
      },
    }),
  ];
}
