// Vite builds for the NODE_ENV it finds: under a test runner (NODE_ENV=test) the inspector page
// shipped React's development build, several times slower to render, and a shell with
// NODE_ENV=development would ship a development demo page. A page built to be served is a
// production build, whatever the environment says. Plain JS so `node scripts/build.js` runs as is.

// Read and written through a variable: the CLI's bundle defines `process.env.NODE_ENV` as a
// constant, which would turn the save into "production" and the restore into nothing (and warn at
// every build).
const env = process.env;

/** Runs `build` with NODE_ENV=production, then puts NODE_ENV back as it was. */
export async function asProduction(build) {
  const nodeEnv = env.NODE_ENV;
  env.NODE_ENV = 'production';
  try {
    return await build();
  } finally {
    if (nodeEnv === undefined) delete env.NODE_ENV;
    else env.NODE_ENV = nodeEnv;
  }
}
