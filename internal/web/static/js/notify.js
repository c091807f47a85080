// notify.js: telling a player it is their turn when they look elsewhere:
// a sound (off until they turn it on; the choice is remembered in
// localStorage), and a browser notification while the tab is hidden, once
// they allowed it. The tab's title marks the turn too (table.js).

const KEY = "razzia.sound";

function soundOn() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false; // storage disabled: the default, off
  }
}

let audio = null;

// tone plays a short sound made by the page (nothing to load): a chime
// for the turn, a dry tick for the clock's last seconds.
function tone(frequency, volume, seconds) {
  const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Ctx) return;
  audio = audio || new Ctx();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.frequency.value = frequency;
  gain.gain.setValueAtTime(volume, audio.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + seconds);
  osc.connect(gain).connect(audio.destination);
  osc.start();
  osc.stop(audio.currentTime + seconds);
}

const beep = () => tone(660, 0.15, 0.4);

/** clockTick ticks audibly, when the player turned the sound on. */
export function clockTick() {
  if (soundOn()) tone(1200, 0.12, 0.06);
}

/** chime sounds the turn's chime, when the player turned the sound on: a challenge's too. */
export function chime() {
  if (soundOn()) beep();
}

/** turnAlert tells the player it is their turn, as they chose. */
export function turnAlert(text) {
  if (soundOn()) beep();
  if (document.hidden && globalThis.Notification && Notification.permission === "granted") {
    const n = new Notification(text, { tag: "razzia-turn" });
    n.onclick = () => {
      focus();
      n.close();
    };
  }
}

/** alertSettings draws the sound switch, the notification button and the link to the push settings into el. */
export function alertSettings(el, t) {
  if (!el) return;
  el.replaceChildren();
  const label = document.createElement("label");
  label.className = "alert-sound";
  const box = document.createElement("input");
  box.type = "checkbox";
  box.id = "sound";
  box.checked = soundOn();
  box.addEventListener("change", () => {
    try {
      localStorage.setItem(KEY, box.checked ? "on" : "off");
    } catch {
      // storage disabled: the choice lasts while the page is open
    }
    if (box.checked) beep(); // a sample, and browsers allow sound after a click
  });
  label.append(box, " ", t("web.sound.label"));
  el.append(label);
  if (globalThis.Notification && Notification.permission === "default") {
    const b = document.createElement("button");
    b.type = "button";
    b.id = "notify";
    b.className = "small";
    b.textContent = t("web.notify.enable");
    b.addEventListener("click", async () => {
      await Notification.requestPermission();
      b.remove();
    });
    el.append(" ", b);
  }
  // Web Push, for when the tab is closed: set up on the notifications page.
  const push = document.createElement("a");
  push.href = "/account/push";
  push.className = "alert-push";
  push.textContent = t("web.account.push");
  el.append(" ", push);
}
