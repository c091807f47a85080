package bot

import (
	"runtime"
	"testing"
	"time"
)

// TestSpecOptionEffects checks what each option of a spec sets, one
// option at a time.
func TestSpecOptionEffects(t *testing.T) {
	tests := []struct {
		spec string
		ok   func(Bot) bool
	}{
		{"mcts:workers=all", func(b Bot) bool { return b.(*MCTS).workers == min(runtime.GOMAXPROCS(0), MaxWorkers) }},
		{"mcts:rollout=heuristic", func(b Bot) bool { return b.(*MCTS).rollout == rolloutHeuristic }},
		{"mcts:rollout=light", func(b Bot) bool { return b.(*MCTS).rollout == rolloutLight }},
		{"mcts:rollout=auto", func(b Bot) bool { return b.(*MCTS).rollout == rolloutAuto }},
		{"mcts:cut=round", func(b Bot) bool { return b.(*MCTS).cut }},
		{"mcts", func(b Bot) bool { return b.(*MCTS).fpu < 0 }},
		{"mcts:fpu=0.1", func(b Bot) bool { return b.(*MCTS).fpu == 0.1 }},
		{"mcts:iters=50,time=1s", func(b Bot) bool { m := b.(*MCTS); return m.iters == 50 && m.limit == time.Second }},
		// The noise of flat Monte Carlo is its playouts' too.
		{"flatmc:noise=4", func(b Bot) bool { f := b.(*FlatMC); return f.noise == 4 && f.play.noise == 4 }},
		{"flatmc:rounds=40,time=1s", func(b Bot) bool { f := b.(*FlatMC); return f.rounds == 40 && f.limit == time.Second }},
		{"flatmc:time=2s", func(b Bot) bool { f := b.(*FlatMC); return f.rounds == 0 && f.limit == 2*time.Second }},
		{" heuristic:noise=2.5 ", func(b Bot) bool { return b.(*Heuristic).noise == 2.5 }},
		// A weight set by a spec is the bot's own: the defaults stay.
		{"heuristic:spare=3.2", func(b Bot) bool {
			h := b.(*Heuristic)
			return h.w.spare == 3.2 && h.w != &defaultWeights && defaultWeights.spare == 6.4
		}},
		{"mcts:callBase=6", func(b Bot) bool { m := b.(*MCTS); return m.w.callBase == 6 && defaultWeights.callBase == 12.8 }},
		{"flat:denial=1", func(b Bot) bool {
			f := b.(*Flat)
			return f.play.w != &flatWeights && f.play.w.denial == 1 && f.play.w.exact && flatWeights.denial == defaultWeights.denial
		}},
		// The yardstick calls more readily than the heuristic, and a spec
		// may change how.
		{"flat", func(b Bot) bool {
			f := b.(*Flat)
			return f.play.w == &flatWeights && f.play.w.callBase == 4 && f.play.w.raid == 0.8
		}},
		{"flat:raid=0.5", func(b Bot) bool {
			f := b.(*Flat)
			return f.play.w.raid == 0.5 && flatWeights.raid == 0.8 && defaultWeights.raid == 0
		}},
		{"flat:cut=round", func(b Bot) bool { return b.(*Flat).play.cut }},
		{"flat:rollout=light", func(b Bot) bool { f := b.(*Flat); return f.play.rollout == rolloutLight && f.play.light != nil }},
		{"flat:full=1", func(b Bot) bool { return b.(*Flat).play.full }},
		{"flat:full=0.5", nil},
		{"flat:margin=0.5", func(b Bot) bool { return b.(*Flat).margin == 0.5 }},
		{"mcts:value=heuristic", func(b Bot) bool { return b.(*MCTS).values == &trainedValue }},
		{"flat:value=heuristic", func(b Bot) bool { return b.(*Flat).play.values == &trainedValue }},
		{"mcts:value=nope", nil},
		// The search may play its playouts and prior with the yardstick's
		// policy; a weight named after it changes a copy.
		{"mcts:policy=flat", func(b Bot) bool { return b.(*MCTS).w == &flatWeights }},
		{"mcts:policy=heuristic", func(b Bot) bool { return b.(*MCTS).w == &defaultWeights }},
		{"mcts:policy=flat,callBase=6", func(b Bot) bool {
			m := b.(*MCTS)
			return m.w.callBase == 6 && m.w.exact && m.w.alone == 1 && flatWeights.callBase == 4
		}},
		{"mcts:policy=light", nil},
		{"mcts", func(b Bot) bool { m := b.(*MCTS); return !m.crn && m.dropSE == DropSE }},
		{"mcts:crn=1,drop=1.5", func(b Bot) bool { m := b.(*MCTS); return m.crn && m.dropSE == 1.5 }},
		{"mcts:crn=2", nil},
		{"mcts", func(b Bot) bool { return !b.(*MCTS).strat }},
		{"mcts:chance=strat", func(b Bot) bool { return b.(*MCTS).strat }},
		{"mcts:chance=sample", func(b Bot) bool { return !b.(*MCTS).strat }},
		{"mcts:chance=exact", nil},
		{"mcts", func(b Bot) bool { return b.(*MCTS).light == AutoLightPlayers }},
		{"mcts:light=5", func(b Bot) bool { return b.(*MCTS).light == 5 }},
		{"mcts:light=6", func(b Bot) bool { return b.(*MCTS).light == 6 }},
		{"mcts:light=1", nil},
		{"mcts:light=7", nil},
		{"mcts:light=four", nil},
		{"mcts:crn=1,chance=strat", nil},
		{"mcts", func(b Bot) bool { return b.(*MCTS).widen == 0 }},
		{"mcts:widen=1.5", func(b Bot) bool { return b.(*MCTS).widen == 1.5 }},
		{"mcts:widen=-1", nil},
		{"mcts:widen=wide", nil},
		{"mcts:widen=1,chance=strat", nil},
		{"mcts:widen=1,crn=1", nil},
		{"mcts", func(b Bot) bool { return !b.(*MCTS).tt }},
		{"mcts:tt=1", func(b Bot) bool { return b.(*MCTS).tt }},
		{"mcts:tt=0", func(b Bot) bool { return !b.(*MCTS).tt }},
		{"mcts:tt=yes", nil},
		{"mcts", func(b Bot) bool { return b.(*MCTS).margin == marginWeight }},
		{"mcts:margin=0", func(b Bot) bool { return b.(*MCTS).margin == 0 }},
		{"mcts:margin=0.3", func(b Bot) bool { return b.(*MCTS).margin == 0.3 }},
		{"mcts:margin=2", nil},
		{"flat:margin=2", nil},
		{"mcts", func(b Bot) bool { return b.(*MCTS).mix == 0 }},
		{"mcts:mix=0.5", func(b Bot) bool { return b.(*MCTS).mix == 0.5 }},
		{"mcts:mix=1.5", nil},
		{"mcts:mix=0.5/0.5/0/0", func(b Bot) bool { m := b.(*MCTS); return m.mixBy.at(2, m.mix) == 0.5 && m.mixBy.at(4, m.mix) == 0 }},
		{"mcts:mix=0.5/0.5/0", nil},
		{"mcts:mix=0.5/0.5/0/2", nil},
		{"mcts:mix=0.5//0/0", nil},
		{"mcts:noise=2/2/3/3", func(b Bot) bool {
			m := b.(*MCTS)
			return m.noiseBy.at(3, m.noise) == 2 && m.noiseBy.at(5, m.noise) == 3
		}},
		{"mcts:noise=2/2/3/-3", nil},
		{"mcts:mix=-0.1", nil},
		{"flat:rollout=random", nil},
		{"heuristic:spare=-1", nil},
		{"heuristic: noise=1 , ", nil}, // an empty option after the comma
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			b, err := New(tt.spec, 1)
			switch {
			case tt.ok == nil && err == nil:
				t.Fatalf("accepted, got %T", b)
			case tt.ok == nil:
			case err != nil:
				t.Fatal(err)
			case !tt.ok(b):
				t.Errorf("options not applied: %+v", b)
			}
		})
	}
}
