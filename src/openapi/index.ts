/** The service's OpenAPI description: read, classified, planned (ruling 34). Pure: a URL is fetched by the caller's function. */
export type * from './types.js';
export { callVerdict, describeOperations, isReadingPost, notCalledReason, optInHint, pathParameterNames, METHOD_OVERRIDE_PARAMETERS, NOT_CALLED, OPT_IN_FLAG, type CallVerdict } from './classify.js';
export { encodeSegment, fillPath, templateShapeProblem, type FilledPath } from './path-shape.js';
export { camelWords, CHANGE_WORDS, READ_FIRST_WORDS, readingPostVerdict, type PostVerdict } from './read-rules.js';
export { fillRequiredBody, MAX_FILLED_BODY_BYTES } from './body-fill.js';
export { descriptionFacts, OWNER_IDS_PATH } from './facts.js';
export { describeText, displaySource, isUrlSource, loadDescription, MAX_DESCRIPTION_FILE_BYTES, type LoadDescriptionOptions, type LoadedDescription } from './load.js';
export { planOperations, profileParameterValue, type PlanInput } from './plan.js';
export { validateResponse, MAX_SCHEMA_ERRORS } from './validate.js';
export { DescriptionError, MAX_DESCRIPTION_DEPTH } from './parse.js';
export { operationKey, operationLabel, operationName, operationRef, operationTitle, sentPathLine, splitOperationKey } from './operation.js';
