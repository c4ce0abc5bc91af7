/** `1 page`, `2 pages`, `0 pages`: a count with its noun, for the CLI's output. */
export function countOf(count: number, noun: string, plural = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : plural}`;
}
