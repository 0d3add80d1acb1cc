// Preloaded (`--require`) into a profiled server: exits on the runner's SIGTERM, so V8 writes
// the --cpu-prof profile (it does on exit, not when a re-raised signal kills the process).
process.once('SIGTERM', () => process.exit(0));
