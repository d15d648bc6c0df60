/** The small pieces both fake batch APIs share: their limits, JSON answers and errors, times. */

export const DAY_MS = 24 * 60 * 60 * 1000;
export const LIMITS = {
  anthropic: { requests: 100_000, bytes: 256 * 1024 * 1024 },
  openai: { requests: 50_000, bytes: 200 * 1024 * 1024 },
};
export const ANTHROPIC_CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;

const JSON_HEADERS = { 'content-type': 'application/json' };

export function json(status, value) {
  return { status, headers: JSON_HEADERS, body: JSON.stringify(value) };
}

export function anthropicError(status, type, message) {
  return json(status, { type: 'error', error: { type, message } });
}

export function openaiError(status, message, code = null) {
  return json(status, { error: { message, type: 'invalid_request_error', param: null, code } });
}

export const iso = (ms) => (ms === null ? null : new Date(ms).toISOString());
export const unix = (ms) => (ms === null ? null : Math.floor(ms / 1000));

export function parseJson(text) {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}
