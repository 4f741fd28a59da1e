// The queue of pending review links (POSSIBLY_SAME_AS), by similarity, with their evidence.
//
// `same` and `different` are the API's own verdict route. Undo: a `same` is undone by settling
// the link `different` (the API then removes the alias it recorded); a `different` cannot be
// reopened through the API, so `u` says so; a skip is the page's own and simply undone.

import {
  $, api, el, enc, failed, highlighted, markSelected, renderList, say, term,
} from "./common.js";

const PAGE_SIZE = 50;
const PREFETCH = 5; // load the next page when the selection is this close to the end
const MENTIONS_SHOWN = 3;
const MENTIONS_COUNTED = 100; // "100+" past this
const SNIPPET = 240; // characters of a drawer shown either side of the first mention

const state = {
  links: [],
  cursor: null,
  more: false,
  index: -1,
  filters: { kind: "", reason: "" },
  decisions: new Map(), // link key -> {verdict, note}
  undo: [], // {key, verdict}
  busy: false,
  shown: 0, // the pair view's generation: late answers for another pair are dropped
};

const keyOf = (link) => link.a.id + "\n" + link.b.id;
const current = () => state.links[state.index] || null;

function noteOf(link) {
  const decision = state.decisions.get(keyOf(link));
  return decision ? decision.note : "";
}

async function loadPage() {
  const params = new URLSearchParams({ status: "pending", limit: String(PAGE_SIZE) });
  if (state.filters.kind) params.set("kind", state.filters.kind);
  if (state.filters.reason) params.set("reason", state.filters.reason);
  if (state.cursor) params.set("cursor", state.cursor);
  const page = await api("GET", "/api/review-links?" + params.toString());
  state.links.push(...page.links);
  state.cursor = page.next_cursor;
  state.more = page.next_cursor !== null;
}

// The first page of the queue; throws what the API threw (a 401 asks for the token).
export async function start() {
  Object.assign(state, {
    links: [], cursor: null, more: false, index: -1, decisions: new Map(), undo: [],
  });
  await loadPage();
  renderQueue();
  say(state.links.length ? "" : "No pending review links.");
  await select(state.links.length ? 0 : -1);
}

function describe(link, button) {
  button.append(el("span", link.a.name, "name"), el("span", " ↔ "));
  button.append(el("span", link.b.name, "name"));
  const meta = link.a.kind + " · " + link.reason + " · " + link.similarity.toFixed(3);
  button.append(el("span", meta, "meta"));
  const note = noteOf(link);
  if (note) button.append(el("span", note, "decided"));
}

function renderQueue() {
  const focused = document.activeElement && document.activeElement.closest("#queue")
    ? state.index : -1;
  renderList($("queue"), state.links, state.index, describe, (index) => select(index));
  if (focused !== -1) markSelected($("queue"), focused);
  $("queue-end").textContent = state.more
    ? "More links load as you go."
    : state.links.length + " link(s) loaded; end of the queue.";
}

async function select(index) {
  if (index >= state.links.length && state.more) {
    try {
      await loadPage();
    } catch (error) {
      failed(error);
      return;
    }
    renderQueue();
  }
  if (index < -1 || index >= state.links.length) return;
  state.index = index;
  markSelected($("queue"), index);
  showPair();
  if (state.more && index >= state.links.length - PREFETCH) {
    loadPage().then(renderQueue, failed);
  }
}

// The next link without a decision after the current one, loading pages as needed.
async function advance() {
  for (let next = state.index + 1; ; next += 1) {
    if (next >= state.links.length) {
      if (!state.more) break;
      await loadPage();
      renderQueue();
      if (next >= state.links.length) break;
    }
    if (!state.decisions.has(keyOf(state.links[next]))) {
      await select(next);
      return;
    }
  }
  renderQueue();
  await select(state.index);
  say($("status").textContent + " End of the queue.");
}

function settle(link, verdict) {
  const path = "/api/entities/" + enc(link.a.id) + "/candidates/" + enc(link.b.id);
  return api("POST", path, { verdict });
}

async function decide(verdict) {
  const link = current();
  if (!link || state.busy) return;
  state.busy = true;
  try {
    const key = keyOf(link);
    if (verdict === "skip") {
      say("Skipped " + link.a.name + " ↔ " + link.b.name + ".");
    } else {
      await settle(link, verdict);
      say(verdict === "same"
        ? "Same: “" + link.b.name + "” is now an alias of “" + link.a.name + "”."
        : "Different: " + link.a.name + " and " + link.b.name + " are settled as distinct.");
    }
    state.decisions.set(key, { verdict, note: verdict === "skip" ? "skipped" : verdict });
    state.undo.push({ key, verdict });
    renderQueue();
    await advance();
  } catch (error) {
    failed(error);
  } finally {
    state.busy = false;
  }
}

async function undo() {
  if (state.busy) return;
  const last = state.undo.pop();
  if (!last) {
    say("Nothing to undo.");
    return;
  }
  const index = state.links.findIndex((link) => keyOf(link) === last.key);
  const link = state.links[index];
  state.busy = true;
  try {
    if (last.verdict === "same") {
      await settle(link, "different"); // the API's undo of `same`: its alias is removed
      state.decisions.set(last.key, { verdict: "different", note: "same undone: now different" });
      say("Undone: “" + link.b.name + "” is no longer an alias of “" + link.a.name +
        "”; the link is settled different (press s to record same again).");
    } else if (last.verdict === "different") {
      say("A different verdict cannot be reopened through the API; press s on it to " +
        "record same instead.");
    } else {
      state.decisions.delete(last.key);
      say("Skip undone.");
    }
    renderQueue();
    await select(index);
  } catch (error) {
    state.undo.push(last);
    failed(error);
  } finally {
    state.busy = false;
  }
}

