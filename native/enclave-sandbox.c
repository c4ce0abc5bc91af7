/*
 * enclave-sandbox: runs a program under a Landlock ruleset (Linux >= 5.13, unprivileged).
 *
 *   enclave-sandbox [--ro PATH]... [--rw PATH]... -- PROGRAM [ARG]...
 *   enclave-sandbox --reap-only -- PROGRAM [ARG]...   no Landlock, only the process accounting below
 *   enclave-sandbox --probe          prints "landlock ABI N" and exits 0 if a ruleset can be enforced
 *
 * The program may then read (and execute) below the --ro paths, do anything below the --rw
 * paths, and touch no other file. Landlock also denies a sandboxed process ptrace-mode access
 * (/proc/<pid>/environ, /proc/<pid>/mem, ...) to every process outside its sandbox, and from
 * ABI 6 on it may not signal them nor connect to their abstract unix sockets. Enclave uses it
 * to keep an agent that runs as the server's own uid out of the server's environment and data.
 *
 * Process accounting: the launcher does not exec the program but forks it and stays, outside
 * the sandbox, as a child subreaper (PR_SET_CHILD_SUBREAPER). Every process the program starts
 * — also one that calls setsid() and clears its environment — is re-parented to the launcher
 * when its own parent dies, so it stays a descendant of the launcher. When the program exits,
 * or the launcher gets SIGTERM/SIGINT/SIGHUP (the server's timeout or shutdown), the launcher
 * SIGKILLs every descendant it finds in /proc, round after round until it has no child left,
 * then exits with the program's status. The program gets PR_SET_PDEATHSIG so it dies with a
 * launcher killed outright; its descendants then escape (so the server signals the launcher
 * first, and SIGKILLs it only after a grace). A sandboxed program, outside the launcher's
 * Landlock domain, can't signal the launcher with ABI 6 or later; before that, or with
 * --reap-only, a hostile program running as the same user can kill it first.
 *
 * Exit codes of its own (else the program's): 64 usage, 69 Landlock unavailable, 71 setting
 * it up failed, 126/127 the program could not be executed. It never runs a program unsandboxed
 * unless told --reap-only.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Our own copies of the UAPI: the build machine's headers may predate the running kernel. */
#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#define SYS_landlock_add_rule 445
#define SYS_landlock_restrict_self 446
#endif
#define CREATE_RULESET_VERSION (1U << 0)
#define RULE_PATH_BENEATH 1

#define FS_EXECUTE (1ULL << 0)
#define FS_WRITE_FILE (1ULL << 1)
#define FS_READ_FILE (1ULL << 2)
#define FS_READ_DIR (1ULL << 3)
#define FS_REFER (1ULL << 13)    /* ABI 2 */
#define FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#define FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#define FS_ALL_ABI1 ((1ULL << 13) - 1) /* EXECUTE .. MAKE_SYM */
/* Rights that make sense on a file rather than a directory (the kernel refuses the others). */
#define FS_FILE_RIGHTS (FS_EXECUTE | FS_WRITE_FILE | FS_READ_FILE | FS_TRUNCATE | FS_IOCTL_DEV)
#define FS_READ_RIGHTS (FS_EXECUTE | FS_READ_FILE | FS_READ_DIR)

#define SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define SCOPE_SIGNAL (1ULL << 1)               /* ABI 6 */

#define EXIT_USAGE 64
#define EXIT_UNAVAILABLE 69
#define EXIT_OSERR 71

struct ruleset_attr {
  __u64 handled_access_fs;
  __u64 handled_access_net;
  __u64 scoped;
};

struct path_beneath_attr {
  __u64 allowed_access;
  __s32 parent_fd;
} __attribute__((packed));

static int fail(int code, const char *what, const char *detail) {
  fprintf(stderr, "enclave-sandbox: %s%s%s\n", what, detail ? ": " : "", detail ? detail : "");
  return code;
}

/* Every filesystem right the running kernel knows (best effort: older ABIs handle fewer). */
static __u64 handled_rights(int abi) {
  __u64 rights = FS_ALL_ABI1;
  if (abi >= 2) rights |= FS_REFER;
  if (abi >= 3) rights |= FS_TRUNCATE;
  if (abi >= 5) rights |= FS_IOCTL_DEV;
  return rights;
}

