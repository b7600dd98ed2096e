/** An error as an SRE needs it: what failed, the code to search for, and how to fix it. */
export function ErrorPanel({
  title,
  code,
  message,
  hint,
}: {
  title?: string;
  code?: string;
  message: string;
  hint?: string;
}) {
  return (
    <div
      role="alert"
      className="rounded-md border border-red-300 bg-red-50 p-4 text-sm text-red-900"
      data-testid="error-panel"
    >
      <div className="font-semibold">
        {title ?? 'Request failed'}
        {code && (
          <span className="ml-2 rounded bg-red-100 px-1.5 py-0.5 font-mono text-xs">{code}</span>
        )}
      </div>
      <p className="mt-1 break-words">{message}</p>
      {hint && <p className="mt-2 text-red-800">Fix: {hint}</p>}
    </div>
  );
}

export function errorProps(e: unknown): { code?: string; message: string; hint?: string } {
  if (e && typeof e === 'object' && 'message' in e) {
    const err = e as { code?: unknown; message: unknown; hint?: unknown };
    return {
      code: typeof err.code === 'string' ? err.code : undefined,
      message: String(err.message),
      hint: typeof err.hint === 'string' ? err.hint : undefined,
    };
  }
  return { message: String(e) };
}
