// Waiting in tests: on a condition (`eventually`), which ends as soon as it holds, and, where no event
// exists to wait on, a fixed pause (`sleep`). A fixed pause of 100 ms or more needs a comment saying
// why nothing observable marks its end (a test counts them).

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until `check` is true or `timeoutMs` passes; the last check's answer. It returns as soon as the
 * check holds, so the generous default costs only a failing test's time, and a loaded machine does
 * not turn slowness into a failure.
 */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(20);
  }
  return check();
}
