/** The media type of a Content-Type header: lower case, parameters (charset) dropped. */
export function mediaType(contentType: string | null | undefined): string | null {
  if (contentType === null || contentType === undefined) return null;
  const type = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : null;
}

/**
 * What the Incidents upload accepts: an access log as text/plain (what its page sends,
 * whatever the file was). JSON, gzip, octet-stream, forms and a missing type are refused.
 */
export const UPLOAD_MEDIA_TYPES: readonly string[] = ['text/plain'];

export function isUploadMediaType(contentType: string | null | undefined): boolean {
  const t = mediaType(contentType);
  return t !== null && UPLOAD_MEDIA_TYPES.includes(t);
}
