#!/usr/bin/env python3
"""A small AI Code Battle bot for crucible, in plain Python (stdlib only).

It is an HTTP server as the platform wants one: GET /health answers 200,
POST /turn verifies the engine's HMAC signature, computes moves and signs
its reply (the seed's protocol, ../../../shared/specs/acb.md):

  request:  HMAC-SHA256(secret, "{match_id}.{turn}.{timestamp}.{sha256_hex(body)}")
  reply:    HMAC-SHA256(secret, "{match_id}.{turn}.{sha256_hex(reply_body)}")

The port and secret come from PORT and SHARED_SECRET, the seed's names
(crucible also sets BOT_PORT and BOT_SECRET, which the platform's own bots
read: see ../acb-go).

Two parameters, read from CRUCIBLE_PARAMS (a JSON object) or from
CRUCIBLE_PARAM_GATHER and CRUCIBLE_PARAM_WAVE, else their defaults:

  gather  share of the units sent to collect energy, the rest attack.
          Energy is the only way to get units (a core spawns one per
          spawn_cost energy) and score comes only from kills and razed cores,
          so this share has a best value inside (0, 1): a bot that collects
          too little never grows and is overrun, one that collects too much
          never scores or razes a core and loses on score to an opponent
          that attacks. Measured against the built-in guardian (wave 3, 60
          games a point, 500 turns), its share of wins is 0.15 at 0.3, 0.45
          at 0.45, 0.60 at 0.5, 0.62 at 0.55, 0.58 at 0.6 to 0.7, 0.38 at
          0.8 and 0.28 at 0.9 (go test -run '^$' -bench GatherSweep
          -benchtime 1x ./bots/acbbot/): the best value is about 0.6. The default,
          0.9, is a poor one on purpose, for tuning.
  wave    attackers wait beside their cores until this many are ready, then
          advance together (the focus-fire combat of the rules favours the
          side with more units in reach).
"""

import hashlib
import hmac
import json
import math
import os
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

DEFAULTS = {"gather": 0.9, "wave": 3}
DIRS = (("N", -1, 0), ("E", 0, 1), ("S", 1, 0), ("W", 0, -1))
HEADERS = ("X-ACB-Match-Id", "X-ACB-Turn", "X-ACB-Timestamp", "X-ACB-Bot-Id", "X-ACB-Signature")
MAX_SKEW = 30
MAX_BODY = 4 << 20


def load_params():
    """The parameters: CRUCIBLE_PARAMS, else CRUCIBLE_PARAM_<NAME>, else defaults."""
    params = dict(DEFAULTS)
    raw = os.environ.get("CRUCIBLE_PARAMS")
    if raw:
        params.update({k: float(v) for k, v in json.loads(raw).items() if k in DEFAULTS})
    else:
        for name in DEFAULTS:
            v = os.environ.get("CRUCIBLE_PARAM_" + name.upper())
            if v is not None:
                params[name] = float(v)
    params["gather"] = min(1.0, max(0.0, params["gather"]))
    params["wave"] = max(1, int(math.floor(params["wave"] + 0.5)))
    return params


def sign(secret, payload):
    return hmac.new(secret, payload.encode(), hashlib.sha256).hexdigest()


FAR = 1 << 30
_NEIGHBORS = {}


def neighbors(rows, cols):
    """For each tile index r*cols+c, the indices of its N, E, S, W tiles on the torus."""
    table = _NEIGHBORS.get((rows, cols))
    if table is None:
        table = [tuple(((r + dr) % rows) * cols + (c + dc) % cols for _, dr, dc in DIRS)
                 for r in range(rows) for c in range(cols)]
        _NEIGHBORS[(rows, cols)] = table
    return table


def bfs(sources, blocked, nbr):
    """Steps from the nearest source to every tile (FAR where unreached); unseen tiles count as open."""
    dist = [FAR] * len(nbr)
    queue = []
    for i in sources:
        if not blocked[i] and dist[i] == FAR:
            dist[i] = 0
            queue.append(i)
    for i in queue:  # the list grows as it is read: a FIFO queue
        d = dist[i] + 1
        for j in nbr[i]:
            if dist[j] == FAR and not blocked[j]:
                dist[j] = d
                queue.append(j)
    return dist


class Memory:
    """What one seat of one match remembers between turns."""

    def __init__(self):
        self.blocked = None  # bytearray over the grid: 1 for a wall seen
        self.cores = {}  # (row, col) -> (owner, active)
        self.last = time.monotonic()


