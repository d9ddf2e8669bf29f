// The part of autocannon's programmatic API the load bench uses (the package ships no types).
declare module 'autocannon' {
  interface Result {
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
  }
  function autocannon(options: Record<string, unknown>): Promise<Result>;
  export default autocannon;
}
