'use client';

import { useState } from 'react';

const BUTTON =
  'rounded border border-slate-300 bg-white px-2 py-0.5 text-xs text-slate-700 hover:bg-slate-50';

/** Copy and download buttons for a generated YAML. */
export function YamlActions({
  yaml,
  filename,
  testId,
}: {
  yaml: string;
  filename: string;
  testId?: string;
}) {
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <div className="no-print flex items-center gap-2">
      <button
        type="button"
        data-testid={testId ? `${testId}-copy` : undefined}
        className={BUTTON}
        onClick={() => {
          navigator.clipboard.writeText(yaml).then(
            () => setCopied('copied'),
            () => setCopied('failed'),
          );
        }}
      >
        {copied === 'copied'
          ? 'Copied'
          : copied === 'failed'
            ? 'Copy failed: select the text'
            : 'Copy YAML'}
      </button>
      <a
        data-testid={testId ? `${testId}-download` : undefined}
        className={BUTTON}
        href={`data:application/yaml;charset=utf-8,${encodeURIComponent(yaml)}`}
        download={filename}
      >
        Download
      </a>
    </div>
  );
}
