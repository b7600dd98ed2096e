'use client';

import { createContext } from 'react';

/**
 * True inside a table row that is itself the table's Tab stop (roving tabindex, Enter opens it:
 * VirtualTable's focusable rows, FindingTable's rows): a link rendered in it stays out of the Tab
 * order from the server's HTML on, not only once the row's effect (untabRowControls) has run.
 * False elsewhere, the frozen tables too.
 */
export const RowIsTabStop = createContext(false);
