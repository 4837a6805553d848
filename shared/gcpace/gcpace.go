// Package gcpace sets how often the garbage collector runs in our server
// processes (the Lambda functions and the devserver).
//
// Their live heap is small (a few MB) and each request allocates tens of
// KB, mostly inside the AWS SDK's per-call middleware stacks. At Go's
// default GOGC=100 that runs a collection every few dozen chat messages,
// measured as ~0.17 ms of CPU per message (docs/benchmarks.md, the relay CPU row);
// at 400 the heap may grow to five times the live data between
// collections, a few tens of MB, far below any function's memory.
package gcpace

import (
	"math"
	"os"
	"runtime/debug"
	"strconv"
)

// Percent is GOGC for our server processes.
const Percent = 400

// memoryShare is the part of a Lambda function's memory the heap may reach
// before the collector runs more often to stay below it.
const memoryShare = 0.75

// Apply sets GOGC to Percent, and inside a Lambda function a soft memory
// limit at memoryShare of its memory, each unless the environment already
// sets it (GOGC, GOMEMLIMIT).
func Apply() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(Percent)
	}
	if _, set := os.LookupEnv("GOMEMLIMIT"); set {
		return
	}
	if limit, ok := memoryLimit(os.Getenv("AWS_LAMBDA_FUNCTION_MEMORY_SIZE")); ok {
		debug.SetMemoryLimit(limit)
	}
}

// memoryLimit is memoryShare of a function's memory given in MB.
func memoryLimit(mb string) (int64, bool) {
	n, err := strconv.ParseInt(mb, 10, 64)
	if err != nil || n <= 0 || n > math.MaxInt64>>21 {
		return 0, false
	}
	return int64(float64(n<<20) * memoryShare), true
}
