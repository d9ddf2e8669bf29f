// Public face of the endpoint catalogue.
export { catalogue } from './catalogue.js';
export type { Catalogue, CatalogueKey, Upload, UploadSource } from './catalogue.js';
export { flatten, isOp, kebab, pathParamNames } from './define.js';
export type * from './define.js';
export type * from './models.js';
export type * from './models-more.js';
export { PHONE_NUMBER_PROVIDERS, TOOL_TYPES } from './models.js';
