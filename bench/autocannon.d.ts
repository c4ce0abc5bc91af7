// The slice of autocannon's API the benches use (the package ships no types).
declare module 'autocannon' {
  interface Options {
    url: string;
    duration?: number;
    connections?: number;
    overallRate?: number;
    headers?: Record<string, string>;
    method?: string;
    body?: string;
  }
  interface Result {
    /** `total`: requests answered (any status). */
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    timeouts: number;
    non2xx: number;
  }
  /** A running load test: awaitable for its result, stoppable early. */
  interface Instance extends PromiseLike<Result> {
    stop(): void;
  }
  function autocannon(options: Options): Instance;
  export default autocannon;
}