function snippet(text, needles) {
  if (text.length <= SNIPPET * 2) return text;
  const folded = text.toLowerCase();
  const places = needles.filter((n) => n).map((n) => folded.indexOf(n.toLowerCase()));
  const first = Math.min(...places.filter((p) => p !== -1), text.length);
  const from = Math.max(0, (first === text.length ? 0 : first) - SNIPPET);
  const to = Math.min(text.length, from + SNIPPET * 2);
  return (from > 0 ? "…" : "") + text.slice(from, to) + (to < text.length ? "…" : "");
}

// The edit between two names: the common start and end as text, the rest marked.
function edit(older, newer) {
  let start = 0;
  while (start < older.length && start < newer.length && older[start] === newer[start]) {
    start += 1;
  }
  let end = 0;
  while (end < older.length - start && end < newer.length - start &&
    older[older.length - 1 - end] === newer[newer.length - 1 - end]) {
    end += 1;
  }
  const line = (name, tag) => {
    const node = el("span", null, "edit");
    node.append(document.createTextNode(name.slice(0, start)));
    const changed = name.slice(start, name.length - end);
    if (changed) node.append(el(tag, changed));
    node.append(document.createTextNode(name.slice(name.length - end)));
    return node;
  };
  const both = el("span");
  both.append(line(older, "del"), el("span", " → "), line(newer, "ins"));
  return both;
}

function showPair() {
  const link = current();
  state.shown += 1;
  const shown = state.shown;
  $("evidence").replaceChildren();
  $("sides").replaceChildren();
  for (const id of ["same", "different", "skip"]) $(id).disabled = !link;
  if (!link) {
    $("pair-title").textContent = "No link selected";
    return;
  }
  $("pair-title").textContent = link.a.name + " ↔ " + link.b.name;
  term($("evidence"), "Reason", link.reason);
  term($("evidence"), "Similarity", link.similarity.toFixed(3));
  term($("evidence"), "Edit", edit(link.a.name, link.b.name));
  term($("evidence"), "Decision", noteOf(link) || "pending");
  for (const [entity, role] of [[link.a, "older"], [link.b, "newer"]]) {
    const side = el("section", null, "side");
    side.setAttribute("aria-label", role + " entity");
    side.append(el("h3", entity.name));
    const facts = el("dl");
    term(facts, "Role", role === "older" ? "older (receives the alias)" : "newer");
    term(facts, "Kind", entity.kind);
    term(facts, "Aliases", entity.aliases.length ? entity.aliases.join(", ") : "none");
    const count = el("dd", "…");
    facts.append(el("dt", "Mentions"), count);
    const drawers = el("ul", null, "drawers");
    side.append(facts, drawers);
    $("sides").append(side);
    showMentions(entity, count, drawers, shown);
  }
}

async function showMentions(entity, count, drawers, shown) {
  let mentions;
  try {
    const path = "/api/entities/" + enc(entity.id) + "/mentions?limit=" + (MENTIONS_COUNTED + 1);
    mentions = await api("GET", path);
  } catch (error) {
    if (shown === state.shown) count.textContent = "unavailable: " + error.message;
    return;
  }
  if (shown !== state.shown) return;
  const counted = mentions.length > MENTIONS_COUNTED;
  count.textContent = counted ? MENTIONS_COUNTED + "+" : String(mentions.length);
  for (const mention of mentions.slice(0, MENTIONS_SHOWN)) {
    const item = el("li");
    drawers.append(item);
    try {
      const drawer = await api("GET", "/api/drawers/" + enc(mention.drawer));
      if (shown !== state.shown) return;
      const needles = [mention.observation.name, entity.name];
      const where = [drawer.wing, drawer.room, drawer.name].filter((p) => p).join(" / ");
      const body = el("p", null, "content");
      body.append(highlighted(snippet(drawer.content, needles), needles));
      item.append(el("p", where, "where"), body);
    } catch (error) {
      item.textContent = "drawer " + mention.drawer + ": " + error.message;
    }
  }
}

// This queue's keys; true when `key` was one of them.
export function onKey(key) {
  const actions = {
    j: () => select(Math.min(state.index + 1, state.links.length - 1 + (state.more ? 1 : 0))),
    k: () => select(Math.max(state.index - 1, 0)),
    s: () => decide("same"),
    d: () => decide("different"),
    x: () => decide("skip"),
    u: () => undo(),
  };
  const action = actions[key];
  if (action) action();
  return Boolean(action);
}

export function install() {
  $("same").addEventListener("click", () => decide("same"));
  $("different").addEventListener("click", () => decide("different"));
  $("skip").addEventListener("click", () => decide("skip"));
  $("undo").addEventListener("click", () => undo());
  $("filters").addEventListener("submit", (event) => {
    event.preventDefault();
    state.filters = { kind: $("kind").value.trim(), reason: $("reason").value };
    start().catch(failed);
  });
}
