import type { ExecutionContext } from 'ava';
import fc from 'fast-check';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { systemClock } from '../../src/platform/Clock.js';
import { createAdminKey } from '../../src/features/control/createAdminKey.js';
import { createProject } from '../../src/features/control/createProject.js';
import { makeDocsRemote, writeAgentScript } from '../agent/agentFixture.js';
import { writeBundle } from '../deploy/helpers/testBundles.js';
import { exportToBundle, makeTinySite } from '../export/exportTestHelpers.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';

/** Values that have broken parsers before: traversal, encodings, control bytes, huge and odd numbers. */
export const nasty = fc.constantFrom(
  '..',
  '../../etc/passwd',
  '%2e%2e%2f',
  '%252e%252e',
  '..\\..\\',
  '\u0000',
  '%00',
  '\uFF0E\uFF0E',
  '\u202E',
  'é',
  '😀',
  '-1',
  '0',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  'a'.repeat(5000),
  '%',
  '%zz',
);

/** A JSON Schema node as /openapi.json writes it (the parts the fuzzer reads). */
export interface SchemaNode {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  properties?: Record<string, SchemaNode>;
  required?: string[];
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
}

/** One documented operation. */
export interface Operation {
  method: string;
  path: string;
  secured: boolean;
  /** The key the operation takes: admin (most), assistant (search, page, MCP), none (public). */
  keyKind: 'admin' | 'assistant' | null;
  documented: string[];
  query: { name: string; schema: SchemaNode }[];
  /** Path parameters with their schemas (an enum of file names, say). */
  params: { name: string; schema: SchemaNode }[];
  body: SchemaNode | null;
}

/** Which credential a fuzzed request carries. */
export type AuthKind = 'valid' | 'none' | 'garbage' | 'other' | 'read' | 'basic' | 'typo';

/** A fully populated appliance to fuzz: a live site, a finished export, feedback, agent jobs, several keys. */
export interface FuzzTarget {
  app: TestAppliance;
  operations: Operation[];
  /** Authorization header value per kind ('' for none). */
  authHeader: Record<AuthKind, string>;
  /** The same for operations that take an assistant key: `valid` and `other` are assistant keys, `read` an admin key (refused). */
  assistantAuthHeader: Record<AuthKind, string>;
  /** Real values by parameter or field name (ids, file names, cursors, pages, domains). */
  real: Record<string, string[]>;
  /** The only bundle sources a fuzzed body may name: local files and 127.0.0.1. */
  safeBundleUrls: string[];
  /** The only repositories a fuzzed body may name: local paths. */
  safeRepositories: string[];
}

/**
 * Starts the appliance the fuzzers hit, with one of everything, so generated requests reach
 * the code behind the 404s: a deployed site, a completed export and its signed link, feedback
 * entries, agent jobs (a no-op agent on a local repository), a second project and a read key.
 */
