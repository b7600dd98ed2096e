'use client';

import { useEffect, useRef, type ReactNode } from 'react';

/**
 * A details panel that scrolls into view when it opens on something else (`openKey`), so a row
 * picked in a long table shows its detail instead of opening it below the fold.
 */
export function OpensInView({ openKey, children }: { openKey: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const top = el.getBoundingClientRect().top;
    // already in view with room to read: leave the page where the reader has it
    if (top >= 0 && top <= window.innerHeight - 160) return;
    el.scrollIntoView({ block: 'start' });
  }, [openKey]);
  return (
    <div ref={ref} className="scroll-mt-2">
      {children}
    </div>
  );
}
