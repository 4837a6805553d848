package main

import (
	"math"
	"testing"
	"time"
)

// TestMonthlyBill: a fixed usage of known units gives the total worked out
// by hand from the list prices.
func TestMonthlyBill(t *testing.T) {
	units := map[string]unitCost{
		"page": {read: 2, requests: 1, invocations: 1, gbSeconds: 0.01, bytesOut: 10 << 10},
		"chat": {read: 1, write: 20, requests: 1, invocations: 1, gbSeconds: 20, bytesOut: 30 << 10, storedBytes: 10 << 10, secretReads: 0.1},
	}
	usage := usageModel{
		actions:  []usageAction{{key: "page", perUser: 10}, {key: "chat", perUser: 50}},
		appLoads: 4, staticRequests: 10, staticBytes: 100 << 10, coldStartEvery: 50, storageMonths: 12,
	}
	fixed := fixedLoad{secrets: 10, wafACLs: 1, wafRules: 1,
		jobs: unitCost{read: 1000, write: 2000, invocations: 3000, gbSeconds: 6000}, baseBytes: 1 << 30}
	const users = 1000

	// A month of 1,000 users: 10,000 pages and 50,000 messages.
	reads, writes := 10_000*2+50_000*1+1000.0, 50_000*20+2000.0
	requests := 60_000.0
	invocations := requests + 3000
	gbSeconds := 10_000*0.01 + 50_000*20 + 6000.0
	stored := 1 + 50_000*10.0*12/(1<<20) // GiB: the base and 12 months of messages
	outGiB := (10_000*10.0 + 50_000*30 + 1000*4*100) / (1 << 20)
	edge := requests + 1000*4*10
	secretReads := 50_000 * 0.1
	want := map[string]float64{
		"Lambda":          gbSeconds*0.0000133334 + invocations/1e6*0.20,
		"API Gateway":     requests / 1e6 * 3.50,
		"DynamoDB":        writes/1e6*0.625 + reads/1e6*0.125 + stored*(0.25+0.20),
		"CloudFront":      outGiB*0.085 + edge/1e4*0.01 + edge/1e6*0.10,
		"Secrets Manager": 10*0.40 + secretReads/1e4*0.05,
		"WAF":             5 + 1 + requests/1e6*0.60,
		"KMS":             secretReads / 1e4 * 0.03,
	}
	got := monthlyBill(units, usage, fixed, users)
	total := 0.0
	for _, s := range costServices {
		if math.Abs(got[s]-want[s]) > 1e-9 {
			t.Errorf("%s: $%.6f, want $%.6f", s, got[s], want[s])
		}
		total += want[s]
	}
	// Worked out by hand: Lambda 13.4147 + 0.0126, API Gateway 0.21,
	// DynamoDB 0.62625 + 0.008875 + 6.722 GiB × 0.45 = 3.0249, CloudFront
	// 1.9073 GiB × 0.085 + 0.10 + 0.01, Secrets Manager 4.025, WAF 6.036,
	// KMS 0.015: $27.65.
	if math.Abs(got.total()-total) > 1e-9 || math.Abs(total-27.65) > 0.005 {
		t.Errorf("total $%.4f, want $%.4f (about $27.65)", got.total(), total)
	}

	// Idle: only what is fixed.
	idle := monthlyBill(units, usage, fixed, 0)
	wantIdle := 6000*0.0000133334 + 3000/1e6*0.20 + 2000/1e6*0.625 + 1000/1e6*0.125 + 1*(0.25+0.20) + 10*0.40 + 5 + 1
	if math.Abs(idle.total()-wantIdle) > 1e-9 {
		t.Errorf("idle total $%.6f, want $%.6f", idle.total(), wantIdle)
	}
	if idle["API Gateway"] != 0 || idle["CloudFront"] != 0 {
		t.Errorf("idle: API Gateway $%f, CloudFront $%f; want nothing without requests", idle["API Gateway"], idle["CloudFront"])
	}
}

// TestUnitOf: an action's handler time is billed at its function's memory
// (chat 1024 MB, prompts 512 MB), its requests counted, its cold starts'
// secret reads spread over coldStartEvery invocations.
func TestUnitOf(t *testing.T) {
	c := actionCost{read: 3, write: 4, bytesOut: 1000,
		invocations: map[string]int{"chat": 1, "prompts": 2},
		busy:        map[string]time.Duration{"chat": 2 * time.Second, "prompts": 100 * time.Millisecond}}
	u := unitOf(c, 10)
	if u.requests != 3 || u.invocations != 3 || u.read != 3 || u.write != 4 || u.bytesOut != 1000 {
		t.Errorf("unit %+v, want 3 requests and the action's units", u)
	}
	if want := 2*1.0 + 0.1*0.5; math.Abs(u.gbSeconds-want) > 1e-9 {
		t.Errorf("GB-s %.4f, want %.4f", u.gbSeconds, want)
	}
	chat, _ := lambdaNamed("chat")
	prompts, _ := lambdaNamed("prompts")
	if want := (1*float64(secretsRead(chat)) + 2*float64(secretsRead(prompts))) / 10; math.Abs(u.secretReads-want) > 1e-9 {
		t.Errorf("secret reads %.3f, want %.3f", u.secretReads, want)
	}
}
