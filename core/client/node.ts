// Placeholder until the REST client lands.
export * from './index.js';
