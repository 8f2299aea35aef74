/** The state directory of `serve --state-dir`: the tenant and the reference's records on LevelDB. */
export { openStateDir, type OpenStateOptions, type StateDirHandle } from './state-dir.js';
export { createDurableEventStore, type DurableEventStore, type DurableEventStoreOptions } from './durable-event-store.js';
