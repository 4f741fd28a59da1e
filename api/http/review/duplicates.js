// The queue of duplicate pairs (`GET /api/duplicates`, clusters of drawers alike in meaning) in
// a wing and room, each pair's two contents side by side with the words that differ marked.
//
// A verdict is the API's own (`POST /api/duplicates/verdicts`), which replaces an earlier one
// but cannot be withdrawn: `u` undoes a skip, and for a verdict says to press another verdict.

import { $, api, el, enc, failed, markSelected, renderList, say, term } from "./common.js";

const VERDICTS = { d: "duplicate", s: "supplement", c: "contradiction", n: "unrelated" };
const DIFF_CELLS = 4000000; // word-diff table size past which the changed middle is marked whole

const state = {
  pairs: [], // {cluster, clusters, size, total, a, b, score}
  index: -1,
  scope: { wing: "", room: "", threshold: "0.85" },
  decisions: new Map(), // pair key -> note
  undo: [], // {key, verdict}
  busy: false,
  shown: 0,
  drawers: new Map(), // id -> the drawer's promise
  started: false,
  searches: 0, // the last search started: an earlier one that answers later is dropped
};

const keyOf = (pair) => pair.a + "\n" + pair.b;
const current = () => state.pairs[state.index] || null;

// The text as runs of words and of white space: what the diff compares.
function tokens(text) {
  return text.match(/\s+|\S+/g) || [];
}

// Which tokens of `left` and `right` are not in a longest common subsequence of the two: the
// common start and end are trimmed first, and a middle too large to compare is marked whole.
export function wordDiff(leftText, rightText) {
  const left = tokens(leftText);
  const right = tokens(rightText);
  let head = 0;
  while (head < left.length && head < right.length && left[head] === right[head]) head += 1;
  let tail = 0;
  while (tail < left.length - head && tail < right.length - head &&
    left[left.length - 1 - tail] === right[right.length - 1 - tail]) tail += 1;
  const a = left.slice(head, left.length - tail);
  const b = right.slice(head, right.length - tail);
  const keptA = new Array(a.length).fill(false);
  const keptB = new Array(b.length).fill(false);
  if (a.length && b.length && (a.length + 1) * (b.length + 1) <= DIFF_CELLS) {
    const width = b.length + 1;
    const table = new Uint32Array((a.length + 1) * width);
    for (let i = a.length - 1; i >= 0; i -= 1) {
      for (let j = b.length - 1; j >= 0; j -= 1) {
        table[i * width + j] = a[i] === b[j]
          ? table[(i + 1) * width + j + 1] + 1
          : Math.max(table[(i + 1) * width + j], table[i * width + j + 1]);
      }
    }
    let i = 0;
    let j = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) {
        keptA[i] = true;
        keptB[j] = true;
        i += 1;
        j += 1;
      } else if (table[(i + 1) * width + j] >= table[i * width + j + 1]) {
        i += 1;
      } else {
        j += 1;
      }
    }
  }
  const runs = (all, kept) => all.map((text, n) => ({
    text, changed: n >= head && n < all.length - tail && !kept[n - head],
  }));
  return { left: runs(left, keptA), right: runs(right, keptB) };
}

// Runs of tokens as nodes: unchanged ones as text, changed ones inside `tag`.
function marked(runs, tag) {
  const fragment = document.createDocumentFragment();
  let buffer = "";
  let changed = false;
  const flush = () => {
    if (buffer) fragment.append(changed ? el(tag, buffer) : document.createTextNode(buffer));
    buffer = "";
  };
  for (const run of runs) {
    if (run.changed !== changed) {
      flush();
      changed = run.changed;
    }
    buffer += run.text;
  }
  flush();
  return fragment;
}

function drawer(id) {
  if (!state.drawers.has(id)) {
    const loading = api("GET", "/api/drawers/" + enc(id));
    loading.catch(() => state.drawers.delete(id)); // a failed read is tried again next time
    state.drawers.set(id, loading);
  }
  return state.drawers.get(id);
}

// Looks for duplicates in the scope of the form; throws what the API threw.
export async function start() {
  const params = new URLSearchParams({ threshold: state.scope.threshold || "0.85" });
  if (state.scope.wing) params.set("wing", state.scope.wing);
  if (state.scope.room) params.set("room", state.scope.room);
  say("Looking for duplicates…");
  state.started = true;
  state.searches += 1;
  const search = state.searches;
  const found = await api("GET", "/api/duplicates?" + params.toString());
  if (search !== state.searches) return;
  const pairs = [];
  found.clusters.forEach((cluster, n) => {
    for (const pair of cluster.pairs) {
      pairs.push({
        cluster: n + 1, clusters: found.clusters.length, size: cluster.size,
        total: cluster.pairs_total, a: pair.a, b: pair.b, score: pair.score,
      });
    }
  });
  Object.assign(state, {
    pairs, index: -1, decisions: new Map(), undo: [], drawers: new Map(),
  });
  renderQueue();
  say(pairs.length ? "" : "No duplicate pairs waiting in this scope.");
  select(pairs.length ? 0 : -1);
}

