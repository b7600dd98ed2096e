import type { Reporter, TestModule } from 'vitest/node';
import { formatSlowest, slowest, type TimedTest } from './slowest';

/**
 * Vitest reporter: after the run, the 10 slowest tests and the 10 slowest files (a file's time
 * includes its beforeAll/afterAll, where the servers a file shares are started and stopped).
 */
export default class SlowestTests implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const tests: TimedTest[] = [];
    const files: TimedTest[] = [];
    for (const m of modules) {
      const file = m.relativeModuleId;
      files.push({ file, title: '', ms: m.diagnostic().duration });
      for (const t of m.children.allTests()) {
        const d = t.diagnostic();
        if (d) tests.push({ file, title: t.fullName, ms: d.duration });
      }
    }
    process.stdout.write(
      `\n${formatSlowest('Slowest unit and integration tests', slowest(tests))}` +
        `\n${formatSlowest('Slowest test files (setup included)', slowest(files))}`,
    );
  }
}
