/**
 * Milliseconds on a monotonic clock, for call latencies. process.hrtime rather than
 * `performance.now()`: the `performance` global loads perf_hooks on first use, work a judge
 * process would do just before its first model call.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
