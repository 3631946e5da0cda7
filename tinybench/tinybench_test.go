package tinybench

import "testing"

const tasks = "../datasets/bugfix"

func TestParityWithPyTorch(t *testing.T) {
	p, err := CheckParity(tasks, 8, 3)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("max |Δ log-prob| %.2g (batch), %.2g (sampler); max gradient error %.2g of scale", p.LogProbs, p.Sampler, p.Grads)
	if p.LogProbs > MaxLogProbDiff || p.Sampler > MaxLogProbDiff || p.Grads > MaxGradRelDiff {
		t.Errorf("parity %+v outside tolerances", p)
	}
}
