package recordview_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/recordview"
)

// TestWrite: a record's account names its players and rounds, and its
// JSON result reads back as a Result; a bad record's as a Failure.
func TestWrite(t *testing.T) {
	g, err := razzia.NewGame(razzia.Setup{Players: []string{"Ann", "Bob", "Cy"}, Seed: []byte("recordview")})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 40 && !g.Over(); i++ {
		if err := g.Play(g.LegalMoves()[0]); err != nil {
			t.Fatal(err)
		}
	}
	rec := g.Record()
	var account bytes.Buffer
	recordview.WriteAccount(&account, rec, g, true)
	for _, want := range []string{"Ann", "Bob", "Cy", "Round 1"} {
		if !strings.Contains(account.String(), want) {
			t.Errorf("the account lacks %q:\n%s", want, account.String())
		}
	}
	var js bytes.Buffer
	recordview.WriteJSON(&js, g)
	var res recordview.Result
	if err := json.Unmarshal(js.Bytes(), &res); err != nil || len(res.Players) != 3 || res.Round < 1 {
		t.Errorf("the result reads back as %+v (%v):\n%s", res, err, js.String())
	}
	js.Reset()
	recordview.WriteFailure(&js, &razzia.RecordError{Move: 3, Token: "bid 99", Err: razzia.ErrBidTooLow})
	var f recordview.Failure
	if err := json.Unmarshal(js.Bytes(), &f); err != nil || f.Error.Move != 3 || f.Error.Token != "bid 99" || f.Error.Reason == "" {
		t.Errorf("the failure reads back as %+v (%v): %s", f, err, js.String())
	}
}
