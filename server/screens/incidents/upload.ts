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
): Promise<{ text: string; bytes: Uint8Array; tooLarge: boolean }> {
  const none = new Uint8Array(0);
  const declared = Number(req.headers.get('content-length') ?? '');
  if (Number.isFinite(declared) && declared > maxBytes)
    return { text: '', bytes: none, tooLarge: true };
  if (!req.body) return { text: '', bytes: none, tooLarge: false };
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return { text: '', bytes: none, tooLarge: true };
    }
    chunks.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.byteLength;
  }
  return { text: new TextDecoder('utf-8').decode(all), bytes: all, tooLarge: false };
}

/** Longest line an access-log record can reasonably be (Envoy's own lines are far shorter). */
export const MAX_UPLOAD_LINE = 64 * 1024;

/**
 * Why an upload cannot be an access log, before any of it is parsed: empty (or only blanks),
 * binary (NUL bytes, or not UTF-8), or no line short enough to be a record. Null when readable.
 */
export function uploadProblem(
  bytes: Uint8Array,
): { status: number; code: string; message: string; hint: string } | null {
  const hint =
    'Paste or upload the text of an istio-proxy access log (kubectl logs POD -c istio-proxy).';
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return {
      status: 422,
      code: 'UNREADABLE_UPLOAD',
      message: 'the upload is not UTF-8 text',
      hint,
    };
  }
  if (text.trim() === '')
    return { status: 400, code: 'EMPTY_UPLOAD', message: 'the upload is empty', hint };
  const nul = text.indexOf('\0');
  if (nul >= 0)
    return {
      status: 422,
      code: 'UNREADABLE_UPLOAD',
      message: `the upload holds a NUL byte (character ${nul}): it is binary, not a log`,
      hint,
    };
  if (!text.split('\n').some((l) => l.trim() !== '' && l.length <= MAX_UPLOAD_LINE))
    return {
      status: 422,
      code: 'UNREADABLE_UPLOAD',
      message: `no line of the upload is shorter than ${MAX_UPLOAD_LINE / 1024} KiB: it is not an access log`,
      hint,
    };
  return null;
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
      failures: rt.store.failures,
    },
  );
}
