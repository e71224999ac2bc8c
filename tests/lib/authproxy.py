#!/usr/bin/env python3
"""A reverse proxy that demands credentials in front of a Prometheus, for the metrics tests.

    authproxy.py --upstream http://127.0.0.1:9090 --port-file F --log F
                 (--bearer TOKEN | --basic USER:PASSWORD)

Answers 401 without the right Authorization header (as Prometheus behind an oauth proxy or
with web.config basic auth does); otherwise forwards the request (method, body, content type)
and returns the upstream answer.  Logs one JSON line per request: method, path, content type,
whether it was authorized.  Never logs the credentials.
"""
import argparse
import base64
import http.server
import json
import socketserver
import sys
import urllib.error
import urllib.request


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--upstream', required=True)
    ap.add_argument('--port-file', required=True)
    ap.add_argument('--log', required=True)
    ap.add_argument('--bearer')
    ap.add_argument('--basic')
    args = ap.parse_args()
    if args.bearer:
        want = 'Bearer ' + args.bearer
    elif args.basic:
        want = 'Basic ' + base64.b64encode(args.basic.encode()).decode()
    else:
        sys.exit('authproxy: --bearer or --basic')

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def handle_any(self):
            n = int(self.headers.get('Content-Length') or 0)
            body = self.rfile.read(n) if n else None
            ok = self.headers.get('Authorization') == want
            with open(args.log, 'a') as f:
                f.write(json.dumps({'method': self.command, 'path': self.path,
                                    'contentType': self.headers.get('Content-Type'),
                                    'authorized': ok}) + '\n')
            if not ok:
                data = b'Unauthorized\n'
                self.send_response(401)
                self.send_header('Content-Type', 'text/plain')
                self.send_header('Content-Length', str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return
            req = urllib.request.Request(args.upstream + self.path, data=body, method=self.command)
            if self.headers.get('Content-Type'):
                req.add_header('Content-Type', self.headers['Content-Type'])
            try:
                with urllib.request.urlopen(req, timeout=30) as r:
                    code, data, ctype = r.status, r.read(), r.headers.get('Content-Type')
            except urllib.error.HTTPError as e:
                code, data, ctype = e.code, e.read(), e.headers.get('Content-Type')
            self.send_response(code)
            self.send_header('Content-Type', ctype or 'application/json')
            self.send_header('Content-Length', str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        do_GET = do_POST = handle_any

    class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
        daemon_threads = True

    srv = Server(('127.0.0.1', 0), Handler)
    with open(args.port_file + '.tmp', 'w') as f:
        f.write(str(srv.server_address[1]))
    import os
    os.replace(args.port_file + '.tmp', args.port_file)
    srv.serve_forever()


if __name__ == '__main__':
    main()
