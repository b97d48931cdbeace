// Who must sit out of the start of this match (the discipline ledger's carried cards), shown at the top of
// the console and the review before the first chukker. Its own module, hooked into each page by one import.

import {api} from "./http.mjs";
import {key} from "./keys.mjs";
import {t} from "./catalog.mjs";
import {onLang} from "./lang.mjs";

function minutes(seconds) {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

async function show() {
  const root = document.querySelector("[data-code]");
  if (!root) return;
  const code = root.dataset.code;
  const reply = await api(`/api/matches/${encodeURIComponent(code)}/sit-outs`, {key: key(code)}).catch(() => null);
  if (!reply || reply.status !== 200 || !reply.data.length) return;
  const box = document.createElement("section");
  box.className = "sit-outs";
  box.setAttribute("role", "note");
  const render = () => {
    const heading = document.createElement("h2");
    heading.textContent = t("tournament-sitout", "heading");
    const list = document.createElement("ul");
    for (const sitOut of reply.data) {
      const item = document.createElement("li");
      item.textContent = t("tournament-sitout", "line", {name: sitOut.name, team: sitOut.team,
        time: minutes(sitOut.seconds), match: sitOut.earned_in});
      list.append(item);
    }
    box.replaceChildren(heading, list);
  };
  render();
  onLang(render);
  root.prepend(box);
}

document.addEventListener("DOMContentLoaded", show);
