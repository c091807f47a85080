package protocol

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/razziagame/razzia"
)

// Replay replays a record for a replay viewer: the spectator's view of the
// start and, for each move, the move, the events it caused, told by n (nil:
// without sentences), and the patch that turns the view before it into the
// view after it (see Patch). It also returns the replayed game. A record
// with an illegal move is a *razzia.RecordError, as Record.Game gives it.
// The work is linear in the number of moves: after each move only that
// move's events are read.
//
// A view is a few kilobytes and a move changes a few fields of it, so the
// patches keep a whole game's replay small (docs/protocol.md gives sizes).
func Replay(rec *razzia.Record, n Narrator) (View, []Step, *razzia.Game, error) {
	g, err := rec.Game()
	if err != nil {
		return View{}, nil, nil, err
	}
	players := g.Players()
	steps := make([]Step, 0, g.Len())
	// A second game, played alongside, gives each step's view and events.
	step, err := razzia.NewGame(razzia.Setup{Players: players, Cheques: rec.Cheques})
	if err != nil {
		return View{}, nil, nil, err
	}
	start := NewView(step.View(-1))
	prev, err := generic(start)
	if err != nil {
		return View{}, nil, nil, err
	}
	for i, m := range g.Moves() {
		if err := step.Play(m); err != nil {
			return View{}, nil, nil, &razzia.RecordError{Move: i + 1, Token: m.String(), Err: err}
		}
		next, err := generic(NewView(step.View(-1)))
		if err != nil {
			return View{}, nil, nil, err
		}
		patch, _ := diff(prev, next)
		b, err := marshal(patch)
		if err != nil {
			return View{}, nil, nil, err
		}
		steps = append(steps, Step{Move: m.String(), Patch: b, Events: Events(step.EventsSince(i), players, n)})
		prev = next
	}
	return start, steps, g, nil
}

// Views returns the replay's views: the start, then the view after each
// step, by applying the steps' patches in turn.
func (a *ReplayAnswer) Views() ([]View, error) {
	cur, err := generic(a.Start)
	if err != nil {
		return nil, err
	}
	out := make([]View, 0, len(a.Steps)+1)
	out = append(out, a.Start)
	for i, s := range a.Steps {
		var p any
		if err := decode(s.Patch, &p); err != nil {
			return nil, fmt.Errorf("protocol: replay step %d: %w", i+1, err)
		}
		cur = Patch(cur, p)
		b, err := json.Marshal(cur)
		if err != nil {
			return nil, err
		}
		var v View
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("protocol: replay step %d: %w", i+1, err)
		}
		out = append(out, v)
	}
	return out, nil
}

// Patch applies a replay step's patch to a JSON value (as encoding/json
// decodes into any) and returns the result; target is not changed. The
// patch is a JSON Merge Patch (RFC 7386) with one addition for arrays:
//
//   - an object patches an object member by member: a null member removes
//     that member, any other member patches the target's member (a member
//     the target lacks is patched from nothing, that is, set);
//   - an object patches an array element by element, its members' names
//     being indices ("0", "3"): the array keeps its length;
//   - anything else (a number, a string, an array, ...) replaces the target.
//
// The replay viewer (replay.js) applies patches the same way.
func Patch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	switch t := target.(type) {
	case []any:
		out := slices.Clone(t)
		for k, v := range p {
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(out) {
				continue // not ours: Replay writes indices within the array
			}
			out[i] = Patch(out[i], v)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t)+len(p))
		for k, v := range t {
			out[k] = v
		}
		for k, v := range p {
			if v == nil {
				delete(out, k)
			} else {
				out[k] = Patch(out[k], v)
			}
		}
		return out
	default:
		return Patch(map[string]any{}, patch)
	}
}

// diff returns the patch that turns a into b, and whether they are equal
// (then the patch is nil). Both are JSON values decoded with UseNumber.
func diff(a, b any) (any, bool) {
	switch b := b.(type) {
	case map[string]any:
		a, ok := a.(map[string]any)
		if !ok {
			return b, false
		}
		p := map[string]any{}
		for k, bv := range b {
			av := a[k] // a member a patch removed reads as null
			switch {
			case av == nil && bv == nil:
				continue
			case av == nil:
				p[k] = bv
				continue
			case bv == nil:
				p[k] = nil // removes the member
				continue
			}
			if d, same := diff(av, bv); !same {
				p[k] = d
			}
		}
		for k, av := range a {
			if _, has := b[k]; !has && av != nil {
				p[k] = nil
			}
		}
		return p, len(p) == 0
	case []any:
		a, ok := a.([]any)
		if !ok || len(a) != len(b) || len(b) == 0 {
			return b, ok && len(a) == 0 && len(b) == 0
		}
		p := map[string]any{}
		for i := range b {
			if d, same := diff(a[i], b[i]); !same {
				p[strconv.Itoa(i)] = d
			}
		}
		if len(p) == 0 {
			return nil, true
		}
		// Element by element only pays when few elements change.
		if 2*len(p) > len(b) && !isContainer(b[0]) {
			return b, false
		}
		return p, false
	default:
		if a == nil && b == nil {
			return nil, true
		}
		if a != nil && b != nil && a == any(b) {
			return nil, true
		}
		return b, false
	}
}

// isContainer reports whether a JSON value is an object or an array.
func isContainer(v any) bool {
	switch v.(type) {
	case map[string]any, []any:
		return true
	}
	return false
}

// generic returns v as encoding/json decodes it into any, numbers kept as
// written.
func generic(v any) (any, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	return out, decode(b, &out)
}

func decode(b []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	return dec.Decode(v)
}

func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
