// Vite builds for the NODE_ENV it finds: under a test runner (NODE_ENV=test) the inspector page
// shipped React's development build, several times slower to render, and a shell with
// NODE_ENV=development would ship a development demo page. A page built to be served is a
// production build, whatever the environment says. Plain JS so `node scripts/build.js` runs as is.

/** Runs `build` with NODE_ENV=production, then puts NODE_ENV back as it was. */
export async function asProduction(build) {
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    return await build();
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
