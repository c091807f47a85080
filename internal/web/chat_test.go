package web_test

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/razziagame/razzia/internal/chat"
	"github.com/razziagame/razzia/internal/i18n"
	"github.com/razziagame/razzia/internal/web"
)

// chatCheck draws chat lines with chat.js and prints what they show, and
// whether anything but text came of them: no element a link could be.
const chatCheck = `import "./fakedom.mjs";
import { T } from "./render.mjs";
import { PHRASES, MAX_TEXT, AFTER_GAME_HOURS, lineItem } from "./chat.mjs";
import { readFileSync } from "node:fs";
const { catalogue, lines } = JSON.parse(readFileSync(process.argv[2], "utf8"));
const t = T(catalogue);
const items = lines.map((l) => lineItem(t, l));
console.log(JSON.stringify({
  phrases: PHRASES, max: MAX_TEXT, afterGameHours: AFTER_GAME_HOURS,
  shown: items.map((i) => i.find((n) => n.attrs && n.attrs.class === "chat-words").map((n) => n.textContent).join("")),
  tags: [...new Set(items.flatMap((i) => i.find((n) => !!n.tag).map((n) => n.tag)))].sort(),
}));
`

// TestChatLines checks that the page knows internal/chat's phrases and
// limit, tells a phrase in the reader's language, withholds a muted line,
// and shows free text as text: markup and a link stay as they were typed.
func TestChatLines(t *testing.T) {
	t.Parallel() // mostly node starting: on both cores
	cat, err := i18n.JSON("de")
	if err != nil {
		t.Fatal(err)
	}
	lines := []map[string]any{
		{"seat": 0, "name": "Ann", "channel": "players", "phrase": "gg"},
		{"seat": 1, "name": "<i>Bob</i>", "channel": "players", "text": `<a href="https://evil.example">click</a> https://x.example`},
		{"seat": 1, "name": "Bob", "channel": "players", "muted": true},
	}
	data, err := json.Marshal(map[string]any{"catalogue": json.RawMessage(cat), "lines": lines})
	if err != nil {
		t.Fatal(err)
	}
	node, dir := web.NodeModules(t, map[string][]byte{"check.mjs": []byte(chatCheck), "cases.json": data})
	outb, err := exec.Command(node, filepath.Join(dir, "check.mjs"), filepath.Join(dir, "cases.json")).CombinedOutput()
	if err != nil {
		t.Fatalf("chat.js failed: %v\n%s", err, outb)
	}
	var out struct {
		Phrases, Shown, Tags []string
		Max, AfterGameHours  int
	}
	if err := json.Unmarshal(outb, &out); err != nil {
		t.Fatalf("%v in %s", err, outb)
	}
	if !slices.Equal(out.Phrases, chat.Phrases()) || out.Max != chat.MaxRunes {
		t.Errorf("chat.js knows the phrases %v and %d characters; internal/chat %v and %d", out.Phrases, out.Max, chat.Phrases(), chat.MaxRunes)
	}
	if time.Duration(out.AfterGameHours)*time.Hour != chat.AfterGame {
		t.Errorf("chat.js keeps the chat open %d hours after the game; internal/chat %v", out.AfterGameHours, chat.AfterGame)
	}
	de, _ := i18n.Lookup("de")
	want := []string{de.T("chat.phrase.gg"), `<a href="https://evil.example">click</a> https://x.example`, de.T("chat.muted")}
	if !slices.Equal(out.Shown, want) {
		t.Errorf("the lines show %q, want %q", out.Shown, want)
	}
	if !slices.Equal(out.Tags, []string{"li", "span"}) {
		t.Errorf("the lines are made of %v elements, want li and span only", out.Tags)
	}
}
