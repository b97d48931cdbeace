// The review's video: recordings opened on this laptop (played from the file itself through an object URL:
// nothing is uploaded, a helmet camera's several GB play offline) or from an address, each matched to a clip
// of the log by the official; the clips in force (video.sync) that are not open here, said in words; a
// selected row plays every synced clip from a few seconds before it, and the clip playing marks the row it
// shows. Frame steps and slow motion by keyboard (the keys are listed on the page).

import {$, el} from "./dom.mjs";
import {t} from "./catalog.mjs";
import {time} from "./show.mjs";
import {FRAME_RATE, clipTime, frameStep, moment, nextSpeed, rowShown, startFor, syncsByClip} from "./clips.mjs";

/**
 * @param {object} page
 * @param {() => object[]} page.clips  the clips in force (the match view's officials.clips)
 * @param {() => object[]} page.rows  the log's rows, in order
 * @param {() => object|null} page.selected  the selected row
 * @param {(clip: string, position: number, row: object|null) => void} page.pin  log a video.sync
 * @param {(seq: number|null) => void} page.shown  the row the clip playing shows (null: none)
 */
export function videoPanel(page) {
  const players = [];
  let active = null;

  const syncOf = (player) => syncsByClip(page.clips()).get(player.clip) || null;

  function activate(player) {
    active = player;
    players.forEach((other) => other.box.classList.toggle("active", other === player));
  }

  function open(url, name) {
    const video = el("video", {controls: true, preload: "auto", muted: true, playsinline: true, src: url});
    video.muted = true;  // a helmet camera's wind: the official turns it up
    const player = {url, name, clip: name, video, box: null, trouble: null, outside: null, outsideAt: null};
    const choose = el("select", {class: "clip-name"});
    choose.addEventListener("change", () => { player.clip = choose.value; render(); });
    player.choose = choose;
    player.box = el("figure", {class: "player", dataset: {clip: name}},
      el("label", {}, el("span", {class: "as-clip"}), " ", choose),
      video,
      el("figcaption", {},
        el("p", {class: "sync"}), el("p", {class: "status"}),
        el("button", {type: "button", class: "small pin", onclick: () => pin(player)}),
        " ", el("button", {type: "button", class: "small close", onclick: () => close(player)})));
    video.addEventListener("error", () => { player.trouble = t("review-video", "unplayable-reason"); render(); });
    video.addEventListener("loadeddata", () => render());  // a frame to pin at last
    video.addEventListener("play", () => { player.outside = null; activate(player); });
    // The official moves the clip on: what was said of a row outside it no longer holds. A seek fires its event
    // later, even to where the clip already is, so the words are kept by the frame they were said at, not by a flag.
    video.addEventListener("seeking", () => { if (video.currentTime !== player.outsideAt) player.outside = null; });
    video.addEventListener("focus", () => activate(player));
    video.addEventListener("timeupdate", () => { status(player); if (player === active) follow(player); });
    video.addEventListener("ratechange", () => status(player));
    players.push(player);
    $("players").append(player.box);
    // A re-opened recording is matched to its clip by name where the names agree; else the official chooses.
    activate(player);
    render();
  }

  function close(player) {
    players.splice(players.indexOf(player), 1);
    player.video.pause();
    player.box.remove();
    if (player.url.startsWith("blob:")) URL.revokeObjectURL(player.url);
    if (active === player) activate(players[0] || null);
    render();
  }

  // Only a frame shown can be pinned: a recording the browser cannot read has none, whatever its position says.
  const showsAFrame = (player) => !player.trouble && player.video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA;

  function pin(player) {
    if (!showsAFrame(player)) return;
    player.video.pause();
    page.pin(player.clip, player.video.currentTime, page.selected());
  }

  // The row the clip playing shows, marked in the timeline.
  function follow(player) {
    const sync = syncOf(player);
    page.shown(sync ? rowShown(page.rows(), sync, player.video.currentTime)?.seq ?? null : null);
  }

  function status(player) {
    const {video} = player;
    player.box.querySelector(".status").textContent = player.trouble
      ? t("review-video", "unplayable", {clip: player.clip, reason: player.trouble})
      : player.outside || t("review-video", "position", {moment: clipTime(video.currentTime), speed: video.playbackRate});
    player.box.querySelector(".status").classList.toggle("trouble", Boolean(player.trouble || player.outside));
  }

  function render() {
    const inForce = page.clips();
    const open = new Set(players.map((player) => player.clip));
    $("missing").replaceChildren(...inForce.filter((sync) => !open.has(sync.clip))
      .map((sync) => el("li", {dataset: {clip: sync.clip}}, t("review-video", "missing", {clip: sync.clip}))));
    const row = page.selected();
    for (const player of players) {
      const names = [...new Set([player.name, ...inForce.map((sync) => sync.clip)])];
      const taken = new Set(players.filter((other) => other !== player).map((other) => other.clip));
      // Its own clip always (a recording opened twice has the same one), and those no other recording has.
      player.choose.replaceChildren(...names.filter((name) => name === player.clip || !taken.has(name)).map((name) => el("option", {value: name},
        name === player.name && !inForce.some((sync) => sync.clip === name) ? t("review-video", "new-clip", {clip: name}) : name)));
      player.choose.value = player.clip;
      player.box.dataset.clip = player.clip;
      // the words of the language chosen, drawn again with each render (the toggle renders)
      player.box.querySelector(".as-clip").textContent = t("review-video", "as-clip");
      player.box.querySelector(".close").textContent = t("review-video", "close", {clip: player.name});
      player.video.setAttribute("aria-label", t("review-video", "video-label", {clip: player.clip}));
      const sync = syncOf(player);
      player.box.querySelector(".sync").textContent = sync
        // Where the clip begins in the log's time: the sync's own moment is carried forward to when it was
        // logged, and would read as "2:27.19 of the clip" of a clip of 20 s.
        ? t("review-video", "synced", {start: time(new Date(Date.parse(sync.at) - sync.clip_seconds * 1000).toISOString())})
        : t("review-video", "not-synced");
      player.box.querySelector(".pin").textContent = row ? t("review-video", "pin", {seq: row.seq}) : t("review-video", "pin-now");
      player.box.querySelector(".pin").disabled = !showsAFrame(player);
      status(player);
    }
  }

  /** Play every synced clip open here from a few seconds before ``row``'s moment; where the recording does not
   * hold that moment (before it begins, after it ends), say so, at its first or last frame, paused. */
  function seek(row) {
    for (const player of players) {
      const sync = syncOf(player);
      if (!sync || player.trouble) continue;
      const at = moment(sync, row.at);
      const {duration} = player.video;  // NaN until the recording's length is known: taken as holding it
      const words = {seq: row.seq, clip: player.clip};
      player.outside = at < 0 ? t("review-video", "before-clip", {...words, gap: clipTime(-at)})
        : at > duration ? t("review-video", "after-clip", {...words, gap: clipTime(at - duration)}) : null;
      const target = player.outside ? (at < 0 ? 0 : duration) : startFor(sync, row.at);
      player.video.currentTime = target;
      player.outsideAt = player.outside ? player.video.currentTime : null;  // as the video holds it
      if (player.outside) player.video.pause();
      else player.video.play().catch(() => {});  // a refused play (no gesture): the official presses K
      status(player);
    }
  }

  // The video keys, anywhere outside a text box: K, "," and ".", "[" and "]".
  function keys(e) {
    if (!active || e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, select, textarea, dialog")) return;
    const {video} = active;
    const speed = {"[": -1, "]": 1}[e.key];
    const frame = {",": -1, ".": 1}[e.key];
    if (e.key === "k" || e.key === "K") {
      if (video.paused) video.play().catch(() => {}); else video.pause();
    } else if (frame !== undefined) {
      video.pause();
      video.currentTime = frameStep(video.currentTime, frame, FRAME_RATE);
    } else if (speed !== undefined) {
      video.playbackRate = nextSpeed(video.playbackRate, speed);
    } else {
      return;
    }
    e.preventDefault();
  }

  $("clip-file").addEventListener("change", (e) => {
    for (const file of e.target.files) open(URL.createObjectURL(file), file.name);
    e.target.value = "";
  });
  $("clip-address").addEventListener("submit", (e) => {
    e.preventDefault();
    const url = $("clip-url").value.trim();
    if (url) open(url, url);
  });
  document.addEventListener("keydown", keys);

  /** Where ``row`` is in each synced clip: "umpire.webm 0:12.40" (its moments, for the timeline). */
  const moments = (row) => page.clips().map((sync) => ({clip: sync.clip, at: moment(sync, row.at)}));

  return {render, seek, moments};
}
