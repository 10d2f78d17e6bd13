#!/usr/bin/env python3
"""A small Kindling agent for crucible, in plain Python (stdlib only).

It plays one seat of one match over the seed's JSON API, as the seed's
sample bots do: KINDLING_URL names the server, the match code is the last
argument (the agent joins that lobby), and the loop is

    GET  /api/matches/{code}             -> state
    if state.phase == "finished": stop
    if state.you.canMove: POST /api/matches/{code}/bids {"bids": [...], "turn": state.turn}

Between polls it asks GET /api/matches/{code}?wait=S&version=V, which the
lab's server answers as soon as the match's version differs from V (or
after S seconds): a turn then costs no sleeping. A server that ignores the
two parameters answers at once with the same version; the agent notices,
says so on stderr, and from then on sleeps KINDLING_POLL_SECONDS (default 1,
the seed's etiquette) whenever nothing changed.

Two parameters, read from CRUCIBLE_PARAMS (a JSON object) or from
CRUCIBLE_PARAM_FOCUS and CRUCIBLE_PARAM_SAVE, else their defaults:

  focus   how many beacons it bids on each turn (the most valuable for the
          sparks they need, given everyone's embers)
  save    share of its sparks it keeps for later turns (spent in full on
          the last turn; sparks above 12 are lost, so saving much is waste)
"""

import json
import os
import sys
import time
import urllib.error
import urllib.request

DEFAULTS = {"focus": 2, "save": 0.2}
WAIT = 25  # seconds a long poll may last (the server caps it at 30)


def load_params():
    params = dict(DEFAULTS)
    raw = os.environ.get("CRUCIBLE_PARAMS")
    if raw:
        params.update({k: float(v) for k, v in json.loads(raw).items() if k in DEFAULTS})
    else:
        for name in DEFAULTS:
            v = os.environ.get("CRUCIBLE_PARAM_" + name.upper())
            if v is not None:
                params[name] = float(v)
    params["focus"] = min(5, max(1, int(round(params["focus"]))))
    params["save"] = min(1.0, max(0.0, params["save"]))
    return params


class API:
    def __init__(self, base):
        self.base = base.rstrip("/")
        self.token = None

    def call(self, method, path, body=None, timeout=WAIT + 10):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if self.token:
            req.add_header("Authorization", "Bearer " + self.token)
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, json.loads(resp.read() or b"null")
        except urllib.error.HTTPError as e:
            try:
                return e.code, json.loads(e.read() or b"null")
            except ValueError:
                return e.code, None


def decide(state, params):
    """The bids: the `focus` best beacons by value per spark needed."""
    you = state["you"]
    me = you["seat"]
    sparks = you["sparks"]
    last = state["turn"] >= state["turns"]
    budget = sparks if last else int(round(sparks * (1 - params["save"])))
    mine = you["embers"]
    others = [p["embers"] for p in state["players"] if p["seat"] != me]
    options = []
    for b in state["beacons"]:
        i = b["id"]
        rival = max([e[i] for e in others] or [0])
        need = max(0, rival + 1 - mine[i])  # sparks that beat every rival's embers
        options.append((b["value"] / max(1, need), b["value"], i, need))
    options.sort(key=lambda o: (-o[0], -o[1], o[2]))
    bids = [0] * 5
    left = budget
    chosen = options[:params["focus"]]
    for _, _, i, need in chosen:  # first what each chosen beacon needs
        give = min(need, left)
        bids[i] += give
        left -= give
    k = 0
    while left > 0 and chosen:  # then the rest, one at a time, best first
        bids[chosen[k % len(chosen)][2]] += 1
        left -= 1
        k += 1
    return bids


def main():
    if len(sys.argv) < 2:
        print("usage: agent.py MATCH_CODE (with KINDLING_URL set)", file=sys.stderr)
        sys.exit(2)
    code = sys.argv[-1]
    base = os.environ.get("KINDLING_URL", "https://kindling.adamhaleworks.workers.dev")
    poll = float(os.environ.get("KINDLING_POLL_SECONDS", "1"))
    params = load_params()
    api = API(base)
    status, seated = api.call("POST", "/api/matches/%s/join" % code, {"name": os.environ.get("KINDLING_NAME", "kindling-python")})
    if status != 200:
        print("joining %s at %s: %s %s" % (code, base, status, seated), file=sys.stderr)
        sys.exit(1)
    api.token = seated["token"]
    print("seat %d of %s with %s" % (seated["seat"], code, json.dumps(params)), file=sys.stderr, flush=True)
    version = None
    long_poll = None  # unknown until the server shows it
    errors = 0
    while True:
        path = "/api/matches/%s" % code
        if version is not None:
            path += "?wait=%d&version=%d" % (WAIT, version)
        t0 = time.monotonic()
        status, state = api.call("GET", path)
        took = time.monotonic() - t0
        if status != 200 or not isinstance(state, dict):
            errors += 1
            if errors >= 20:
                print("giving up after %d errors: %s %s" % (errors, status, state), file=sys.stderr)
                sys.exit(1)
            time.sleep(min(30, poll * 2 ** errors))
            continue
        errors = 0
        if state["phase"] == "finished":
            print("finished: winners %s, scores %s" % (state.get("winners"), [p["score"] for p in state["players"]]), file=sys.stderr)
            return
        unchanged = version is not None and state["version"] == version
        if unchanged and long_poll is None:
            long_poll = took >= WAIT / 2
            print("the server %s long polling" % ("answers" if long_poll else "ignores"), file=sys.stderr, flush=True)
        version = state["version"]
        you = state.get("you") or {}
        if you.get("canMove") and not you.get("lockedIn"):
            bids = decide(state, params)
            status, body = api.call("POST", "/api/matches/%s/bids" % code, {"bids": bids, "turn": state["turn"]})
            if status not in (200, 409):
                print("bid %s on turn %d: %s %s" % (bids, state["turn"], status, body), file=sys.stderr)
                time.sleep(poll)
            continue
        if unchanged and not long_poll:
            time.sleep(poll)


if __name__ == "__main__":
    main()
