import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const root = path.resolve(import.meta.dirname, '../..');
// only the fence: other rules (import graphs) read the probe's path from disk, where it is not
const eslint = new ESLint({
  cwd: root,
  ruleFilter: ({ ruleId }) => ruleId === 'no-restricted-imports',
});

async function restricted(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message.split(' import is restricted')[0] ?? m.message);
}

describe('the simulator is fenced from the product analysis (eslint.config.mjs)', () => {
  it('refuses lib/scoping and the other analysis folders, relative or through @/', async () => {
    const code = [
      "import { outboundClusterKeys } from '../../../lib/scoping/outbound';",
      "import { proxyFigures } from '@/lib/scoping/predict';",
      "import { analyzePod } from '../../../lib/timeline/analyze';",
      "import * as bloat from '../../../lib/bloat/index';",
      'export const all = [outboundClusterKeys, proxyFigures, analyzePod, bloat];',
    ].join('\n');
    expect(await restricted('server/sim/mesh/probe.ts', code)).toEqual([
      "'../../../lib/scoping/outbound'",
      "'@/lib/scoping/predict'",
      "'../../../lib/timeline/analyze'",
      "'../../../lib/bloat/index'",
    ]);
  });

  it("refuses the product's judgements of a pod (lib/dataplane): the simulator decides for itself", async () => {
    const code = [
      "import { podDataplane, isZtunnelPod } from '../../../lib/dataplane/mode';",
      "import { podProxy } from '@/lib/dataplane/proxy-container';",
      "import type { NativeDecision } from '../../../lib/dataplane/native-sidecar';",
      'export const all = [podDataplane, isZtunnelPod, podProxy] as unknown as NativeDecision[];',
    ].join('\n');
    expect(await restricted('server/sim/mesh/probe.ts', code)).toEqual([
      "'../../../lib/dataplane/mode'",
      "'@/lib/dataplane/proxy-container'",
      "'../../../lib/dataplane/native-sidecar'",
    ]);
  });

  it('lets it use lib/kube, lib/refs and lib utilities, and leaves the rest of server/ alone', async () => {
    const kube = [
      "import type { Pod } from '../../../lib/kube/types';",
      "import { objectKey } from '../../../lib/refs/object-ref';",
      "import { isJsonObject } from '../../../lib/json-object';",
      'export const all = [objectKey, isJsonObject] as unknown as Pod[];',
    ].join('\n');
    expect(await restricted('server/sim/mesh/probe.ts', kube)).toEqual([]);
    const screen =
      "import { proxyFigures } from '../../../lib/scoping/predict';\nexport const f = proxyFigures;\n";
    expect(await restricted('server/screens/scoping/probe.ts', screen)).toEqual([]);
  });
});
