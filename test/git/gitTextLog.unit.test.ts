import test from 'ava';
import { GitTextLog } from '../../src/platform/git/GitTextLog.js';

const reasonOf = (...chunks: string[]) => {
  const log = new GitTextLog();
  for (const chunk of chunks) log.write(chunk);
  return log.reason();
};

test("git's last fatal line is the reason; command lines are not", (t) => {
  t.is(reasonOf('$ git fetch x\n', 'remote: counting\nfatal: repository not found\n'), 'fatal: repository not found');
  t.is(reasonOf('$ git fetch x\n', 'something odd\n'), 'something odd');
  t.is(reasonOf(''), '');
});

test("over ssh, ssh's line above git's generic one says why", (t) => {
  const tail =
    'fatal: Could not read from remote repository.\n\nPlease make sure you have the correct access rights\nand the repository exists.\n';
  t.is(
    reasonOf('$ git fetch ssh://h/r\n', `Host key verification failed.\n${tail}`),
    'Host key verification failed. fatal: Could not read from remote repository.',
  );
  t.is(
    reasonOf(`git@h: Permission denied (publickey).\n${tail}`),
    'git@h: Permission denied (publickey). fatal: Could not read from remote repository.',
  );
  t.is(reasonOf(`$ git fetch x\n${tail}`), 'fatal: Could not read from remote repository.', 'nothing above it: git alone');
});
