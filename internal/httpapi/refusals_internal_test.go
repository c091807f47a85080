package httpapi

import (
	"testing"

	"github.com/razziagame/razzia/internal/account"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/table"
)

// TestErrorOfEveryRefusal: every refusal declared, from the Hub or the
// account service, is answered with its code and the code's status, and
// the player's message; none becomes internal.
func TestErrorOfEveryRefusal(t *testing.T) {
	refusals := protocol.Refusals()
	if len(refusals) < 40 {
		t.Fatalf("only %d refusals declared: are table, chat and account linked?", len(refusals))
	}
	for _, r := range refusals {
		for _, err := range []error{
			&table.Error{Kind: r, Msg: "for the player"},
			&account.Error{Kind: r, Msg: "for the player"},
		} {
			e := errorOf(err)
			if e.obj.Code != r.Code() || e.status != r.Code().Status() || e.obj.Message != "for the player" {
				t.Errorf("%q (%T): %d %+v, want %s with status %d", r, err, e.status, e.obj, r.Code(), r.Code().Status())
			}
		}
	}
}
