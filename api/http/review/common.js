// What the review page's queues share: API calls with the tab's token, and building DOM from
// data as text only (textContent, text nodes, <mark>/<del>/<ins> around them; never HTML).

export const TOKEN_KEY = "castlegraph.review.token";

export class NeedToken extends Error {}

export class ApiError extends Error {
  constructor(status, error) {
    super(error && error.message ? error.message : "HTTP " + status);
    this.status = status;
    this.code = error && error.code ? error.code : "";
  }
}

export const $ = (id) => document.getElementById(id);
export const enc = encodeURIComponent;

// One call of the API with the tab's token; the JSON answer, or NeedToken on a 401.
export async function api(method, path, body) {
  const headers = { Accept: "application/json" };
  const token = sessionStorage.getItem(TOKEN_KEY);
  if (token) headers.Authorization = "Bearer " + token;
  const init = { method, headers, credentials: "omit", cache: "no-store" };
  if (body !== undefined) {
    headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (ignored) {
    data = null;
  }
  if (response.status === 401) throw new NeedToken();
  if (!response.ok) throw new ApiError(response.status, data && data.error);
  return data;
}

export function say(text) {
  $("status").textContent = text;
}

// A failed call: the token form on a 401 (the page listens for "need-token"), else the error.
export function failed(error) {
  if (error instanceof NeedToken) {
    document.dispatchEvent(new CustomEvent("need-token"));
    return;
  }
  say("Failed: " + error.message + (error.code ? " (" + error.code + ")" : ""));
}

export function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

// A <dt>/<dd> pair in `list`; `value` is text or a node.
export function term(list, name, value) {
  list.append(el("dt", name));
  const dd = el("dd");
  if (value instanceof Node) dd.append(value);
  else dd.textContent = String(value);
  list.append(dd);
}

// `text` as nodes, each occurrence of a needle (case-insensitive) in a <mark>.
export function highlighted(text, needles) {
  const fragment = document.createDocumentFragment();
  const folded = text.toLowerCase();
  const exact = folded.length !== text.length; // lower-casing moved the offsets: match as is
  const haystack = exact ? text : folded;
  const wanted = needles.filter((n) => n).map((n) => (exact ? n : n.toLowerCase()));
  let at = 0;
  while (at < text.length) {
    let found = -1;
    let length = 0;
    for (const needle of wanted) {
      const where = haystack.indexOf(needle, at);
      const better = where !== -1 && (found === -1 || where < found ||
        (where === found && needle.length > length));
      if (better) {
        found = where;
        length = needle.length;
      }
    }
    if (found === -1) break;
    fragment.append(document.createTextNode(text.slice(at, found)));
    fragment.append(el("mark", text.slice(found, found + length)));
    at = found + length;
  }
  fragment.append(document.createTextNode(text.slice(at)));
  return fragment;
}

// A list of items with one selected: the queue on the left of each mode.
export function renderList(list, items, selected, describe, onPick) {
  list.replaceChildren();
  items.forEach((item, index) => {
    const row = el("li");
    const button = el("button", null, "link");
    button.type = "button";
    button.dataset.index = String(index);
    describe(item, button);
    button.addEventListener("click", () => onPick(index));
    if (index === selected) button.setAttribute("aria-current", "true");
    row.append(button);
    list.append(row);
  });
}

// Marks `index` as the selection of `list` (and focuses it unless told not to).
export function markSelected(list, index, keepFocus) {
  for (const button of list.querySelectorAll("button.link")) {
    if (Number(button.dataset.index) === index) {
      button.setAttribute("aria-current", "true");
      if (!keepFocus) button.focus();
    } else {
      button.removeAttribute("aria-current");
    }
  }
}
