package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/razziagame/razzia"
	"github.com/razziagame/razzia/internal/client"
	"github.com/razziagame/razzia/internal/meet"
	"github.com/razziagame/razzia/internal/protocol"
	"github.com/razziagame/razzia/internal/tui"
)

// playNowRequest reads --play-now (a player count, "3", or a range,
// "2-4") and the settings beside it as a Play-now request.
func playNowRequest(players, paceID string, rated bool, botsAfter time.Duration) (protocol.SeekRequest, error) {
	if players == "" {
		players = "2-4"
	}
	lo, hi, ranged := strings.Cut(players, "-")
	min, err := strconv.Atoi(strings.TrimSpace(lo))
	max := min
	if err == nil && ranged {
		max, err = strconv.Atoi(strings.TrimSpace(hi))
	}
	if err != nil || min < razzia.MinPlayers || max > razzia.MaxPlayers || min > max {
		return protocol.SeekRequest{}, fmt.Errorf("--play-now %q: the players at the table, %d to %d, or a range such as 2-4", players, razzia.MinPlayers, razzia.MaxPlayers)
	}
	if botsAfter != 0 && (botsAfter < meet.MinBotsAfter || botsAfter > meet.MaxBotsAfter) {
		return protocol.SeekRequest{}, fmt.Errorf("--bots-after %v: bots fill a table after %v to %v", botsAfter, meet.MinBotsAfter, meet.MaxBotsAfter)
	}
	return protocol.SeekRequest{Min: min, Max: max, Pace: paceID, Rated: rated, BotsAfter: int(botsAfter / time.Second)}, nil
}

// lobbySeat shows the server's lobby until the person is seated (their
// Play-now request paired, a challenge accepted) and returns the seat,
// kept in the store; ok is false when they left the lobby unseated.
func lobbySeat(ctx context.Context, c *client.Client, store *client.SeatStore, g serverGame, opt tui.Options,
	stdin io.Reader, stdout io.Writer) (seat client.SavedSeat, ok bool, err error) {
	conn, err := c.DialLobby(ctx, g.name)
	if err != nil {
		return client.SavedSeat{}, false, err
	}
	defer conn.Close()
	msgs := make(chan protocol.MeetMessage, 16)
	go func() {
		defer close(msgs)
		for {
			m, err := conn.Read(ctx)
			if err != nil {
				return
			}
			msgs <- m
		}
	}()
	me := ""
	if g.account != "" {
		me = g.name // the account's name, as signing in answered it
	}
	m := tui.NewLobby(ctx, c, tui.LobbyOptions{Lang: opt.Lang, Server: c.URL(), Me: me, Name: g.name,
		Request: g.request, PlayNow: g.playNow, Messages: msgs})
	if _, err := runProgram(m, stdin, stdout); err != nil {
		return client.SavedSeat{}, false, err
	}
	at := m.Seated()
	if at == nil {
		return client.SavedSeat{}, false, nil
	}
	var got protocol.SeekSeatAnswer
	if at.Seek != "" {
		got, err = c.SeekSeat(ctx, at.Seek)
	} else {
		got, err = c.ChallengeSeat(ctx, at.Challenge)
	}
	if err != nil {
		return client.SavedSeat{}, false, err
	}
	seat = client.SavedSeat{Server: c.URL(), Game: got.Game.ID, Seat: got.Seat, Name: g.name, Token: got.Token, Saved: time.Now()}
	if err := store.Save(seat); err != nil {
		return client.SavedSeat{}, false, err
	}
	return seat, true, nil
}
