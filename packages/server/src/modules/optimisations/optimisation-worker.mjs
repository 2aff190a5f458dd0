// Entry of an optimisation worker thread. The server runs TypeScript through tsx; a worker
// thread starts without the parent's loader hooks in some hosts (vitest, plain node), so it
// registers tsx itself before loading the TypeScript worker.
import { register } from 'tsx/esm/api';

register();
await import('./optimisation.worker.ts');
