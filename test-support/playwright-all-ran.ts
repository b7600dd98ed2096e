import type { FullResult, Reporter, Suite } from '@playwright/test/reporter';

/**
 * Playwright reporter: a run in which a selected test never ran fails, naming the tests.
 * Playwright counts such tests as "did not run" and still exits 0 when nothing failed, e.g.
 * when a project is scheduled as a teardown of a teardown (which Playwright never starts), so
 * a misconfigured project would silently drop its specs from every `npm test`.
 */
export default class AllRan implements Reporter {
  private suite: Suite | null = null;

  onBegin(_config: unknown, suite: Suite): void {
    this.suite = suite;
  }

  onEnd(result: FullResult): Promise<{ status?: FullResult['status'] } | undefined> {
    const never = (this.suite?.allTests() ?? []).filter((t) => t.results.length === 0);
    if (never.length === 0) return Promise.resolve(undefined);
    const names = never.map((t) => `  ${t.titlePath().filter(Boolean).join(' › ')}`);
    process.stdout.write(
      `\nmeshdx e2e: ${never.length} selected test(s) never ran:\n${names.join('\n')}\n`,
    );
    return Promise.resolve(result.status === 'passed' ? { status: 'failed' } : undefined);
  }

  printsToStdio(): boolean {
    return false;
  }
}
