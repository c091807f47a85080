package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/pace"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/table"
)

// routePace serves the paces a table can be created with and the
// cancelling of a table that waits for players.
func (s *Server) routePace(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/paces", paces)
	mux.HandleFunc("DELETE /api/games/{id}", s.cancelTable)
}

// paces answers the pace presets, named and described in the request's
// language: the page offers this list rather than one of its own.
func paces(w http.ResponseWriter, r *http.Request) {
	cat := catalogue(r)
	out := protocol.PacesAnswer{Paces: []protocol.PaceInfo{}}
	for _, p := range pace.Presets() {
		out.Paces = append(out.Paces, *describePace(p, cat))
	}
	writeJSON(w, http.StatusOK, out)
}

// describePace is the pace with its name and description in cat's language.
func describePace(p pace.Pace, cat *i18n.Catalogue) *protocol.PaceInfo {
	in := table.PaceInfo(p)
	in.Name, in.Describe = p.Name(cat), p.Describe(cat)
	return in
}

// cancelTable closes a table that waits for players, for its creator.
func (s *Server) cancelTable(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	info, err := s.hub.Cancel(r.Context(), id, creatorTokenOf(r, id))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, protocol.GameAnswer{Game: info})
}

// takeOvers returns the take-overs told in cat's language.
func takeOvers(list []protocol.TakeOver, players []string, cat *i18n.Catalogue) []protocol.TakeOver {
	if len(list) == 0 {
		return nil
	}
	out := make([]protocol.TakeOver, len(list))
	for i, to := range list {
		name := ""
		if to.Seat >= 0 && to.Seat < len(players) {
			name = players[to.Seat]
		}
		key := "table.timeout"
		switch to.Reason {
		case protocol.ReasonLeft:
			key = "table.left"
		case protocol.ReasonRemoved:
			key = "moderation.takeover"
		}
		to.Text = cat.T(key, "player", name, "bot", to.Bot)
		if to.BackMove != nil {
			to.BackText = cat.T("table.back", "player", name)
		}
		out[i] = to
	}
	return out
}

// withMeta adds the metadata's fields to a record as razzia.Record writes
// it (a JSON object ending in "}\n"), after its own fields: optional
// top-level fields, which readers of the format ignore.
func withMeta(record []byte, meta protocol.RecordMeta) ([]byte, error) {
	var fields []string
	if meta.Pace != nil {
		b, err := json.Marshal(meta.Pace)
		if err != nil {
			return nil, err
		}
		fields = append(fields, `"pace": `+string(b))
	}
	if len(meta.TakeOvers) > 0 {
		b, err := json.Marshal(meta.TakeOvers)
		if err != nil {
			return nil, err
		}
		fields = append(fields, `"takeOvers": `+string(b))
	}
	for _, link := range []struct{ key, id string }{{"rematchOf", meta.RematchOf}, {"rematch", meta.Rematch}} {
		if link.id != "" {
			fields = append(fields, fmt.Sprintf("%q: %q", link.key, link.id))
		}
	}
	end := bytes.LastIndexByte(record, '}')
	if len(fields) == 0 || end < 0 {
		return record, nil
	}
	body := bytes.TrimRight(record[:end], " \n")
	var out bytes.Buffer
	out.Write(body)
	for _, f := range fields {
		out.WriteString(",\n  " + f)
	}
	out.WriteString("\n}\n")
	return out.Bytes(), nil
}
