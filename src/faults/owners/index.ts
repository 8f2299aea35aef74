/** The owners faults: one file each; every export of this module is a fault definition. */
export * from './api-auth-optional-owners.js';
export * from './owners-ids-as-objects.js';
export * from './owners-last-dropped.js';
export * from './owners-ownerless-404.js';
export * from './owners-route-trailing-slash.js';
export * from './owners-text-plain.js';
export * from './owners-unknown-app-empty.js';
export * from './owners-wrapped-in-data.js';
