'use client';

const count = (n: number) => n.toLocaleString('en-US');

/** "Rows 51–100 of 1,234" with previous/next: the server sends one page at a time. */
export function Pager({
  offset,
  shown,
  limit,
  matched,
  onPage,
  testId = 'pager',
}: {
  offset: number;
  shown: number;
  limit: number;
  matched: number;
  onPage: (page: number) => void;
  testId?: string;
}) {
  const page = Math.floor(offset / limit) + 1;
  const pages = Math.max(1, Math.ceil(matched / limit));
  const btn =
    'rounded border border-slate-300 bg-white px-2 py-0.5 hover:bg-slate-50 disabled:opacity-40';
  return (
    <div
      className="no-print mt-2 flex items-center justify-end gap-2 text-xs text-slate-600"
      data-testid={testId}
    >
      <span>
        {matched === 0
          ? 'No rows'
          : `Rows ${count(offset + 1)}–${count(offset + shown)} of ${count(matched)}`}
      </span>
      <button type="button" className={btn} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button
        type="button"
        className={btn}
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </div>
  );
}
