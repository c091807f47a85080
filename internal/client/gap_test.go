package client

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/razziagame/razzia/internal/protocol"
)

// fakeGame serves a game's WebSocket with script: it gets the connection
// and the protocol versions the client stated.
func fakeGame(t *testing.T, script func(ctx context.Context, c *websocket.Conn, versions string)) *Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		defer c.CloseNow()
		script(r.Context(), c, r.URL.Query().Get("protocol"))
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const (
	wholeState = `{"type":"state","game":{"id":"aaaaaaaaaa","status":"playing","moves":3},"seat":0,"view":{"seat":0,"moves":3,"toMove":1},"events":[{"kind":"pass","seat":0}],"version":5}`
	goodPatch  = `{"type":"patch","version":6,"events":[{"kind":"pass","seat":1}],"patch":{"game":{"moves":4},"view":{"moves":4,"toMove":0}}}`
	gapPatch   = `{"type":"patch","base":7,"version":8,"events":[],"patch":{"view":{"moves":9}}}`
	laterState = `{"type":"state","game":{"id":"aaaaaaaaaa","status":"playing","moves":9},"seat":0,"view":{"seat":0,"moves":9,"toMove":1},"events":[],"version":9}`
)

// TestPatchGap: a patch of another state than the client's (a message
// lost) is not applied: the client asks for the whole state, once, and
// reads on from it.
func TestPatchGap(t *testing.T) {
	asked := make(chan string, 4)
	c := fakeGame(t, func(ctx context.Context, ws *websocket.Conn, versions string) {
		asked <- "protocol=" + versions
		for _, m := range []string{wholeState, goodPatch, gapPatch, gapPatch} {
			ws.Write(ctx, websocket.MessageText, []byte(m))
		}
		_, data, err := ws.Read(ctx)
		if err != nil {
			return
		}
		asked <- string(data)
		ws.Write(ctx, websocket.MessageText, []byte(laterState))
		ws.Read(ctx) // until the client goes
	})
	ctx := context.Background()
	conn, err := c.Dial(ctx, "aaaaaaaaaa", "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if v := <-asked; v != "protocol=1,2" {
		t.Errorf("the client states %s, want protocol=1,2", v)
	}
	var got []string
	for range 3 {
		st, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.Join([]string{strconv.Itoa(st.View.Moves), strconv.Itoa(st.Game.Moves), strconv.Itoa(st.View.ToMove), map[bool]string{true: "first"}[st.First], strconv.Itoa(len(st.Events))}, " "))
	}
	want := []string{"3 3 1 first 1", "4 4 0  1", "9 9 1 first 0"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("states %q, want %q", got, want)
	}
	if m := <-asked; m != `{"type":"resync"}` {
		t.Errorf("the client sent %s, want a resync", m)
	}
	select {
	case m := <-asked:
		t.Errorf("the client sent %s too: one resync until the whole state comes", m)
	default:
	}
}

// TestPatchGapUnanswered: a whole state asked for that does not come ends
// the connection, so that the next starts with one.
func TestPatchGapUnanswered(t *testing.T) {
	defer func(d time.Duration) { resyncWait = d }(resyncWait)
	resyncWait = 50 * time.Millisecond
	c := fakeGame(t, func(ctx context.Context, ws *websocket.Conn, _ string) {
		ws.Write(ctx, websocket.MessageText, []byte(wholeState))
		ws.Write(ctx, websocket.MessageText, []byte(gapPatch))
		for {
			if _, _, err := ws.Read(ctx); err != nil {
				return
			}
		}
	})
	ctx := context.Background()
	conn, err := c.Dial(ctx, "aaaaaaaaaa", "")
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := conn.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if st, err := conn.Read(ctx); err != errNoWholeState {
		t.Errorf("Read = %+v, %v; want errNoWholeState", st, err)
	}
}

// TestProtocolAsked: a client asks for the versions up to its Protocol.
func TestProtocolAsked(t *testing.T) {
	for _, c := range []struct {
		protocol int
		want     string
	}{{0, "1,2"}, {protocol.Version1, "1"}, {protocol.Version2, "1,2"}, {9, "1,2"}} {
		cl := &Client{Protocol: c.protocol}
		if got := cl.protocols(); got != c.want {
			t.Errorf("Protocol %d asks for %s, want %s", c.protocol, got, c.want)
		}
	}
}
