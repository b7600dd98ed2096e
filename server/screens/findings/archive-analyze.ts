import type { FindingsReport, IstioctlComparison } from '../../../lib/api/findings';
import { compareWithAnalyze, parseAnalyzeOutput } from '../../../lib/archive/analyze';
import type { ClusterRuntime } from '../../runtime/runtime';

/**
 * An archive's `analyze/` output (served by its API server at /meshdx/archive/analyze) beside
 * the report's findings; null when the archive has none (its header says why).
 */
export async function archiveAnalyzeBeside(
  rt: ClusterRuntime,
  report: FindingsReport,
): Promise<IstioctlComparison | null> {
  const res = await rt.transport
    .request('/meshdx/archive/analyze', { timeoutMs: 10_000, accept: 'text/plain' })
    .catch(() => null);
  if (!res || res.status !== 200) return null;
  const parsed = parseAnalyzeOutput(res.body);
  const c = compareWithAnalyze(report.findings, parsed.messages, new Set(report.notChecked));
  return {
    source: 'the archive’s analyze/ (istioctl analyze -A)',
    agreed: c.agreed,
    onlyIstioctl: c.onlyIstioctl,
    onlyMeshdx: c.onlyMeshdx.map((f) => ({ code: f.code, subject: f.subject })),
    notClaimed: c.notClaimed,
    unreadLines: parsed.problems.length,
  };
}
