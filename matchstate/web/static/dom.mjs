// Small DOM helpers.

/** Build an element: el("button", {class: "big", onclick: f}, "text", child...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "dataset") Object.assign(node.dataset, value);
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

export const $ = (id) => document.getElementById(id);

/** The focused control, told by what finds it again once its part of the page is drawn anew: its tag with its id,
 * else its data attributes (null where none is focused, or it has neither). */
export function focusedControl() {
  const focused = document.activeElement;
  if (!focused || focused === document.body || (!focused.id && !Object.keys(focused.dataset).length)) return null;
  return {tag: focused.tagName, id: focused.id, data: {...focused.dataset}};
}

/** Focus again the control ``kept`` told (focusedControl), where drawing the page anew took the focus away: the
 * keyboard stays on the button it was on, where a redraw (a live event, a poll) sent it back to the page's start. */
export function refocus(kept) {
  if (!kept || (document.activeElement && document.activeElement !== document.body)) return;
  const same = (node) => node.tagName === kept.tag && Object.keys(kept.data).length === Object.keys(node.dataset).length
    && Object.entries(kept.data).every(([name, value]) => node.dataset[name] === value);
  const found = kept.id ? document.getElementById(kept.id) : [...document.querySelectorAll(kept.tag)].find(same);
  found?.focus();
}

/** Answer a form's submit with ``act``, one at a time: its buttons are disabled and the form marked busy until
 * ``act`` is done, so a second tap while a slow answer is on its way sends nothing twice (a match created
 * twice is refused the second time, and the first one's keys, shown once, would be replaced by the refusal). */
export function submitOnce(form, act) {
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    if (form.getAttribute("aria-busy") === "true") return;
    const buttons = [...form.querySelectorAll("button")].filter((button) => !button.disabled);
    form.setAttribute("aria-busy", "true");
    buttons.forEach((button) => { button.disabled = true; });
    try {
      await act(e);
    } finally {
      form.removeAttribute("aria-busy");
      buttons.forEach((button) => { button.disabled = false; });
    }
  });
}

/** The page's message (the element ``id``), kept as what makes its words: ``say(words)`` shows ``words()``, and
 * ``say.again()`` shows the last one anew, in the language chosen since (the language toggle calls it). */
export function messenger(id = "message") {
  let last = () => "";
  const say = (words) => {
    last = words;
    $(id).textContent = words();
  };
  say.again = () => say(last);
  return say;
}
