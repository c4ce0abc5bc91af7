/** A commit as the prompt lists it. */
export interface PromptCommit {
  sha: string;
  author: string;
  subject: string;
}

/**
 * The automation's prompt followed by what changed since its last completed run, so a
 * scheduled "review what was written this week" knows which commits "this week" means.
 */
export function buildAutomationPrompt(
  prompt: string,
  history: { branch: string; since: string | null; commits: PromptCommit[] } | null,
): string {
  if (!history) return prompt;
  const since = history.since ? `since the last completed run (${history.since.slice(0, 12)})` : 'so far (this is the first completed run)';
  const lines = history.commits.map((c) => `- ${c.sha.slice(0, 12)} ${c.subject} (${c.author})`);
  const list = lines.length > 0 ? lines.join('\n') : '(no new commits)';
  return `${prompt}\n\nCommits on ${history.branch} ${since}:\n${list}\n`;
}
