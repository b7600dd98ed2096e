/**
 * Test files that replace modules (vi.mock): each runs in a process of its own. The other
 * integration files share a process per worker, where a replaced module would leak into the
 * files after it. tests/lint/isolated-mocks.test.ts fails when a file that mocks is not listed.
 */
export const ISOLATED_TEST_FILES: readonly string[] = [
  'tests/auth/pages.test.ts',
  'tests/edges/route-table.test.ts',
];
