// Node entry of the REST client: everything the browser-safe entry exports.
export * from './index.js';
