import type { ExecutionContext } from 'ava';
import { spawnAppliance, type SpawnedAppliance } from '../helpers/spawnAppliance.js';
import { startTestAppliance, type ConfigOverrides, type TestAppliance } from '../helpers/testAppliance.js';

/** The spawned server a round acts on, with the admin key printed on the data directory's first start. */
export interface CrashVictim {
  server: SpawnedAppliance;
  key: string;
  projectId: string;
  /** fetch() against the spawned server with the admin key and a JSON body. */
  api(path: string, init?: { method?: string; json?: unknown }): Promise<Response>;
}

/** The appliance restarted on the same data directory after the kill, using the original key. */
export type Restarted = TestAppliance;

/** One scenario of "spawn, act, kill -9 at a random moment, restart, check". */
export interface CrashScenario<A> {
  rounds: number;
  dataDir: string;
  /** Extra environment of the spawned server (ENCLAVE_CONFIG, ENCLAVE_SECTION__KEY …), per round. */
  env(round: number): Record<string, string>;
  /** Config of the in-process restart that the check runs against. */
  restartOverrides: ConfigOverrides;
  /** Starts the work to be interrupted; resolves once it is under way. */
  act(victim: CrashVictim, round: number): Promise<A>;
  /** The kill lands uniformly at random this many milliseconds after `act` resolved. */
  killWindowMs: [number, number];
  /** Assertions after the restart: the store loaded, acknowledged writes are there, nothing half-done. */
  check(app: Restarted, acted: A, round: number): Promise<void>;
}

/** What a scenario did, for the test log and the report. */
export interface CrashSummary {
  injected: number;
  survived: number;
  killDelaysMs: number[];
}

/**
 * Runs a crash scenario `rounds` times on one data directory: spawn the real server
 * (`src/main.ts`), act, SIGKILL it at a random moment, restart the appliance in-process on the
 * same directory (the same startup path `enclave serve` takes, minus the CLI wrapper), check,
 * stop cleanly, repeat. A round "survives" when the restart succeeded and its check passed.
 */
export async function crashRepeatedly<A>(t: ExecutionContext, scenario: CrashScenario<A>): Promise<CrashSummary> {
  const summary: CrashSummary = { injected: 0, survived: 0, killDelaysMs: [] };
  let key = '';
  let projectId = '';
  for (let round = 0; round < scenario.rounds; round++) {
    // spawnAppliance's own bound (a hang guard): a start beside CPU hogs can take over a minute.
    const server = await spawnAppliance({ ENCLAVE_DATA_DIR: scenario.dataDir, ...scenario.env(round) });
    t.teardown(() => void server.child.kill('SIGKILL'));
    key ||= /ENCLAVE_ADMIN_KEY=(\S+)/.exec(server.stdout())?.[1] ?? '';
    projectId ||= /ENCLAVE_PROJECT_ID=(\S+)/.exec(server.stdout())?.[1] ?? '';
    if (!key) throw new Error('the first start printed no admin key');
    const victim: CrashVictim = {
      server,
      key,
      projectId,
      api: (path, init = {}) =>
        fetch(`${server.url}${path}`, {
          method: init.method ?? 'GET',
          headers: { Authorization: `Bearer ${key}`, ...(init.json === undefined ? {} : { 'Content-Type': 'application/json' }) },
          body: init.json === undefined ? undefined : JSON.stringify(init.json),
        }),
    };
    const acted = await scenario.act(victim, round);
    const [min, max] = scenario.killWindowMs;
    const delay = Math.round(min + Math.random() * (max - min));
    await new Promise((r) => setTimeout(r, delay));
    server.child.kill('SIGKILL');
    const ended = await server.exited;
    if (ended !== 'SIGKILL')
      throw new Error(`round ${round}: the server had already exited (${ended}) before the kill\n${server.stderr()}`);
    summary.injected++;
    summary.killDelaysMs.push(delay);

    const app = await startTestAppliance({ dataDir: scenario.dataDir, overrides: scenario.restartOverrides, serveSample: false });
    const restarted: Restarted = { ...app, key, projectId, api: (path, init = {}) => app.api(path, { key, ...init }) };
    try {
      await scenario.check(restarted, acted, round);
      summary.survived++;
    } finally {
      await app.stop();
    }
  }
  return summary;
}
