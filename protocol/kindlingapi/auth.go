package kindlingapi

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"net/http"
	"strings"
)

// tokenOf returns the request's token: Authorization: Bearer <token>, or
// ?token=.
func tokenOf(r *http.Request) string {
	if a := r.Header.Get("Authorization"); a != "" {
		if scheme, tok, ok := strings.Cut(a, " "); ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(tok)
		}
	}
	return r.URL.Query().Get("token")
}

// seatOf finds the seat whose token equals tok, comparing with every seat
// in constant time. It returns -1 when none does.
func (m *match) seatOf(tok string) int {
	found := -1
	if tok == "" {
		return found
	}
	for i, p := range m.players {
		if p.token != "" && subtle.ConstantTimeCompare([]byte(p.token), []byte(tok)) == 1 {
			found = i
		}
	}
	return found
}

const tokenHint = "send the token from create or join as Authorization: Bearer <token> (or ?token=)"

// auth returns the seat of the request's token, or 401.
func (m *match) auth(r *http.Request) (int, *apiError) {
	tok := tokenOf(r)
	if tok == "" {
		return -1, errorf(http.StatusUnauthorized, tokenHint, "this action needs a seat's token")
	}
	seat := m.seatOf(tok)
	if seat < 0 {
		return -1, errorf(http.StatusUnauthorized, tokenHint, "the token is not one of match %s's seats", m.code)
	}
	return seat, nil
}

// newToken returns 160 random bits as 40 hex characters.
func newToken() string {
	var b [20]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// codeAlphabet has no look-alikes (I, O, 0, 1).
const codeAlphabet = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"

// codeLength is the number of characters of a match code.
const codeLength = 5

func newCode() string {
	var b [codeLength]byte
	rand.Read(b[:])
	for i := range b {
		b[i] = codeAlphabet[int(b[i])%len(codeAlphabet)]
	}
	return string(b[:])
}
