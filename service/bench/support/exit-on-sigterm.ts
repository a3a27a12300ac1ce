// Preloaded (--import) into the service only when profiling: --cpu-prof writes its file on a
// normal exit, not when a signal kills the process. If the service has no SIGTERM handler of
// its own, this turns SIGTERM into an exit; if it has one, that handler gets 2 s to finish.
process.once('SIGTERM', () => {
  setTimeout(() => process.exit(0), 2000).unref();
});
