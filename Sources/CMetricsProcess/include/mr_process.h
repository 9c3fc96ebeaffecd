// CMetricsProcess: helper processes (llvm-symbolizer) that cannot outlive the run that started them.
//
// Every function is prefixed `mr_` and says why it exists. Swift calls it only through
// MetricKitAnalysis' `LLVMSymbolizer`; this module has no Swift API of its own.
#ifndef MR_PROCESS_H
#define MR_PROCESS_H

#include <sys/types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Why: Foundation's `Process` cannot ask the kernel to end a child when its parent dies, so a helper
/// that stalls outlives a run killed by `SIGKILL` (a CI job's time-out) and holds its pipes forever.
/// This starts `path` with `argv` (NULL-terminated), its standard input and output through pipes and
/// its standard error on /dev/null, no other descriptor inherited; on Linux the child is killed when
/// the thread that started it ends (`PR_SET_PDEATHSIG`), so start it from one that lives as long as
/// the run. Returns the child's pid, with the parent's ends of the pipes (close-on-exec) in
/// `*to_child` and `*from_child`; or -1 with `errno` set, nothing left open.
pid_t mr_spawn_piped(const char *path, char *const argv[], int *to_child, int *from_child);

#ifdef __cplusplus
}
#endif

#endif
