// The curator's review page: the queue of pending review links, keyboard first.
//
// Plain script, no framework and no build step. Every value from the API reaches the page as
// text (textContent, text nodes, <mark>/<del>/<ins> elements around them), never as HTML.
// Every decision is one call of the API's own routes; the token is kept in sessionStorage, so
// it lives as long as the tab.
"use strict";

(function () {
  const TOKEN_KEY = "castlegraph.review.token";
  const PAGE_SIZE = 50;
  const PREFETCH = 5; // load the next page when the selection is this close to the end
  const MENTIONS_SHOWN = 3;
  const MENTIONS_COUNTED = 100; // "100+ mentions" past this
  const SNIPPET = 240; // characters of a drawer shown either side of the first mention

  const $ = (id) => document.getElementById(id);

  class NeedToken extends Error {}

  class ApiError extends Error {
    constructor(status, error) {
      super(error && error.message ? error.message : "HTTP " + status);
      this.status = status;
      this.code = error && error.code ? error.code : "";
    }
  }

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

  async function api(method, path, body) {
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

  const enc = encodeURIComponent;
  const keyOf = (link) => link.a.id + "\n" + link.b.id;
  const current = () => state.links[state.index] || null;

  function say(text) {
    $("status").textContent = text;
  }

  function el(tag, text, className) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (className) node.className = className;
    return node;
  }

  // ---- the token ----

  function askToken(message) {
    $("review").hidden = true;
    $("forget").hidden = true;
    $("login").hidden = false;
    $("login-error").textContent = message || "";
    $("token").focus();
  }

  function onTokenSubmit(event) {
    event.preventDefault();
    const token = $("token").value.trim();
    if (!token) return;
    sessionStorage.setItem(TOKEN_KEY, token);
    $("token").value = "";
    start();
  }

  function forgetToken() {
    sessionStorage.removeItem(TOKEN_KEY);
    state.links = [];
    renderQueue();
    askToken("");
  }

  function failed(error) {
    if (error instanceof NeedToken) {
      const had = sessionStorage.getItem(TOKEN_KEY);
      sessionStorage.removeItem(TOKEN_KEY);
      askToken(had ? "That token was refused." : "");
      return;
    }
    say("Failed: " + error.message + (error.code ? " (" + error.code + ")" : ""));
  }

  // ---- the queue ----

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

  async function start() {
    state.links = [];
    state.cursor = null;
    state.more = false;
    state.index = -1;
    state.decisions.clear();
    state.undo = [];
    try {
      await loadPage();
    } catch (error) {
      failed(error);
      return;
    }
    $("login").hidden = true;
    $("review").hidden = false;
    $("forget").hidden = !sessionStorage.getItem(TOKEN_KEY);
    renderQueue();
    say(state.links.length ? "" : "No pending review links.");
    select(state.links.length ? 0 : -1);
  }

  function statusText(link) {
    const decision = state.decisions.get(keyOf(link));
    return decision ? decision.note : "";
  }

  function renderQueue() {
    const list = $("queue");
    list.replaceChildren();
    state.links.forEach((link, index) => {
      const item = el("li");
      const button = el("button", null, "link");
      button.type = "button";
      button.dataset.index = String(index);
      button.append(el("span", link.a.name, "name"), el("span", " ↔ "));
      button.append(el("span", link.b.name, "name"));
      button.append(
        el("span", link.a.kind + " · " + link.reason + " · " + link.similarity.toFixed(3), "meta")
      );
      const decided = statusText(link);
      if (decided) button.append(el("span", decided, "decided"));
      button.addEventListener("click", () => select(index));
      if (index === state.index) button.setAttribute("aria-current", "true");
      item.append(button);
      list.append(item);
    });
    $("queue-end").textContent = state.more
      ? "More links load as you go."
      : state.links.length + " link(s) loaded; end of the queue.";
  }

  async function select(index, keepFocus) {
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
    for (const button of $("queue").querySelectorAll("button.link")) {
      const here = Number(button.dataset.index) === index;
      if (here) {
        button.setAttribute("aria-current", "true");
        if (!keepFocus) button.focus();
      } else {
        button.removeAttribute("aria-current");
      }
    }
    showPair();
    if (state.more && index >= state.links.length - PREFETCH) {
      loadPage().then(renderQueueKeepingFocus, failed);
    }
  }

  function renderQueueKeepingFocus() {
    const focused = document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.index
      : undefined;
    renderQueue();
    if (focused !== undefined) {
      const again = $("queue").querySelector('button[data-index="' + focused + '"]');
      if (again) again.focus();
    }
  }

  // The next link without a decision after the current one, loading pages as needed.
  async function advance() {
    for (let next = state.index + 1; ; next += 1) {
      if (next >= state.links.length) {
        if (!state.more) break;
        try {
          await loadPage();
        } catch (error) {
          failed(error);
          return;
        }
        renderQueue();
      }
      if (next < state.links.length && !state.decisions.has(keyOf(state.links[next]))) {
        await select(next);
        return;
      }
    }
    renderQueue();
    await select(state.index);
    say($("status").textContent + " End of the queue.");
  }

  // ---- decisions ----

  async function settle(link, verdict) {
    return api(
      "POST",
      "/api/entities/" + enc(link.a.id) + "/candidates/" + enc(link.b.id),
      { verdict }
    );
  }

  async function decide(verdict) {
    const link = current();
    if (!link || state.busy) return;
    state.busy = true;
    try {
      const key = keyOf(link);
      let note;
      if (verdict === "skip") {
        note = "skipped";
        say("Skipped " + link.a.name + " ↔ " + link.b.name + ".");
      } else {
        await settle(link, verdict);
        note = verdict;
        say(
          verdict === "same"
            ? "Same: “" + link.b.name + "” is now an alias of “" + link.a.name + "”."
            : "Different: " + link.a.name + " and " + link.b.name + " are settled as distinct."
        );
      }
      state.decisions.set(key, { verdict, note });
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
        await settle(link, "different"); // the API's undo of `same` (its alias is removed)
        state.decisions.set(last.key, { verdict: "different", note: "same undone: now different" });
        say(
          "Undone: “" + link.b.name + "” is no longer an alias of “" + link.a.name +
            "”; the link is settled different (press s to record same again)."
        );
      } else if (last.verdict === "different") {
        say(
          "A different verdict cannot be reopened through the API; press s on it to record " +
            "same instead."
        );
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

  // ---- the pair ----

  // `text` as nodes, each occurrence of a needle (case-insensitive) in a <mark>.
  function highlighted(text, needles) {
    const fragment = document.createDocumentFragment();
    const folded = text.toLowerCase();
    const exact = folded.length !== text.length; // lower-casing moved the offsets: match as is
    const haystack = exact ? text : folded;
    const wanted = needles
      .filter((needle) => needle)
      .map((needle) => (exact ? needle : needle.toLowerCase()));
    let at = 0;
    while (at < text.length) {
      let found = -1;
      let length = 0;
      for (const needle of wanted) {
        const where = haystack.indexOf(needle, at);
        if (where !== -1 && (found === -1 || where < found || (where === found && needle.length > length))) {
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

  function snippet(text, needles) {
    const folded = text.toLowerCase();
    let first = -1;
    for (const needle of needles) {
      const where = needle ? folded.indexOf(needle.toLowerCase()) : -1;
      if (where !== -1 && (first === -1 || where < first)) first = where;
    }
    if (text.length <= SNIPPET * 2) return text;
    const from = Math.max(0, (first === -1 ? 0 : first) - SNIPPET);
    const to = Math.min(text.length, from + SNIPPET * 2);
    return (from > 0 ? "…" : "") + text.slice(from, to) + (to < text.length ? "…" : "");
  }

  // The edit between two names: the common start and end as text, the rest marked.
  function edit(older, newer) {
    let start = 0;
    while (start < older.length && start < newer.length && older[start] === newer[start]) start += 1;
    let end = 0;
    while (
      end < older.length - start && end < newer.length - start &&
      older[older.length - 1 - end] === newer[newer.length - 1 - end]
    ) end += 1;
    const line = (name, Tag) => {
      const node = el("span", null, "edit");
      node.append(document.createTextNode(name.slice(0, start)));
      const changed = name.slice(start, name.length - end);
      if (changed) node.append(el(Tag, changed));
      node.append(document.createTextNode(name.slice(name.length - end)));
      return node;
    };
    const both = el("span");
    both.append(line(older, "del"), el("span", " → "), line(newer, "ins"));
    return both;
  }

  function term(list, name, value) {
    list.append(el("dt", name));
    const dd = el("dd");
    if (value instanceof Node) dd.append(value);
    else dd.textContent = String(value);
    list.append(dd);
  }

  function showPair() {
    const link = current();
    state.shown += 1;
    const shown = state.shown;
    const evidence = $("evidence");
    const sides = $("sides");
    evidence.replaceChildren();
    sides.replaceChildren();
    for (const id of ["same", "different", "skip"]) $(id).disabled = !link;
    if (!link) {
      $("pair-title").textContent = "No link selected";
      return;
    }
    $("pair-title").textContent = link.a.name + " ↔ " + link.b.name;
    term(evidence, "Reason", link.reason);
    term(evidence, "Similarity", link.similarity.toFixed(3));
    term(evidence, "Edit", edit(link.a.name, link.b.name));
    const decided = statusText(link);
    term(evidence, "Decision", decided || "pending");
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
      side.append(facts);
      const drawers = el("ul", null, "drawers");
      side.append(drawers);
      sides.append(side);
      showMentions(entity, count, drawers, shown);
    }
  }

  async function showMentions(entity, count, drawers, shown) {
    let mentions;
    try {
      mentions = await api(
        "GET",
        "/api/entities/" + enc(entity.id) + "/mentions?limit=" + (MENTIONS_COUNTED + 1)
      );
    } catch (error) {
      if (shown === state.shown) count.textContent = "unavailable: " + error.message;
      return;
    }
    if (shown !== state.shown) return;
    count.textContent =
      mentions.length > MENTIONS_COUNTED ? MENTIONS_COUNTED + "+" : String(mentions.length);
    for (const mention of mentions.slice(0, MENTIONS_SHOWN)) {
      const item = el("li");
      drawers.append(item);
      try {
        const drawer = await api("GET", "/api/drawers/" + enc(mention.drawer));
        if (shown !== state.shown) return;
        const needles = [mention.observation.name, entity.name];
        item.append(el("p", drawer.wing + " / " + drawer.room + (drawer.name ? " / " + drawer.name : ""), "where"));
        const body = el("p", null, "content");
        body.append(highlighted(snippet(drawer.content, needles), needles));
        item.append(body);
      } catch (error) {
        item.textContent = "drawer " + mention.drawer + ": " + error.message;
      }
    }
  }

  // ---- keys ----

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target && target.closest && target.closest("input, select, textarea")) return;
    if ($("review").hidden) return;
    const actions = {
      j: () => select(Math.min(state.index + 1, state.links.length - 1 + (state.more ? 1 : 0))),
      k: () => select(Math.max(state.index - 1, 0)),
      s: () => decide("same"),
      d: () => decide("different"),
      x: () => decide("skip"),
      u: () => undo(),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  }

  function onFilter(event) {
    event.preventDefault();
    state.filters = { kind: $("kind").value.trim(), reason: $("reason").value };
    start();
  }

  document.addEventListener("DOMContentLoaded", () => {
    $("token-form").addEventListener("submit", onTokenSubmit);
    $("filters").addEventListener("submit", onFilter);
    $("forget").addEventListener("click", forgetToken);
    $("same").addEventListener("click", () => decide("same"));
    $("different").addEventListener("click", () => decide("different"));
    $("skip").addEventListener("click", () => decide("skip"));
    $("undo").addEventListener("click", () => undo());
    document.addEventListener("keydown", onKey);
    start();
  });
})();