export const started = () => state.started;

function describe(pair, button) {
  const title = "Cluster " + pair.cluster + " · " + pair.size + " drawers";
  button.append(el("span", title, "name"));
  button.append(el("span", "score " + pair.score.toFixed(3), "meta"));
  const note = state.decisions.get(keyOf(pair));
  if (note) button.append(el("span", note, "decided"));
}

function renderQueue() {
  const focused = document.activeElement && document.activeElement.closest("#dup-queue");
  renderList($("dup-queue"), state.pairs, state.index, describe, (index) => select(index));
  if (focused) markSelected($("dup-queue"), state.index);
  $("dup-queue-end").textContent = state.pairs.length + " pair(s) waiting in this scope.";
}

function select(index) {
  if (index < -1 || index >= state.pairs.length) return;
  state.index = index;
  markSelected($("dup-queue"), index);
  showPair();
}

function advance() {
  const next = state.pairs.findIndex((p, n) => n > state.index && !state.decisions.has(keyOf(p)));
  if (next !== -1) {
    select(next);
    return;
  }
  select(state.index);
  say($("status").textContent + " End of the queue.");
}

async function decide(verdict) {
  const pair = current();
  if (!pair || state.busy) return;
  state.busy = true;
  try {
    if (verdict === "skip") {
      say("Skipped the pair.");
    } else {
      const body = { a: pair.a, b: pair.b, status: verdict };
      if (state.scope.wing) body.wing = state.scope.wing;
      if (state.scope.room) body.room = state.scope.room;
      await api("POST", "/api/duplicates/verdicts", body);
      say("Recorded: " + verdict + ".");
    }
    state.decisions.set(keyOf(pair), verdict === "skip" ? "skipped" : verdict);
    state.undo.push({ key: keyOf(pair), verdict });
    renderQueue();
    advance();
  } catch (error) {
    failed(error);
  } finally {
    state.busy = false;
  }
}

function undo() {
  const last = state.undo.pop();
  if (!last) {
    say("Nothing to undo.");
    return;
  }
  if (last.verdict === "skip") {
    state.decisions.delete(last.key);
    say("Skip undone.");
  } else {
    say("A verdict cannot be withdrawn through the API; press another verdict on the pair " +
      "to replace it.");
  }
  renderQueue();
  select(state.pairs.findIndex((pair) => keyOf(pair) === last.key));
}

async function showPair() {
  const pair = current();
  state.shown += 1;
  const shown = state.shown;
  $("dup-evidence").replaceChildren();
  $("dup-sides").replaceChildren();
  for (const button of $("dup-decisions").querySelectorAll("button")) {
    button.disabled = !pair && button.id !== "dup-undo";
  }
  if (!pair) {
    $("dup-pair-title").textContent = "No pair selected";
    return;
  }
  $("dup-pair-title").textContent = "Cluster " + pair.cluster + " of " + pair.clusters;
  term($("dup-evidence"), "Score", pair.score.toFixed(3));
  term($("dup-evidence"), "Cluster", pair.size + " drawers, " + pair.total + " pair(s)");
  term($("dup-evidence"), "Decision", state.decisions.get(keyOf(pair)) || "pending");
  let a;
  let b;
  try {
    [a, b] = await Promise.all([drawer(pair.a), drawer(pair.b)]);
  } catch (error) {
    if (shown === state.shown) failed(error);
    return;
  }
  if (shown !== state.shown) return;
  const diff = wordDiff(a.content, b.content);
  for (const [found, runs, tag, label] of [[a, diff.left, "del", "first"],
    [b, diff.right, "ins", "second"]]) {
    const side = el("section", null, "side");
    side.setAttribute("aria-label", label + " drawer");
    side.append(el("h3", [found.wing, found.room, found.name].filter((p) => p).join(" / ")));
    const facts = el("dl");
    term(facts, "Id", found.id);
    term(facts, "Written", found.created_at);
    const content = el("p", null, "content");
    content.append(marked(runs, tag));
    side.append(facts, content);
    $("dup-sides").append(side);
  }
}

export function onKey(key) {
  const actions = {
    j: () => select(Math.min(state.index + 1, state.pairs.length - 1)),
    k: () => select(Math.max(state.index - 1, 0)),
    x: () => decide("skip"),
    u: () => undo(),
  };
  for (const [letter, verdict] of Object.entries(VERDICTS)) {
    actions[letter] = () => decide(verdict);
  }
  const action = actions[key];
  if (action) action();
  return Boolean(action);
}

export function install() {
  for (const [letter, verdict] of Object.entries(VERDICTS)) {
    $("dup-" + verdict).addEventListener("click", () => decide(verdict));
    $("dup-" + verdict).setAttribute("aria-keyshortcuts", letter);
  }
  $("dup-skip").addEventListener("click", () => decide("skip"));
  $("dup-undo").addEventListener("click", () => undo());
  $("dup-filters").addEventListener("submit", (event) => {
    event.preventDefault();
    state.scope = {
      wing: $("wing").value.trim(), room: $("room").value.trim(), threshold: $("threshold").value,
    };
    start().catch(failed);
  });
}
