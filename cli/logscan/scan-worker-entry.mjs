// Entry of a log-scan worker thread when meshdx runs from its TypeScript sources: worker
// threads do not inherit the TypeScript loader, so it is registered here first. (A bundled
// meshdx puts the compiled worker under this same name next to its bundle, see
// bin/cli-bundle.mjs.)
import { register } from 'tsx/esm/api';

register();
await import('./scan-worker.ts');
