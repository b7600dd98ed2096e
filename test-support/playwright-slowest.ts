import path from 'node:path';
import type { FullConfig, Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { formatSlowest, slowest, type TimedTest } from './slowest';

/** Playwright reporter: after the run, the 10 slowest e2e tests (the last attempt of each). */
export default class SlowestE2e implements Reporter {
  private root = process.cwd();
  private readonly byTest = new Map<string, TimedTest>();

  onBegin(config: FullConfig): void {
    if (config.configFile) this.root = path.dirname(config.configFile);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    this.byTest.set(test.id, {
      file: path.relative(this.root, test.location.file),
      // titlePath is [root, project, file, ...describes, title]
      title: test.titlePath().slice(3).join(' › '),
      ms: result.duration,
    });
  }

  onEnd(): void {
    process.stdout.write(
      `\n${formatSlowest('Slowest e2e tests', slowest([...this.byTest.values()]))}`,
    );
  }

  printsToStdio(): boolean {
    return false;
  }
}
