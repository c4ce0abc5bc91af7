import { execFile, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { ExecutionContext } from 'ava';
import type { Config } from '../../src/config/schema.js';
import type { Clock } from '../../src/platform/Clock.js';
import { startGitHttpServer as startSmartHttpServer } from '../helpers/gitHttpServer.js';
import { checkAgainstOpenApi } from '../helpers/openApiConformance.js';
import { gitAs } from '../helpers/testGit.js';
import { projectRoot, type SpawnedAppliance } from '../helpers/spawnAppliance.js';
import { makeTempDir, startTestAppliance, type TestAppliance } from '../helpers/testAppliance.js';

const run = promisify(execFile);

/** Runs git in `cwd` as a test user (the tests' own commits, not the agent's). */
export const git = gitAs('Test Writer');

/** A temp dir holding a bare repository `remote.git` whose `main` has one commit of docs. */
export async function makeDocsRemote(t: ExecutionContext): Promise<{ dir: string; remote: string }> {
  const dir = await makeTempDir('enclave-agent-');
  // The agent runs as an unprivileged user when the tests run as root: it must be able to run
  // scripts from here and leave what it saw for the test to read.
  await chmod(dir, 0o777);
  const remote = join(dir, 'remote.git');
  const seed = join(dir, 'seed');
  await git(dir, 'init', '--quiet', '--bare', '--initial-branch=main', remote);
  await mkdir(join(seed, 'guides'), { recursive: true });
  await writeFile(
    join(seed, 'docs.json'),
    JSON.stringify({ name: 'Test docs', navigation: [{ group: 'Guides', pages: ['index', 'guides/setup'] }] }, null, 2),
  );
  await writeFile(join(seed, 'index.mdx'), '---\ntitle: Welcome\n---\n\nHello from the test docs.\n');
  await writeFile(join(seed, 'guides', 'setup.mdx'), '---\ntitle: Setup\n---\n\nInstall the thing.\n');
  await git(dir, 'init', '--quiet', '--initial-branch=main', seed);
  await git(seed, 'add', '--all');
  await git(seed, 'commit', '--quiet', '-m', 'Initial docs');
  await git(seed, 'push', '--quiet', remote, 'main');
  t.teardown(() => run('rm', ['-rf', dir]).then(() => undefined));
  return { dir, remote };
}

/**
 * Bash that prints the script's process group id as the host sees it. `$$` would not do: an
 * agent in its own PID namespace is pid 1 there, while /proc stays the host's.
 */
export const PRINT_HOST_PGID = 'read -r -a __stat < /proc/self/stat; echo "${__stat[4]}"';

/** Builds build/enclave-sandbox if needed: npm test does it first, a lone `npx ava` may not have. */
export function buildSandboxLauncher(): void {
  spawnSync(process.execPath, ['scripts/build-sandbox.mjs'], { cwd: projectRoot, stdio: 'inherit' });
}

/** Writes an executable bash agent script into `dir` and returns its path. */
export async function writeAgentScript(dir: string, name: string, body: string): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, `#!/bin/bash\nset -euo pipefail\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

/** Starts a real appliance with agent settings over the defaults; closed when the test ends. */
export async function startAgentAppliance(
  t: ExecutionContext,
  agent: Partial<Config['agent']>,
  options: { clock?: Clock; dataDir?: string } = {},
): Promise<TestAppliance> {
  const app = await startTestAppliance({ overrides: { agent }, clock: options.clock, dataDir: options.dataDir });
  t.teardown(() => app.close());
  return app;
}

/** What the job helpers below need of an appliance: its project and an authenticated fetch. */
export type AgentApi = Pick<TestAppliance, 'projectId' | 'api'>;

/**
 * The AgentApi of an appliance started as its own process (spawnAppliance): the admin key and
 * project are the ones its first start printed.
 */
export function apiOfSpawned(server: SpawnedAppliance): AgentApi {
  const key = /ENCLAVE_ADMIN_KEY=(\S+)/.exec(server.stdout())?.[1];
  const projectId = /ENCLAVE_PROJECT_ID=(\S+)/.exec(server.stdout())?.[1];
  if (!key || !projectId) throw new Error('the appliance printed no admin key and project on its first start');
  return {
    projectId,
    api: async (path, init = {}) => {
      const { json, key: _ignored, ...rest } = init;
      const headers = { Authorization: `Bearer ${key}`, ...(json === undefined ? {} : { 'Content-Type': 'application/json' }) };
      const url = new URL(`${server.url}${path}`);
      const res = await fetch(url, { ...rest, headers, body: json === undefined ? rest.body : JSON.stringify(json) });
      await checkAgainstOpenApi(server.url, (rest.method ?? 'GET').toUpperCase(), url, res);
      return res;
    },
  };
}

/** The JSON body of an API response together with its status. */
// biome-ignore lint/suspicious/noExplicitAny: a response body read as loose JSON; each test checks the fields it needs
export async function call<T = any>(
  app: AgentApi,
  path: string,
  init: Parameters<TestAppliance['api']>[1] = {},
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await app.api(path, init);
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
}

/** Polls a job until it is no longer `active` (bounded) and returns it. */
// biome-ignore lint/suspicious/noExplicitAny: a response body read as loose JSON; each test checks the fields it needs
export async function waitForJob(app: AgentApi, id: string, timeoutMs = 120_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { status, body } = await call(app, `/v2/agent/${app.projectId}/job/${id}`);
    if (status !== 200) throw new Error(`GET job ${id}: ${status} ${JSON.stringify(body)}`);
    if (body.status !== 'active') return body;
    if (Date.now() > deadline) throw new Error(`job ${id} still active after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Creates a job and waits for it to finish. */
// biome-ignore lint/suspicious/noExplicitAny: a response body read as loose JSON; each test checks the fields it needs
export async function runJob(app: AgentApi, body: Record<string, unknown>, timeoutMs?: number): Promise<any> {
  const created = await call(app, `/v2/agent/${app.projectId}/job`, { method: 'POST', json: body });
  if (created.status !== 201) throw new Error(`create: ${created.status} ${JSON.stringify(created.body)}`);
  return waitForJob(app, created.body.id, timeoutMs);
}

/**
 * Live (non-zombie) processes of group `pgid`, from /proc. `kill(-pgid, 0)` alone would count
 * zombies that wait for a reaper which, in some containers, never comes.
 */
export function processGroupMembers(pgid: number): string[] {
  const members: string[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue; // exited while we looked
    }
    // Fields after the parenthesised command name: state ppid pgrp …
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(pgrp) === pgid && state !== 'Z')
      members.push(`${entry} ${state} ${stat.slice(stat.indexOf('('), stat.lastIndexOf(')') + 1)}`);
  }
  return members;
}

/**
 * A git smart-HTTP server on 127.0.0.1 (git http-backend behind node:http) serving the bare
 * repositories in `root`, requiring HTTP basic auth `user:token` — the deploy-token setup the
 * docs recommend. Resolves with its base URL; closed when the test ends.
 */
export async function startGitHttpServer(t: ExecutionContext, root: string, user: string, token: string): Promise<string> {
  const server = await startSmartHttpServer(root, { basicAuth: { user, password: token } });
  t.teardown(() => server.close());
  return server.url;
}
