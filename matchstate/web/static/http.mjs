// Talking to the server's JSON API.

import {fetchWithin} from "./deadline.mjs";
import {lang} from "./lang.mjs";

/**
 * Call the API; resolves to {status, data, headers}; a network failure, or no answer in time, rejects.
 * @param {string} path
 * @param {{method?: string, body?: any, key?: string, headers?: object}} [options]  ``key``: sent as the bearer
 *        key; ``headers``: more request headers
 */
export async function api(path, {method = "GET", body, key, headers: more = {}} = {}) {
  const headers = {Accept: "application/json", ...more};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (key) headers.Authorization = `Bearer ${key}`;
  const {response, data} = await fetchWithin(path, {method, headers,
                                                    body: body === undefined ? undefined : JSON.stringify(body)});
  return {status: response.status, data, headers: response.headers};
}

// Why the server said no, in the language chosen where the refusal carries its `words`; else its `detail`,
// which FastAPI's own validation gives as a list.
export function reason(data) {
  if (data && data.words && data.words[lang()]) return data.words[lang()];
  if (data && typeof data.detail === "string") return data.detail;
  return JSON.stringify(data && data.detail !== undefined ? data.detail : data);
}

// Whether the server wants a (right) key for what was asked.
export const denied = (reply) => reply.status === 401 || reply.status === 403;
