"""A local stand-in for App Store Connect's power and performance endpoints, for the fetch tests.

It makes a fresh P-256 API key (written as the .p8 file the client signs with) and a self-signed
certificate for 127.0.0.1 (written as the PEM the client trusts), listens with TLS on a free port of
127.0.0.1 (written to the port file once listening), verifies every request's token with PyJWT, an
implementation independent of the client's, and serves Apple's documented example responses:

  /v1/apps/{id}/perfPowerMetrics             429 (Retry-After: 0) once, then the app example;
                                             id 999: 401 always; id 500: 500 always
  /v1/builds/{id}/perfPowerMetrics           503 once, then the app example
  /v1/builds/{id}/diagnosticSignatures       the signature example, its next link on this server;
                                             ?cursor=2: a last page without one
  /v1/diagnosticSignatures/{id}/logs         the log example

Each request is logged as a JSON line: path, query, status, whether the token verified (and why
not), the token itself (so that a test can prove the client never prints it), the Accept header,
and the SHA-256 of the body served.
"""

import argparse
import datetime
import hashlib
import http.server
import json
import os
import signal
import ssl
import sys
import threading
import urllib.parse

import jwt
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID


def make_credentials(state, key_id):
    api_key = ec.generate_private_key(ec.SECP256R1())
    with open(os.path.join(state, f"AuthKey_{key_id}.p8"), "wb") as f:
        f.write(api_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    tls_key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.timezone.utc)
    import ipaddress
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(tls_key.public_key())
            .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), True)
            .sign(tls_key, hashes.SHA256()))
    cert_path = os.path.join(state, "ca.pem")
    with open(cert_path, "wb") as f:
        f.write(cert.public_bytes(serialization.Encoding.PEM))
    tls_key_path = os.path.join(state, "tls-key.pem")
    with open(tls_key_path, "wb") as f:
        f.write(tls_key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                      serialization.NoEncryption()))
    return api_key.public_key(), cert_path, tls_key_path


def main():
    # A parent may start us with SIGTERM blocked (the mask survives exec): unblock it, and stop on it.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    parser = argparse.ArgumentParser()
    parser.add_argument("--fixtures", required=True)
    parser.add_argument("--state", required=True)
    parser.add_argument("--key-id", required=True)
    parser.add_argument("--issuer", required=True)
    args = parser.parse_args()

    public_key, cert_path, tls_key_path = make_credentials(args.state, args.key_id)

    def fixture(name):
        with open(os.path.join(args.fixtures, name), "rb") as f:
            return f.read()

    app_metrics = fixture("apple-app-perfPowerMetrics.json")
    signatures = fixture("apple-build-diagnosticSignatures.json")
    logs = fixture("apple-diagnosticSignature-logs.json")
    seen = set()
    lock = threading.Lock()
    log = open(os.path.join(args.state, "requests.ndjson"), "a", buffering=1)

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *_):
            pass

        def answer(self, status, body, token, verified, reason, headers=()):
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            for name, value in headers:
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)
            url = urllib.parse.urlsplit(self.path)
            log.write(json.dumps({
                "path": url.path, "query": url.query, "status": status, "verified": verified, "reason": reason,
                "token": token, "accept": self.headers.get("Accept", ""),
                "sha256": hashlib.sha256(body).hexdigest()}) + "\n")

        def error(self, status, code, title, token, verified, reason, headers=()):
            body = json.dumps({"errors": [{"id": "test", "status": str(status), "code": code, "title": title,
                                           "detail": title}]}).encode()
            self.answer(status, body, token, verified, reason, headers)

        def do_GET(self):
            auth = self.headers.get("Authorization", "")
            token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
            try:
                header = jwt.get_unverified_header(token)
                if header.get("alg") != "ES256" or header.get("kid") != args.key_id or header.get("typ") != "JWT":
                    raise ValueError(f"bad header {header}")
                claims = jwt.decode(token, public_key, algorithms=["ES256"], audience="appstoreconnect-v1",
                                    issuer=args.issuer, options={"require": ["exp", "iat", "iss", "aud"]})
                if not 0 < claims["exp"] - claims["iat"] <= 20 * 60:
                    raise ValueError("a token must live 20 minutes at most")
                if "application/vnd.apple.xcode-metrics+json" not in self.headers.get("Accept", ""):
                    raise ValueError("no xcode-metrics Accept header")
            except Exception as e:  # noqa: BLE001 - every failure is a refusal
                return self.error(401, "NOT_AUTHORIZED", "Authentication credentials are missing or invalid.", token,
                                  False, str(e))
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            parts = url.path.strip("/").split("/")
            base = f"https://127.0.0.1:{self.server.server_address[1]}"
            with lock:
                first = url.path not in seen
                seen.add(url.path)
            if len(parts) == 4 and parts[:2] == ["v1", "apps"] and parts[3] == "perfPowerMetrics":
                if parts[2] == "999":
                    return self.error(401, "NOT_AUTHORIZED", "The API key in use does not allow this request", token,
                                      True, "refused on purpose")
                if parts[2] == "500":
                    return self.error(500, "UNEXPECTED_ERROR", "An unexpected error occurred.", token, True, "")
                if first:
                    return self.error(429, "RATE_LIMIT_EXCEEDED", "The request rate limit has been reached.", token,
                                      True, "", headers=[("Retry-After", "0")])
                return self.answer(200, app_metrics, token, True, "")
            if len(parts) == 4 and parts[:2] == ["v1", "builds"] and parts[3] == "perfPowerMetrics":
                if first:
                    return self.error(503, "SERVICE_UNAVAILABLE", "Try again later.", token, True, "")
                return self.answer(200, app_metrics, token, True, "")
            if len(parts) == 4 and parts[:2] == ["v1", "builds"] and parts[3] == "diagnosticSignatures":
                page = json.loads(signatures)
                if query.get("cursor") == ["2"]:
                    page["data"] = page["data"][1:]
                    page["links"] = {"self": base + self.path}
                else:
                    page["links"] = {"self": base + self.path, "next": f"{base}{url.path}?cursor=2&limit=2"}
                return self.answer(200, json.dumps(page, indent=2).encode(), token, True, "")
            if len(parts) == 4 and parts[:2] == ["v1", "diagnosticSignatures"] and parts[3] == "logs":
                if "limit" not in query:
                    return self.error(400, "PARAMETER_ERROR.REQUIRED", "limit is missing", token, True, "")
                return self.answer(200, logs, token, True, "")
            return self.error(404, "NOT_FOUND", "The specified resource does not exist", token, True, "")

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_path, tls_key_path)
    server.socket = context.wrap_socket(server.socket, server_side=True)
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
