// `node --import ./hide-testcontainers.mjs ...`: this process resolves `testcontainers` as if it were not
// installed. The resolution is redone from a folder with no node_modules, so the error is Node's own
// ERR_MODULE_NOT_FOUND, as a user installing with --omit=optional gets it.
import { register } from 'node:module';

const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === 'testcontainers' || specifier.startsWith('testcontainers/')) {
    return next(specifier, { ...context, parentURL: 'file:///access-conformance-no-such-folder/entry.js' });
  }
  return next(specifier, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`, import.meta.url);
