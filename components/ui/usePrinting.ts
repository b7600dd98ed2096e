'use client';

import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void): () => void {
  const mq = window.matchMedia('print');
  mq.addEventListener('change', onChange);
  window.addEventListener('beforeprint', onChange);
  window.addEventListener('afterprint', onChange);
  return () => {
    mq.removeEventListener('change', onChange);
    window.removeEventListener('beforeprint', onChange);
    window.removeEventListener('afterprint', onChange);
  };
}

// the document says it is being printed from `beforeprint` to `afterprint` (the print media
// query turns on only after `beforeprint` has run)
function mark(on: boolean): () => void {
  return () => {
    if (on) document.documentElement.dataset.printing = '1';
    else delete document.documentElement.dataset.printing;
  };
}

if (typeof window !== 'undefined') {
  window.addEventListener('beforeprint', mark(true));
  window.addEventListener('afterprint', mark(false));
}

const snapshot = () =>
  document.documentElement.dataset.printing === '1' || window.matchMedia('print').matches;

/** Whether the page is being printed (the browser's Print, or print media emulated). */
export function usePrinting(): boolean {
  return useSyncExternalStore(subscribe, snapshot, () => false);
}