class Bot:
    def __init__(self, params):
        self.gather = params["gather"]
        self.wave = params["wave"]
        self.lock = threading.Lock()
        self.matches = {}

    def memory(self, match_id, seat):
        with self.lock:
            now = time.monotonic()
            for k in [k for k, m in self.matches.items() if now - m.last > 600]:
                del self.matches[k]
            m = self.matches.setdefault((match_id, seat), Memory())
            m.last = now
            return m

    def turn(self, state):
        cfg = state["config"]
        rows, cols = cfg["rows"], cfg["cols"]
        me = state["you"]["id"]
        mem = self.memory(state["match_id"], me)
        nbr = neighbors(rows, cols)
        if mem.blocked is None or len(mem.blocked) != rows * cols:
            mem.blocked = bytearray(rows * cols)
        blocked = mem.blocked
        for w in state.get("walls") or []:
            blocked[w["row"] * cols + w["col"]] = 1
        for c in state.get("cores") or []:
            p = c["position"]
            mem.cores[(p["row"], p["col"])] = (c["owner"], c["active"])
        mine, enemies = [], []
        for b in state.get("bots") or []:
            p = (b["position"]["row"], b["position"]["col"])
            (mine if b["owner"] == me else enemies).append(p)
        if not mine:
            return []

        def idx(p):
            return p[0] * cols + p[1]

        home = [p for p, (o, a) in mem.cores.items() if o == me and a]
        to_energy = bfs([e["row"] * cols + e["col"] for e in state.get("energy") or []], blocked, nbr)
        mine.sort(key=lambda p: (to_energy[idx(p)], p))
        n_gather = int(math.floor(self.gather * len(mine) + 0.5))  # half up, as Go's math.Round
        gatherers, attackers = mine[:n_gather], mine[n_gather:]

        targets = [p for p, (o, a) in mem.cores.items() if o != me and a]
        if not targets:
            targets = enemies
        if not targets:  # explore: the far side of the torus from home
            targets = [((r + rows // 2) % rows, (c + cols // 2) % cols) for r, c in home or mine[:1]]
        threatened = bool(home) and any(
            min(_d2(e, h, rows, cols) for h in home) <= cfg.get("vision_radius2", 49) for e in enemies)
        advance = len(attackers) >= self.wave or threatened
        to_target = bfs([idx(p) for p in targets], blocked, nbr) if attackers and advance else None

        home_set = set(home)
        occupied = set(idx(p) for p in mine)  # own units that have not moved yet may stay
        taken = set()  # tiles own units end the turn on
        moves = []
        for group, field in ((gatherers, to_energy), (attackers, to_target)):
            for p in group:
                i = idx(p)
                occupied.discard(i)
                # Staying on an own core keeps it from spawning: step off.
                stay = FAR + 1 if p in home_set else (field[i] if field else FAR)
                best = None
                for (name, _, _), j in zip(DIRS, nbr[i]):
                    if blocked[j] or j in taken or j in occupied:
                        continue  # two own units on one tile both die
                    d = field[j] if field else FAR
                    if best is None or d < best[0]:
                        best = (d, name, j)
                if best is not None and best[0] < stay:
                    taken.add(best[2])
                    moves.append({"position": {"row": p[0], "col": p[1]}, "direction": best[1]})
                else:
                    taken.add(i)
        return moves


def _d2(a, b, rows, cols):
    dr = abs(a[0] - b[0])
    dc = abs(a[1] - b[1])
    dr = min(dr, rows - dr)
    dc = min(dc, cols - dc)
    return dr * dr + dc * dc


def make_handler(bot, secret):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"  # keep-alive: one connection for a whole match
        # Headers and body leave in one write, without Nagle's delay: sent
        # apart, the small second packet waits for the engine's delayed ACK.
        wbufsize = -1
        disable_nagle_algorithm = True

        def log_message(self, fmt, *args):
            pass

        def reply(self, status, body, headers=()):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for k, v in headers:
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(body)

        def error(self, status, msg):
            self.reply(status, json.dumps({"error": msg}).encode())

        def do_GET(self):
            if self.path == "/health":
                self.reply(200, b'{"status":"ok"}')
            else:
                self.error(404, "this bot serves GET /health and POST /turn")

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            if self.path != "/turn":
                self.rfile.read(length)
                return self.error(404, "this bot serves GET /health and POST /turn")
            if length > MAX_BODY:
                self.close_connection = True
                return self.error(400, "body too large")
            body = self.rfile.read(length)
            h = {k: self.headers.get(k) for k in HEADERS}
            missing = [k for k in HEADERS if not h[k]]
            if missing:
                return self.error(401, "header %s is missing" % missing[0])
            try:
                ts = int(h["X-ACB-Timestamp"])
            except ValueError:
                return self.error(401, "bad timestamp")
            if abs(time.time() - ts) > MAX_SKEW:
                return self.error(401, "timestamp outside the 30 s window")
            sig = h["X-ACB-Signature"]
            try:
                got = bytes.fromhex(sig)
            except ValueError:
                return self.error(401, "signature is not hex")
            payload = "%s.%s.%s.%s" % (h["X-ACB-Match-Id"], h["X-ACB-Turn"], h["X-ACB-Timestamp"], hashlib.sha256(body).hexdigest())
            want = hmac.new(secret, payload.encode(), hashlib.sha256).digest()
            if len(sig) != 64 or not hmac.compare_digest(got, want):
                return self.error(401, "signature does not match")
            try:
                state = json.loads(body)
                if state["match_id"] != h["X-ACB-Match-Id"] or str(state["turn"]) != h["X-ACB-Turn"]:
                    return self.error(400, "match_id or turn differ from the headers")
            except (ValueError, KeyError, TypeError):
                return self.error(400, "body is not a game state")
            moves = bot.turn(state)
            out = json.dumps({"moves": moves}, separators=(",", ":")).encode()
            resp_sig = sign(secret, "%s.%s.%s" % (h["X-ACB-Match-Id"], h["X-ACB-Turn"], hashlib.sha256(out).hexdigest()))
            self.reply(200, out, [("X-ACB-Signature", resp_sig)])

    return Handler


def main():
    secret = os.environ.get("SHARED_SECRET")
    if not secret:
        print("SHARED_SECRET is not set: a bot without a secret would accept anyone's turns", file=sys.stderr)
        sys.exit(1)
    port = int(os.environ.get("PORT") or 8080)
    params = load_params()
    server = ThreadingHTTPServer((os.environ.get("HOST", "0.0.0.0"), port), make_handler(Bot(params), secret.encode()))
    server.daemon_threads = True
    print("acb-python listening on port %d with %s" % (port, json.dumps(params)), file=sys.stderr, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
