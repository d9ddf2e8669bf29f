// Visitors of the personalised demo page: the record, its checks, and the two stores.
export { VisitorError } from './errors.js';
export { VoiceError } from '../errors.js';
export type { VisitorErrorKind } from './errors.js';
export { SLUG_PATTERN, VISITOR_FIELDS, checkSlug, pageUrl, parseVisitor, parseVisitorList, parseVisitorsFile, slugProblem } from './model.js';
export type { Visitor, VisitorFields, VisitorPatch } from './model.js';
export type { VisitorStore } from './store.js';
export { DEFAULT_VISITORS_FILE, FileVisitorStore, LiveVisitorsFile, readVisitorsFile, writeFileAtomic } from './file-store.js';
export { createHostedVisitorStore } from './hosted-store.js';
export type { HostedStoreOptions } from './hosted-store.js';
