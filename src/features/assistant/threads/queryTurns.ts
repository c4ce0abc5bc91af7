import type { AssistantTurn } from './AssistantTurn.js';

/** Which turns a report covers: one project, and optionally a time range [fromMs, toMs). */
export interface TurnRange {
  projectId: string;
  fromMs?: number;
  toMs?: number;
}

function inRange(turn: AssistantTurn, range: TurnRange): boolean {
  if (turn.projectId !== range.projectId) return false;
  const at = Date.parse(turn.at);
  return (range.fromMs === undefined || at >= range.fromMs) && (range.toMs === undefined || at < range.toMs);
}

/**
 * One page of a project's turns, newest first. The cursor is the id of the last turn of the
 * previous page (ids are ULIDs, unique), so pages stay stable while new turns arrive.
 */
export function pageTurns(
  turns: readonly AssistantTurn[],
  range: TurnRange,
  page: { limit: number; cursor?: string },
): { turns: AssistantTurn[]; nextCursor: string | null } {
  let start = turns.length - 1;
  if (page.cursor) {
    const at = turns.findLastIndex((t) => t.id === page.cursor);
    start = at < 0 ? -1 : at - 1;
  }
  const out: AssistantTurn[] = [];
  for (let i = start; i >= 0 && out.length <= page.limit; i--) if (inRange(turns[i]!, range)) out.push(turns[i]!);
  const hasMore = out.length > page.limit;
  if (hasMore) out.pop();
  return { turns: out, nextCursor: hasMore ? out.at(-1)!.id : null };
}

/** How many questions came through each door: the site's panel (`web`), assistant keys (`api`), other. */
export function countCallers(
  turns: readonly AssistantTurn[],
  range: TurnRange,
): { web: number; api: number; other: number; total: number } {
  const counts = { web: 0, api: 0, other: 0, total: 0 };
  for (const turn of turns) {
    if (!inRange(turn, range)) continue;
    counts[turn.caller]++;
    counts.total++;
  }
  return counts;
}
