package analysis

import "testing"

func TestScratchSkill(t *testing.T) {
	sums := summaries(t, []string{"mcts:iters=2000,workers=1,rollout=auto", "medium"}, 20)
	named := 0
	for i := range sums[0] {
		if sums[0][i].Skill > sums[1][i].Skill {
			named++
		}
		t.Logf("game %d: hard skill %.3f result %.2f, medium skill %.3f result %.2f", i, sums[0][i].Skill, sums[0][i].Result, sums[1][i].Skill, sums[1][i].Result)
	}
	t.Logf("named %d of 20", named)
}
