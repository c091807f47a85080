// forms.js: the one way a page's own form gets its handler.
//
// A form in a page's HTML comes with data-unwired and its submit buttons
// disabled (internal/web's TestFormsWaitForScript keeps the rule): until
// its script has come, on a slow network, a click or Enter neither
// submits it natively (a GET of the page with what was typed in its
// address, a password into the history and the server's logs, and the
// click lost in the reload) nor meets a button that looks ready.
// Not method="post" with a server answer: that would still reload the
// page, losing the click and what was typed, and give every page a route
// that must never log or echo a body; a disabled button sends nothing.
// autocomplete="off" on those buttons stops a browser (Firefox) from
// restoring them enabled on a reload, before the script runs.
//
// A page's own <button type="button"> does nothing until its script has
// come: it comes with data-unwired and aria-disabled="true", looking as a
// waiting form's button does (razzia.css), until onClick wires it. Not
// disabled: its script may keep it disabled for reasons of its own
// (the start of a replay), which onClick must not undo.

/**
 * onSubmit gives the form with the id its submit handler, which runs
 * with the browser's own submission prevented, then makes the form
 * ready: its submit buttons enabled, data-unwired gone.
 */
export function onSubmit(id, handler) {
  const form = document.getElementById(id);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    return handler(ev);
  });
  for (const b of form.querySelectorAll('button[type="submit"]')) b.disabled = false;
  form.removeAttribute("data-unwired");
  return form;
}

/**
 * onClick gives the button with the id its click handler, then makes it
 * ready: data-unwired and aria-disabled gone.
 */
export function onClick(id, handler) {
  const b = document.getElementById(id);
  b.addEventListener("click", handler);
  b.removeAttribute("aria-disabled");
  b.removeAttribute("data-unwired");
  return b;
}