/* Allows `rights` below `path`. A missing read-only path is skipped (not every system has /lib32). */
static int add_path(int ruleset, const char *path, __u64 rights, int optional) {
  int fd = open(path, O_PATH | O_CLOEXEC);
  if (fd < 0) {
    if (optional && errno == ENOENT) return 0;
    return fail(EXIT_OSERR, path, strerror(errno));
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    close(fd);
    return fail(EXIT_OSERR, path, strerror(errno));
  }
  if (!S_ISDIR(st.st_mode)) rights &= FS_FILE_RIGHTS;
  struct path_beneath_attr rule = {.allowed_access = rights, .parent_fd = fd};
  long ok = syscall(SYS_landlock_add_rule, ruleset, RULE_PATH_BENEATH, &rule, 0);
  int err = errno;
  close(fd);
  return ok == 0 ? 0 : fail(EXIT_OSERR, path, strerror(err));
}

/* Builds the ruleset from argv (NULL argv: an empty one, for --probe) and enforces it on this process. */
static int restrict_self(int abi, int argc, char **argv, int end) {
  __u64 all = handled_rights(abi);
  struct ruleset_attr attr = {.handled_access_fs = all};
  if (abi >= 6) attr.scoped = SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL;
  int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
  if (ruleset < 0) return fail(EXIT_UNAVAILABLE, "Landlock is unavailable (creating a ruleset failed)", strerror(errno));
  for (int i = 1; argv && i < end && i < argc; i += 2) {
    int rw = strcmp(argv[i], "--rw") == 0;
    int status = add_path(ruleset, argv[i + 1], rw ? all : (FS_READ_RIGHTS & all), !rw);
    if (status != 0) return status;
  }
  /* Without it an unprivileged process may not restrict itself; it also disables setuid gains. */
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return fail(EXIT_OSERR, "PR_SET_NO_NEW_PRIVS", strerror(errno));
  if (syscall(SYS_landlock_restrict_self, ruleset, 0) != 0)
    return fail(EXIT_UNAVAILABLE, "Landlock is unavailable (enforcing the ruleset failed)", strerror(errno));
  close(ruleset);
  return 0;
}

/* Set by SIGTERM/SIGINT/SIGHUP: the server wants the run over. */
static volatile sig_atomic_t stop_signal = 0;
static void on_stop(int sig) { stop_signal = sig; }

static void sleep_ms(long ms) {
  struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L};
  while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
  }
}

