// Placeholder until the REST client lands.
export { catalogue } from '../catalogue/index.js';
