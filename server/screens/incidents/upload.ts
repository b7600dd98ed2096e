import type { IncidentsView } from '../../../lib/api/incidents';
import { runtimeFor } from '../../runtime/registry';
import { historyWithPrometheus } from './prometheus-history';
import type { IncidentsQuery } from '../../../lib/incidents/choose';
import { buildIncidents } from './incidents';
import { runtimeIpHistory } from './ip-history';
import type { RequestScope } from '../../auth/identity';

/** Largest pasted or uploaded log accepted (bytes). */
export const MAX_UPLOAD_BYTES = 8 * 1024 * 1024;

/** Reads a request body as UTF-8 text, stopping (tooLarge) once it exceeds maxBytes. */
export async function readLimitedText(
  req: Request,
  maxBytes: number,
): Promise<{ text: string; tooLarge: boolean }> {
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes) return { text: '', tooLarge: true };
  if (!req.body) return { text: '', tooLarge: false };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { text: '', tooLarge: true };
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return { text: new TextDecoder('utf-8').decode(all), tooLarge: false };
}

/** The Incidents view for a pasted/uploaded log: clients come from the log's downstream addresses. */
export async function analyzeUploadedLog(
  scope: RequestScope,
  q: IncidentsQuery,
  text: string,
  format?: string,
): Promise<IncidentsView> {
  const rt = runtimeFor(scope);
  const history = await historyWithPrometheus(
    runtimeIpHistory(rt),
    rt.settings,
    q,
    rt.now().getTime(),
  );
  return buildIncidents(
    { ...q, client: undefined },
    {
      t: rt.transport,
      history,
      logs: [{ source: 'upload', clientPod: null, text }],
      format,
    },
  );
}
