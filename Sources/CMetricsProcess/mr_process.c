// See include/mr_process.h for why each function exists.
#define _GNU_SOURCE
#include "mr_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#if defined(__linux__)
#include <sys/prctl.h>
#include <sys/syscall.h>
#else
#include <spawn.h>
extern char **environ;
#endif

static void close_pair(int pair[2]) {
  close(pair[0]);
  close(pair[1]);
}

/// Makes both ends of a pipe close-on-exec (pipe2 is not everywhere).
static int cloexec_pipe(int pair[2]) {
  if (pipe(pair) != 0) return -1;
  if (fcntl(pair[0], F_SETFD, FD_CLOEXEC) != 0 || fcntl(pair[1], F_SETFD, FD_CLOEXEC) != 0) {
    int saved = errno;
    close_pair(pair);
    errno = saved;
    return -1;
  }
  return 0;
}

pid_t mr_spawn_piped(const char *path, char *const argv[], int *to_child, int *from_child) {
  int input[2], output[2];
  if (cloexec_pipe(input) != 0) return -1;
  if (cloexec_pipe(output) != 0) {
    int saved = errno;
    close_pair(input);
    errno = saved;
    return -1;
  }
  int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null < 0) {
    int saved = errno;
    close_pair(input);
    close_pair(output);
    errno = saved;
    return -1;
  }
#if defined(__linux__)
  pid_t parent = getpid();
  pid_t pid = fork();
  if (pid == 0) {
    // The child: only async-signal-safe calls until exec.
    if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent) _exit(127);
    if (dup2(input[0], 0) < 0 || dup2(output[1], 1) < 0 || dup2(null, 2) < 0) _exit(127);
#ifdef SYS_close_range
    syscall(SYS_close_range, 3, ~0U, 0);
#endif
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    signal(SIGPIPE, SIG_DFL);
    execv(path, argv);
    _exit(127);
  }
  int saved = errno;
#else
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, input[0], 0);
  posix_spawn_file_actions_adddup2(&actions, output[1], 1);
  posix_spawn_file_actions_adddup2(&actions, null, 2);
  pid_t pid = -1;
  int status = posix_spawn(&pid, path, &actions, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (status != 0) pid = -1;
  int saved = status;
#endif
  close(input[0]);
  close(output[1]);
  close(null);
  if (pid < 0) {
    close(input[1]);
    close(output[0]);
    errno = saved;
    return -1;
  }
  *to_child = input[1];
  *from_child = output[0];
  return pid;
}
