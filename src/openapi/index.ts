/** The service's OpenAPI description: read, classified, planned (ruling 34). Pure: a URL is fetched by the caller's function. */
export type * from './types.js';
export { describeOperations, isReadingPost, notCalledReason, pathParameterNames, NOT_CALLED } from './classify.js';
export { descriptionFacts, OWNER_IDS_PATH } from './facts.js';
export { describeText, displaySource, isUrlSource, loadDescription, MAX_DESCRIPTION_FILE_BYTES, type LoadDescriptionOptions, type LoadedDescription } from './load.js';
export { planOperations, profileParameterValue, type PlanInput } from './plan.js';
export { validateResponse, MAX_SCHEMA_ERRORS } from './validate.js';
export { operationKey, operationLabel, operationName, operationRef, splitOperationKey } from './operation.js';
