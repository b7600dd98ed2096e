import { VERSION_INFO } from './discovery';

/**
 * GET /openapi/v2, which kubectl reads (as protobuf, gnostic's openapi_v2.Document) to validate
 * an object whose group-version-kind the OpenAPI v3 documents do not describe: items of a
 * `kind: List`, or a kind the server does not serve at all. The simulator publishes a document
 * without definitions: kubectl then finds no schema for the kind, validates nothing
 * client-side, and reports an unserved kind as a real server makes it report one, "no matches
 * for kind" (instead of failing validation on a 404 from this path).
 */
/** The media type the server answers with (kube-openapi's; the '@' form is only asked for). */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** A protobuf field of wire type 2 (length-delimited). */
function field(num: number, payload: Buffer): Buffer {
  const head: number[] = [(num << 3) | 2];
  let n = payload.length;
  while (n >= 0x80) {
    head.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  head.push(n);
  return Buffer.concat([Buffer.from(head), payload]);
}

const text = (s: string): Buffer => Buffer.from(s, 'utf8');
const TITLE = 'Kubernetes';

/** Document{swagger=1, info=2 (Info{title=1, version=2}), paths=8, definitions=9}. */
export function openApiV2Protobuf(): Buffer {
  return Buffer.concat([
    field(1, text('2.0')),
    field(2, Buffer.concat([field(1, text(TITLE)), field(2, text(VERSION_INFO.gitVersion))])),
    field(8, Buffer.alloc(0)),
    field(9, Buffer.alloc(0)),
  ]);
}

export function openApiV2Json(): string {
  return JSON.stringify({
    swagger: '2.0',
    info: { title: TITLE, version: VERSION_INFO.gitVersion },
    paths: {},
    definitions: {},
  });
}

/** Whether the Accept header asks for the protobuf form (kubectl does). */
export function wantsProtobuf(accept: string | undefined): boolean {
  return (accept ?? '').includes('protobuf');
}
