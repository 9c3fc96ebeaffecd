#!/usr/bin/env python3
"""Local stand-ins for the alert services watch posts to, each checking the shape its service
documents, for the CLI tests.

  alert-receivers.py --state DIR [--token T] [--routing-key K]

Serves plain HTTP on 127.0.0.1 and a free port, written to DIR/port once listening. Every request is
appended to DIR/requests.ndjson: {"path", "authorization", "body", "problems"} (the body parsed as JSON);
a request with problems is answered 400. Paths:
  /slack/<anything>                       a Slack incoming webhook (Block Kit): answers "ok"
  /webhook                                watch's documented webhook body
  /github/repos/<o>/<r>/statuses/<sha>    GitHub's commit statuses (Bearer --token): answers 201
  /pagerduty/v2/enqueue                   PagerDuty Events API v2 (--routing-key): answers 202
A path under /flaky/ answers 503 to its first request, then as above; under /refuse/, 400 always.
"""
import argparse
import datetime
import http.server
import json
import os
import re
import sys
import threading


def problems_slack(body):
    out = []
    if not isinstance(body.get("text"), str) or not body["text"]:
        out.append("text must be a non-empty string")
    blocks = body.get("blocks")
    if not isinstance(blocks, list) or not blocks or len(blocks) > 50:
        return out + ["blocks must be a list of 1 to 50 blocks"]
    for i, block in enumerate(blocks):
        kind = block.get("type")
        if kind == "header":
            text = block.get("text", {})
            if text.get("type") != "plain_text" or not 0 < len(text.get("text", "")) <= 150:
                out.append(f"blocks.{i}: a header's text is plain_text of at most 150 characters")
        elif kind == "section":
            text = block.get("text", {})
            if text.get("type") not in ("mrkdwn", "plain_text") or not 0 < len(text.get("text", "")) <= 3000:
                out.append(f"blocks.{i}: a section's text is mrkdwn or plain_text of at most 3000 characters")
        elif kind == "context":
            elements = block.get("elements")
            if not isinstance(elements, list) or not 0 < len(elements) <= 10:
                out.append(f"blocks.{i}: a context has 1 to 10 elements")
        else:
            out.append(f"blocks.{i}: unknown block type {kind!r}")
    return out


WEBHOOK_KEYS = {
    "version": int, "status": str, "key": str, "app": str, "summary": str, "metric": str, "statistic": str,
    "scope": str, "direction": str, "date": str, "before": str, "after": str, "change": (int, float),
    "changeInterval": list, "q": (int, float), "cause": str, "at": str,
}


def problems_webhook(body):
    out = [f"{k} must be {t}" for k, t in WEBHOOK_KEYS.items() if not isinstance(body.get(k), t)]
    if body.get("status") not in ("firing", "resolved"):
        out.append("status must be firing or resolved")
    for k in ("by", "appVersion", "link"):
        if k not in body:
            out.append(f"{k} must be present (null when it does not apply)")
    return out


def problems_github(body, authorization, token):
    out = []
    if authorization != f"Bearer {token}":
        out.append("Authorization must be the bearer token")
    if body.get("state") not in ("error", "failure", "pending", "success"):
        out.append("state must be error, failure, pending or success")
    if not isinstance(body.get("context"), str) or not body["context"]:
        out.append("context must be a non-empty string")
    if not isinstance(body.get("description"), str) or len(body["description"]) > 140:
        out.append("description must be a string of at most 140 characters")
    if "target_url" in body and not str(body["target_url"]).startswith(("http://", "https://")):
        out.append("target_url must be a URL")
    return out


def problems_pagerduty(body, routing_key):
    out = []
    if body.get("routing_key") != routing_key:
        out.append("routing_key must be the integration's key")
    action = body.get("event_action")
    if action not in ("trigger", "acknowledge", "resolve"):
        out.append("event_action must be trigger, acknowledge or resolve")
    key = body.get("dedup_key")
    if not isinstance(key, str) or not 0 < len(key) <= 255:
        out.append("dedup_key must be a string of 1 to 255 characters")
    if action == "trigger":
        p = body.get("payload")
        if not isinstance(p, dict):
            return out + ["a trigger has a payload"]
        if not isinstance(p.get("summary"), str) or not 0 < len(p["summary"]) <= 1024:
            out.append("payload.summary must be 1 to 1024 characters")
        if not isinstance(p.get("source"), str) or not p["source"]:
            out.append("payload.source is required")
        if p.get("severity") not in ("critical", "error", "warning", "info"):
            out.append("payload.severity must be critical, error, warning or info")
        try:
            datetime.datetime.fromisoformat(p.get("timestamp", "").replace("Z", "+00:00"))
        except ValueError:
            out.append("payload.timestamp must be ISO 8601")
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--state", required=True)
    parser.add_argument("--token", default="")
    parser.add_argument("--routing-key", default="")
    args = parser.parse_args()
    lock = threading.Lock()
    seen_flaky = set()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def do_POST(self):
            length = int(self.headers.get("Content-Length", "0"))
            raw = self.rfile.read(length)
            path = self.path
            problems = []
            try:
                body = json.loads(raw)
            except ValueError:
                body, problems = None, ["the body is not JSON"]
            if self.headers.get("Content-Type") != "application/json":
                problems.append("Content-Type must be application/json")
            flaky = path.startswith("/flaky/")
            refuse = path.startswith("/refuse/")
            inner = re.sub(r"^/(flaky|refuse)", "", path)
            status, answer = 404, b"not found"
            if isinstance(body, (dict, list)) or body is None:
                if inner.startswith("/slack/"):
                    problems += problems_slack(body or {})
                    status, answer = 200, b"ok"
                elif inner == "/webhook":
                    problems += problems_webhook(body or {})
                    status, answer = 200, b"{}"
                elif re.fullmatch(r"/github/repos/[^/]+/[^/]+/statuses/[0-9a-f]+", inner):
                    problems += problems_github(body or {}, self.headers.get("Authorization"), args.token)
                    status, answer = 201, b"{}"
                elif inner == "/pagerduty/v2/enqueue":
                    problems += problems_pagerduty(body or {}, args.routing_key)
                    key = (body or {}).get("dedup_key", "")
                    status = 202
                    answer = json.dumps({"status": "success", "message": "Event processed", "dedup_key": key}).encode()
            with lock:
                first_flaky = flaky and path not in seen_flaky
                seen_flaky.add(path)
                with open(os.path.join(args.state, "requests.ndjson"), "a") as f:
                    f.write(json.dumps({
                        "path": path, "authorization": self.headers.get("Authorization"), "body": body,
                        "problems": problems, "answered": 503 if first_flaky else 400 if refuse or problems else status,
                    }) + "\n")
            if first_flaky:
                status, answer = 503, b"try again"
            elif refuse:
                status, answer = 400, b"refused by the test"
            elif problems:
                status, answer = 400, "; ".join(problems).encode()
            self.send_response(status)
            self.send_header("Content-Length", str(len(answer)))
            self.end_headers()
            self.wfile.write(answer)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    port_file = os.path.join(args.state, "port")
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
