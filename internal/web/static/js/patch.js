// patch.js: the replay's patches (docs/protocol.md, "Replay a game"): a
// JSON Merge Patch (RFC 7386) whose objects also patch arrays element by
// element. The server computes them with protocol.Patch's rules.

/** patch returns target with p applied; target is not changed. */
export function patch(target, p) {
  if (p === null || typeof p !== "object" || Array.isArray(p)) return p;
  if (Array.isArray(target)) {
    const out = target.slice();
    for (const [k, v] of Object.entries(p)) {
      const i = Number(k);
      if (Number.isInteger(i) && i >= 0 && i < out.length && String(i) === k) out[i] = patch(out[i], v);
    }
    return out;
  }
  const out = target !== null && typeof target === "object" ? { ...target } : {};
  for (const [k, v] of Object.entries(p)) {
    if (v === null) delete out[k];
    else out[k] = patch(out[k], v);
  }
  return out;
}

/**
 * views returns the views of a replay answer: the start, then the view
 * after each step. A member a patch removed reads as null, as in the view.
 */
export function views(answer) {
  const out = [answer.start];
  let cur = answer.start;
  for (const step of answer.steps) {
    cur = patch(cur, step.patch);
    if (cur.auction === undefined) cur.auction = null;
    out.push(cur);
  }
  return out;
}
