import { copyFile, lchown, mkdir, readdir, readFile, readlink, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { AgentRunFailure } from './AgentRunFailure.js';
import type { AgentUser } from './resolveAgentUser.js';

/** How a tree is copied between the appliance's clone and the agent's copy. */
export interface CopyWorkTreeOptions {
  /** Leave out the top-level `.git`: the appliance never takes git internals from the agent. */
  skipTopGit: boolean;
  /** Refuse a `.git` below the top: git would treat it as a nested repository and read its files. */
  refuseNestedGit: boolean;
  /** Chown every copied entry to this user (the agent's copy). */
  owner?: AgentUser | null;
}

/** `filter=<driver>` names a `.gitattributes` line sets (pinned empty so none runs). */
function filterDriversIn(text: string): string[] {
  return [...text.matchAll(/(?:^|\s)filter=([^\s]+)/gm)].map((m) => m[1]);
}

/**
 * Copies the tree at `from` into the existing directory `to` without following any symlink:
 * directories, regular files (mode kept) and symlinks (as links) only; anything else (a fifo,
 * a socket, a device) is refused. Resolves with the filter drivers named by the copied
 * `.gitattributes` files.
 */
export async function copyWorkTree(from: string, to: string, options: CopyWorkTreeOptions): Promise<Set<string>> {
  const drivers = new Set<string>();
  const own = async (path: string) => {
    if (options.owner) await lchown(path, options.owner.uid, options.owner.gid);
  };
  await own(to);
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await readdir(join(from, rel), { withFileTypes: true })) {
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.name === '.git') {
        if (!rel && options.skipTopGit) continue;
        if (rel && options.refuseNestedGit)
          throw new AgentRunFailure(`the agent left a nested repository (${relPath}); refused, nothing was pushed`);
      }
      const source = join(from, relPath);
      const target = join(to, relPath);
      if (entry.isDirectory()) {
        await mkdir(target);
        await own(target);
        await walk(relPath);
      } else if (entry.isFile()) {
        await copyFile(source, target);
        await own(target);
        if (entry.name === '.gitattributes') for (const d of filterDriversIn(await readFile(source, 'utf8'))) drivers.add(d);
      } else if (entry.isSymbolicLink()) {
        await symlink(await readlink(source), target);
        await own(target);
      } else {
        throw new AgentRunFailure(`the agent left ${relPath}, which is not a file, directory or symlink; refused, nothing was pushed`);
      }
    }
  };
  await walk('');
  return drivers;
}