export async function startFuzzTarget(t: ExecutionContext): Promise<FuzzTarget> {
  const site = await makeTinySite(3);
  const { dir, remote } = await makeDocsRemote(t);
  const agent = await writeAgentScript(dir, 'noop.sh', 'echo fuzz');
  const app = await startTestAppliance({
    overrides: {
      sites: [
        { domain: 'tiny.test', source: site },
        { domain: 'docs.test.internal', source: site },
      ],
      agent: { command: [agent], repository: remote },
      feedback: { perClientPerMinute: 1_000_000, perPagePerMinute: 1_000_000, globalPerMinute: 1_000_000 },
      analytics: { requestsPerHour: 1_000_000 },
    },
  });
  t.teardown(() => app.close());
  const other = await createProject(app.control, systemClock, 'other');
  const otherKey = (await createAdminKey(app.control, systemClock, { projectId: other.id, name: 'o', scope: 'write' })).key;
  const readKey = (await createAdminKey(app.control, systemClock, { projectId: app.projectId, name: 'r', scope: 'read' })).key;
  const assistantKey = (
    await createAdminKey(app.control, systemClock, { projectId: app.projectId, name: 'a', scope: 'read', kind: 'assistant' })
  ).key;
  const otherAssistantKey = (
    await createAdminKey(app.control, systemClock, { projectId: other.id, name: 'oa', scope: 'read', kind: 'assistant' })
  ).key;

  const bundles = await makeTempDir('enclave-fuzz-bundles-');
  t.teardown(() => import('node:fs/promises').then((fs) => fs.rm(bundles, { recursive: true, force: true })));
  const zip = join(bundles, 'v1.zip');
  await writeBundle(zip, 'v1');
  const deployed = (await (await app.api('/v1/deployments', { method: 'POST', json: { bundleUrl: zip } })).json()) as { id: string };
  const { job, link } = await exportToBundle(app, 'tiny.test');
  const broken = join(bundles, 'broken.zip');
  await writeFile(broken, 'PK\u0003\u0004 not really a zip');
  const feedbackIds: string[] = [];
  for (const path of ['/', '/guides/start', '/reference']) {
    const res = await fetch(`${app.url}/_enclave/feedback`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ source: 'contextual', path, helpful: true, comment: 'fuzz seed' }),
    });
    feedbackIds.push(((await res.json()) as { id: string }).id);
  }
  const agentJob = (await (await app.api(`/v2/agent/${app.projectId}/job`, { method: 'POST', json: { prompt: 'seed' } })).json()) as {
    id: string;
  };
  const cursor = ((await (await app.api(`/v1/analytics/${app.projectId}/feedback?limit=1`)).json()) as { nextCursor: string }).nextCursor;

  const doc = (await (await app.api('/openapi.json', { key: null })).json()) as {
    paths: Record<
      string,
      Record<
        string,
        {
          security: unknown[];
          responses: Record<string, unknown>;
          parameters?: { name: string; in: string; schema: SchemaNode }[];
          requestBody?: { content: Record<string, { schema: SchemaNode }> };
        }
      >
    >;
  };
  const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      secured: op.security.length > 0,
      keyKind: op.security.length === 0 ? null : 'assistantKey' in (op.security[0] as object) ? 'assistant' : 'admin',
      documented: Object.keys(op.responses),
      query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
      params: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => ({ name: p.name, schema: p.schema })),
      body: op.requestBody?.content['application/json']?.schema ?? null,
    })),
  );

  return {
    app,
    operations,
    authHeader: {
      valid: `Bearer ${app.key}`,
      other: `Bearer ${otherKey}`,
      read: `Bearer ${readKey}`,
      typo: `Bearer ${app.key.slice(0, -1)}${app.key.endsWith('x') ? 'y' : 'x'}`,
      garbage: `Bearer enc_${'A'.repeat(46)}`,
      basic: 'Basic dXNlcjpwYXNz',
      none: '',
    },
    assistantAuthHeader: {
      valid: `Bearer ${assistantKey}`,
      other: `Bearer ${otherAssistantKey}`,
      read: `Bearer ${readKey}`,
      typo: `Bearer ${assistantKey.slice(0, -1)}${assistantKey.endsWith('x') ? 'y' : 'x'}`,
      garbage: `Bearer enc_asst_${'A'.repeat(46)}`,
      basic: 'Basic dXNlcjpwYXNz',
      none: '',
    },
    real: {
      projectId: [app.projectId, other.id],
      jobId: [job.jobId],
      file: [app.features.exports.jobs.find(job.jobId)!.bundle!.file],
      id: [deployed.id, agentJob.id, ...feedbackIds],
      'deployments/id': [deployed.id],
      'job/id': [agentJob.id],
      'feedback/id': feedbackIds,
      cursor: [cursor],
      path: ['/', '/guides/start', '/reference', '/guides'],
      domain: ['tiny.test', 'docs.test.internal', 'sample.enclave.internal', 'unknown.test'],
      version: ['v1', 'fuzz-1'],
      expires: [new URL(link.bundleUrl).searchParams.get('expires')!],
      kid: [new URL(link.bundleUrl).searchParams.get('kid')!],
      sig: [new URL(link.bundleUrl).searchParams.get('sig')!],
    },
    safeBundleUrls: [zip, `file://${zip}`, broken, link.bundleUrl, join(bundles, 'missing.zip'), 'http://127.0.0.1:9/none.zip'],
    safeRepositories: [remote, join(dir, 'missing.git')],
  };
}

