// learn.js: the lobby's "Learn to play": it starts the guided first game
// (POST /api/tutorial, which seats the learner at once) and opens it.

import { onSubmit } from "./forms.js";
import { $ } from "./dom.js";
import * as api from "./api.js";
import { errorText } from "./errors.js";

/**
 * setupLearn wires the lobby's learn form. tr returns the page's current
 * translator.
 */
export function setupLearn(tr) {
  const input = $("learn-name");
  try {
    input.value = localStorage.getItem("razzia.name") || "";
  } catch {
    // storage disabled: the name is only a convenience
  }
  onSubmit("learn-form", async () => {
    const button = $("learn");
    const err = $("learn-error");
    err.hidden = true;
    button.disabled = true;
    const name = input.value.trim() || tr()("web.tutorial.name");
    try {
      const { game } = await api.request("POST", "/api/tutorial", { name });
      try {
        if (input.value.trim()) localStorage.setItem("razzia.name", name);
      } catch {
        // as above
      }
      location.assign(game.invite || `/g/${game.id}`);
    } catch (e) {
      err.textContent = errorText(tr(), e);
      err.hidden = false;
      button.disabled = false;
    }
  });
}
