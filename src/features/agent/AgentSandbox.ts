/** A working Landlock launcher and what every sandboxed agent may read; decided once at startup. */
export interface AgentSandbox {
  /** The `enclave-sandbox` binary. */
  launcher: string;
  /** The Landlock ABI the kernel reported. */
  abi: number;
  /** Directories (or files) the agent may read and execute from. */
  readOnly: string[];
  /** Device files the agent may write to besides its run's directory (`/dev/null`, …). */
  writableDevices: string[];
}

/**
 * The agent's argv run through the launcher: it may read `sandbox.readOnly`, do anything in
 * `writable` (the run's own directory) and touch no other file — the data directory, the
 * server's `/proc/<pid>/environ` and other runs' copies stay out of reach.
 */
export function wrapInSandbox(sandbox: AgentSandbox, writable: string, argv: readonly string[]): string[] {
  return [
    sandbox.launcher,
    ...sandbox.readOnly.flatMap((path) => ['--ro', path]),
    ...[writable, ...sandbox.writableDevices].flatMap((path) => ['--rw', path]),
    '--',
    ...argv,
  ];
}
