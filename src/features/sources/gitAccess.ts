import { readFile } from 'node:fs/promises';
import type { GitSourceConfig } from '../../config/sections/gitSource.js';
import { gitPins } from '../../platform/git/runGit.js';
import { sshClientOptions, sshCommandLine } from './ssh/sshClientOptions.js';

/** What a fetch of one git source needs beyond the hardened defaults: pins and the ssh command. */
export interface GitAccess {
  pins: Array<[string, string]>;
  sshCommand?: string;
}

/** True for ssh:// and scp-like (`git@host:path`) URLs. */
export function isSshUrl(url: string): boolean {
  return url.startsWith('ssh://') || !/^[a-z]+:\/\//i.test(url);
}

/**
 * Reads the source's secrets from their files (at each fetch, so a rotated token is picked up
 * without a restart) and turns them into git settings: an http `Authorization` header pinned
 * for this URL only, or an ssh command with that key and strict host-key checking against the
 * configured known_hosts (ssh reads both files at each fetch too). The URL itself can't be
 * rewritten (`gitPins`).
 */
export async function gitAccess(source: GitSourceConfig): Promise<GitAccess> {
  const pins = gitPins(source.git, []);
  pins.push(['protocol.file.allow', 'never'], ['submodule.recurse', 'false']);
  if (isSshUrl(source.git)) {
    // `-F /dev/null`: no ssh_config of the machine or the server's user (a ProxyCommand, a host
    // alias, another key) applies; the options themselves are sshClientOptions'.
    return { pins, sshCommand: sshCommandLine(sshClientOptions(source)) };
  }
  if (source.tokenFile) {
    const token = (await readFile(source.tokenFile, 'utf8')).trim();
    const basic = Buffer.from(`${source.username ?? 'enclave'}:${token}`).toString('base64');
    // http.<url>.extraHeader: sent to this repository only, never to a server it redirects to.
    pins.push([`http.${source.git}.extraHeader`, `Authorization: Basic ${basic}`]);
  }
  return { pins };
}
