package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/protocol"
)

// protocols returns the versions of the game's protocol the client
// states it speaks (?protocol=).
func (c *Client) protocols() string {
	newest := c.Protocol
	if newest <= 0 || newest > protocol.Version2 {
		newest = protocol.Version2
	}
	list := ""
	for v := protocol.Version1; v <= newest; v++ {
		if list != "" {
			list += ","
		}
		list += strconv.Itoa(v)
	}
	return list
}

// patchPrefix begins every "patch" message, as the server encodes it.
var patchPrefix = []byte(`{"type":"` + protocol.TypePatch + `"`)

// resyncWait is how long a connection waits for the whole state it asked
// for before it gives the connection up (the next starts with one):
// longer than the server's bound on such requests (one every 2 s).
var resyncWait = 3 * time.Second

// patches is the state of a connection of protocol version 2, which the
// next patch changes.
type patches struct {
	doc, spare []byte // the state, and the memory of the next
	version    int64
	asked      time.Time // when the whole state was asked for; zero when not
}

// whole keeps the state of a whole state message (data) of version
// (0 in protocol version 1, which sends no patches).
func (p *patches) whole(data []byte, version int64) error {
	if version == 0 {
		return nil
	}
	doc, err := protocol.StateOf(p.doc[:0], data)
	if err != nil {
		return fmt.Errorf("a state from the server is not the JSON expected: %v", err)
	}
	p.doc, p.version, p.asked = doc, version, time.Time{}
	return nil
}

// patched applies a "patch" message (data) to the state and returns the
// new state message; nil when the patch is not of the state the
// connection has (a message went missing, or it cannot be applied): then
// it asks the server for the whole state, once until it comes.
func (c *Conn) patched(ctx context.Context, data []byte) (*protocol.Message, error) {
	p := c.patches
	env, err := protocol.ParsePatch(data)
	if err != nil {
		return nil, fmt.Errorf("a message from the server is not the JSON expected: %v", err)
	}
	var next []byte
	if p.doc != nil && env.Base == p.version {
		next, err = protocol.AppendPatched(p.spare[:0], p.doc, env.Patch)
	}
	if next == nil || err != nil {
		return nil, c.resync(ctx)
	}
	m, err := c.decode(next)
	if err == nil {
		err = c.expand(m, next)
	}
	if err != nil {
		return nil, c.resync(ctx)
	}
	if !c.brief {
		if err := json.Unmarshal(env.Events, &m.Events); err != nil {
			return nil, fmt.Errorf("a message from the server is not the JSON expected: %v", err)
		}
		c.tell(m)
	}
	p.spare, p.doc, p.version = p.doc, next, env.Version
	return m, nil
}

// errNoWholeState ends a connection whose whole state, asked for, did
// not come in time: the next connection starts with one.
var errNoWholeState = errors.New("client: the whole state asked for did not come")

// next reads the next message into c.buf (one buffer for all: nothing
// decoded keeps its bytes); while a whole state is asked for, it waits
// resyncWait at most, after which the connection is given up.
func (c *Conn) next(ctx context.Context) (websocket.MessageType, error) {
	rctx := ctx
	if asked := c.patches.asked; !asked.IsZero() {
		var cancel context.CancelFunc
		rctx, cancel = context.WithDeadline(ctx, asked.Add(resyncWait))
		defer cancel()
	}
	typ, r, err := c.ws.Reader(rctx)
	if err == nil {
		c.buf.Reset()
		_, err = c.buf.ReadFrom(r)
	}
	if err != nil && ctx.Err() == nil && rctx.Err() != nil {
		return typ, errNoWholeState
	}
	return typ, err
}

// resync asks for the whole state, unless it did so a moment ago.
func (c *Conn) resync(ctx context.Context) error {
	p := c.patches
	if !p.asked.IsZero() {
		return nil // reader gives the connection up if it does not come
	}
	p.asked = time.Now()
	return c.ws.Write(ctx, websocket.MessageText, []byte(`{"type":"`+protocol.TypeResync+`"}`))
}
