package main

import (
	"io"
	"testing"

	"github.com/razziagame/razzia/internal/analysis"
)

func TestServeAnalysisFlags(t *testing.T) {
	checkUsage(t, []usageCase{
		{"help names them", []string{"serve", "--help"}, nil, 0, "-analysis-workers"},
		{"negative workers", []string{"serve", "--analysis-workers", "-1"}, nil, 2, "--analysis-workers -1"},
		{"zero iterations", []string{"serve", "--analysis-iterations", "0"}, nil, 2, "--analysis-iterations 0"},
		{"too many iterations", []string{"serve", "--analysis-iterations", "2000000"}, nil, 2, "--analysis-iterations 2000000"},
		{"bad env", []string{"serve"}, map[string]string{"RAZZIA_ANALYSIS_WORKERS": "all"}, 2, "RAZZIA_ANALYSIS_WORKERS=all"},
	})
	t.Setenv("RAZZIA_ANALYSIS_WORKERS", "0")
	cfg, _, done := parseServeFlags(nil, io.Discard, io.Discard)
	if done || cfg.analyst.Workers != 0 || cfg.analyst.Iterations != analysis.DefaultIterations {
		t.Errorf("RAZZIA_ANALYSIS_WORKERS=0: done %t, workers %d, iterations %d", done, cfg.analyst.Workers, cfg.analyst.Iterations)
	}
	cfg, _, _ = parseServeFlags([]string{"--analysis-workers", "2", "--analysis-iterations", "500"}, io.Discard, io.Discard)
	if cfg.analyst.Workers != 2 || cfg.analyst.Iterations != 500 {
		t.Errorf("flags: workers %d, iterations %d", cfg.analyst.Workers, cfg.analyst.Iterations)
	}
}
