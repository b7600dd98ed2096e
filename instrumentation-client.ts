import { config } from 'zod';

/**
 * Runs in the browser before the app's code. zod compiles object parsers with `new Function`
 * unless told not to, and merely probing for that is an `eval` the Content-Security-Policy
 * refuses (server/security/headers.ts: no 'unsafe-eval'), reported on every page. The
 * interpreted parser gives the same results.
 */
config({ jitless: true });
