// Types of web/vite/production.js.

/** Runs `build` with NODE_ENV=production, then puts NODE_ENV back as it was. */
export function asProduction<T>(build: () => Promise<T>): Promise<T>;
