package acbhttp

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// The expected signatures below were computed with Python's hmac and
// hashlib modules (an independent implementation), e.g.
//
//	hmac.new(b"test", b"m_7f3a9b2c.42.1767225600." + sha256(body).hexdigest(), sha256).hexdigest()
func TestSignaturesMatchAnIndependentImplementation(t *testing.T) {
	body := []byte(`{"match_id":"m_7f3a9b2c","turn":42}`)
	tests := []struct {
		rule string
		got  string
		want string
	}{
		{"RFC 4231 case 2: HMAC-SHA256 keyed by the secret's bytes",
			Sign("Jefe", []byte("what do ya want for nothing?")),
			"5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{"body hash is lowercase hex SHA-256 of the exact bytes",
			BodySHA256([]byte("abc")),
			"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"request payload is {match_id}.{turn}.{timestamp}.{sha256_hex(body)}",
			string(RequestPayload("m_7f3a9b2c", "42", "1767225600", body)),
			"m_7f3a9b2c.42.1767225600.467d8abda5a8473a8a1a4e41bf1dd4e0d8df2297767dff9184777678c1c1bfbb"},
		{"request signature over the canonical payload",
			SignRequest("test", "m_7f3a9b2c", "42", "1767225600", body),
			"c48f930e9530a7cb9a91b1dd631974901eebe8006c83ce51cff6735cad6890a7"},
		{"response signature over {match_id}.{turn}.{sha256_hex(body)} with a UTF-8 key",
			SignResponse("s\u00e9cret", "m_7f3a9b2c", "42", []byte(`{"moves":[]}`)),
			"252aebb7802cb2f18bd52bc478d375095320b7bec2937b0e4f23f6e1f14c0771"},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			if tt.got != tt.want {
				t.Fatalf("got %s, want %s", tt.got, tt.want)
			}
		})
	}
}

func TestVerifySignature(t *testing.T) {
	payload := []byte("m.1.2.x")
	good := Sign("k", payload)
	tests := []struct {
		rule string
		sig  string
		ok   bool
	}{
		{"the exact signature verifies", good, true},
		{"upper-case hex decodes to the same bytes", strings.ToUpper(good), true},
		{"a signature under another key fails", Sign("other", payload), false},
		{"63 characters fail", good[:63], false},
		{"65 characters fail", good + "0", false},
		{"64 non-hex characters fail", strings.Repeat("z", 64), false},
		{"an empty signature fails", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			err := VerifySignature("k", payload, tt.sig)
			if (err == nil) != tt.ok {
				t.Fatalf("VerifySignature(%q) = %v, want ok=%v", tt.sig, err, tt.ok)
			}
			if err != nil && !errors.Is(err, ErrAuth) {
				t.Fatalf("error %v does not wrap ErrAuth", err)
			}
		})
	}
}

func TestTimestampWindowIs30SecondsBothWays(t *testing.T) {
	now := time.Unix(1_767_225_600, 0)
	tests := []struct {
		rule string
		ts   string
		ok   bool
	}{
		{"now is accepted", "1767225600", true},
		{"30 s old is accepted", "1767225570", true},
		{"30 s ahead is accepted", "1767225630", true},
		{"31 s old is rejected", "1767225569", false},
		{"31 s ahead is rejected", "1767225631", false},
		{"milliseconds are not seconds", "1767225600000", false},
		{"a fraction is rejected", "1767225600.5", false},
		{"text is rejected", "yesterday", false},
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			err := CheckTimestamp(tt.ts, now)
			if (err == nil) != tt.ok {
				t.Fatalf("CheckTimestamp(%s) = %v, want ok=%v", tt.ts, err, tt.ok)
			}
		})
	}
}

