/**
 * Why an agent run failed, worded for the client: it becomes the job's `error`, so it never
 * holds internal paths, git's raw output or credentials (those go to the job log).
 */
export class AgentRunFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AgentRunFailure';
  }
}
