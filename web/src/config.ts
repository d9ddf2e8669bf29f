// The page's runtime configuration lives in core (the CLI that injects it reads the same shape);
// the page imports it from here.
export * from '#core/visitors/page-config';
