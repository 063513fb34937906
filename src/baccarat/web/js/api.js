// @ts-check
// The REST API of the table service, with the session token kept in localStorage.

const TOKEN = "baccarat.token";

/**
 * An API error: the HTTP status and the server's reason. `body` is the refusal the server sent
 * ({code, rule, params, detail}); its code, rule and params are kept so the page can translate it.
 */
export class ApiError extends Error {
  /** @param {number} status @param {string} detail @param {any} [body] */
  constructor(status, detail, body = null) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.code = body && typeof body.code === "string" ? body.code : null;
    this.rule = body && typeof body.rule === "string" ? body.rule : null;
    this.params = body && body.params && typeof body.params === "object" ? body.params : {};
  }
}

/** The session token, or null. */
export function token() {
  return localStorage.getItem(TOKEN);
}

/** Remember (or, with null, forget) the session token. */
export function setToken(value) {
  if (value) localStorage.setItem(TOKEN, value);
  else localStorage.removeItem(TOKEN);
}

function reason(body, status) {
  if (body && typeof body.detail === "string") return body.detail;
  if (body && Array.isArray(body.detail) && body.detail.length) {
    const first = body.detail[0];
    return `${(first.loc || []).slice(1).join(".")}: ${first.msg}`;
  }
  return `HTTP ${status}`;
}

/**
 * Call the API: method and path, an optional JSON body; resolves to the parsed JSON.
 * @param {string} path @param {{method?: string, body?: unknown}} [options] @returns {Promise<any>}
 */
export async function api(path, { method = "GET", body = undefined } = {}) {
  /** @type {Record<string, string>} */
  const headers = { Accept: "application/json" };
  const auth = token();
  if (auth) headers.Authorization = `Bearer ${auth}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, reason(data, response.status), data);
  return data;
}
