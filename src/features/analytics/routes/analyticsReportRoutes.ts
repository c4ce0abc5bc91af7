import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../../http/defineRoute.js';
import type { RateLimiter } from '../../../http/RateLimiter.js';
import type { AnalyticsReports } from '../AnalyticsReports.js';
import {
  searchesBodySchema,
  searchesQuerySchema,
  viewsBodySchema,
  viewsQuerySchema,
  visitorsBodySchema,
  visitorsQuerySchema,
} from './analyticsReportSchemas.js';

const projectParams = z.object({ projectId: z.string() });
const errors = {
  400: { description: 'Invalid parameters (every problem listed)' },
  401: { description: 'Missing or invalid admin key' },
  403: { description: 'Key of another project' },
  429: { description: 'Analytics budget of this project spent (Retry-After); shared with the feedback endpoints' },
};

/** `/v1/analytics/:projectId/{views,visitors,searches}`: reading analytics, on the feedback endpoints' budget. */
// size: a list of route declarations (method, path, schemas for /openapi.json, a short handler each), read as a table
export function analyticsReportRoutes(deps: { reports: AnalyticsReports; limiter: RateLimiter }): RouteSpec[] {
  const common = { tag: 'analytics', auth: 'admin' as const, params: projectParams, rateLimit: { limiter: deps.limiter } };
  return [
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/analytics/:projectId/views',
      summary: 'Page views per page (human / AI), most viewed first',
      query: viewsQuerySchema,
      responses: { 200: { description: 'Totals and one page of rows', schema: viewsBodySchema }, ...errors },
      handler(ctx, { params, query }) {
        const report = deps.reports.views(
          params.projectId,
          { fromMs: query.dateFrom, toMs: query.dateTo, domain: query.domain, version: query.version },
          { limit: query.limit ?? 50, offset: query.offset ?? 0, byDay: query.groupBy === 'day' },
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { totals: report.totals, views: report.rows, hasMore: report.hasMore, ...(report.days ? { days: report.days } : {}) };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/analytics/:projectId/visitors',
      summary: 'Distinct visitors per page (human / AI), daily-salted, most visited first',
      query: visitorsQuerySchema,
      responses: { 200: { description: 'Site-wide totals and one page of rows', schema: visitorsBodySchema }, ...errors },
      handler(ctx, { params, query }) {
        const report = deps.reports.visitors(
          params.projectId,
          { fromMs: query.dateFrom, toMs: query.dateTo, domain: query.domain },
          { limit: query.limit ?? 50, offset: query.offset ?? 0, byDay: query.groupBy === 'day' },
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = { totals: report.totals, visitors: report.rows, hasMore: report.hasMore, ...(report.days ? { days: report.days } : {}) };
      },
    }),
    defineRoute({
      ...common,
      method: 'GET',
      path: '/v1/analytics/:projectId/searches',
      summary: 'Search queries of the site, most searched first, with click-through',
      query: searchesQuerySchema,
      responses: { 200: { description: 'One page of queries', schema: searchesBodySchema }, ...errors },
      handler(ctx, { params, query }) {
        const limit = query.limit ?? 50;
        const offset = query.cursor ?? 0;
        const report = deps.reports.searches(
          params.projectId,
          { fromMs: query.dateFrom, toMs: query.dateTo, domain: query.domain, noResults: query.noResults },
          { limit, offset },
        );
        ctx.set('Cache-Control', 'no-store');
        ctx.body = {
          searches: report.searches,
          totalSearches: report.totalSearches,
          nextCursor: report.hasMore ? `o${offset + limit}` : null,
        };
      },
    }),
  ];
}
