/**
 * A signal that aborts when any of its sources does, for one call, that lets go of the sources
 * when the call is over (`dispose`).
 *
 * Not AbortSignal.any: on Node 20 every signal it makes leaves an entry on each source that is
 * never removed (~60 bytes, and ~1.2 KB while the signal has an abort listener, as an HTTP
 * request in flight does), and the sources here — the run's Ctrl-C signal, the model pool's —
 * live for the whole run: thousands of calls overnight (measured: BENCHMARKS.md, benchmark 5).
 *
 * A source holds one listener per call in flight, so it routinely has more than Node's default
 * of ten (a judge keeps 16 calls in flight); each is removed when its call settles. Node's
 * "possible memory leak" warning would be printed to the user's terminal for that, so the
 * limit is lifted on every source linked here.
 */
import { setMaxListeners } from 'node:events';

export interface LinkedSignal {
  readonly signal: AbortSignal;
  /** Removes the listener from every source; call it once the call has settled. */
  dispose(): void;
}

export function linkSignals(...sources: readonly (AbortSignal | undefined)[]): LinkedSignal {
  const controller = new AbortController();
  const live = sources.filter((source): source is AbortSignal => source !== undefined);
  const already = live.find((source) => source.aborted);
  if (already !== undefined) {
    controller.abort(already.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const onAbort = (event: Event) => {
    dispose();
    controller.abort((event.target as AbortSignal).reason);
  };
  const dispose = () => {
    for (const source of live) source.removeEventListener('abort', onAbort);
  };
  for (const source of live) {
    setMaxListeners(0, source);
    source.addEventListener('abort', onAbort, { once: true });
  }
  return { signal: controller.signal, dispose };
}
