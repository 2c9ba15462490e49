// The command line's worker thread (started by cli-thread.ts). Its modules are imported only once Node may cache
// their compiled code: static imports would be compiled before this module's first line runs.
import { enableCompileCache } from './compile-cache.js';

enableCompileCache();
await import('./cli-thread-run.js');
