'use client';

import { useState } from 'react';

/** Copies `text` to the clipboard and says so. */
export function CopyButton({ text, testId }: { text: string; testId?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <button
      type="button"
      data-testid={testId}
      className="no-print rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50"
      onClick={() => {
        navigator.clipboard.writeText(text).then(
          () => setState('copied'),
          () => setState('failed'),
        );
      }}
    >
      {state === 'copied'
        ? 'Copied'
        : state === 'failed'
          ? 'Copy failed: select the text'
          : 'Copy YAML'}
    </button>
  );
}
