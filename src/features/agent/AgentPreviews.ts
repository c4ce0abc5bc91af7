/**
 * The agent feature's port to branch previews (app/ wires the sources feature to it): a job
 * that pushed a branch of a repository a git-sourced site of its project builds from gets a
 * preview of that branch, whose URL goes into its commit, its pull request link and the job.
 */
export interface AgentPreviews {
  /** Where the preview of `branch` of `repository` is (or will be); null when no site of the project builds from it. */
  urlFor(projectId: string, repository: string, branch: string): string | null;
  /** Asks for a (re)deploy of that preview (the job's branch was pushed). */
  request(projectId: string, repository: string, branch: string, jobId: string): Promise<void>;
}
