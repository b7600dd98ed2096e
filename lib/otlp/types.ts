/**
 * An OTLP ExportLogsServiceRequest as plain values (the shape protobufjs' toObject gives, int64
 * as numbers or decimal strings, bytes as base64): only the fields meshdx reads are typed.
 */
export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  /** int64 as a decimal string (or a number from a JSON sender). */
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
  kvlistValue?: { values?: OtlpKeyValue[] };
  /** base64 */
  bytesValue?: string;
}

export interface OtlpKeyValue {
  key?: string;
  value?: OtlpAnyValue;
}

export interface OtlpLogRecord {
  /** fixed64 nanoseconds since the epoch, as a decimal string; absent or "0" when unknown. */
  timeUnixNano?: string | number;
  observedTimeUnixNano?: string | number;
  severityNumber?: number;
  severityText?: string;
  body?: OtlpAnyValue;
  attributes?: OtlpKeyValue[];
  traceId?: string;
  spanId?: string;
  eventName?: string;
}

export interface OtlpScopeLogs {
  scope?: { name?: string; version?: string; attributes?: OtlpKeyValue[] };
  logRecords?: OtlpLogRecord[];
  schemaUrl?: string;
}

export interface OtlpResourceLogs {
  resource?: { attributes?: OtlpKeyValue[] };
  scopeLogs?: OtlpScopeLogs[];
  schemaUrl?: string;
}

export interface OtlpLogsRequest {
  resourceLogs?: OtlpResourceLogs[];
}

/**
 * A request as the mapping reads it (OtlpLogsRequest is one): its log records may be produced
 * only as they are read, as the receiver decodes each protobuf log record when it reaches it.
 */
export interface OtlpLogsSource {
  resourceLogs?: Iterable<OtlpResourceLogsSource>;
}

export interface OtlpResourceLogsSource {
  resource?: { attributes?: OtlpKeyValue[] };
  scopeLogs?: Iterable<{ logRecords?: Iterable<OtlpLogRecord> }>;
}
