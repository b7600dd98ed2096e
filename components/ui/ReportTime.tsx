/**
 * When the report a view shows was made (the server's clock, UTC): two views that show the same
 * findings say the same time, and one read after the cluster changed says a later one.
 */
export function ReportTime({ at, what }: { at: string; what: string }) {
  const t = /T(\d\d:\d\d:\d\d)/.exec(at)?.[1];
  return (
    <p className="text-xs text-slate-500" data-testid="report-time" data-generated-at={at}>
      {what} report made at {t ? `${t} UTC` : at}
    </p>
  );
}
