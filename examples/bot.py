#!/usr/bin/env python3
"""A small Razzia bot speaking the line protocol of docs/bots.md.

For every decision razzia writes one JSON line to our standard input; we
answer one line on standard output: a move token taken from "legal", in an
object naming the decision when razzia numbers its questions.

The strategy is simple on purpose:

  * in its turn the bot draws, but calls a forced auction when the row
    already holds five cards or more;
  * in an auction it bids its lowest possible cheque when the row holds at
    least three cards, and passes otherwise (when it must bid, because it
    called an auction nobody bid in, it bids the lowest cheque).

Run it in a tournament:   razzia arena --seats "exec:python3 examples/bot.py,heuristic,heuristic"
or at a server's table:   razzia bot --invite http://localhost:8080/g/GAMEID --exec "python3 examples/bot.py"

Standard library only. Anything printed to standard error shows up in
razzia's standard error, prefixed, which is handy for debugging: run with
--verbose to see why the bot chose each move.
"""

import json
import sys

VERBOSE = "--verbose" in sys.argv[1:]


def bids(legal):
    """The legal bids, lowest first, as (cheque, token) pairs."""
    out = []
    for token in legal:
        if token.startswith("bid "):
            out.append((int(token.split()[1]), token))
    return sorted(out)


def choose(view, legal):
    """Return one token of legal for the position in view."""
    row = view["row"]
    if view["phase"] == "auction":
        my_bids = bids(legal)
        if my_bids and (len(row) >= 3 or "pass" not in legal):
            return my_bids[0][1], "%d cards in the row: bid the lowest cheque" % len(row)
        return "pass", "only %d cards in the row: pass" % len(row)
    if len(row) >= 5 and "call" in legal:
        return "call", "a full row of %d cards: call an auction" % len(row)
    if "draw" in legal:
        return "draw", "draw"
    return legal[0], "no draw: take the first legal move"


def main():
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("type") != "decide":
            continue  # a later protocol version may send more: ignore it
        move, why = choose(message["view"], message["legal"])
        if VERBOSE:
            print("move %d: %s" % (message["view"]["moves"] + 1, why), file=sys.stderr)
        if "decision" in message:
            # Name the question answered, so that no other line we might
            # print is ever taken for this answer. Older razzia versions
            # send no decision number and read the bare move.
            print(json.dumps({"decision": message["decision"], "move": move}), flush=True)
        else:
            print(move, flush=True)


if __name__ == "__main__":
    main()
