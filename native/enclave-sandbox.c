/*
 * enclave-sandbox: runs a program under a Landlock ruleset (Linux >= 5.13, unprivileged).
 *
 *   enclave-sandbox [--ro PATH]... [--rw PATH]... -- PROGRAM [ARG]...
 *   enclave-sandbox --probe          prints "landlock ABI N" and exits 0 if a ruleset can be enforced
 *
 * The program may then read (and execute) below the --ro paths, do anything below the --rw
 * paths, and touch no other file. Landlock also denies a sandboxed process ptrace-mode access
 * (/proc/<pid>/environ, /proc/<pid>/mem, ...) to every process outside its sandbox, and from
 * ABI 6 on it may not signal them nor connect to their abstract unix sockets. Enclave uses it
 * to keep an agent that runs as the server's own uid out of the server's environment and data.
 *
 * Exit codes of its own (else the program's): 64 usage, 69 Landlock unavailable, 71 setting
 * it up failed, 126/127 the program could not be executed. It never runs a program unsandboxed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/types.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
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

int main(int argc, char **argv) {
  int abi = (int)syscall(SYS_landlock_create_ruleset, NULL, 0, CREATE_RULESET_VERSION);
  if (argc == 2 && strcmp(argv[1], "--probe") == 0) {
    if (abi < 1) return fail(EXIT_UNAVAILABLE, "Landlock is unavailable", strerror(errno));
    int status = restrict_self(abi, argc, NULL, 0);
    if (status == 0) printf("landlock ABI %d\n", abi);
    return status;
  }

  /* Options come in pairs up to "--"; everything after it is the program's argv. */
  int end = 1;
  while (end < argc && strcmp(argv[end], "--") != 0) {
    if ((strcmp(argv[end], "--ro") != 0 && strcmp(argv[end], "--rw") != 0) || end + 1 >= argc)
      return fail(EXIT_USAGE, "usage: enclave-sandbox [--ro PATH]... [--rw PATH]... -- PROGRAM [ARG]...", NULL);
    end += 2;
  }
  if (end + 1 >= argc) return fail(EXIT_USAGE, "usage: enclave-sandbox [--ro PATH]... [--rw PATH]... -- PROGRAM [ARG]...", NULL);
  if (abi < 1) return fail(EXIT_UNAVAILABLE, "Landlock is unavailable; refusing to run the program unsandboxed", strerror(errno));

  int status = restrict_self(abi, argc, argv, end);
  if (status != 0) return status;
  execvp(argv[end + 1], &argv[end + 1]);
  int err = errno;
  fail(err == ENOENT ? 127 : 126, argv[end + 1], strerror(err));
  return err == ENOENT ? 127 : 126;
}
