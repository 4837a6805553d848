package agentsapi

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
	"time"

	"aiwork/shared/domain"
)

// A list cursor is the place the page before ended in the list's order:
// the sort fields of its last card (creation, id, price in cents, rating
// sum and count), not the card itself. So a card that leaves the list or
// moves in it between two pages (suspended, withdrawn, a new price or
// rating) never makes the next page fail, repeat or skip a card that
// stayed where it was.

const cursorFields = 5

// encodeCursor is the cursor after a.
func encodeCursor(a domain.Agent) string {
	fields := []string{
		a.CreatedAt.UTC().Format(time.RFC3339Nano),
		a.ID,
		strconv.FormatInt(int64(math.Round(a.Price*100)), 10),
		strconv.Itoa(a.RatingSum),
		strconv.Itoa(a.RatingCount),
	}
	return base64.RawURLEncoding.EncodeToString([]byte(strings.Join(fields, "|")))
}

// decodeCursor is the place a cursor names, as an agent carrying only the
// sort fields; false for a cursor this list did not give.
func decodeCursor(c string) (domain.Agent, bool) {
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil {
		return domain.Agent{}, false
	}
	f := strings.Split(string(raw), "|")
	if len(f) != cursorFields || f[1] == "" {
		return domain.Agent{}, false
	}
	created, err1 := time.Parse(time.RFC3339Nano, f[0])
	cents, err2 := strconv.ParseInt(f[2], 10, 64)
	sum, err3 := strconv.Atoi(f[3])
	count, err4 := strconv.Atoi(f[4])
	if err1 != nil || err2 != nil || err3 != nil || err4 != nil || cents < 0 || sum < 0 || count < 0 {
		return domain.Agent{}, false
	}
	return domain.Agent{CreatedAt: created, ID: f[1], Price: float64(cents) / 100, RatingSum: sum, RatingCount: count}, true
}
