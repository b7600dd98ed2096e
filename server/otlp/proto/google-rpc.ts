/**
 * google.rpc.Status and google.rpc.RetryInfo from googleapis (google/rpc/status.proto and
 * google/rpc/error_details.proto; Copyright Google LLC, Apache License 2.0), definitions
 * unchanged: the error body OTLP/HTTP answers with and the detail a gRPC RESOURCE_EXHAUSTED
 * carries to say when to retry.
 */
export const GOOGLE_RPC_PROTO = `syntax = "proto3";
package google.rpc;
import "google/protobuf/any.proto";
import "google/protobuf/duration.proto";
message Status {
  int32 code = 1;
  string message = 2;
  repeated google.protobuf.Any details = 3;
}
message RetryInfo {
  google.protobuf.Duration retry_delay = 1;
}
`;
