'use client';

import { createContext } from 'react';

/**
 * True inside a table row that is itself the table's Tab stop (roving tabindex, Enter opens
 * it): a link or button rendered in it stays out of the Tab order from the server's HTML on,
 * before the row's effect (untabRowControls) has run. False elsewhere, the frozen tables too.
 */
export const RowIsTabStop = createContext(false);
