// Preloaded (`--import`) into a real sidecar process by a test: SIGUSR2 makes a listener throw, the
// nearest a test can come to a bug that escapes every handler in the running sidecar.
process.on('SIGUSR2', () => {
  throw new Error('a bug nobody caught');
});
