// Entry of the Ink script bundle (dist/cli/chunks/ink-script.js): the table and key/value views
// with Ink, React and Yoga, built as a classic script so it can run from a V8 code cache.
export { renderView } from './render.js';
export { initYoga } from './yoga.js';
