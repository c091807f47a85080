package httpapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/httpapi"
	"github.com/razziagame/razzia/internal/protocol"
)

func TestCreateWithPace(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	resp, v := e.do("POST", "/api/games", `{"seats":[{"bot":""},{"bot":"easy"}],"pace":"rapid"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create with a pace: %d %v", resp.StatusCode, v)
	}
	pace, _ := v["game"].(map[string]any)["pace"].(map[string]any)
	if pace["id"] != "rapid" || pace["kind"] != "live" || pace["decisionMs"] != 20000.0 || pace["reserveMs"] != 180000.0 {
		t.Errorf("the table's pace = %v, want rapid: live, 20 s + 3 min", pace)
	}
	before := len(mustList(t, e, ""))
	resp, v = e.do("POST", "/api/games", `{"seats":[{"bot":""},{"bot":"easy"}],"pace":"bullet"}`)
	obj := wantError(t, resp, v, http.StatusBadRequest, "bad_request")
	t.Logf("unknown pace: %s", obj["message"])
	if after := len(mustList(t, e, "")); after != before {
		t.Errorf("a refused table was stored: %d tables, want %d", after, before)
	}
}

func TestPaces(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	resp, v := e.do("GET", "/api/paces?lang=de", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /api/paces: %d", resp.StatusCode)
	}
	list, _ := v["paces"].([]any)
	if len(list) < 3 {
		t.Fatalf("paces = %v", v)
	}
	first := list[0].(map[string]any)
	if first["id"] == "" || first["name"] == "" || first["describe"] == "" {
		t.Errorf("a pace without its id, name or description: %v", first)
	}
}

func TestCancelTable(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	resp, v := e.do("POST", "/api/games", `{"seats":[{"bot":""},{"bot":""}]}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", resp.StatusCode, v)
	}
	id := v["game"].(map[string]any)["id"].(string)
	creator := v["creatorToken"].(string)
	_, token := e.join(id, "Ann")
	c := e.dial(id, "Authorization", "Bearer "+token)
	c.read()

	resp, v = e.do("DELETE", "/api/games/"+id, "", "Authorization", "Bearer "+token)
	wantError(t, resp, v, http.StatusForbidden, "not_creator")
	resp, v = e.do("DELETE", "/api/games/"+id, "")
	wantError(t, resp, v, http.StatusForbidden, "not_creator")

	resp, v = e.do("DELETE", "/api/games/"+id, "", "Authorization", "Bearer "+creator)
	if resp.StatusCode != http.StatusOK || v["game"].(map[string]any)["status"] != "cancelled" {
		t.Fatalf("cancel by the creator: %d %v", resp.StatusCode, v)
	}
	// The player's connection hears it and is told why.
	for m := c.read(); m.Type != "error"; m = c.read() {
		if m.Type == "state" && m.Game.Status != protocol.StatusCancelled {
			t.Errorf("a state after the cancel says %s", m.Game.Status)
		}
	}
	resp, v = e.do("POST", "/api/games/"+id+"/join", `{"name":"Bob"}`)
	wantError(t, resp, v, http.StatusGone, "table_cancelled")
	resp, v = e.do("DELETE", "/api/games/"+id, "", "Authorization", "Bearer "+creator)
	wantError(t, resp, v, http.StatusGone, "table_cancelled")
}

func TestPreMoveMessages(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	_, _, _, cm, co := twoPlayers(t, e)
	// The seat to move cannot pre-enter; the other may only pass or bid.
	cm.send(`{"type":"premove","move":"pass"}`)
	cm.wantError(protocol.IllegalMove)
	co.send(`{"type":"premove","move":"draw"}`)
	co.wantError(protocol.IllegalMove)
	co.send(`{"type":"premove","move":"pass","seq":3}`)
	co.wantError(protocol.BadMessage)
	co.send(`{"type":"takeback","move":"pass"}`)
	co.wantError(protocol.BadMessage)
	// Taking back a seat one holds does nothing, and says nothing.
	co.send(`{"type":"takeback"}`)
	co.send(`{"type":"bogus"}`)
	m := co.wantError(protocol.BadMessage)
	var raw map[string]any
	json.Unmarshal(m.raw, &raw)
	t.Logf("unknown type: %v", raw["message"])
}

// TestRecordMetadata: the record of a game played at a pace carries it as
// an optional field, and still reads as a record.
func TestRecordMetadata(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	resp, v := e.do("POST", "/api/games", `{"seats":[{"bot":""},{"bot":"easy"}],"pace":"day1"}`)
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d %v", resp.StatusCode, v)
	}
	id := v["game"].(map[string]any)["id"].(string)
	e.join(id, "Ann")
	resp, v = e.do("GET", "/api/games/"+id+"/record", "")
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("record: %d", resp.StatusCode)
	}
	pace, _ := v["pace"].(map[string]any)
	if pace["id"] != "day1" || pace["kind"] != "correspondence" {
		t.Errorf("the record's pace = %v, want day1", v["pace"])
	}
	b, _ := json.Marshal(v)
	if _, err := razzia.ReadRecord(bytes.NewReader(b)); err != nil {
		t.Errorf("the record with metadata does not read as a record: %v", err)
	}
}

func TestLeaveMessage(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	_, _, _, cm, _ := twoPlayers(t, e)
	cm.send(`{"type":"leave","move":"pass"}`)
	cm.wantError(protocol.BadMessage)
	cm.send(`{"type":"leave"}`)
	for {
		m := cm.read()
		if m.Type == "error" {
			t.Fatalf("leave: %s %s", m.Code, m.Message.Message)
		}
		if len(m.TakeOvers) == 1 && m.TakeOvers[0].Reason == "left" && m.TakeOvers[0].Text != "" {
			break
		}
	}
}

// TestContinueMessage: "continue" is a player's, takes no move, and with
// no clock held does nothing and says nothing.
func TestContinueMessage(t *testing.T) {
	e := newEnv(t, httpapi.Options{})
	id, _, _, cm, _ := twoPlayers(t, e)
	cm.send(`{"type":"continue","move":"pass"}`)
	if m := cm.wantError(protocol.BadMessage); !strings.Contains(m.Message.Message, `"continue" takes no "move"`) {
		t.Errorf("a continue with a move: %q", m.Message.Message)
	}
	cm.send(`{"type":"continue"}`)
	cm.send(`{"type":"takeback","move":"pass"}`)
	if m := cm.wantError(protocol.BadMessage); !strings.Contains(m.Message.Message, `"takeback"`) {
		t.Errorf("the continue was answered: %q", m.Message.Message)
	}
	spectator := e.dial(id)
	spectator.send(`{"type":"continue"}`)
	spectator.wantError(protocol.NotYourSeat)
}
