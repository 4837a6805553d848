package promptsapi

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"time"

	"aiwork/shared/api/promptsapi/freeuse"
	"aiwork/shared/auth"
	"aiwork/shared/domain"
	"aiwork/shared/httpx"
	"aiwork/shared/store"
)

func (s *Service) freeStatus(w http.ResponseWriter, r *http.Request) error {
	uid, _ := auth.UserID(r.Context())
	st, err := s.callerFreeStatus(r.Context(), uid)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, st)
	return nil
}

// callerFreeStatus is the free-use quota as its caller may see it
// (freeuse.Status: an unconfirmed address sees its own claims only).
func (s *Service) callerFreeStatus(ctx context.Context, uid string) (domain.FreeStatus, error) {
	return freeuse.Status(ctx, s.st, uid, s.freeLimit)
}

type useFreeResponse struct {
	Prompt         promptJSON        `json:"prompt"`
	Status         domain.FreeStatus `json:"status"`
	AlreadyClaimed bool              `json:"already_claimed"`
}

// useFree claims a free use of a prompt. A prompt claimed before (or bought)
// answers success again and spends nothing.
func (s *Service) useFree(w http.ResponseWriter, r *http.Request, pid string) error {
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	p, err := s.promptOr404(r, pid)
	if err != nil {
		return err
	}
	owned, err := s.st.Owns(ctx, uid, pid)
	if err != nil {
		return err
	}
	already := owned
	if !owned {
		if !p.OnSale() {
			// Off the catalogue: no new free use (one claimed before answers below).
			status, err := s.st.FreeStatus(ctx, uid, s.freeLimit)
			if err != nil {
				return err
			}
			if !slices.Contains(status.PromptIDs, pid) {
				return httpx.NotFound("Prompt not found")
			}
		}
		if p.CreatorID != "" && p.CreatorID == uid {
			return httpx.Forbidden("You cannot use your own prompt for free: it is yours already.")
		}
		if err := s.checkVerified(ctx, uid, pid); err != nil {
			return err
		}
		var status domain.FreeStatus
		status, already, err = s.st.ClaimFree(ctx, uid, pid, s.freeLimit)
		if errors.Is(err, store.ErrQuotaExhausted) {
			return quotaExhausted(status, s.freeLimit)
		}
		if err != nil {
			return err
		}
	}
	if !already && p.CreatorID != "" {
		// A creator's stats count free uses; they pay nothing.
		if _, err := s.st.CountCreatorFreeUse(ctx, p.CreatorID, pid, uid); err != nil {
			return err
		}
	}
	if !already {
		if err := s.st.AddActivity(ctx, uid, domain.Activity{
			ID: "free-" + pid, Type: domain.ActivityFreePromptUsed, Title: "Used a free prompt",
			Description: fmt.Sprintf("Unlocked \"%s\" with a free use.", p.Title), PromptTitle: p.Title,
			CreatedAt: time.Now().UTC(),
		}); err != nil {
			return err
		}
	}
	v, err := s.loadViewer(ctx)
	if err != nil {
		return err
	}
	names, err := s.categoryNames(ctx)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, useFreeResponse{Prompt: s.present(p, v, names), Status: v.freeState, AlreadyClaimed: already})
	return nil
}

// quotaExhausted refuses a free use when none are left; when another
// account on the same email address spent some, it says so (this account
// may have spent none itself).
func quotaExhausted(status domain.FreeStatus, limit int) error {
	if status.SharedWithOtherAccounts {
		return httpx.Forbidden(fmt.Sprintf("All %d free prompts of this email address are used: free uses are shared by all accounts on the same email address. Purchase this prompt to use it.", limit))
	}
	return httpx.Forbidden(fmt.Sprintf("You have used all %d of your free prompts. Purchase this prompt to use it.", limit))
}

// msgConfirmEmail refuses a free use to an account whose email is not
// confirmed (code email_unverified, so the web app offers to resend).
const msgConfirmEmail = "Please confirm your email address to use free prompts. We sent you a link; you can resend it from your dashboard."

// checkVerified lets a free use through when the account's email is
// confirmed (or the check is off). A prompt claimed before stays open: its
// claim spends nothing.
func (s *Service) checkVerified(ctx context.Context, uid, pid string) error {
	if !s.verifiedOnly {
		return nil
	}
	u, err := s.st.GetUser(ctx, uid)
	if errors.Is(err, store.ErrNotFound) {
		return httpx.Unauthorized("This account no longer exists.")
	}
	if err != nil {
		return err
	}
	if u.IsVerified {
		return nil
	}
	status, err := s.st.FreeStatus(ctx, uid, s.freeLimit)
	if err != nil {
		return err
	}
	if slices.Contains(status.PromptIDs, pid) {
		return nil
	}
	return &httpx.Error{Code: httpx.CodeEmailUnverified, Detail: msgConfirmEmail}
}

type rateInput struct {
	Rating *float64 `json:"rating"`
}

type rateResponse struct {
	RatingAvg   float64 `json:"rating_avg"`
	RatingCount int     `json:"rating_count"`
	UserRating  int     `json:"user_rating"`
}

const msgRateBuyersOnly = "You can only rate prompts you have purchased"

// rate sets the caller's 1–5 rating of a prompt they bought.
func (s *Service) rate(w http.ResponseWriter, r *http.Request, pid string) error {
	var in rateInput
	if err := httpx.DecodeJSON(w, r, &in); err != nil {
		return err
	}
	if in.Rating == nil || *in.Rating != math.Trunc(*in.Rating) || *in.Rating < 1 || *in.Rating > 5 {
		return httpx.Invalid("Rating must be a whole number from 1 to 5")
	}
	rating := int(*in.Rating)
	ctx := r.Context()
	uid, _ := auth.UserID(ctx)
	p, err := s.promptOr404(r, pid)
	if err != nil {
		return err
	}
	if p.CreatorID != "" && p.CreatorID == uid {
		return httpx.Forbidden("You cannot rate your own prompt.")
	}
	owned, err := s.st.Owns(ctx, uid, pid)
	if err != nil {
		return err
	}
	if !owned {
		return httpx.Forbidden(msgRateBuyersOnly)
	}
	p, err = s.st.Rate(ctx, uid, pid, rating)
	if err != nil {
		return err
	}
	httpx.WriteJSON(w, http.StatusOK, rateResponse{RatingAvg: p.RatingAvg(), RatingCount: p.RatingCount, UserRating: rating})
	return nil
}

func (s *Service) promptOr404(r *http.Request, pid string) (domain.Prompt, error) {
	p, err := s.st.GetPrompt(r.Context(), pid)
	if errors.Is(err, store.ErrNotFound) {
		return p, httpx.NotFound("Prompt not found")
	}
	return p, err
}