// A request that fails several checks at once is refused for the first
// of them in the spec's order: the five headers present (X-ACB-Match-Id,
// X-ACB-Turn, X-ACB-Timestamp, X-ACB-Bot-Id, X-ACB-Signature), then the
// timestamp within 30 s, then the signature (64 characters, hex, equal).
func TestVerifyRequestChecksHeadersInOrder(t *testing.T) {
	now := time.Unix(1_767_225_600, 0)
	body := []byte(`{}`)
	full := func() http.Header {
		h := http.Header{}
		h.Set(HeaderMatchID, "m1")
		h.Set(HeaderTurn, "3")
		h.Set(HeaderTimestamp, "1767225600")
		h.Set(HeaderBotID, "b")
		h.Set(HeaderSignature, SignRequest("k", "m1", "3", "1767225600", body))
		return h
	}
	if a, err := VerifyRequest("k", full(), body, now); err != nil || a.MatchID != "m1" || a.Turn != "3" || a.BotID != "b" {
		t.Fatalf("a correctly signed request: %+v, %v", a, err)
	}
	missing := func(name string) string { return "header " + name + " is missing" }
	const stale, badTime = "is 31 s away from now", "is not a Unix time"
	const short, notHex, mismatch = "signature has 63 characters", "signature is not hex", "signature does not match"
	every := []string{missing(HeaderMatchID), missing(HeaderTurn), missing(HeaderTimestamp), missing(HeaderBotID), missing(HeaderSignature),
		stale, badTime, short, notHex, mismatch}
	type breakage func(http.Header)
	del := func(name string) breakage { return func(h http.Header) { h.Del(name) } }
	set := func(name, v string) breakage { return func(h http.Header) { h.Set(name, v) } }
	tests := []struct {
		rule   string
		breaks []breakage
		want   string
	}{
		{"timestamp stale and signature short", []breakage{set(HeaderTimestamp, "1767225569"), set(HeaderSignature, strings.Repeat("a", 63))}, stale},
		{"timestamp not a number and signature not hex", []breakage{set(HeaderTimestamp, "noon"), set(HeaderSignature, strings.Repeat("z", 64))}, badTime},
		{"timestamp stale and signature of another body", []breakage{set(HeaderTimestamp, "1767225631"), set(HeaderSignature, SignRequest("k", "m1", "3", "1767225631", []byte(`[]`)))}, stale},
		{"signature missing and timestamp stale", []breakage{del(HeaderSignature), set(HeaderTimestamp, "1767225569")}, missing(HeaderSignature)},
		{"bot id missing and timestamp garbage", []breakage{del(HeaderBotID), set(HeaderTimestamp, "x")}, missing(HeaderBotID)},
		{"turn missing, signature short", []breakage{del(HeaderTurn), set(HeaderSignature, "ab")}, missing(HeaderTurn)},
		{"signature short and not hex", []breakage{set(HeaderSignature, strings.Repeat("z", 63))}, short},
		{"every check fails", []breakage{del(HeaderMatchID), del(HeaderTurn), del(HeaderBotID), set(HeaderTimestamp, "0"), set(HeaderSignature, "z")}, missing(HeaderMatchID)},
	}
	// Every pair of missing headers names the first of the pair.
	for i, first := range requiredHeaders {
		for _, later := range requiredHeaders[i+1:] {
			tests = append(tests, struct {
				rule   string
				breaks []breakage
				want   string
			}{"without " + first + " and " + later, []breakage{del(later), del(first)}, missing(first)})
		}
	}
	for _, tt := range tests {
		t.Run(tt.rule, func(t *testing.T) {
			h := full()
			for _, b := range tt.breaks {
				b(h)
			}
			_, err := VerifyRequest("k", h, body, now)
			if err == nil || !errors.Is(err, ErrAuth) {
				t.Fatalf("VerifyRequest = %v, want an ErrAuth", err)
			}
			for _, other := range every {
				if other != tt.want && !strings.Contains(tt.want, other) && strings.Contains(err.Error(), other) {
					t.Fatalf("error %q reports %q, a later check than %q", err, other, tt.want)
				}
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %q, want the first failing check: %q", err, tt.want)
			}
		})
	}
	if _, err := VerifyRequest("k", full(), []byte(`{} `), now); err == nil || !strings.Contains(err.Error(), mismatch) {
		t.Errorf("a body changed by one byte: %v, want %q", err, mismatch)
	}
}
