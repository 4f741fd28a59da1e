// The curator's review page: asks for the token once (kept in sessionStorage, for this tab
// only), switches between the two queues, and sends each key to the queue shown.

import { $, TOKEN_KEY, failed } from "./common.js";
import * as duplicates from "./duplicates.js";
import * as links from "./links.js";

let mode = "links";

function askToken(message) {
  $("review").hidden = true;
  $("forget").hidden = true;
  $("login").hidden = false;
  $("login-error").textContent = message;
  $("token").focus();
}

async function open() {
  $("login").hidden = true;
  $("review").hidden = false;
  $("forget").hidden = !sessionStorage.getItem(TOKEN_KEY);
  show("links");
  try {
    await links.start();
  } catch (error) {
    failed(error);
  }
}

function show(chosen) {
  mode = chosen;
  $("links-mode").hidden = chosen !== "links";
  $("dups-mode").hidden = chosen !== "duplicates";
  $("mode-links").setAttribute("aria-pressed", String(chosen === "links"));
  $("mode-dups").setAttribute("aria-pressed", String(chosen === "duplicates"));
  if (chosen === "duplicates" && !duplicates.started()) duplicates.start().catch(failed);
}

function onKey(event) {
  if (event.ctrlKey || event.metaKey || event.altKey || $("review").hidden) return;
  const target = event.target;
  if (target && target.closest && target.closest("input, select, textarea")) return;
  const handled = mode === "links" ? links.onKey(event.key) : duplicates.onKey(event.key);
  if (handled) event.preventDefault();
}

document.addEventListener("need-token", () => {
  const had = sessionStorage.getItem(TOKEN_KEY);
  sessionStorage.removeItem(TOKEN_KEY);
  askToken(had ? "That token was refused." : "");
});

$("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const token = $("token").value.trim();
  if (!token) return;
  sessionStorage.setItem(TOKEN_KEY, token);
  $("token").value = "";
  open();
});
$("forget").addEventListener("click", () => {
  sessionStorage.removeItem(TOKEN_KEY);
  askToken("");
});
$("mode-links").addEventListener("click", () => show("links"));
$("mode-dups").addEventListener("click", () => show("duplicates"));
document.addEventListener("keydown", onKey);
links.install();
duplicates.install();
open();