/**
 * Rewrites any `repository` or `bundleUrl` anywhere in a JSON body to one of the safe local
 * values: a generated string like `host:path` would make git or the bundle fetcher reach for
 * the network, and tests never leave 127.0.0.1. Non-JSON text is returned unchanged.
 */
export function keepBodyLocal(text: string, target: FuzzTarget, pick: number): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  let changed = false;
  const visit = (node: unknown, depth: number): void => {
    if (!node || typeof node !== 'object' || depth > 64) return;
    for (const [key, child] of Object.entries(node)) {
      if (key === 'repository' || key === 'bundleUrl') {
        const pool = key === 'repository' ? target.safeRepositories : target.safeBundleUrls;
        const safe = typeof child === 'string' && pool.includes(child);
        if (!safe && typeof child !== 'object') {
          (node as Record<string, unknown>)[key] = typeof child === 'string' ? pool[pick % pool.length] : child;
          changed = typeof child === 'string' || changed;
        }
      }
      visit(child, depth + 1);
    }
  };
  visit(value, 0);
  return changed ? JSON.stringify(value) : text;
}

/** Counters and failures shared by the fuzz tests. */
export class FuzzLedger {
  requests = 0;
  fiveXx = 0;
  readonly statuses = new Map<number, number>();
  readonly failures: string[] = [];

  /** The status histogram as a plain object, for the test log. */
  histogram(): Record<string, number> {
    return Object.fromEntries([...this.statuses].sort((a, b) => a[0] - b[0]));
  }

  /**
   * Checks one answer against the invariants: no 5xx except a documented 503, the spec's error
   * shape on JSON errors, no success without a valid key on a secured route, no success with
   * another project's key on this project's path, no write with a read key. Failures are recorded (not thrown) so one run reports every kind.
   */
  check(
    request: { method: string; path: string; op: Operation | null; auth: AuthKind; crossProject?: boolean },
    res: { status: number; contentType: string; text: string },
  ): void {
    const { method, path, op, auth } = request;
    const label = `${method} ${path.slice(0, 120)}`;
    this.requests++;
    this.statuses.set(res.status, (this.statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500 && !(res.status === 503 && op?.documented.includes('503'))) {
      this.fiveXx++;
      this.failures.push(`${res.status} ${label} → ${res.text.slice(0, 200)}`);
      return;
    }
    if (res.status >= 400 && res.contentType.includes('application/json') && res.text) {
      let body: { error?: unknown; details?: unknown };
      try {
        body = JSON.parse(res.text) as typeof body;
      } catch {
        this.failures.push(`unparseable JSON error ${res.status} ${label}`);
        return;
      }
      const shapeOk =
        typeof body.error === 'string' &&
        (body.details === undefined ||
          (Array.isArray(body.details) && body.details.every((d) => typeof (d as { message?: unknown }).message === 'string')));
      if (!shapeOk) this.failures.push(`bad error shape ${res.status} ${label}: ${res.text.slice(0, 200)}`);
    }
    // OPTIONS answers the Allow header with an empty body: it reveals no data, so it isn't a bypass.
    const quietOptions = method === 'OPTIONS' && res.text === '';
    if (op?.secured && auth !== 'valid' && auth !== 'read' && auth !== 'other' && res.status < 400 && !quietOptions) {
      this.failures.push(`auth bypass: ${auth} key got ${res.status} on ${label}`);
    }
    if (request.crossProject && auth === 'other' && res.status < 400 && !quietOptions) {
      this.failures.push(`another project's key got ${res.status} on ${label}`);
    }
    if (op?.secured && auth === 'read' && res.status < 400 && !['GET', 'HEAD', 'OPTIONS'].includes(method)) {
      this.failures.push(`read key wrote: ${label} → ${res.status}`);
    }
  }
}

/** The Authorization header a fuzzed request of `kind` carries to `op` ('' for none). */
export function authHeaderFor(target: FuzzTarget, op: Operation, kind: AuthKind): string {
  return (op.keyKind === 'assistant' ? target.assistantAuthHeader : target.authHeader)[kind];
}
