// Writes a small WARC file with warcio.js, for the cross-check of the Go
// reader: node write.mjs OUT [plain|gzip] [WARC/1.0|WARC/1.1]
import fs from "fs";
import warcio from "./load.mjs";

const { WARCRecord, WARCSerializer } = warcio;
const [out, mode, ver] = process.argv.slice(2);
const gzip = mode === "gzip";
const warcVersion = ver || "WARC/1.1";
const enc = (s) => new TextEncoder().encode(s);
async function* content(s) {
  yield enc(s);
}

const records = [
  WARCRecord.createWARCInfo({ filename: "check.warc", warcVersion }, { software: "warcio.js cross-check" }),
  WARCRecord.create(
    {
      url: "http://example.com/", date: "2000-01-01T00:00:00Z", type: "response", warcVersion,
      httpHeaders: { "Content-Type": "text/html; charset=utf-8", "X-Check": "one" },
    },
    content('<html><body><a href="/moved">moved page</a></body></html>\n'),
  ),
  WARCRecord.create(
    {
      url: "http://example.com/", date: "2000-01-01T00:00:00Z", type: "request", warcVersion,
      statusline: "GET / HTTP/1.1", httpHeaders: { Host: "example.com" },
    },
    content(""),
  ),
  WARCRecord.create(
    {
      url: "http://example.com/old", date: "2000-01-02T00:00:00Z", type: "response", warcVersion,
      statusline: "HTTP/1.1 301 Moved Permanently", httpHeaders: { Location: "http://example.com/" },
    },
    content(""),
  ),
  WARCRecord.create(
    {
      url: "http://example.com/notes.txt", date: "2000-01-03T00:00:00Z", type: "resource", warcVersion,
      warcHeaders: { "Content-Type": "text/plain" },
    },
    content("plain notes\r\n\r\nwith blank lines\n"),
  ),
  WARCRecord.create(
    {
      url: "http://example.com/", date: "2000-02-01T00:00:00Z", type: "revisit", warcVersion,
      refersToUrl: "http://example.com/", refersToDate: "2000-01-01T00:00:00Z",
      httpHeaders: { "Content-Type": "text/html; charset=utf-8" },
    },
    content(""),
  ),
];

const parts = [];
for (const r of records) parts.push(Buffer.from(await WARCSerializer.serialize(r, { gzip })));
fs.writeFileSync(out, Buffer.concat(parts));
