import AdmZip from 'adm-zip';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir, type TestAppliance } from '../helpers/testAppliance.js';
import type { IssuedBundleLink } from '../../src/features/exports/issueBundleLink.js';
import { sharedPath } from '../helpers/sharedDir.js';

/** The public ExportJob as the API returns it. */
export interface ExportJobBody {
  jobId: string;
  domain: string;
  status: 'queued' | 'running' | 'completed' | 'failed';
  progress: number;
  pageCount: number;
  createdAt: string;
  updatedAt: string;
  version: string | null;
  error?: string;
  expectedPages: number | null;
  failedPages: { path: string; message: string }[];
  warnings: { kind: string; page: string | null; message: string }[];
  warningCount: number;
  warningGroups: { kind: string; count: number; first: { page: string | null; message: string }[] }[];
}

/** The bundle link body. */
export type BundleBody = IssuedBundleLink;

/**
 * Polls the job until `until` holds (or throws after `timeoutMs`), returning every state seen.
 * The default bound is only a hang guard: the test's own time limit (ava's 3 minutes, or the
 * t.timeout of a test that exports a corpus) is the one that counts. It was 4 minutes, which an
 * export of the mcp corpus outlasted beside four CPU hogs while its test allowed 10.
 */
export async function waitForJob(
  app: TestAppliance,
  jobId: string,
  until: (job: ExportJobBody) => boolean,
  timeoutMs = 15 * 60_000,
): Promise<{ job: ExportJobBody; seen: ExportJobBody[] }> {
  const seen: ExportJobBody[] = [];
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const res = await app.api(`/v1/static-export/jobs/${jobId}`);
    if (res.status !== 200) throw new Error(`GET job ${jobId} → ${res.status} ${await res.text()}`);
    const job = (await res.json()) as ExportJobBody;
    seen.push(job);
    if (until(job)) return { job, seen };
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`job ${jobId} did not reach the expected state in ${timeoutMs} ms; last: ${JSON.stringify(seen.at(-1))}`);
}

/** True once a job is completed or failed. */
export const finished = (job: ExportJobBody) => job.status === 'completed' || job.status === 'failed';

/** Starts an export through the API and returns its 202 body. */
export async function startExport(app: TestAppliance, body: Record<string, unknown>): Promise<ExportJobBody> {
  const res = await app.api('/v1/static-export/jobs', { method: 'POST', json: body });
  if (res.status !== 202) throw new Error(`POST job → ${res.status} ${await res.text()}`);
  return (await res.json()) as ExportJobBody;
}

/** Starts an export, waits for it and gets a bundle link; fails loudly if the job failed. */
export async function exportToBundle(app: TestAppliance, domain: string): Promise<{ job: ExportJobBody; link: BundleBody }> {
  const started = await startExport(app, { domain });
  const { job } = await waitForJob(app, started.jobId, finished);
  if (job.status !== 'completed') throw new Error(`export of ${domain} failed: ${job.error}`);
  const res = await app.api(`/v1/static-export/jobs/${job.jobId}/bundle`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`bundle → ${res.status} ${await res.text()}`);
  return { job, link: (await res.json()) as BundleBody };
}

/** A minimal Mintlify site of `pages` pages in a fresh temp directory (fast to export). */
export async function makeTinySite(pages = 2): Promise<string> {
  const dir = await makeTempDir('enclave-tiny-site-');
  const names = Array.from({ length: pages }, (_, i) => (i === 0 ? 'index' : `page-${i}`));
  await writeFile(
    join(dir, 'docs.json'),
    JSON.stringify({
      name: 'Tiny',
      theme: 'mint',
      colors: { primary: '#0D9373' },
      navigation: { groups: [{ group: 'Start', pages: names }] },
    }),
  );
  for (const [i, name] of names.entries())
    await writeFile(join(dir, `${name}.mdx`), `---\ntitle: Tiny page ${i}\n---\n\nHello from page ${i}.\n`);
  return dir;
}

/** Writes a small docs site from relative paths to contents into a temp folder removed after the test. */
export async function writeSite(t: { teardown(fn: () => Promise<void>): void }, files: Record<string, string>): Promise<string> {
  const dir = await makeTempDir('enclave-site-');
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  for (const [rel, text] of Object.entries(files)) {
    await mkdir(join(dir, rel, '..'), { recursive: true });
    await writeFile(join(dir, rel), text);
  }
  return dir;
}

/** A synthetic corpus from the shared generator (`--plain` adds the plain-Markdown twin). */
export async function makeSyntheticCorpus(pages: number, options: { plain?: boolean; parent?: string } = {}): Promise<string> {
  const parent = options.parent ?? (await makeTempDir('enclave-corpus-'));
  const dir = join(parent, `synthetic-${pages}`);
  await mkdir(parent, { recursive: true });
  execFileSync(process.execPath, [sharedPath('bin', 'gen-corpus.mjs'), dir, String(pages), ...(options.plain ? ['--plain'] : [])], {
    stdio: 'ignore',
  });
  return dir;
}

/** Downloads a signed link and returns the bytes (throws on a non-200). */
export async function download(url: string): Promise<Buffer> {
  const res = await fetch(url);
  if (res.status !== 200) throw new Error(`download → ${res.status} ${await res.text()}`);
  return Buffer.from(await res.arrayBuffer());
}

/** SHA-256 hex of bytes. */
export function sha256(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

/** The manifest as the renderer writes it. */
export interface BundleManifest {
  formatVersion: number;
  domain: string;
  version: string;
  jobId: string;
  pages: { path: string; title: string; file: string }[];
  files: { path: string; size: number; sha256: string }[];
}

/**
 * Opens a bundle zip and checks its manifest against the entries: every listed file exists
 * with the listed size and SHA-256, and every entry but the manifest is listed. Returns the
 * manifest and the list of problems (empty when it checks out).
 */
export function checkBundle(zipBytes: Buffer): { manifest: BundleManifest; problems: string[]; zip: AdmZip } {
  const zip = new AdmZip(zipBytes);
  const entries = new Map(
    zip
      .getEntries()
      .filter((e) => !e.isDirectory)
      .map((e) => [e.entryName, e]),
  );
  const manifestEntry = entries.get('_enclave/manifest.json');
  if (!manifestEntry) throw new Error('bundle has no _enclave/manifest.json');
  const manifest = JSON.parse(manifestEntry.getData().toString('utf8')) as BundleManifest;
  const problems: string[] = [];
  const listed = new Set<string>();
  for (const file of manifest.files) {
    listed.add(file.path);
    const entry = entries.get(file.path);
    if (!entry) {
      problems.push(`missing: ${file.path}`);
      continue;
    }
    const data = entry.getData();
    if (data.length !== file.size) problems.push(`size of ${file.path}: ${data.length} != ${file.size}`);
    if (sha256(data) !== file.sha256) problems.push(`sha256 of ${file.path} differs`);
  }
  for (const name of entries.keys()) if (name !== '_enclave/manifest.json' && !listed.has(name)) problems.push(`not in manifest: ${name}`);
  return { manifest, problems, zip };
}
