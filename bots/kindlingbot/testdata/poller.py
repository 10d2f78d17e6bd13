#!/usr/bin/env python3
"""A Kindling agent with the seed's loop and no long poll: it polls
GET /api/matches/{code} every POLL seconds (env POLL, default 1) and puts
all its sparks on the most valuable beacon."""
import json, os, sys, time, urllib.request

base, code = os.environ["KINDLING_URL"], sys.argv[-1]
poll = float(os.environ.get("POLL", "1"))
token = None

def call(method, path, body=None):
    req = urllib.request.Request(base + path, method=method,
                                 data=None if body is None else json.dumps(body).encode())
    req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())

token = call("POST", "/api/matches/%s/join" % code, {"name": "poller"})["token"]
while True:
    st = call("GET", "/api/matches/%s" % code)
    if st["phase"] == "finished":
        break
    if st["you"]["canMove"]:
        best = max(st["beacons"], key=lambda b: b["value"])["id"]
        bids = [0] * 5
        bids[best] = st["you"]["sparks"]
        call("POST", "/api/matches/%s/bids" % code, {"bids": bids, "turn": st["turn"]})
    time.sleep(poll)
