/** True when a verb's arguments ask for help: then it prints its usage and does nothing else. */
export function helpRequested(args: string[]): boolean {
  return args.includes('--help') || args.includes('-h') || args[0] === 'help';
}
