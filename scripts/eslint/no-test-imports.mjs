// ESLint rule meshdx-state/no-test-imports: product code never loads test data or test tools.
// A product file (not a *.test.ts) may not import from tests/ or test-support/ (by a relative
// path or the `@/` alias), nor the test runner (vitest). (@playwright/test is a product
// dependency: the CLI's screenshot report drives Chromium with it.)
import path from 'node:path';

const TEST_DIRS = ['tests', 'test-support'];
const TEST_PACKAGES = new Set(['vitest']);

export const noTestImports = {
  meta: {
    type: 'problem',
    docs: { description: 'forbid imports of test data and test tools from product code' },
    schema: [],
    messages: {
      testModule:
        'product code imports test-only module {{spec}} ({{dir}}/): test data and helpers live under tests/ and test-support/ for tests alone.',
      testPackage: 'product code imports the test tool {{spec}}.',
    },
  },
  create(context) {
    const root = path.resolve(context.cwd);
    const file = path.resolve(context.filename);
    function check(node, spec) {
      if (typeof spec !== 'string') return;
      if (TEST_PACKAGES.has(spec) || [...TEST_PACKAGES].some((p) => spec.startsWith(`${p}/`))) {
        context.report({ node, messageId: 'testPackage', data: { spec } });
        return;
      }
      let target;
      if (spec.startsWith('@/')) target = path.join(root, spec.slice(2));
      else if (spec.startsWith('.')) target = path.resolve(path.dirname(file), spec);
      else return;
      const dir = path.relative(root, target).split(path.sep)[0];
      if (TEST_DIRS.includes(dir))
        context.report({ node, messageId: 'testModule', data: { spec, dir } });
    }
    return {
      ImportDeclaration: (node) => check(node, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
      ExportAllDeclaration: (node) => check(node, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node, node.source.value),
    };
  },
};

export default { rules: { 'no-test-imports': noTestImports } };