/* The parent pid of `pid` from /proc/<pid>/stat; -1 when gone or a zombie (its parent reaps it). */
static long parent_of(const char *pid) {
  char path[64], buf[512];
  snprintf(path, sizeof path, "/proc/%s/stat", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return -1;
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return -1;
  buf[n] = 0;
  char *close_paren = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
  char state;
  long ppid;
  if (!close_paren || sscanf(close_paren + 1, " %c %ld", &state, &ppid) != 2 || state == 'Z' || state == 'X') return -1;
  return ppid;
}

#define MAX_PROCS 65536

/*
 * SIGKILLs every live descendant of this process: the pids whose parent chain in /proc leads
 * here. Descendants whose parents die are re-parented to us (we are a subreaper), so repeating
 * this until waitpid reports no child left ends the whole tree, forks made meanwhile included.
 */
static void kill_descendants(void) {
  static long pids[MAX_PROCS], parents[MAX_PROCS];
  static char doomed[MAX_PROCS];
  /*
   * As pid 1 of a PID namespace (the server's `unshare --pid`), /proc may be the host's, whose
   * pids mean nothing here; but then everything else in the namespace is ours: kill(-1) ends it.
   */
  int namespace_init = getpid() == 1;
  for (int round = 0; round < 200; round++) {
    while (waitpid(-1, NULL, WNOHANG) > 0) {
    }
    if (waitpid(-1, NULL, WNOHANG) < 0 && errno == ECHILD) return;
    if (namespace_init) {
      kill(-1, SIGKILL);
      sleep_ms(5);
      continue;
    }
    int count = 0;
    DIR *proc = opendir("/proc");
    if (!proc) return;
    struct dirent *entry;
    while ((entry = readdir(proc)) && count < MAX_PROCS) {
      if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
      long ppid = parent_of(entry->d_name);
      if (ppid < 0) continue;
      pids[count] = atol(entry->d_name);
      parents[count] = ppid;
      doomed[count] = ppid == getpid();
      count++;
    }
    closedir(proc);
    for (int grew = 1; grew;) {
      grew = 0;
      for (int i = 0; i < count; i++)
        if (!doomed[i])
          for (int j = 0; j < count; j++)
            if (doomed[j] && parents[i] == pids[j]) {
              doomed[i] = grew = 1;
              break;
            }
    }
    for (int i = 0; i < count; i++)
      if (doomed[i]) kill((pid_t)pids[i], SIGKILL);
    sleep_ms(round < 10 ? 5 : 20);
  }
}

/* Runs the program as a child and ends every descendant with it; returns or dies with its status. */
static int supervise(int abi, int argc, char **argv, int end, int sandbox) {
  if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0) return fail(EXIT_OSERR, "PR_SET_CHILD_SUBREAPER", strerror(errno));
  struct sigaction stop = {.sa_handler = on_stop}; /* no SA_RESTART: waitpid returns EINTR */
  sigemptyset(&stop.sa_mask);
  for (int sig = 0, sigs[] = {SIGTERM, SIGINT, SIGHUP}; sig < 3; sig++) sigaction(sigs[sig], &stop, NULL);
  pid_t parent = getpid();
  pid_t child = fork();
  if (child < 0) return fail(EXIT_OSERR, "fork", strerror(errno));
  if (child == 0) {
    struct sigaction dfl = {.sa_handler = SIG_DFL};
    for (int sig = 0, sigs[] = {SIGTERM, SIGINT, SIGHUP}; sig < 3; sig++) sigaction(sigs[sig], &dfl, NULL);
    /* Dies with a launcher killed outright (SIGKILL), instead of running on unaccounted. */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    if (getppid() != parent) _exit(EXIT_OSERR);
    if (sandbox) {
      int status = restrict_self(abi, argc, argv, end);
      if (status != 0) _exit(status);
    }
    execvp(argv[end + 1], &argv[end + 1]);
    int err = errno;
    fail(err == ENOENT ? 127 : 126, argv[end + 1], strerror(err));
    _exit(err == ENOENT ? 127 : 126);
  }
  int status = 0;
  for (;;) {
    if (stop_signal) {
      /* The program had the signal too (same process group): a moment to exit, then everything goes. */
      kill(child, stop_signal);
      int exited = 0;
      for (int i = 0; i < 50 && !exited; i++) {
        exited = waitpid(child, &status, WNOHANG) == child;
        if (!exited) sleep_ms(10);
      }
      kill_descendants();
      if (!exited) return 128 + stop_signal;
      return WIFSIGNALED(status) ? 128 + WTERMSIG(status) : WEXITSTATUS(status);
    }
    pid_t done = waitpid(-1, &status, 0);
    if (done == child) break;
    if (done < 0 && errno == ECHILD) return EXIT_OSERR;
    /* Otherwise an orphan re-parented to us was reaped, or a signal interrupted the wait. */
  }
  kill_descendants();
  if (WIFSIGNALED(status)) {
    /* Die the way the program did, so the server reports the same signal. */
    signal(WTERMSIG(status), SIG_DFL);
    kill(getpid(), WTERMSIG(status));
    return 128 + WTERMSIG(status);
  }
  return WEXITSTATUS(status);
}

int main(int argc, char **argv) {
  int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
  if (argc == 2 && strcmp(argv[1], "--probe") == 0) {
    if (abi < 1) return fail(EXIT_UNAVAILABLE, "Landlock is unavailable", strerror(errno));
    int status = restrict_self(abi, argc, NULL, 0);
    if (status == 0) printf("landlock ABI %d\n", abi);
    return status;
  }

  /* --reap-only: no ruleset, only the process accounting. */
  int sandbox = !(argc > 1 && strcmp(argv[1], "--reap-only") == 0);
  /* Options come in pairs up to "--"; everything after it is the program's argv. */
  int end = sandbox ? 1 : 2;
  while (end < argc && strcmp(argv[end], "--") != 0) {
    if ((strcmp(argv[end], "--ro") != 0 && strcmp(argv[end], "--rw") != 0) || end + 1 >= argc)
      return fail(EXIT_USAGE, "usage: enclave-sandbox [--ro PATH]... [--rw PATH]... | --reap-only -- PROGRAM [ARG]...", NULL);
    end += 2;
  }
  if (end + 1 >= argc) return fail(EXIT_USAGE, "usage: enclave-sandbox [--ro PATH]... [--rw PATH]... | --reap-only -- PROGRAM [ARG]...", NULL);
  if (sandbox && abi < 1) return fail(EXIT_UNAVAILABLE, "Landlock is unavailable; refusing to run the program unsandboxed", strerror(errno));
  return supervise(abi, argc, argv, end, sandbox);
}
