import test from 'ava';
import { wrapInSandbox } from '../../src/features/agent/AgentSandbox.js';
import { planAgentSandbox, type SandboxSetup } from '../../src/features/agent/planAgentSandbox.js';

const missing: SandboxSetup = {
  mode: 'auto',
  agentHasOwnUser: false,
  agentIsRoot: false,
  launcher: '/nonexistent/enclave-sandbox',
  dataDir: '/srv/enclave/data',
  program: '/usr/bin/true',
  args: [],
  extraReadPaths: [],
};

test('the launcher argv: read-only paths, then the run directory and devices writable, then the agent argv after --', (t) => {
  const sandbox = { launcher: '/app/build/enclave-sandbox', abi: 7, readOnly: ['/usr', '/opt/agent'], writableDevices: ['/dev/null'] };
  t.deepEqual(wrapInSandbox(sandbox, '/tmp/trees/aj_1', ['/opt/agent/run', '--ro', '--']), [
    '/app/build/enclave-sandbox',
    '--ro',
    '/usr',
    '--ro',
    '/opt/agent',
    '--rw',
    '/tmp/trees/aj_1',
    '--rw',
    '/dev/null',
    '--',
    '/opt/agent/run',
    '--ro',
    '--',
  ]);
});

test('agent.sandbox "landlock" without the launcher refuses to start, naming what is missing', (t) => {
  const err = t.throws(() => planAgentSandbox({ ...missing, mode: 'landlock' }));
  t.is(
    err!.message,
    'agent.sandbox is "landlock" but agents cannot be sandboxed here: the launcher /nonexistent/enclave-sandbox is missing (npm run build compiles it; it needs gcc)',
  );
});

test('agent.sandbox "auto" without the launcher runs unsandboxed and says what the agent can then read', (t) => {
  const plan = planAgentSandbox(missing);
  t.is(plan.sandbox, null);
  t.regex(plan.warning!, /^agents run unsandboxed as the server's own user: they can read the server's environment/);
  t.regex(plan.warning!, /\/nonexistent\/enclave-sandbox is missing/);
});

test('no sandbox and no warning when "off" or "auto" with an agent that has a uid of its own; "off" for one sharing the server user warns (issue 28)', (t) => {
  t.deepEqual(planAgentSandbox({ ...missing, mode: 'off', agentHasOwnUser: true }), {
    sandbox: null,
    reaper: null,
    warning: null,
    notes: [],
  });
  t.deepEqual(planAgentSandbox({ ...missing, agentHasOwnUser: true }), { sandbox: null, reaper: null, warning: null, notes: [] });
  t.regex(
    planAgentSandbox({ ...missing, mode: 'off' }).warning!,
    /^agents run unsandboxed as the server's own user: .*\(agent\.sandbox is "off"\)/,
  );
});

test('an agent running as root is warned about whatever agent.sandbox says', (t) => {
  for (const mode of ['off', 'auto'] as const)
    t.regex(planAgentSandbox({ ...missing, mode, agentIsRoot: true }).warning!, /^the agent runs as root/);
});
