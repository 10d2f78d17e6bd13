// Package acbhttp speaks the AI Code Battle bot protocol of the seed
// (../../../shared/specs/acb.md): HMAC-SHA256 signing and verification of
// /turn requests and replies, the bot server an exported variant runs
// (GET /health, POST /turn), and the HTTP player that lets a remote bot take
// a seat in an engine match.
//
// Signatures follow the platform to the letter: the key is the UTF-8 bytes
// of the shared secret; a request is signed over
// "{match_id}.{turn}.{timestamp}.{sha256_hex(raw_body)}" and a reply over
// "{match_id}.{turn}.{sha256_hex(raw_response_body)}", each as 64 lowercase
// hex characters, compared in constant time on the decoded bytes.
package acbhttp

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"
)

// The request and reply headers of the protocol.
const (
	HeaderMatchID   = "X-ACB-Match-Id"
	HeaderTurn      = "X-ACB-Turn"
	HeaderTimestamp = "X-ACB-Timestamp"
	HeaderBotID     = "X-ACB-Bot-Id"
	HeaderSignature = "X-ACB-Signature"
)

// MaxClockSkew is how far a request's X-ACB-Timestamp may lie before or
// after the receiver's clock: 30 s either way, inclusive.
const MaxClockSkew = 30 * time.Second

// requiredHeaders lists the five request headers in the order they are
// checked, so the error names the first one missing.
var requiredHeaders = [...]string{HeaderMatchID, HeaderTurn, HeaderTimestamp, HeaderBotID, HeaderSignature}

// ErrAuth is wrapped by every verification failure that a bot answers
// with 401: a missing header, a timestamp outside the window, a signature
// that is not 64 hex characters or does not match.
var ErrAuth = errors.New("authentication failed")

// BodySHA256 returns the lowercase hex SHA-256 of body, the last part of
// both canonical payloads.
func BodySHA256(body []byte) string {
	sum := sha256.Sum256(body)
	return hex.EncodeToString(sum[:])
}

// RequestPayload builds the canonical request payload
// "{match_id}.{turn}.{timestamp}.{sha256_hex(body)}".
func RequestPayload(matchID, turn, timestamp string, body []byte) []byte {
	p := make([]byte, 0, len(matchID)+len(turn)+len(timestamp)+3+64)
	p = append(p, matchID...)
	p = append(p, '.')
	p = append(p, turn...)
	p = append(p, '.')
	p = append(p, timestamp...)
	p = append(p, '.')
	return append(p, BodySHA256(body)...)
}

// ResponsePayload builds the canonical reply payload
// "{match_id}.{turn}.{sha256_hex(body)}".
func ResponsePayload(matchID, turn string, body []byte) []byte {
	p := make([]byte, 0, len(matchID)+len(turn)+2+64)
	p = append(p, matchID...)
	p = append(p, '.')
	p = append(p, turn...)
	p = append(p, '.')
	return append(p, BodySHA256(body)...)
}

// Sign returns HMAC-SHA256(secret, payload) as 64 lowercase hex characters;
// the key is the UTF-8 bytes of secret.
func Sign(secret string, payload []byte) string {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(payload)
	return hex.EncodeToString(m.Sum(nil))
}

// SignRequest signs a /turn request: the value of X-ACB-Signature for these
// header values and exact body bytes.
func SignRequest(secret, matchID, turn, timestamp string, body []byte) string {
	return Sign(secret, RequestPayload(matchID, turn, timestamp, body))
}

// SignResponse signs a /turn reply: the value of its X-ACB-Signature for
// the authenticated request's match id and turn and the reply's exact bytes.
func SignResponse(secret, matchID, turn string, body []byte) string {
	return Sign(secret, ResponsePayload(matchID, turn, body))
}

// VerifySignature checks that sig is 64 hex characters whose decoded bytes
// equal HMAC-SHA256(secret, payload), compared in constant time. Upper-case
// hex digits are accepted (they decode to the same bytes).
func VerifySignature(secret string, payload []byte, sig string) error {
	got, err := decodeSignature(sig)
	if err != nil {
		return err
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(payload)
	if !hmac.Equal(got, m.Sum(nil)) {
		return fmt.Errorf("%w: signature does not match", ErrAuth)
	}
	return nil
}

// decodeSignature decodes sig, which must be 64 hex characters; the error
// wraps ErrAuth.
func decodeSignature(sig string) ([]byte, error) {
	if len(sig) != 2*sha256.Size {
		return nil, fmt.Errorf("%w: signature has %d characters, want 64 hex characters", ErrAuth, len(sig))
	}
	got, err := hex.DecodeString(sig)
	if err != nil {
		return nil, fmt.Errorf("%w: signature is not hex: %v", ErrAuth, err)
	}
	return got, nil
}

// CheckTimestamp checks that ts is a Unix time in whole seconds within
// MaxClockSkew of now, before or after.
func CheckTimestamp(ts string, now time.Time) error {
	sec, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return fmt.Errorf("%w: %s %q is not a Unix time in seconds", ErrAuth, HeaderTimestamp, ts)
	}
	skew := now.Unix() - sec
	if skew < 0 {
		skew = -skew
	}
	if skew > int64(MaxClockSkew/time.Second) {
		return fmt.Errorf("%w: %s %d is %d s away from now (allowed %d s)", ErrAuth, HeaderTimestamp, sec, skew, int64(MaxClockSkew/time.Second))
	}
	return nil
}

// RequestAuth is what an authenticated request's headers say, verbatim.
type RequestAuth struct {
	MatchID   string
	Turn      string
	Timestamp string
	BotID     string
}

// VerifyRequest authenticates a /turn request in the order of the seed:
// all five headers present, the timestamp within 30 s of now, then the
// signature over the exact body bytes. Every failure wraps ErrAuth. It does
// not parse the body: ParseTurnRequest does that after authentication.
func VerifyRequest(secret string, h http.Header, body []byte, now time.Time) (RequestAuth, error) {
	for _, name := range requiredHeaders {
		if len(h.Values(name)) == 0 || h.Get(name) == "" {
			return RequestAuth{}, fmt.Errorf("%w: header %s is missing", ErrAuth, name)
		}
	}
	a := RequestAuth{
		MatchID:   h.Get(HeaderMatchID),
		Turn:      h.Get(HeaderTurn),
		Timestamp: h.Get(HeaderTimestamp),
		BotID:     h.Get(HeaderBotID),
	}
	if err := CheckTimestamp(a.Timestamp, now); err != nil {
		return RequestAuth{}, err
	}
	if err := VerifySignature(secret, RequestPayload(a.MatchID, a.Turn, a.Timestamp, body), h.Get(HeaderSignature)); err != nil {
		return RequestAuth{}, err
	}
	return a, nil
}
