/**
 * A loopback HTTP server standing in for the IOF's repository and for the ways a download goes wrong: the IOF's files
 * (read from ../shared/iof, never copied), a truncated file, an HTML error page sent with 200, a 404, a redirect loop,
 * a body that stalls, a connection cut short, a server error, and a file far too large.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { iofGrammarPath } from './files.js';

export interface SchemaServer {
  /** `http://127.0.0.1:PORT`. */
  url: string;
  /** Requests per path, so that a test can tell what was asked (a retry, a redirect followed). */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export const XSD = readFileSync(iofGrammarPath('IOF.xsd'));
export const DTD = readFileSync(iofGrammarPath('IOFdata-2.0.3.dtd'));

const HTML_ERROR_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Rate limited</title></head><body><h1>Please wait</h1><p>Too many requests.</p></body></html>\n';

function send(res: ServerResponse, status: number, type: string, body: Uint8Array | string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  res.writeHead(status, { 'content-type': type, 'content-length': String(bytes.byteLength) });
  res.end(bytes);
}

export async function startSchemaServer(): Promise<SchemaServer> {
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    switch (path) {
      case '/IOF.xsd':
        return send(res, 200, 'text/plain; charset=utf-8', XSD);
      case '/IOFdata.dtd':
        return send(res, 200, 'text/plain; charset=iso-8859-1', DTD);
      case '/moved/IOF.xsd':
        res.writeHead(301, { location: '/IOF.xsd' }).end();
        return;
      case '/truncated.xsd':
        // Whole as HTTP goes (the length says what is sent), half as XML goes.
        return send(res, 200, 'application/xml', XSD.subarray(0, XSD.byteLength >> 1));
      case '/truncated.dtd':
        return send(res, 200, 'application/xml-dtd', DTD.subarray(0, (DTD.byteLength >> 1) + 7));
      case '/cut.xsd':
        // The length promises the whole file; the connection drops half way.
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(XSD.byteLength) });
        res.write(XSD.subarray(0, XSD.byteLength >> 1), () => res.socket?.destroy());
        return;
      case '/error-page.xsd':
        return send(res, 200, 'text/html; charset=utf-8', HTML_ERROR_PAGE);
      case '/not-here.xsd':
        return send(res, 404, 'text/html', '<html><body>404: Not Found</body></html>');
      case '/loop-a':
        res.writeHead(302, { location: '/loop-b' }).end();
        return;
      case '/loop-b':
        res.writeHead(302, { location: '/loop-a' }).end();
        return;
      case '/stall.xsd':
        // Headers and the first part, then nothing: the connection stays open until the server closes.
        res.writeHead(200, { 'content-type': 'application/xml', 'content-length': String(XSD.byteLength) });
        res.write(XSD.subarray(0, 4096));
        return;
      case '/server-error.xsd':
        return send(res, 503, 'text/plain', 'busy');
      case '/huge.xsd':
        res.writeHead(200, { 'content-type': 'application/xml' });
        res.end(Buffer.alloc(17 * 1024 * 1024, 0x20));
        return;
      case '/not-iof.xsd':
        return send(
          res,
          200,
          'application/xml',
          '<?xml version="1.0"?>\n<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:other" version="1.0"/>\n',
        );
      default:
        return send(res, 404, 'text/plain', 'not found');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
